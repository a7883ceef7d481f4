/* Head: job table, process life cycle, failures, fault injection, exit. */
#include "head_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ABORT_GRACE_S 3.0

static const char *sig_name(int sig)
{
    static char buf[16];
    const char *n = sigabbrev_np(sig);
    if (!n)
        return "?";
    snprintf(buf, sizeof buf, "SIG%s", n);
    return buf;
}

static int is_local_name(const char *n)
{
    char me[256] = "";
    gethostname(me, sizeof me - 1);
    return strcmp(n, "localhost") == 0 || strcmp(n, "127.0.0.1") == 0 ||
           strcmp(n, me) == 0;
}

head_t *head_create(evloop_t *loop, const ftrun_opts_t *o, double t0)
{
    head_t *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->loop = loop;
    h->o = o;
    h->t0 = t0;
    h->size = o->np;
    h->nprocs = o->universe > o->np ? o->universe : o->np;
    h->nused = h->size;
    snprintf(h->jobid, sizeof h->jobid, "ftmpi-%d-%ld", (int)getpid(),
             (long)time(NULL));
    h->nhosts = o->hosts ? o->nhosts : 1;
    h->procs = calloc((size_t)h->nprocs, sizeof *h->procs);
    h->hosts = calloc((size_t)h->nhosts, sizeof *h->hosts);
    h->failed_since = malloc(sizeof(int) * 16);
    if (!h->procs || !h->hosts || !h->failed_since) {
        head_destroy(h);
        return NULL;
    }
    int have_local = 0;
    for (int i = 0; i < h->nhosts; i++) {
        head_host_t *host = &h->hosts[i];
        host->h = h;
        host->id = i;
        if (o->hosts) {
            /* The first host naming this machine is served in-process. */
            snprintf(host->name, sizeof host->name, "%s", o->hosts[i].name);
            host->is_local = !have_local && is_local_name(host->name);
            have_local |= host->is_local;
        } else {
            gethostname(host->name, sizeof host->name - 1);
            host->is_local = 1;
        }
    }
    for (int r = 0; r < h->nprocs; r++)
        h->procs[r].rank = r;
    head_place(h);
    return h;
}

void head_destroy(head_t *h)
{
    if (!h)
        return;
    head_kv_free(h);
    head_agree_free(h);
    evlog_close(&h->log);
    head_spawn_free(h);
    free(h->procs);
    free(h->hosts);
    free(h->fails);
    free(h->failed_since);
    free(h);
}

int head_nhosts(const head_t *h) { return h->nhosts; }
const char *head_host_name(const head_t *h, int i) { return h->hosts[i].name; }
int head_host_is_local(const head_t *h, int i) { return h->hosts[i].is_local; }
int head_host_nslots(const head_t *h, int i) { return h->hosts[i].nslots; }
const char *head_jobid(const head_t *h) { return h->jobid; }
void *head_host_arg(head_t *h, int i) { return &h->hosts[i]; }
int head_done(const head_t *h) { return h->phase == PH_DONE; }
int head_exit_code(const head_t *h) { return h->exit_code; }

void head_host_attach(head_t *h, int hostid, rt_link_t *to_daemon)
{
    h->hosts[hostid].link = to_daemon;
    h->hosts[hostid].attached = 1;
}

/* ------------------------------------------------------------- sending */

void head_host_send(head_host_t *host, uint32_t type, const proto_buf_t *b)
{
    if (host->attached && !host->lost)
        rt_link_send(host->link, type, b ? b->data : NULL, b ? b->len : 0);
}

void head_to_rank(head_t *h, head_proc_t *p, uint32_t type,
                  const proto_buf_t *payload)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_u32(&b, p->inc);
    proto_put_u32(&b, type);
    proto_put_bytes(&b, payload ? payload->data : NULL,
                    payload ? payload->len : 0);
    head_host_send(&h->hosts[p->hostid], HD_TO_RANK, &b);
    proto_buf_free(&b);
}

static void send_kill(head_t *h, head_proc_t *p, int sig)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_u32(&b, p->inc);
    proto_put_i32(&b, sig);
    head_host_send(&h->hosts[p->hostid], HD_KILL, &b);
    proto_buf_free(&b);
}

/* "name=value@rank;name@rank" of the fault points not yet fired. */
static char *fault_string(head_t *h)
{
    proto_buf_t b;
    proto_buf_init(&b);
    for (int i = 0; i < h->o->nfaults; i++) {
        const ftrun_fault_t *f = &h->o->faults[i];
        if (f->fired)
            continue;
        char one[128];
        if (f->has_value)
            snprintf(one, sizeof one, "%s%s=%ld@%d", b.len ? ";" : "",
                     f->name, f->value, f->rank);
        else
            snprintf(one, sizeof one, "%s%s@%d", b.len ? ";" : "", f->name,
                     f->rank);
        proto_put_raw(&b, one, strlen(one));
    }
    proto_put_raw(&b, "", 1);
    char *s = b.err ? strdup("") : (char *)b.data;
    return s;
}

void head_send_spawn(head_t *h, head_proc_t *p, int restarted)
{
    char *faults = fault_string(h);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_i32(&b, p->slot);
    proto_put_u32(&b, p->inc);
    proto_put_u32(&b, h->generation);
    proto_put_i32(&b, restarted);
    proto_put_str(&b, faults);
    head_spawn_put_spec(h, p, &b);
    head_host_send(&h->hosts[p->hostid], HD_SPAWN, &b);
    proto_buf_free(&b);
    free(faults);
}

/* --------------------------------------------------------------- start */

static void send_config(head_t *h, head_host_t *host)
{
    const ftrun_opts_t *o = h->o;
    char cwd[4096] = "";
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, host->id);
    proto_put_i32(&b, host->nslots);
    proto_put_u32(&b, o->ring_bytes);
    proto_put_i32(&b, h->nprocs);
    proto_put_i32(&b, o->tag_output);
    proto_put_i32(&b, host->is_local ? 0 : -1); /* rank 0 gets our stdin */
    proto_put_str(&b, h->jobid);
    proto_put_str(&b, cwd);
    uint32_t argc = 0;
    while (o->argv[argc])
        argc++;
    proto_put_u32(&b, argc);
    for (uint32_t i = 0; i < argc; i++)
        proto_put_str(&b, o->argv[i]);
    /* -x exports, then the modes that were given */
    const char *modes[4][2] = {{"FTMPI_COMM_MODE", o->comm_str},
                               {"FTMPI_MSG_MODE", o->msg_str},
                               {"FTMPI_COLL_MODE", o->coll_str},
                               {"FTMPI_RECOVERY_MODE", o->recovery_str}};
    uint32_t nenv = (uint32_t)o->nenv + 1;
    for (int i = 0; i < 4; i++)
        nenv += modes[i][1] != NULL;
    proto_put_u32(&b, nenv);
    for (int i = 0; i < o->nenv; i++)
        proto_put_str(&b, o->env[i]);
    /* MPI_COMM_WORLD of the launch processes: ids 0..np-1 (FTMPI_SIZE is
     * the whole process space, --universe; docs/dynamic.md) */
    char wsz[48];
    snprintf(wsz, sizeof wsz, "FTMPI_WORLD_SIZE=%d", h->size);
    proto_put_str(&b, wsz);
    for (int i = 0; i < 4; i++)
        if (modes[i][1]) {
            char e[64];
            snprintf(e, sizeof e, "%s=%s", modes[i][0], modes[i][1]);
            proto_put_str(&b, e);
        }
    int nlaunch = 0; /* the launch ranks it runs (binding, daemon_bind.c) */
    for (int r = 0; r < h->size; r++)
        nlaunch += h->procs[r].hostid == host->id;
    proto_put_i32(&b, nlaunch);
    head_host_send(host, HD_CONFIG, &b);
    proto_buf_free(&b);
}

typedef struct {
    head_t *h;
    int rank;
} kill_arg_t;

static void kill_timer(evloop_t *loop, void *arg)
{
    kill_arg_t *k = arg;
    head_t *h = k->h;
    head_proc_t *p = &h->procs[k->rank];
    if (h->phase == PH_RUN && ((head_live(p) && !p->started) ||
                               (!p->state && p->rank >= h->size))) {
        /* its daemon has not reported the start yet (or MPI_Comm_spawn
         * has not started this id yet): soon */
        evloop_timer_add(loop, 0.005, kill_timer, k);
        return;
    }
    free(k);
    head_user_kill(h, p->rank, "--kill");
}

int head_user_kill(head_t *h, int rank, const char *reason)
{
    if (rank < 0 || rank >= h->nprocs)
        return -1;
    head_proc_t *p = &h->procs[rank];
    if (h->phase != PH_RUN || !head_live(p) || !p->started)
        return -2;
    evlog_event(&h->log, "kill", "\"rank\":%d,\"pid\":%d,\"incarnation\":%u,"
                "\"signal\":9,\"reason\":\"%s\"", p->rank, (int)p->pid,
                p->inc, reason);
    if (h->o->verbose)
        fprintf(stderr, "ftmpirun: %s: killing rank %d (pid %d)\n", reason,
                p->rank, (int)p->pid);
    send_kill(h, p, SIGKILL);
    return 0;
}

void head_start(head_t *h)
{
    const ftrun_opts_t *o = h->o;
    if (h->started)
        return;
    h->started = 1;
    if (o->event_log && evlog_open(&h->log, o->event_log, h->t0) < 0)
        fprintf(stderr, "ftmpirun: cannot write event log %s: %s\n",
                o->event_log, strerror(errno));
    char hostlist[2048];
    size_t k = 0;
    hostlist[k++] = '[';
    for (int i = 0; i < h->nhosts && k < sizeof hostlist - 300; i++)
        k += (size_t)snprintf(hostlist + k, sizeof hostlist - k, "%s\"%s\"",
                              i ? "," : "", evlog_esc(h->hosts[i].name));
    hostlist[k++] = ']';
    hostlist[k] = 0;
    evlog_event(&h->log, "launch",
                "\"np\":%d,\"jobid\":\"%s\",\"program\":\"%s\",\"hosts\":%s,"
                "\"comm_mode\":\"%s\",\"msg_mode\":\"%s\",\"coll_mode\":\"%s\","
                "\"recovery_mode\":\"%s\",\"monotonic_t0\":%.6f",
                h->size, h->jobid, evlog_esc(o->argv[0]), hostlist,
                o->comm_str ? o->comm_str : "abort",
                o->msg_str ? o->msg_str : "reset",
                o->coll_str ? o->coll_str : "nonatomic",
                o->recovery_str ? o->recovery_str : "manual", h->t0);
    for (int i = 0; i < h->nhosts; i++)
        if (h->hosts[i].nslots > 0)
            send_config(h, &h->hosts[i]);
    for (int r = 0; r < h->size; r++) {
        head_proc_t *p = &h->procs[r];
        p->state = HP_STARTING;
        head_send_spawn(h, p, 0);
    }
    for (int i = 0; i < o->nkills; i++) {
        kill_arg_t *ka = malloc(sizeof *ka);
        if (!ka)
            continue;
        ka->h = h;
        ka->rank = o->kills[i].rank;
        double delay = h->t0 + o->kills[i].seconds - evloop_now();
        evloop_timer_add(h->loop, delay, kill_timer, ka);
    }
}

/* ------------------------------------------------------- ending the job */

static int failure_code(int sig, int code)
{
    return sig ? 128 + sig : (code ? code : 1);
}

static void describe(char *buf, size_t cap, int sig, int code, int hello,
                     int finalized)
{
    if (sig)
        snprintf(buf, cap, "killed by signal %d (%s)", sig, sig_name(sig));
    else if (code && hello && !finalized)
        snprintf(buf, cap, "exited with code %d before MPI_Finalize", code);
    else if (code)
        snprintf(buf, cap, "exited with code %d", code);
    else
        snprintf(buf, cap, "exited without calling MPI_Finalize");
}

static void head_finish(head_t *h)
{
    if (h->phase == PH_DONE)
        return;
    if (h->abort_timer)
        evloop_timer_cancel(h->loop, h->abort_timer);
    h->abort_timer = 0;
    int code = 0;
    if (h->exit_set) {
        code = h->exit_code;
        /* The job was killed (MPI_Abort, --timeout, ...): still say which
         * failures were never recovered (ABORT mode has said it already). */
        for (int i = 0; i < h->nfails && h->o->comm_mode != COMM_ABORT &&
                        h->o->comm_mode != COMM_ULFM; i++)
            if (!h->fails[i].recovered)
                fprintf(stderr, "ftmpirun: rank %d (pid %d, host %s) %s; not recovered\n",
                        h->fails[i].rank, (int)h->fails[i].pid,
                        h->hosts[h->fails[i].hostid].name, h->fails[i].reason);
    } else {
        for (int i = 0; i < h->nfails; i++) {
            head_failure_t *f = &h->fails[i];
            /* ULFM: the application handles failures (revoke, shrink);
             * there are no recovery rounds to wait for. */
            if (f->recovered || h->o->comm_mode == COMM_ULFM)
                continue;
            fprintf(stderr, "ftmpirun: rank %d (pid %d, host %s) %s; "
                    "not recovered\n", f->rank, (int)f->pid,
                    h->hosts[f->hostid].name, f->reason);
            if (!code)
                code = failure_code(f->signal, f->exit_code);
        }
        for (int r = 0; r < h->nprocs; r++) {
            head_proc_t *p = &h->procs[r];
            if (p->state != HP_EXITED || (!p->signal && !p->exit_code))
                continue;
            char why[96];
            describe(why, sizeof why, p->signal, p->exit_code, p->hello,
                     p->finalized);
            fprintf(stderr, "ftmpirun: rank %d (pid %d, host %s) %s\n", r,
                    (int)p->pid, h->hosts[p->hostid].name, why);
            if (!code)
                code = failure_code(p->signal, p->exit_code);
        }
        h->exit_code = code;
    }
    int nrec = 0;
    for (int i = 0; i < h->nfails; i++)
        nrec += h->fails[i].recovered;
    evlog_event(&h->log, "job_end", "\"exit_code\":%d,\"duration_s\":%.6f,"
                "\"failures\":%d,\"recovered\":%d,\"generation\":%u",
                h->exit_code, evloop_now() - h->t0, h->nfails, nrec,
                h->generation);
    h->phase = PH_DONE;
    for (int i = 0; i < h->nhosts; i++)
        head_host_send(&h->hosts[i], HD_EXIT, NULL);
}

void head_check_end(head_t *h)
{
    if (h->phase == PH_DONE || !h->started)
        return;
    for (int r = 0; r < h->nprocs; r++)
        if (head_live(&h->procs[r]))
            return;
    head_finish(h);
}

static void abort_timer(evloop_t *loop, void *arg)
{
    head_t *h = arg;
    h->abort_timer = 0;
    if (h->phase == PH_ABORTING) {
        fprintf(stderr, "ftmpirun: some processes did not end after "
                "SIGKILL; giving up on them\n");
        head_finish(h);
    }
}

void head_kill_job(head_t *h, int code, const char *msg)
{
    if (h->phase != PH_RUN)
        return;
    if (msg)
        fprintf(stderr, "%s\n", msg);
    h->phase = PH_ABORTING;
    h->exit_code = code;
    h->exit_set = 1;
    evlog_event(&h->log, "abort", "\"exit_code\":%d,\"reason\":\"%s\"", code,
                evlog_esc(msg ? msg : ""));
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, SIGKILL);
    for (int i = 0; i < h->nhosts; i++)
        head_host_send(&h->hosts[i], HD_KILL_ALL, &b);
    proto_buf_free(&b);
    if (!h->started) {
        head_finish(h);
        return;
    }
    h->abort_timer = evloop_timer_add(h->loop, ABORT_GRACE_S, abort_timer, h);
    head_check_end(h);
}

/* ------------------------------------------------------------ failures */

static head_failure_t *record_failure(head_t *h, head_proc_t *p,
                                      const char *reason)
{
    if (h->nfails == h->capfails) {
        int n = h->capfails ? h->capfails * 2 : 16;
        head_failure_t *f = realloc(h->fails, (size_t)n * sizeof *f);
        if (!f)
            return NULL;
        h->fails = f;
        h->capfails = n;
    }
    head_failure_t *f = &h->fails[h->nfails++];
    memset(f, 0, sizeof *f);
    f->rank = p->rank;
    f->hostid = p->hostid;
    f->pid = p->pid;
    f->inc = p->inc;
    f->signal = p->signal;
    f->exit_code = p->exit_code;
    f->t = evloop_now() - h->t0;
    snprintf(f->reason, sizeof f->reason, "%s", reason);
    return f;
}

static void broadcast_failure(head_t *h, head_proc_t *dead)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, dead->rank);
    proto_put_u32(&b, dead->inc);
    proto_put_i32(&b, dead->mpi_pid ? dead->mpi_pid : dead->pid);
    proto_put_i32(&b, dead->signal);
    proto_put_i32(&b, dead->exit_code);
    proto_put_str(&b, h->hosts[dead->hostid].name);
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *p = &h->procs[r];
        if (p != dead && head_live(p))
            head_to_rank(h, p, PR_EV_FAILURE, &b);
    }
    proto_buf_free(&b);
}

static void replace_proc(head_t *h, head_proc_t *p)
{
    p->prev_pid = p->pid;
    p->inc++;
    p->pid = p->mpi_pid = 0;
    p->state = HP_JOINING;
    p->started = p->hello = p->hello_pending = 0;
    p->finalized = p->fin_done = p->joined = 0;
    p->signal = p->exit_code = 0;
    p->fence_in = p->fence_fin = p->next_in = p->next_fin = 0;
    head_send_spawn(h, p, 1);
}

/* Record, announce and (REBUILD) replace one failure; the fence, round and
 * end checks are the caller's, so that several failures found together
 * (a lost host) go into one recovery round. 1 when the job was aborted. */
static int fail_proc(head_t *h, head_proc_t *p, const char *reason)
{
    head_host_t *host = &h->hosts[p->hostid];
    if (!p->hello)
        head_spawn_gone(h, p, 0);
    record_failure(h, p, reason);
    p->state = HP_FAILED;
    evlog_event(&h->log, "proc_failed",
                "\"rank\":%d,\"pid\":%d,\"incarnation\":%u,\"host\":\"%s\","
                "\"signal\":%d,\"exit_code\":%d,\"reason\":\"%s\"",
                p->rank, (int)p->pid, p->inc, evlog_esc(host->name),
                p->signal, p->exit_code, evlog_esc(reason));
    if (h->o->comm_mode == COMM_ABORT) {
        char msg[512];
        snprintf(msg, sizeof msg, "ftmpirun: rank %d (pid %d, host %s) %s; "
                 "aborting the job (comm mode ABORT)", p->rank, (int)p->pid,
                 host->name, reason);
        head_kill_job(h, failure_code(p->signal, p->exit_code), msg);
        return 1;
    }
    if (h->o->verbose)
        fprintf(stderr, "ftmpirun: rank %d (pid %d, host %s) %s\n", p->rank,
                (int)p->pid, host->name, reason);
    broadcast_failure(h, p);
    if (h->nfailed_since % 16 == 0) {
        int *n = realloc(h->failed_since,
                         sizeof(int) * (size_t)(h->nfailed_since + 16));
        if (n)
            h->failed_since = n;
    }
    h->failed_since[h->nfailed_since++] = p->rank;
    head_sync_proc_gone(h, p);
    int replaceable = p->hello || p->signal == SIGKILL || host->lost;
    if (h->o->comm_mode == COMM_REBUILD && h->phase == PH_RUN &&
        h->o->recovery_mode != RECOV_NONE) {
        /* Recovery NONE: no recovery round will ever take a replacement in
         * (FTMPI-SPEC.md section 6), so none is started. */
        if (h->any_finalized) {
            if (h->o->verbose)
                fprintf(stderr, "ftmpirun: rank %d not replaced: the job is "
                        "finalizing\n", p->rank);
        } else if (!replaceable) {
            fprintf(stderr, "ftmpirun: rank %d (pid %d) %s before MPI_Init; "
                    "not replacing it\n", p->rank, (int)p->pid, reason);
        } else if (host->lost && head_place_replacement(h, p) < 0) {
            fprintf(stderr, "ftmpirun: rank %d not replaced: no surviving "
                    "host has a free slot\n", p->rank);
        } else {
            replace_proc(h, p);
        }
    }
    return 0;
}

static void handle_failure(head_t *h, head_proc_t *p, const char *reason)
{
    if (!fail_proc(h, p, reason))
        head_sync_check(h);
    head_check_end(h);
}

void head_on_exited(head_t *h, head_host_t *host, proto_rd_t *r)
{
    int rank = proto_get_i32(r);
    uint32_t inc = proto_get_u32(r);
    int pid = proto_get_i32(r);
    int sig = proto_get_i32(r);
    int code = proto_get_i32(r);
    int exec_errno = proto_get_i32(r);
    int ctl_lost = proto_get_i32(r);
    if (r->err || rank < 0 || rank >= h->nprocs)
        return;
    head_proc_t *p = &h->procs[rank];
    if (p->inc != inc || !head_live(p))
        return;
    if (!p->pid)
        p->pid = pid;
    p->signal = sig;
    p->exit_code = code;
    if (exec_errno && p->spec) {
        /* MPI_Comm_spawn's program cannot run: the spawn fails (errcodes),
         * not the job. */
        p->state = HP_FAILED;
        evlog_event(&h->log, "proc_failed", "\"rank\":%d,\"incarnation\":%u,"
                    "\"host\":\"%s\",\"reason\":\"%s\"", rank, inc,
                    evlog_esc(host->name), evlog_esc(strerror(exec_errno)));
        head_spawn_gone(h, p, exec_errno);
        head_sync_proc_gone(h, p);
        head_sync_check(h);
        head_check_end(h);
        return;
    }
    if (exec_errno) {
        p->state = HP_FAILED;
        char msg[512];
        snprintf(msg, sizeof msg, "ftmpirun: cannot start rank %d on host %s:"
                 " %s: %s", rank, host->name, h->o->argv[0],
                 strerror(exec_errno));
        evlog_event(&h->log, "proc_failed", "\"rank\":%d,\"incarnation\":%u,"
                    "\"host\":\"%s\",\"reason\":\"%s\"", rank, inc,
                    evlog_esc(host->name), evlog_esc(strerror(exec_errno)));
        head_kill_job(h, 127, msg);
        head_check_end(h);
        return;
    }
    evlog_event(&h->log, "proc_exit",
                "\"rank\":%d,\"pid\":%d,\"incarnation\":%u,\"host\":\"%s\","
                "\"signal\":%d,\"exit_code\":%d,\"finalized\":%s",
                rank, pid, inc, evlog_esc(host->name), sig, code,
                p->finalized ? "true" : "false");
    if (!p->hello)
        head_spawn_gone(h, p, 0);
    int failed = !p->finalized && (sig || code || p->hello);
    if (!failed || h->phase != PH_RUN) {
        p->state = failed ? HP_FAILED : HP_EXITED;
        head_sync_proc_gone(h, p);
        head_sync_check(h);
        head_check_end(h);
        return;
    }
    char why[160];
    describe(why, sizeof why, sig, code, p->hello, p->finalized);
    if (ctl_lost)
        snprintf(why, sizeof why, "closed its control connection (killed)");
    handle_failure(h, p, why);
}

void head_host_lost(head_t *h, int hostid, const char *why_lost)
{
    head_host_t *host = &h->hosts[hostid];
    if (host->lost)
        return;
    host->lost = 1;
    if (h->phase == PH_DONE)
        return;
    if (h->phase == PH_RUN)
        fprintf(stderr, "ftmpirun: lost the daemon of host %s: %s\n",
                host->name, why_lost);
    evlog_event(&h->log, "host_lost", "\"host\":\"%s\",\"hostid\":%d,"
                "\"reason\":\"%s\"", evlog_esc(host->name), hostid,
                evlog_esc(why_lost));
    /* Every process of the host fails before anything is checked: the
     * failures are announced together and go into one recovery round. A
     * replacement starts on another host (head_place_replacement). */
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *p = &h->procs[r];
        if (p->hostid != hostid || !head_live(p))
            continue;
        if (h->phase != PH_RUN) {
            p->state = HP_FAILED;
            continue;
        }
        p->signal = 0;
        p->exit_code = 0;
        char why[200];
        snprintf(why, sizeof why, "lost with its host (%s)", why_lost);
        fail_proc(h, p, why);
    }
    head_sync_check(h);
    head_check_end(h);
}
