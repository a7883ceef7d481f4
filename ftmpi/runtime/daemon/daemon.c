/* Daemon: configuration, control sockets of the ranks, reaping, head
 * messages. */
#include "daemon_int.h"
#include "../../util/futex.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define CTL_LOST_GRACE_S 0.2

daemon_t *daemon_create(evloop_t *loop, rt_link_t *to_head, int output_local)
{
    daemon_t *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->loop = loop;
    d->head = to_head;
    d->output_local = output_local;
    d->shm_fd = -1;
    d->stdin_rank = -1;
    d->stdin_w = -1;
    proto_buf_init(&d->stdin_buf);
    daemon_raise_nofile();
    return d;
}

void daemon_destroy(daemon_t *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nslots; i++) {
        daemon_proc_t *p = &d->procs[i];
        if (p->ctl_open) {
            evloop_del_fd(d->loop, p->ctl.fd);
            close(p->ctl.fd);
            proto_conn_free(&p->ctl);
        }
        if (p->errpipe >= 0 && p->used)
            close(p->errpipe);
    }
    daemon_usage_stop(d);
    daemon_io_close_all(d);
    daemon_stdin_close(d);
    free(d->secret);
    proto_buf_free(&d->stdin_buf);
    if (d->shm)
        munmap(d->shm, d->shm_size);
    if (d->shm_fd >= 0)
        close(d->shm_fd);
    for (char **e = d->base_env; e && *e; e++)
        free(*e);
    free(d->base_env);
    daemon_bind_free(d);
    for (char **a = d->argv; a && *a; a++)
        free(*a);
    free(d->argv);
    free(d->cwd);
    free(d->procs);
    free(d->slot_of_rank);
    free(d);
}

static void daemon_error(daemon_t *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void daemon_error(daemon_t *d, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_str(&b, msg);
    rt_link_send_buf(d->head, DH_ERROR, &b);
    proto_buf_free(&b);
}

/* ------------------------------------------------------ rank control path */

static daemon_proc_t *proc_of_rank(daemon_t *d, int rank)
{
    if (rank < 0 || rank >= d->size || d->slot_of_rank[rank] < 0)
        return NULL;
    daemon_proc_t *p = &d->procs[d->slot_of_rank[rank]];
    return p->used && p->rank == rank ? p : NULL;
}

static void ctl_close(daemon_t *d, daemon_proc_t *p)
{
    if (!p->ctl_open)
        return;
    evloop_del_fd(d->loop, p->ctl.fd);
    close(p->ctl.fd);
    proto_conn_free(&p->ctl);
    p->ctl_open = 0;
}

static void ctl_lost_timer(evloop_t *loop, void *arg)
{
    daemon_proc_t *p = arg;
    p->ctl_timer = 0;
    if (p->running && !p->finalized) {
        p->ctl_lost = 1;
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
    }
}

void daemon_forward_rank_msg(daemon_t *d, daemon_proc_t *p, uint32_t type,
                             const void *data, uint32_t len)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_u32(&b, p->inc);
    proto_put_u32(&b, type);
    proto_put_bytes(&b, data, len);
    rt_link_send_buf(d->head, DH_RANK, &b);
    proto_buf_free(&b);
}

static void ctl_handle(daemon_t *d, daemon_proc_t *p, uint32_t type,
                       const void *data, uint32_t len)
{
    switch (type) {
    case PR_HELLO: {
        proto_rd_t r;
        proto_rd_init(&r, data, len);
        proto_get_i32(&r);
        int32_t pid = proto_get_i32(&r);
        p->hello = 1;
        if (!r.err && pid > 0 && pid != p->pid) {
            /* started through a wrapper: the MPI process is a descendant */
            shmseg_slot_t *s = shmseg_slot(d->shm, d->slot_of_rank[p->rank]);
            atomic_store(&s->pid, pid);
        }
        daemon_forward_rank_msg(d, p, type, data, len);
        break;
    }
    case PR_FINALIZE:
        p->finalized = 1;
        daemon_forward_rank_msg(d, p, type, data, len);
        break;
    case PR_ABORT:
        /* What the rank wrote before it called MPI_Abort comes first. */
        daemon_io_drain(p->io[0]);
        daemon_io_drain(p->io[1]);
        daemon_forward_rank_msg(d, p, type, data, len);
        break;
    case PR_FAULT:
        /* Armed fault point reached: the head records it, we kill. */
        daemon_forward_rank_msg(d, p, type, data, len);
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        break;
    default:
        daemon_forward_rank_msg(d, p, type, data, len);
        break;
    }
}

/* Read and forward everything the rank has sent. */
static void ctl_read(daemon_t *d, daemon_proc_t *p)
{
    if (!p->ctl_open)
        return;
    long n = proto_conn_fill(&p->ctl);
    uint32_t type, len;
    const void *data;
    int rc;
    while ((rc = proto_conn_next(&p->ctl, &type, &data, &len)) == 1)
        ctl_handle(d, p, type, data, len);
    if (rc < 0 || n < 0) {
        ctl_close(d, p);
        if (p->running && p->hello && !p->finalized && !p->ctl_timer)
            p->ctl_timer = evloop_timer_add(d->loop, CTL_LOST_GRACE_S,
                                            ctl_lost_timer, p);
    }
}

static void ctl_notify(daemon_t *d, daemon_proc_t *p)
{
    shmseg_ctl_notify(shmseg_slot(d->shm, d->slot_of_rank[p->rank]));
}

static void ctl_on_fd(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    daemon_proc_t *p = arg;
    daemon_t *d = p->d;
    if (ev & EPOLLOUT) {
        size_t before = p->ctl.out_off;
        int rc = proto_conn_flush(&p->ctl);
        if (p->ctl.out_off != before || rc == 1)
            ctl_notify(d, p);
        if (rc == 1)
            evloop_mod_fd(loop, fd, EPOLLIN);
        if (rc < 0) {
            ctl_read(d, p);
            ctl_close(d, p);
            return;
        }
    }
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR))
        ctl_read(d, p);
}

void daemon_ctl_open(daemon_t *d, daemon_proc_t *p, int fd)
{
    proto_conn_init(&p->ctl, fd);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    p->ctl_open = evloop_add_fd(d->loop, fd, EPOLLIN, ctl_on_fd, p) == 0;
    if (!p->ctl_open)
        close(fd);
}

/* Deliver one message to a rank and ring its doorbell. */
static void ctl_send(daemon_t *d, daemon_proc_t *p, uint32_t type,
                     const void *data, size_t len)
{
    if (!p->ctl_open)
        return;
    int had = proto_conn_pending(&p->ctl);
    int rc = proto_conn_send(&p->ctl, type, data, len);
    if (rc < 0)
        return; /* the rank is gone; its exit will be reported */
    if (!had && proto_conn_pending(&p->ctl))
        evloop_mod_fd(d->loop, p->ctl.fd, EPOLLIN | EPOLLOUT);
    ctl_notify(d, p);
}

/* ------------------------------------------------------------- reaping */

void daemon_send_exited(daemon_t *d, daemon_proc_t *p, int sig, int code)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_u32(&b, p->inc);
    proto_put_i32(&b, p->pid);
    proto_put_i32(&b, sig);
    proto_put_i32(&b, code);
    proto_put_i32(&b, p->exec_errno);
    proto_put_i32(&b, p->ctl_lost);
    rt_link_send_buf(d->head, DH_EXITED, &b);
    proto_buf_free(&b);
}

static daemon_proc_t *running_proc(daemon_t *d, pid_t pid)
{
    for (int i = 0; i < d->nslots; i++)
        if (d->procs[i].running && d->procs[i].pid == pid)
            return &d->procs[i];
    return NULL;
}

static void stop_expired(evloop_t *loop, void *arg)
{
    daemon_proc_t *p = arg;
    p->stop_timer = 0;
    if (!p->running)
        return;
    fprintf(stderr, "ftmpi: host %d: rank %d (pid %d) stopped for %g s: "
            "killing it\n", p->d->hostid, p->rank, (int)p->pid,
            p->d->stop_timeout);
    kill(-p->pid, SIGKILL);
    kill(p->pid, SIGKILL);
}

static void child_stopped(evloop_t *loop, pid_t pid, int status, void *arg)
{
    daemon_proc_t *p = running_proc(arg, pid);
    if (!p)
        return;
    if (p->stop_timer)
        evloop_timer_cancel(loop, p->stop_timer);
    p->stop_timer = 0;
    if (WIFSTOPPED(status))
        p->stop_timer = evloop_timer_add(loop, p->d->stop_timeout,
                                         stop_expired, p);
}

void daemon_set_stop_timeout(daemon_t *d, double seconds)
{
    d->stop_timeout = seconds;
    evloop_on_child_stop(d->loop, seconds > 0 ? child_stopped : NULL, d);
}

void daemon_child_exited(evloop_t *loop, pid_t pid, int status, void *arg)
{
    daemon_t *d = arg;
    daemon_proc_t *p = NULL;
    int slot_no = -1;
    for (int i = 0; i < d->nslots; i++)
        if (d->procs[i].running && d->procs[i].pid == pid) {
            p = &d->procs[i];
            slot_no = i;
            break;
        }
    if (!p)
        return;
    p->running = 0;
    if (p->ctl_timer) {
        evloop_timer_cancel(loop, p->ctl_timer);
        p->ctl_timer = 0;
    }
    if (p->stop_timer) {
        evloop_timer_cancel(loop, p->stop_timer);
        p->stop_timer = 0;
    }
    /* Everything the process said before it died goes first. */
    ctl_read(d, p);
    ctl_close(d, p);
    daemon_io_drain(p->io[0]);
    daemon_io_drain(p->io[1]);
    if (p->errpipe >= 0) {
        int e = 0;
        if (read(p->errpipe, &e, sizeof e) == (ssize_t)sizeof e)
            p->exec_errno = e;
        close(p->errpipe);
        p->errpipe = -1;
    }
    /* The slot is dead: tell every local rank through shared memory. */
    shmseg_slot_t *s = shmseg_slot(d->shm, (uint32_t)slot_no);
    atomic_store(&s->state, SHMSEG_SLOT_DEAD);
    for (int i = 0; i < d->nslots; i++) {
        shmseg_slot_t *o = shmseg_slot(d->shm, (uint32_t)i);
        if (i != slot_no && atomic_load(&o->state) == SHMSEG_SLOT_LIVE)
            shmseg_wake(o);
    }
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    daemon_send_exited(d, p, sig, code);
}

/* ------------------------------------------------------- head messages */

static int daemon_configure(daemon_t *d, const void *data, size_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    d->hostid = proto_get_i32(&r);
    d->nslots = proto_get_i32(&r);
    d->ring_bytes = proto_get_u32(&r);
    d->size = proto_get_i32(&r);
    d->tag_output = proto_get_i32(&r);
    d->stdin_rank = proto_get_i32(&r);
    proto_get_str(&r, d->jobid, sizeof d->jobid);
    d->cwd = proto_get_strdup(&r);
    d->stdin_fwd = d->output_local && d->stdin_rank >= 0 && isatty(0);
    uint32_t argc = proto_get_u32(&r);
    if (r.err || argc == 0 || argc > 65536 || d->nslots <= 0 ||
        d->size <= 0 || d->nslots > d->size)
        return -EPROTO;
    d->argv = calloc(argc + 1, sizeof *d->argv);
    if (!d->argv)
        return -ENOMEM;
    for (uint32_t i = 0; i < argc; i++)
        d->argv[i] = proto_get_strdup(&r);
    uint32_t nenv = proto_get_u32(&r);
    if (r.err || nenv > 65536)
        return -EPROTO;
    char **extra = calloc(nenv + 1, sizeof *extra);
    if (!extra)
        return -ENOMEM;
    for (uint32_t i = 0; i < nenv; i++)
        extra[i] = proto_get_strdup(&r);
    int nlaunch = proto_get_i32(&r); /* launch ranks here (binding) */
    int rc = r.err ? r.err : daemon_build_env(d, extra, (int)nenv);
    for (uint32_t i = 0; i < nenv; i++)
        free(extra[i]);
    free(extra);
    if (rc)
        return rc;

    d->procs = calloc((size_t)d->nslots, sizeof *d->procs);
    d->slot_of_rank = malloc((size_t)d->size * sizeof *d->slot_of_rank);
    if (!d->procs || !d->slot_of_rank)
        return -ENOMEM;
    for (int i = 0; i < d->size; i++)
        d->slot_of_rank[i] = -1;
    for (int i = 0; i < d->nslots; i++) {
        d->procs[i].d = d;
        d->procs[i].errpipe = -1;
        d->procs[i].cpu = -1;
    }
    if ((rc = daemon_bind_init(d, nlaunch)))
        return rc;

    /* The host's segment: anonymous, sized, initialised. */
    if (d->ring_bytes < 64 || (d->ring_bytes & (d->ring_bytes - 1)))
        return -EINVAL;
    d->shm_size = shmseg_size((uint32_t)d->nslots, d->ring_bytes);
    d->shm_fd = memfd_create("ftmpi-shm", MFD_CLOEXEC);
    if (d->shm_fd < 0)
        return -errno;
    if (ftruncate(d->shm_fd, (off_t)d->shm_size) < 0)
        return -errno;
    d->shm = mmap(NULL, d->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                  d->shm_fd, 0);
    if (d->shm == MAP_FAILED) {
        d->shm = NULL;
        return -errno;
    }
    shmseg_init(d->shm, (uint32_t)d->nslots, d->ring_bytes);
    for (int i = 0; i < d->nslots; i++)
        shmseg_slot(d->shm, (uint32_t)i)->world_rank = -1;
    d->configured = 1;
    daemon_usage_start(d);
    return 0;
}

static void head_spawn(daemon_t *d, const void *data, size_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int rank = proto_get_i32(&r);
    int slot = proto_get_i32(&r);
    uint32_t inc = proto_get_u32(&r);
    uint32_t gen = proto_get_u32(&r);
    int restarted = proto_get_i32(&r);
    char *faults = proto_get_strdup(&r);
    daemon_cmd_t *cmd = NULL;
    if (!r.err && daemon_cmd_read(&r, &cmd) == 0 && d->configured)
        daemon_spawn(d, rank, slot, inc, gen, restarted, faults, cmd);
    daemon_cmd_free(cmd);
    free(faults);
}

static void head_to_rank(daemon_t *d, const void *data, size_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int rank = proto_get_i32(&r);
    uint32_t inc = proto_get_u32(&r);
    uint32_t type = proto_get_u32(&r);
    uint32_t n;
    const void *payload = proto_get_bytes(&r, &n);
    if (r.err)
        return;
    daemon_proc_t *p = proc_of_rank(d, rank);
    if (!p || !p->running || (inc != UINT32_MAX && inc != p->inc))
        return;
    if (type != PR_HELLO_REPLY) {
        ctl_send(d, p, type, payload, n);
        return;
    }
    /* The job's secret reaches the rank here, on its own control socket,
     * and never crosses the network (docs/runtime.md, "Security"). */
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_raw(&b, payload, n);
    proto_put_str(&b, d->secret);
    if (!b.err)
        ctl_send(d, p, type, b.data, b.len);
    proto_buf_free(&b);
}

int daemon_set_secret(daemon_t *d, const char *secret)
{
    free(d->secret);
    d->secret = strdup(secret);
    return d->secret ? 0 : -ENOMEM;
}

static void head_kill(daemon_t *d, const void *data, size_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int rank = proto_get_i32(&r);
    uint32_t inc = proto_get_u32(&r);
    int sig = proto_get_i32(&r);
    daemon_proc_t *p = proc_of_rank(d, rank);
    if (!r.err && p && p->running && (inc == UINT32_MAX || inc == p->inc)) {
        kill(-p->pid, sig);
        kill(p->pid, sig);
    }
}

static void head_check(daemon_t *d, const void *data, size_t len)
{
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int rank = proto_get_i32(&r);
    uint32_t inc = proto_get_u32(&r);
    if (r.err)
        return;
    evloop_child_poll(d->loop); /* reports an exit that is pending */
    daemon_proc_t *p = proc_of_rank(d, rank);
    if (p && p->running && p->inc == inc && kill(p->pid, 0) == 0) {
        proto_buf_t b;
        proto_buf_init(&b);
        proto_put_i32(&b, rank);
        proto_put_u32(&b, inc);
        rt_link_send_buf(d->head, DH_ALIVE, &b);
        proto_buf_free(&b);
    }
}

void daemon_on_head_msg(void *arg, uint32_t type, const void *data,
                        size_t len)
{
    daemon_t *d = arg;
    switch (type) {
    case HD_CONFIG: {
        if (d->configured)
            break;
        int rc = daemon_configure(d, data, len);
        if (rc)
            daemon_error(d, "host %d: cannot set up: %s", d->hostid,
                         strerror(-rc));
        break;
    }
    case HD_SPAWN:
        head_spawn(d, data, len);
        break;
    case HD_TO_RANK:
        head_to_rank(d, data, len);
        break;
    case HD_KILL:
        head_kill(d, data, len);
        break;
    case HD_KILL_ALL: {
        proto_rd_t r;
        proto_rd_init(&r, data, len);
        int sig = proto_get_i32(&r);
        daemon_kill_all(d, r.err ? SIGKILL : sig);
        break;
    }
    case HD_CHECK:
        head_check(d, data, len);
        break;
    case HD_EXIT:
        d->exit_requested = 1;
        break;
    default:
        break;
    }
}

void daemon_kill_all(daemon_t *d, int sig)
{
    for (int i = 0; i < d->nslots; i++) {
        daemon_proc_t *p = &d->procs[i];
        if (p->running) {
            kill(-p->pid, sig);
            kill(p->pid, sig);
        }
    }
}

int daemon_nrunning(const daemon_t *d)
{
    int n = 0;
    for (int i = 0; i < d->nslots; i++)
        n += d->procs[i].running;
    return n;
}

int daemon_exit_requested(const daemon_t *d) { return d->exit_requested; }

void daemon_flush_output(daemon_t *d) { daemon_io_flush_all(d); }
