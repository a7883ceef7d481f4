/* Target side: requests taken from the progress engine, in arrival order;
 * passive-target locks. */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "rma/rma_wire.h"

typedef struct {
    list_node_t link;
    req_t *r;
    char *buf;
} rma_in_t;

typedef struct {
    list_node_t link;
    req_t *r;
    void *buf;
} rma_out_t;

/* Send a reply (buf is ours from now on). */
static void reply(win_t *w, int to, uint32_t tag, void *buf, size_t len)
{
    rma_out_t *o = malloc(sizeof(*o));
    req_t *r = o ? req_new_p2p(REQ_SEND, w->comm, buf, (int)len, dt_get(MPI_BYTE), to, (int)tag,
                               SEND_STANDARD, 0)
                 : NULL;
    if (!r || p2p_start_send(r) != MPI_SUCCESS) {
        /* The origin is gone or we are out of memory: its flush fails on its
         * own (a dead peer) or waits for a reply that cannot be made. */
        if (r)
            req_free(r);
        free(o);
        free(buf);
        return;
    }
    o->r = r;
    o->buf = buf;
    list_add_tail(&w->tsends, &o->link);
}

static void reply_status(win_t *w, int to, uint32_t tag, int32_t st)
{
    int32_t *b = malloc(sizeof(*b));
    if (!b)
        return;
    *b = st;
    reply(w, to, tag, b, sizeof(*b));
}

/* The outcome of a request without a reply: kept for the next flush. */
static void note_status(win_t *w, int origin, int32_t st)
{
    if (st != MPI_SUCCESS && w->terr[origin] == MPI_SUCCESS)
        w->terr[origin] = st;
}

/* The status an unlock or flush answers: what the origin's requests
 * without a reply met since the last one. */
static int32_t take_status(win_t *w, int origin)
{
    int32_t st = w->terr[origin];
    w->terr[origin] = MPI_SUCCESS;
    return st;
}

/* Target address of a request, or NULL when its runs leave the window. */
static char *target_base(win_t *w, const rma_hdr_t *h, const rma_run_t *runs)
{
    int64_t lo = 0, hi = 0;
    for (uint64_t i = 0; i < h->nruns; i++) {
        dt_kind_t k = (dt_kind_t)runs[i].kind;
        int64_t a = runs[i].disp;
        int64_t b = a + (int64_t)((runs[i].n - 1) * (uint64_t)dt_kind_extent(k) + dt_kind_size(k));
        if (i == 0 || a < lo)
            lo = a;
        if (i == 0 || b > hi)
            hi = b;
    }
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        if (h->disp + lo < 0 || h->disp + hi > (int64_t)w->bytes)
            return NULL;
        return (char *)w->base + h->disp;
    }
    uintptr_t a = (uintptr_t)(h->disp + lo), b = (uintptr_t)(h->disp + hi);
    list_node_t *n;
    list_for_each(n, &w->regions) {
        rma_region_t *g = list_entry(n, rma_region_t, link);
        if (a >= g->base && b <= g->base + g->size)
            return (char *)(uintptr_t)h->disp;
    }
    return NULL;
}

static int grantable(win_t *w, int type)
{
    if (w->excl_holder >= 0)
        return 0;
    return type == MPI_LOCK_SHARED || w->nshared == 0;
}

static void grant(win_t *w, int origin, int type, uint32_t tag)
{
    if (type == MPI_LOCK_EXCLUSIVE) {
        w->excl_holder = origin;
    } else {
        w->nshared++;
        w->shared_by[origin]++;
    }
    reply_status(w, origin, tag, MPI_SUCCESS);
}

static void grant_waiting(win_t *w)
{
    while (!list_empty(&w->lockq)) {
        rma_lockreq_t *q = list_entry(w->lockq.next, rma_lockreq_t, link);
        if (!rma_peer_dead(w, q->origin) && !grantable(w, q->type))
            return;
        list_del(&q->link);
        if (!rma_peer_dead(w, q->origin))
            grant(w, q->origin, q->type, (uint32_t)q->tag);
        free(q);
    }
}

void rma_lock_release_dead(win_t *w)
{
    if (w->excl_holder < 0 && w->nshared == 0)
        return;
    int changed = 0;
    if (w->excl_holder >= 0 && rma_peer_dead(w, w->excl_holder)) {
        w->excl_holder = -1;
        changed = 1;
    }
    for (int r = 0; r < w->size && w->nshared > 0; r++)
        if (w->shared_by[r] && rma_peer_dead(w, r)) {
            w->nshared -= w->shared_by[r];
            w->shared_by[r] = 0;
            changed = 1;
        }
    if (changed)
        grant_waiting(w);
}

static void lock_request(win_t *w, int src, const rma_hdr_t *h)
{
    if (h->kind == RMA_UNLOCK) {
        if (w->excl_holder == src) {
            w->excl_holder = -1;
        } else if (w->shared_by[src] > 0) {
            w->shared_by[src]--;
            w->nshared--;
        }
        reply_status(w, src, h->tag, take_status(w, src));
        grant_waiting(w);
        return;
    }
    if (list_empty(&w->lockq) && grantable(w, h->op)) {
        grant(w, src, h->op, h->tag);
        return;
    }
    rma_lockreq_t *q = malloc(sizeof(*q));
    if (!q)
        return;
    q->origin = src;
    q->type = h->op;
    q->tag = (int)h->tag;
    list_add_tail(&w->lockq, &q->link);
}

static void handle_one(win_t *w, int src, rma_hdr_t *h)
{
    if (h->kind == RMA_LOCK || h->kind == RMA_UNLOCK) {
        lock_request(w, src, h);
        return;
    }
    if (h->kind == RMA_FLUSH) { /* the requests before it are done */
        reply_status(w, src, h->tag, take_status(w, src));
        return;
    }
    char *msg = (char *)h;
    rma_run_t *runs = (rma_run_t *)(msg + sizeof(*h));
    char *data = msg + sizeof(*h) + h->nruns * sizeof(rma_run_t);
    size_t tbytes = rma_runs_bytes(runs, h->nruns);
    char *base = target_base(w, h, runs);
    int data_reply = h->kind == RMA_GET || h->kind == RMA_GACC || h->kind == RMA_CAS;
    if (!base) {
        if (data_reply)
            reply(w, src, h->tag, NULL, 0);
        else
            note_status(w, src, MPI_ERR_RMA_RANGE);
        return;
    }
    op_t *op = NULL;
    if (h->kind == RMA_ACC || h->kind == RMA_GACC) {
        op = op_get(h->op);
        if (op && op->handle == MPI_REPLACE)
            op = NULL;
    }
    int st = MPI_SUCCESS;
    char *out = data_reply ? malloc(tbytes ? tbytes : 1) : NULL;
    if (data_reply && !out) {
        reply(w, src, h->tag, NULL, 0);
        return;
    }
    if (w->seg)
        rma_shm_lock(w);
    switch (h->kind) {
    case RMA_PUT:
        rma_apply(base, runs, h->nruns, data, NULL, NULL);
        break;
    case RMA_ACC:
        if (!op || op->handle != MPI_NO_OP)
            st = rma_apply(base, runs, h->nruns, data, op, NULL);
        break;
    case RMA_GET:
        rma_copy_out(base, runs, h->nruns, out);
        break;
    case RMA_GACC:
        if (op && op->handle == MPI_NO_OP)
            rma_copy_out(base, runs, h->nruns, out);
        else
            st = rma_apply(base, runs, h->nruns, data, op, out);
        break;
    case RMA_CAS:
        rma_copy_out(base, runs, h->nruns, out);
        if (h->data == 2 * tbytes && memcmp(out, data, tbytes) == 0)
            rma_apply(base, runs, h->nruns, data + tbytes, NULL, NULL);
        break;
    default:
        st = MPI_ERR_INTERN;
    }
    if (w->seg)
        rma_shm_unlock(w);
    if (data_reply)
        reply(w, src, h->tag, out, st == MPI_SUCCESS ? tbytes : 0);
    else
        note_status(w, src, st);
}

/* A message: requests back to back (rma_wire.h), applied in order. */
static void handle(win_t *w, int src, char *msg, size_t len)
{
    size_t off = 0;
    while (len - off >= sizeof(rma_hdr_t)) {
        rma_hdr_t *h = (rma_hdr_t *)(msg + off);
        size_t room = len - off - sizeof(*h);
        if (h->nruns > room / sizeof(rma_run_t) ||
            rma_pad8(h->data) > room - h->nruns * sizeof(rma_run_t))
            return; /* not ours */
        handle_one(w, src, h);
        off += sizeof(*h) + h->nruns * sizeof(rma_run_t) + rma_pad8(h->data);
    }
}

void rma_target_poll(win_t *w)
{
    dt_t *byte = dt_get(MPI_BYTE);
    for (;;) {
        int found = 0;
        MPI_Status st;
        umsg_t *m = NULL;
        if (p2p_probe(w->comm, MPI_ANY_SOURCE, RMA_TAG_REQ, 1, &found, &st, &m) != MPI_SUCCESS ||
            !found || !m)
            break;
        size_t len = (size_t)st.ftmpi_count;
        rma_in_t *in = malloc(sizeof(*in));
        char *buf = malloc(len ? len : 1);
        req_t *r = in && buf ? req_new_p2p(REQ_RECV, w->comm, buf, (int)len, byte, st.MPI_SOURCE,
                                           RMA_TAG_REQ, SEND_STANDARD, 0)
                             : NULL;
        if (!r) {
            free(in);
            free(buf);
            break; /* the message stays lost: out of memory */
        }
        p2p_start_mrecv(r, m);
        in->r = r;
        in->buf = buf;
        list_add_tail(&w->inq, &in->link);
    }
    while (!list_empty(&w->inq)) {
        rma_in_t *in = list_entry(w->inq.next, rma_in_t, link);
        if (!in->r->complete)
            break;
        list_del(&in->link);
        if (in->r->status.MPI_ERROR == MPI_SUCCESS)
            handle(w, in->r->status.MPI_SOURCE, in->buf, (size_t)in->r->status.ftmpi_count);
        req_free(in->r);
        free(in->buf);
        free(in);
    }
    list_node_t *n, *t;
    list_for_each_safe(n, t, &w->tsends) {
        rma_out_t *o = list_entry(n, rma_out_t, link);
        if (!o->r->complete)
            continue;
        list_del(&o->link);
        req_free(o->r);
        free(o->buf);
        free(o);
    }
    rma_lock_release_dead(w);
}

int rma_progress(void)
{
    list_node_t *n;
    list_for_each(n, rma_windows()) {
        win_t *w = list_entry(n, win_t, all);
        int cut = rma_cut(w);
        if (cut != MPI_SUCCESS)
            p2p_fail_pending(w->comm, cut, P2P_ALL); /* what was posted since */
        else if (w->comm->state != COMM_FAILED)
            rma_target_poll(w);
    }
    return 0;
}

void rma_target_drain(win_t *w)
{
    int healthy = rma_healthy(w);
    while (!list_empty(&w->tsends)) {
        rma_out_t *o = list_entry(w->tsends.next, rma_out_t, link);
        list_del(&o->link);
        if (!o->r->complete && !healthy) {
            free(o); /* cut off by a failure: request and buffer stay unused */
            continue;
        }
        if (!o->r->complete)
            progress_wait_req(o->r);
        req_free(o->r);
        free(o->buf);
        free(o);
    }
    while (!list_empty(&w->inq)) {
        rma_in_t *in = list_entry(w->inq.next, rma_in_t, link);
        list_del(&in->link);
        if (!in->r->complete && !healthy) {
            free(in);
            continue;
        }
        if (!in->r->complete)
            progress_wait_req(in->r);
        req_free(in->r);
        free(in->buf);
        free(in);
    }
    while (!list_empty(&w->lockq)) {
        rma_lockreq_t *q = list_entry(w->lockq.next, rma_lockreq_t, link);
        list_del(&q->link);
        free(q);
    }
}
