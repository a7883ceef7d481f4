/*
 * Runtime client (rtc.h): the rank's side of the control connection to its
 * daemon. See docs/runtime.md for the protocol and the singleton case.
 *
 * Threading: one mutex serialises use of the socket. rtc_next_event() never
 * blocks on it (trylock) and, on its fast path, touches only the shared
 * counter ctl_pending of the rank's shm slot: no system call unless the
 * daemon has written something since the last look.
 */
#include "rtc.h"
#include "proto.h"
#include "../transport/shm/shm_seg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    char name[64];
    int has_value;
    long value;
    int fired;
} rtc_fp_t;

typedef struct skv {
    struct skv *next;
    char *key;
    void *val;
    size_t len;
} rtc_skv_t;

static struct {
    int inited, singleton, finalized;
    int fin_done;         /* PR_FINALIZE_DONE arrived (rtc_finalize_test) */
    char secret[129];        /* the job's secret (HELLO_REPLY), "" if none */
    int fd;
    int rank, size;
    uint32_t generation;
    pthread_mutex_t mu;
    shmseg_slot_t *slot;
    _Atomic uint32_t last_seen;
    proto_conn_t conn;       /* rx buffer (tx is direct) */
    /* events waiting for rtc_next_event, FIFO ring */
    rtc_event_t *q;
    int qhead, qlen, qcap;
    _Atomic int qcount;
    /* the reply a blocking call waits for */
    uint32_t want;
    proto_buf_t reply;
    int got;
    rtc_fp_t *fps;
    int nfps;
    rtc_skv_t *skv;          /* singleton key-value store */
} S = {.fd = -1, .mu = PTHREAD_MUTEX_INITIALIZER};

/* ------------------------------------------------------------- helpers */

static int env_int(const char *name, long lo, long hi, long *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return -ENOENT;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -EINVAL;
    *out = x;
    return 0;
}

static const char *env_dup(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

/* Send one whole message (one send call for small ones). Caller holds mu
 * or accepts interleaving risk (abort). */
static int rtc_send(uint32_t type, const proto_buf_t *payload)
{
    if (payload && payload->err)
        return payload->err;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_frame(&b, type, payload ? payload->data : NULL,
                payload ? payload->len : 0);
    int rc = b.err;
    size_t off = 0;
    while (!rc && off < b.len) {
        ssize_t n = send(S.fd, b.data + off, b.len - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {.fd = S.fd, .events = POLLOUT};
            poll(&pf, 1, -1);
        } else {
            rc = -EPIPE;
        }
    }
    proto_buf_free(&b);
    return rc;
}

static int q_push(const rtc_event_t *ev)
{
    if (S.qlen == S.qcap) {
        int n = S.qcap ? S.qcap * 2 : 16;
        rtc_event_t *q = malloc((size_t)n * sizeof *q);
        if (!q)
            return -ENOMEM;
        for (int i = 0; i < S.qlen; i++)
            q[i] = S.q[(S.qhead + i) % S.qcap];
        free(S.q);
        S.q = q;
        S.qcap = n;
        S.qhead = 0;
    }
    S.q[(S.qhead + S.qlen) % S.qcap] = *ev;
    S.qlen++;
    atomic_store(&S.qcount, S.qlen);
    return 0;
}

static int q_pop(rtc_event_t *ev)
{
    if (S.qlen == 0)
        return 0;
    *ev = S.q[S.qhead];
    S.qhead = (S.qhead + 1) % S.qcap;
    S.qlen--;
    atomic_store(&S.qcount, S.qlen);
    return 1;
}

static int parse_failure(proto_rd_t *r, rtc_event_t *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = RTC_EV_FAILURE;
    ev->rank = proto_get_i32(r);
    ev->incarnation = proto_get_u32(r);
    ev->pid = proto_get_i32(r);
    ev->signal = proto_get_i32(r);
    ev->exit_code = proto_get_i32(r);
    proto_get_str(r, ev->host, sizeof ev->host);
    return r->err;
}

static int parse_recovered(proto_rd_t *r, rtc_event_t *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = RTC_EV_RECOVERED;
    ev->rank = -1;
    uint32_t gen = proto_get_u32(r);
    int size = proto_get_i32(r);
    int nf = proto_get_i32(r);
    if (r->err || size <= 0 || size > (1 << 24) || nf < 0 || nf > size)
        return -EPROTO;
    size_t bytes = sizeof(rtc_recovery_t) + sizeof(int) * (size_t)nf +
                   (4 * sizeof(int) + sizeof(uint32_t)) * (size_t)size;
    rtc_recovery_t *rec = malloc(bytes);
    if (!rec)
        return -ENOMEM;
    rec->generation = gen;
    rec->size = size;
    rec->nfailed = nf;
    rec->failed = (int *)(rec + 1);
    rec->alive = rec->failed + nf;
    rec->pid = rec->alive + size;
    rec->slot = rec->pid + size;
    rec->host = rec->slot + size;
    rec->incarnation = (uint32_t *)(rec->host + size);
    for (int i = 0; i < nf; i++)
        rec->failed[i] = proto_get_i32(r);
    for (int i = 0; i < size; i++) {
        rec->alive[i] = proto_get_i32(r);
        rec->pid[i] = proto_get_i32(r);
        rec->slot[i] = proto_get_i32(r);
        rec->incarnation[i] = proto_get_u32(r);
    }
    for (int i = 0; i < size; i++)
        rec->host[i] = proto_get_i32(r);
    if (r->err) {
        free(rec);
        return -EPROTO;
    }
    ev->data = rec;
    S.generation = gen;
    return 0;
}

/* Dispatch one received message: events are queued, the awaited reply is
 * kept, anything else is dropped. */
static void rtc_dispatch(uint32_t type, const void *data, uint32_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    rtc_event_t ev;
    switch (type) {
    case PR_EV_FAILURE:
        if (parse_failure(&r, &ev) == 0)
            q_push(&ev);
        break;
    case PR_EV_RECOVERED:
        if (parse_recovered(&r, &ev) == 0 && q_push(&ev) != 0)
            free(ev.data);
        break;
    case PR_EV_ROUND:
    case PR_EV_REFUSED:
        memset(&ev, 0, sizeof ev);
        ev.kind = type == PR_EV_ROUND ? RTC_EV_ROUND : RTC_EV_REFUSED;
        ev.rank = -1;
        ev.generation = proto_get_u32(&r);
        if (!r.err)
            q_push(&ev);
        break;
    case PR_FINALIZE_DONE:
        S.fin_done = 1; /* whoever pumps: another call may be waiting meanwhile */
        /* fall through */
    default:
        if (type == S.want && !S.got) {
            proto_buf_reset(&S.reply);
            proto_put_raw(&S.reply, data, len);
            S.got = 1;
        }
        break;
    }
}

/* Read what is on the socket now (non-blocking) and dispatch it.
 * 0, or -EPIPE when the daemon is gone. */
static int rtc_pump(void)
{
    long n = proto_conn_fill(&S.conn);
    uint32_t type, len;
    const void *data;
    int rc;
    while ((rc = proto_conn_next(&S.conn, &type, &data, &len)) == 1)
        rtc_dispatch(type, data, len);
    if (rc < 0)
        return rc;
    return n < 0 ? (int)n : 0;
}

/* Send a request and wait for the reply of type `want` (in S.reply).
 * Caller holds mu. */
static int rtc_call(uint32_t type, const proto_buf_t *payload, uint32_t want)
{
    int before = S.qlen;
    S.want = want;
    S.got = 0;
    int rc = rtc_send(type, payload);
    while (!rc && !S.got) {
        rc = rtc_pump();
        if (rc || S.got)
            break;
        struct pollfd pf = {.fd = S.fd, .events = POLLIN};
        if (poll(&pf, 1, -1) < 0 && errno != EINTR)
            rc = -errno;
    }
    S.want = 0;
    /* Events read meanwhile: make sure a sleeping progress thread looks. */
    if (S.qlen > before && S.slot)
        shmseg_wake(S.slot);
    return rc ? rc : 0;
}

static void parse_fault_points(const char *spec, int myrank)
{
    if (!spec || !*spec)
        return;
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return;
    for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save)) {
        char *at = strrchr(e, '@');
        if (!at || atoi(at + 1) != myrank)
            continue;
        *at = 0;
        rtc_fp_t fp = {0};
        char *eq = strchr(e, '=');
        if (eq) {
            *eq = 0;
            fp.has_value = 1;
            fp.value = strtol(eq + 1, NULL, 10);
        }
        snprintf(fp.name, sizeof fp.name, "%s", e);
        rtc_fp_t *n = realloc(S.fps, (size_t)(S.nfps + 1) * sizeof *n);
        if (!n)
            break;
        S.fps = n;
        S.fps[S.nfps++] = fp;
    }
    free(copy);
}

/* ---------------------------------------------------------------- init */

static void fill_modes(rtc_info_t *info)
{
    info->comm_mode = env_dup("FTMPI_COMM_MODE");
    info->msg_mode = env_dup("FTMPI_MSG_MODE");
    info->coll_mode = env_dup("FTMPI_COLL_MODE");
    info->recovery_mode = env_dup("FTMPI_RECOVERY_MODE");
}

static int init_singleton(rtc_info_t *info)
{
    info->rank = 0;
    info->size = 1;
    info->world_n = 1;
    info->parent_root = -1;
    info->local_slot = -1;
    info->nslots = 0;
    info->shm_fd = -1;
    info->ctl_fd = -1;
    info->slot_of_rank = malloc(sizeof(int));
    info->pid_of_rank = malloc(sizeof(int));
    info->host_of_rank = calloc(1, sizeof(int));
    info->launch_host_of_rank = calloc(1, sizeof(int));
    if (!info->slot_of_rank || !info->pid_of_rank || !info->host_of_rank ||
        !info->launch_host_of_rank)
        return -ENOMEM;
    info->slot_of_rank[0] = -1;
    info->pid_of_rank[0] = (int)getpid();
    snprintf(info->jobid, sizeof info->jobid, "singleton-%d", (int)getpid());
    fill_modes(info);
    S.singleton = 1;
    S.inited = 1;
    S.rank = 0;
    S.size = 1;
    return -ENOENT;
}

static int map_segment(rtc_info_t *info)
{
    long fd, size;
    if (env_int("FTMPI_SHM_FD", 0, 1 << 20, &fd) ||
        env_int("FTMPI_SHM_SIZE", 1, 0x7fffffffffffffffL, &size))
        return 0; /* no segment: fine, every event read costs a syscall */
    void *base = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED,
                      (int)fd, 0);
    if (base == MAP_FAILED)
        return -errno;
    shmseg_hdr_t *h = base;
    if (h->magic != SHMSEG_MAGIC || h->total_bytes != (uint64_t)size) {
        munmap(base, (size_t)size);
        return -EPROTO;
    }
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    info->shm_fd = (int)fd;
    info->shm_size = (size_t)size;
    info->shm_base = base;
    return 0;
}

static int parse_hello_reply(rtc_info_t *info)
{
    proto_rd_t r;
    proto_rd_init(&r, S.reply.data, S.reply.len);
    int rank = proto_get_i32(&r);
    int size = proto_get_i32(&r);
    info->incarnation = proto_get_u32(&r);
    info->restarted = proto_get_i32(&r);
    info->generation = proto_get_u32(&r);
    info->hostid = proto_get_i32(&r);
    info->nslots = proto_get_i32(&r);
    info->local_slot = proto_get_i32(&r);
    proto_get_str(&r, info->jobid, sizeof info->jobid);
    if (r.err || rank != info->rank || size != info->size)
        return -EPROTO;
    info->slot_of_rank = malloc(sizeof(int) * (size_t)size);
    info->pid_of_rank = malloc(sizeof(int) * (size_t)size);
    info->host_of_rank = malloc(sizeof(int) * (size_t)size);
    info->launch_host_of_rank = malloc(sizeof(int) * (size_t)size);
    if (!info->slot_of_rank || !info->pid_of_rank || !info->host_of_rank ||
        !info->launch_host_of_rank)
        return -ENOMEM;
    for (int i = 0; i < size; i++) {
        info->pid_of_rank[i] = proto_get_i32(&r);
        info->slot_of_rank[i] = proto_get_i32(&r);
    }
    for (int i = 0; i < size; i++)
        info->host_of_rank[i] = proto_get_i32(&r);
    for (int i = 0; i < size; i++)
        info->launch_host_of_rank[i] = proto_get_i32(&r);
    proto_get_str(&r, S.secret, sizeof S.secret);
    return r.err;
}

int rtc_init(rtc_info_t *info)
{
    memset(info, 0, sizeof *info);
    info->shm_fd = -1;
    info->ctl_fd = -1;
    if (S.inited)
        return -EALREADY;
    long fd, rank, size, slot = -1, nslots = 0, hostid = 0, v;
    int erc = env_int("FTMPI_CTL_FD", 0, 1 << 20, &fd);
    if (erc == -ENOENT || (erc == 0 && fcntl((int)fd, F_GETFD) < 0))
        return init_singleton(info); /* not started by ftmpirun */
    if (erc || env_int("FTMPI_RANK", 0, 1 << 24, &rank) ||
        env_int("FTMPI_SIZE", 1, 1 << 24, &size) || rank >= size)
        return -EINVAL;
    env_int("FTMPI_LOCAL_SLOT", -1, 1 << 24, &slot);
    env_int("FTMPI_NSLOTS", 0, 1 << 24, &nslots);
    env_int("FTMPI_HOSTID", 0, 1 << 24, &hostid);
    info->rank = (int)rank;
    info->size = (int)size;
    info->local_slot = (int)slot;
    info->nslots = (int)nslots;
    info->hostid = (int)hostid;
    if (env_int("FTMPI_INCARNATION", 0, 0xffffffffL, &v) == 0)
        info->incarnation = (uint32_t)v;
    if (env_int("FTMPI_RESTARTED", 0, 1, &v) == 0)
        info->restarted = (int)v;
    if (env_int("FTMPI_GENERATION", 0, 0xffffffffL, &v) == 0)
        info->generation = (uint32_t)v;
    info->world_n = info->size;
    info->parent_root = -1;
    if (env_int("FTMPI_WORLD_BASE", 0, size - 1, &v) == 0)
        info->world_base = (int)v;
    if (env_int("FTMPI_WORLD_SIZE", 1, size - info->world_base, &v) == 0)
        info->world_n = (int)v;
    if (env_int("FTMPI_APPNUM", 0, 1 << 24, &v) == 0)
        info->appnum = (int)v;
    if (rank < info->world_base || rank >= info->world_base + info->world_n)
        return -EINVAL;
    const char *par = getenv("FTMPI_PARENT");
    unsigned ptag;
    int proot;
    if (par && sscanf(par, "%d:%u", &proot, &ptag) == 2 && proot >= 0 && proot < size) {
        info->parent_root = proot;
        info->parent_tag = ptag;
    }
    fill_modes(info);

    int rc = map_segment(info);
    if (rc)
        return rc;
    if (info->shm_base && slot >= 0 && slot < nslots)
        S.slot = shmseg_slot(info->shm_base, (uint32_t)slot);
    fcntl((int)fd, F_SETFD, FD_CLOEXEC);
    /* rtc_pump reads without blocking; rtc_call polls before reading. */
    fcntl((int)fd, F_SETFL, fcntl((int)fd, F_GETFL) | O_NONBLOCK);
    info->ctl_fd = (int)fd;
    S.fd = (int)fd;
    S.rank = info->rank;
    S.size = info->size;
    proto_conn_init(&S.conn, S.fd);
    proto_buf_init(&S.reply);
    /* Anything counted before this load is read by the HELLO exchange or
     * by the first forced look. */
    atomic_store(&S.last_seen, S.slot ? atomic_load(&S.slot->ctl_pending) : 0);

    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, info->rank);
    proto_put_i32(&b, (int)getpid());
    proto_put_u32(&b, info->incarnation);
    pthread_mutex_lock(&S.mu);
    rc = rtc_call(PR_HELLO, &b, PR_HELLO_REPLY);
    if (!rc)
        rc = parse_hello_reply(info);
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    if (rc)
        return rc;
    S.generation = info->generation;
    parse_fault_points(getenv("FTMPI_FAULT_POINTS"), info->rank);
    /* A program this rank starts must not take our connection for its. */
    unsetenv("FTMPI_CTL_FD");
    S.inited = 1;
    return 0;
}

int rtc_spawn(uint32_t tag, const rtc_spawn_cmd_t *cmds, int ncmds, int *base_p, int *n_p,
              int **errs_p)
{
    if (!S.inited || S.singleton)
        return -ENOTSUP; /* no runtime to start processes */
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, tag);
    proto_put_i32(&b, ncmds);
    for (int i = 0; i < ncmds; i++) {
        proto_put_i32(&b, cmds[i].maxprocs);
        proto_put_str(&b, cmds[i].host);
        proto_put_str(&b, cmds[i].wdir);
        proto_put_strv(&b, cmds[i].argv);
        proto_put_strv(&b, cmds[i].env);
    }
    pthread_mutex_lock(&S.mu);
    int rc = rtc_call(PR_SPAWN, &b, PR_SPAWN_DONE);
    proto_buf_free(&b);
    if (!rc) {
        proto_rd_t r;
        proto_rd_init(&r, S.reply.data, S.reply.len);
        rc = proto_get_i32(&r);
        *base_p = proto_get_i32(&r);
        int n = *n_p = proto_get_i32(&r);
        if (!rc && (r.err || n < 0 || n > S.size))
            rc = -EPROTO;
        int *errs = !rc ? calloc((size_t)(n > 0 ? n : 1), sizeof(int)) : NULL;
        if (!rc && !errs)
            rc = -ENOMEM;
        for (int i = 0; !rc && i < n; i++)
            errs[i] = proto_get_i32(&r);
        if (!rc && r.err)
            rc = -EPROTO;
        if (rc)
            free(errs);
        else
            *errs_p = errs;
    }
    pthread_mutex_unlock(&S.mu);
    return rc;
}

/* ------------------------------------------------------------- events */

void rtc_event_free(rtc_event_t *ev)
{
    if (!ev)
        return;
    free(ev->data);
    ev->data = NULL;
}

int rtc_event_ready(void)
{
    if (atomic_load_explicit(&S.qcount, memory_order_acquire) > 0)
        return 1;
    return S.slot && atomic_load_explicit(&S.slot->ctl_pending,
                                          memory_order_acquire) !=
                         atomic_load_explicit(&S.last_seen,
                                              memory_order_relaxed);
}

int rtc_next_event(rtc_event_t *ev, int force)
{
    if (!S.inited)
        return -ENOTCONN;
    if (!force && atomic_load_explicit(&S.qcount, memory_order_acquire) == 0 &&
        (S.singleton ||
         (S.slot && atomic_load_explicit(&S.slot->ctl_pending,
                                         memory_order_acquire) ==
                        atomic_load_explicit(&S.last_seen,
                                             memory_order_relaxed))))
        return 0;
    if (pthread_mutex_trylock(&S.mu) != 0)
        return 0; /* another thread is reading; it queues for us */
    int rc = 0;
    if (!S.singleton && (S.qlen == 0 || force)) {
        uint32_t seen = S.slot ? atomic_load(&S.slot->ctl_pending) : 0;
        rc = rtc_pump();
        if (rc == 0)
            atomic_store_explicit(&S.last_seen, seen, memory_order_relaxed);
    }
    int got = q_pop(ev);
    pthread_mutex_unlock(&S.mu);
    if (got)
        return 1;
    return rc;
}

/* ------------------------------------------------------- key-value etc. */

int rtc_kv_put(const char *key, const void *val, size_t len)
{
    if (!S.inited)
        return -ENOTCONN;
    if (!key || strlen(key) > PROTO_MAX_KEY)
        return -ENAMETOOLONG;
    if (len > PROTO_MAX_PAYLOAD - PROTO_MAX_KEY - 16)
        return -EMSGSIZE;
    if (S.singleton) {
        rtc_skv_t *e;
        for (e = S.skv; e && strcmp(e->key, key); e = e->next)
            ;
        void *copy = malloc(len ? len : 1);
        if (!copy)
            return -ENOMEM;
        memcpy(copy, val, len);
        if (!e) {
            e = calloc(1, sizeof *e);
            if (!e || !(e->key = strdup(key))) {
                free(e);
                free(copy);
                return -ENOMEM;
            }
            e->next = S.skv;
            S.skv = e;
        } else {
            free(e->val);
        }
        e->val = copy;
        e->len = len;
        return 0;
    }
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_str(&b, key);
    proto_put_bytes(&b, val, len);
    pthread_mutex_lock(&S.mu);
    int rc = rtc_send(PR_KV_PUT, &b);
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

int rtc_kv_get(const char *key, void *val, size_t cap, size_t *len_p)
{
    if (!S.inited)
        return -ENOTCONN;
    if (!key || strlen(key) > PROTO_MAX_KEY)
        return -ENAMETOOLONG;
    if (S.singleton) {
        for (rtc_skv_t *e = S.skv; e; e = e->next)
            if (strcmp(e->key, key) == 0) {
                if (len_p)
                    *len_p = e->len;
                if (e->len > cap)
                    return -EMSGSIZE;
                memcpy(val, e->val, e->len);
                return 0;
            }
        return -ENOENT; /* nobody else could ever put it */
    }
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_str(&b, key);
    pthread_mutex_lock(&S.mu);
    int rc = rtc_call(PR_KV_GET, &b, PR_KV_VAL);
    if (!rc) {
        proto_rd_t r;
        proto_rd_init(&r, S.reply.data, S.reply.len);
        char k[PROTO_MAX_KEY + 1];
        proto_get_str(&r, k, sizeof k);
        uint32_t n;
        const void *p = proto_get_bytes(&r, &n);
        if (r.err || strcmp(k, key) != 0) {
            rc = -EPROTO;
        } else {
            if (len_p)
                *len_p = n;
            if (n > cap)
                rc = -EMSGSIZE;
            else
                memcpy(val, p, n);
        }
    }
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

int rtc_fence(void)
{
    if (!S.inited)
        return -ENOTCONN;
    if (S.singleton)
        return 0;
    pthread_mutex_lock(&S.mu);
    int rc = rtc_call(PR_FENCE, NULL, PR_FENCE_DONE);
    pthread_mutex_unlock(&S.mu);
    return rc;
}

int rtc_finalize_start(void)
{
    if (!S.inited)
        return -ENOTCONN;
    if (S.finalized)
        return 0;
    S.finalized = 1;
    if (S.singleton) {
        S.fin_done = 1;
        return 0;
    }
    pthread_mutex_lock(&S.mu);
    int rc = rtc_send(PR_FINALIZE, NULL);
    pthread_mutex_unlock(&S.mu);
    return rc;
}

int rtc_finalize_test(void)
{
    if (!S.inited)
        return -ENOTCONN;
    if (S.fin_done)
        return 1;
    if (pthread_mutex_trylock(&S.mu) != 0)
        return 0; /* another thread is reading: it dispatches the reply */
    int rc = rtc_pump();
    pthread_mutex_unlock(&S.mu);
    return rc < 0 ? rc : S.fin_done;
}

int rtc_finalize(void)
{
    int rc = rtc_finalize_start();
    while (rc == 0 && (rc = rtc_finalize_test()) == 0) {
        struct pollfd pf = {.fd = S.fd, .events = POLLIN};
        if (poll(&pf, 1, -1) < 0 && errno != EINTR)
            rc = -errno;
    }
    return rc < 0 ? rc : 0;
}

void rtc_abort(int code, const char *msg)
{
    fflush(NULL);
    if (!S.inited || S.singleton)
        _exit(code & 0xff);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, code);
    proto_put_str(&b, msg);
    /* Do not wait for a thread stuck in a blocking call. */
    int locked = 0;
    for (int i = 0; i < 100 && !locked; i++) {
        locked = pthread_mutex_trylock(&S.mu) == 0;
        if (!locked)
            usleep(1000);
    }
    rtc_send(PR_ABORT, &b);
    proto_buf_free(&b);
    /* The head kills every process, this one included. */
    struct pollfd pf = {.fd = S.fd, .events = POLLIN};
    char sink[4096];
    for (int waited = 0; waited < 10000; waited += 100) {
        if (poll(&pf, 1, 100) > 0 && recv(S.fd, sink, sizeof sink, 0) == 0)
            break; /* the daemon is gone */
    }
    _exit(code & 0xff ? code & 0xff : 1);
}

int rtc_fault_point(const char *name, long value)
{
    if (S.nfps == 0 || !S.inited || S.singleton || !name)
        return 0;
    for (int i = 0; i < S.nfps; i++) {
        rtc_fp_t *fp = &S.fps[i];
        if (fp->fired || strcmp(fp->name, name) != 0 ||
            (fp->has_value && fp->value != value))
            continue;
        fp->fired = 1;
        proto_buf_t b;
        proto_buf_init(&b);
        proto_put_str(&b, name);
        proto_put_i64(&b, value);
        pthread_mutex_lock(&S.mu);
        int rc = rtc_send(PR_FAULT, &b);
        proto_buf_free(&b);
        if (rc) {
            pthread_mutex_unlock(&S.mu);
            return rc;
        }
        /* The daemon SIGKILLs us now. Should it be gone, die anyway. */
        for (int waited = 0; waited < 10000; waited += 100)
            poll(NULL, 0, 100);
        raise(SIGKILL);
    }
    return 0;
}

int rtc_suspect(int rank)
{
    if (!S.inited)
        return -ENOTCONN;
    if (rank < 0 || rank >= S.size)
        return -EINVAL;
    if (S.singleton)
        return 0;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, rank);
    pthread_mutex_lock(&S.mu);
    int rc = rtc_send(PR_SUSPECT, &b);
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

int rtc_note(const char *name, int n, const char *const *keys,
             const double *vals)
{
    if (!S.inited)
        return -ENOTCONN;
    if (!name || n < 0 || n > 16 || (n && (!keys || !vals)))
        return -EINVAL;
    if (S.singleton)
        return 0;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_str(&b, name);
    proto_put_i32(&b, n);
    for (int i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &vals[i], sizeof bits);
        proto_put_str(&b, keys[i]);
        proto_put_u64(&b, bits);
    }
    pthread_mutex_lock(&S.mu);
    int rc = rtc_send(PR_NOTE, &b);
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

int rtc_agree(uint64_t key, int vote, const int *members, const uint32_t *incs, int n,
              int *result_p)
{
    if (!S.inited)
        return -ENOTCONN;
    if (S.singleton) {
        *result_p = vote != 0;
        return 0;
    }
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u64(&b, key);
    proto_put_i32(&b, vote);
    proto_put_i32(&b, n);
    for (int i = 0; i < n; i++) {
        proto_put_i32(&b, members[i]);
        proto_put_u32(&b, incs[i]);
    }
    pthread_mutex_lock(&S.mu);
    int rc = rtc_call(PR_AGREE, &b, PR_AGREE_DONE);
    if (rc == 0) {
        proto_rd_t rd;
        proto_rd_init(&rd, S.reply.data, S.reply.len);
        (void)proto_get_u64(&rd);
        *result_p = proto_get_i32(&rd) != 0;
        if (rd.err)
            rc = -EPROTO;
    }
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

int rtc_recovery_join(uint32_t known_generation)
{
    if (!S.inited)
        return -ENOTCONN;
    if (S.singleton) {
        /* Nothing can have failed: a round of one, completed at once. */
        rtc_recovery_t *rec = malloc(sizeof *rec + 5 * sizeof(int));
        if (!rec)
            return -ENOMEM;
        rec->generation = ++S.generation;
        rec->size = 1;
        rec->nfailed = 0;
        rec->failed = NULL;
        rec->alive = (int *)(rec + 1);
        rec->pid = rec->alive + 1;
        rec->slot = rec->pid + 1;
        rec->host = rec->slot + 1;
        rec->incarnation = (uint32_t *)(rec->host + 1);
        rec->host[0] = 0;
        rec->alive[0] = 1;
        rec->pid[0] = (int)getpid();
        rec->slot[0] = -1;
        rec->incarnation[0] = 0;
        rtc_event_t ev = {.kind = RTC_EV_RECOVERED, .rank = -1, .data = rec};
        pthread_mutex_lock(&S.mu);
        int rc = q_push(&ev);
        pthread_mutex_unlock(&S.mu);
        if (rc)
            free(rec);
        return rc;
    }
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, known_generation);
    pthread_mutex_lock(&S.mu);
    int rc = rtc_send(PR_JOIN, &b);
    pthread_mutex_unlock(&S.mu);
    proto_buf_free(&b);
    return rc;
}

void rtc_info_free(rtc_info_t *info)
{
    free(info->slot_of_rank);
    free(info->pid_of_rank);
    free(info->host_of_rank);
    free(info->launch_host_of_rank);
    free((void *)info->comm_mode);
    free((void *)info->msg_mode);
    free((void *)info->coll_mode);
    free((void *)info->recovery_mode);
    info->slot_of_rank = info->pid_of_rank = NULL;
    info->host_of_rank = info->launch_host_of_rank = NULL;
    info->comm_mode = info->msg_mode = info->coll_mode = NULL;
    info->recovery_mode = NULL;
}

const char *rtc_job_secret(void)
{
    return S.inited && !S.singleton && S.secret[0] ? S.secret : NULL;
}
