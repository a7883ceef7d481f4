/* Head: messages from the daemons and, through them, from the ranks. */
#include "head_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------ rank messages */

static void send_hello_reply(head_t *h, head_proc_t *p)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_i32(&b, h->nprocs);
    proto_put_u32(&b, p->inc);
    proto_put_i32(&b, p->inc > 0);
    proto_put_u32(&b, h->generation);
    proto_put_i32(&b, p->hostid);
    proto_put_i32(&b, h->hosts[p->hostid].nslots);
    proto_put_i32(&b, p->slot);
    proto_put_str(&b, h->jobid);
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *q = &h->procs[r];
        int pid = head_live(q) ? (q->mpi_pid ? q->mpi_pid : q->pid) : 0;
        proto_put_i32(&b, pid);
        /* an id MPI_Comm_spawn has not started yet has no slot */
        int known = q->rank < h->size || head_live(q);
        proto_put_i32(&b, q->hostid == p->hostid && known ? q->slot : -1);
    }
    for (int r = 0; r < h->nprocs; r++)
        proto_put_i32(&b, h->procs[r].hostid);
    for (int r = 0; r < h->nprocs; r++)
        proto_put_i32(&b, h->procs[r].launch_hostid);
    head_to_rank(h, p, PR_HELLO_REPLY, &b);
    proto_buf_free(&b);
    p->hello_pending = 0;
}

static void on_abort(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    int code = proto_get_i32(r);
    char *msg = proto_get_strdup(r);
    char line[1024];
    snprintf(line, sizeof line, "ftmpirun: rank %d (pid %d, host %s) called "
             "MPI_Abort with error code %d%s%s; killing all processes",
             p->rank, (int)p->pid, h->hosts[p->hostid].name, code,
             msg && msg[0] ? ": " : "", msg ? msg : "");
    evlog_event(&h->log, "mpi_abort", "\"rank\":%d,\"pid\":%d,\"code\":%d,"
                "\"message\":\"%s\"", p->rank, (int)p->pid, code,
                evlog_esc(msg ? msg : ""));
    free(msg);
    head_kill_job(h, code & 0xff, line);
}

static void on_fault(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    char name[256];
    proto_get_str(r, name, sizeof name);
    long value = (long)proto_get_i64(r);
    if (r->err)
        return;
    for (int i = 0; i < h->o->nfaults; i++) {
        ftrun_fault_t *f = &((ftrun_opts_t *)h->o)->faults[i];
        if (!f->fired && f->rank == p->rank && strcmp(f->name, name) == 0 &&
            (!f->has_value || f->value == value)) {
            f->fired = 1;
            break;
        }
    }
    evlog_event(&h->log, "kill", "\"rank\":%d,\"pid\":%d,\"incarnation\":%u,"
                "\"signal\":9,\"reason\":\"--kill-at\",\"point\":\"%s\","
                "\"value\":%ld", p->rank, (int)p->pid, p->inc,
                evlog_esc(name), value);
    if (h->o->verbose)
        fprintf(stderr, "ftmpirun: --kill-at: rank %d reached %s=%ld\n",
                p->rank, name, value);
}

static void on_suspect(head_t *h, head_proc_t *by, proto_rd_t *r)
{
    int rank = proto_get_i32(r);
    if (r->err || rank < 0 || rank >= h->nprocs)
        return;
    head_proc_t *p = &h->procs[rank];
    evlog_event(&h->log, "suspect", "\"rank\":%d,\"by\":%d,\"state\":\"%s\"",
                rank, by->rank, head_live(p) ? "live" : "failed");
    if (!head_live(p) || p->state == HP_UNAVAILABLE || !p->started)
        return;
    p->saved_state = p->state;
    p->state = HP_UNAVAILABLE;
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, p->rank);
    proto_put_u32(&b, p->inc);
    head_host_send(&h->hosts[p->hostid], HD_CHECK, &b);
    proto_buf_free(&b);
}

static void on_rank_msg(head_t *h, head_proc_t *p, uint32_t type,
                        proto_rd_t *r)
{
    switch (type) {
    case PR_HELLO:
        proto_get_i32(r);
        p->mpi_pid = proto_get_i32(r);
        p->hello = 1;
        head_spawn_hello(h, p);
        if (h->launch_done)
            send_hello_reply(h, p);
        else
            p->hello_pending = 1;
        break;
    case PR_KV_PUT:
        head_kv_put(h, p, r);
        break;
    case PR_KV_GET:
        head_kv_get(h, p, r);
        break;
    case PR_FENCE:
        head_fence_enter(h, p, 0);
        break;
    case PR_FINALIZE:
        p->finalized = 1;
        h->any_finalized = 1;
        head_fence_enter(h, p, 1);
        break;
    case PR_ABORT:
        on_abort(h, p, r);
        break;
    case PR_FAULT:
        on_fault(h, p, r);
        break;
    case PR_SUSPECT:
        on_suspect(h, p, r);
        break;
    case PR_JOIN:
        head_recovery_join(h, p, proto_get_u32(r));
        break;
    case PR_AGREE:
        head_agree_vote(h, p, r);
        break;
    case PR_NOTE:
        head_note(h, p, r);
        break;
    case PR_SPAWN:
        head_spawn_request(h, p, r);
        break;
    default:
        break;
    }
}

static void on_started(head_t *h, head_host_t *host, proto_rd_t *r)
{
    int rank = proto_get_i32(r);
    uint32_t inc = proto_get_u32(r);
    int pid = proto_get_i32(r);
    if (r->err || rank < 0 || rank >= h->nprocs)
        return;
    head_proc_t *p = &h->procs[rank];
    if (p->inc != inc || p->started)
        return;
    p->pid = pid;
    p->started = 1;
    p->start_t = evloop_now() - h->t0;
    if (p->state == HP_STARTING)
        p->state = HP_OK;
    evlog_event(&h->log, "proc_start", "\"rank\":%d,\"pid\":%d,"
                "\"incarnation\":%u,\"host\":\"%s\",\"slot\":%d",
                rank, pid, inc, evlog_esc(host->name), p->slot);
    if (inc > 0) {
        evlog_event(&h->log, "replaced", "\"rank\":%d,\"pid\":%d,"
                    "\"incarnation\":%u,\"replaced_by\":%d,"
                    "\"new_incarnation\":%u,\"host\":\"%s\"",
                    rank, (int)p->prev_pid, inc - 1, pid, inc,
                    evlog_esc(host->name));
        if (h->o->verbose)
            fprintf(stderr, "ftmpirun: rank %d replaced by pid %d "
                    "(incarnation %u)\n", rank, pid, inc);
    }
    if (!h->launch_done && inc == 0 && ++h->nstarted_initial == h->size) {
        h->launch_done = 1;
        for (int i = 0; i < h->size; i++)
            if (h->procs[i].hello_pending)
                send_hello_reply(h, &h->procs[i]);
    }
}

void head_host_msg(void *arg, uint32_t type, const void *data, size_t len)
{
    head_host_t *host = arg;
    head_t *h = host->h;
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    switch (type) {
    case DH_STARTED:
        on_started(h, host, &r);
        break;
    case DH_EXITED:
        head_on_exited(h, host, &r);
        break;
    case DH_RANK: {
        int rank = proto_get_i32(&r);
        uint32_t inc = proto_get_u32(&r);
        uint32_t inner = proto_get_u32(&r);
        uint32_t n;
        const void *payload = proto_get_bytes(&r, &n);
        if (r.err || rank < 0 || rank >= h->nprocs)
            break;
        head_proc_t *p = &h->procs[rank];
        if (p->inc != inc || !head_live(p) || h->phase != PH_RUN)
            break;
        proto_rd_t in;
        proto_rd_init(&in, payload, n);
        on_rank_msg(h, p, inner, &in);
        break;
    }
    case DH_OUTPUT: {
        proto_get_i32(&r);
        int stream = proto_get_i32(&r);
        uint32_t n;
        const char *p = proto_get_bytes(&r, &n);
        int fd = stream == 2 ? 2 : 1;
        while (!r.err && n > 0) {
            ssize_t w = write(fd, p, n);
            if (w <= 0 && errno != EINTR)
                break;
            if (w > 0) {
                p += w;
                n -= (uint32_t)w;
            }
        }
        break;
    }
    case DH_ALIVE: {
        int rank = proto_get_i32(&r);
        uint32_t inc = proto_get_u32(&r);
        if (r.err || rank < 0 || rank >= h->nprocs)
            break;
        head_proc_t *p = &h->procs[rank];
        if (p->inc == inc && p->state == HP_UNAVAILABLE) {
            p->state = p->saved_state;
            evlog_event(&h->log, "suspect_cleared", "\"rank\":%d", rank);
        }
        break;
    }
    case DH_ERROR: {
        char msg[600], line[900];
        proto_get_str(&r, msg, sizeof msg);
        snprintf(line, sizeof line, "ftmpirun: daemon of host %s: %s",
                 host->name, msg);
        head_kill_job(h, 1, line);
        break;
    }
    default:
        break;
    }
}
