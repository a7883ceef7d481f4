/* Origin side of RMA operations over messages: requests gathered per
 * target, replies, completion bookkeeping. */
#include "rma/rma.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/proc.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "rma/rma_wire.h"

typedef struct rma_op {
    list_node_t link;
    win_t *w;
    int target;
    req_t *send, *reply, *ureq;
    void *msg;
    int32_t st;     /* the status a lock, unlock or flush gets back */
} rma_op_t;

/* ---- messages ------------------------------------------------------------ */

static void reply_done(req_t *r)
{
    rma_op_t *o = r->ctx;
    win_t *w = o->w;
    int err = r->status.MPI_ERROR;
    if (err == MPI_SUCCESS && o->st != MPI_SUCCESS)
        err = o->st;
    w->pending[o->target]--;
    if (err != MPI_SUCCESS && w->err[o->target] == MPI_SUCCESS)
        w->err[o->target] = err;
    if (o->ureq) {
        o->ureq->status.MPI_ERROR = err;
        req_complete(o->ureq);
        o->ureq = NULL;
    }
}

/* A data reply: an empty one says the target refused (rma_wire.h). */
static void data_reply_done(req_t *r)
{
    if (r->status.MPI_ERROR == MPI_SUCCESS && r->status.ftmpi_count == 0 && r->bytes != 0)
        r->status.MPI_ERROR = MPI_ERR_RMA_RANGE;
    reply_done(r);
}

/* Operations a failure cut off, whose requests p2p may still hold: they
 * are freed once those have completed (rma_reap). */
static list_node_t orphans = LIST_INIT(orphans);

static void op_free(rma_op_t *o)
{
    if (o->send)
        req_free(o->send);
    if (o->reply)
        req_free(o->reply);
    free(o->msg);
    free(o);
}

void rma_reap(void)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &orphans) {
        rma_op_t *o = list_entry(n, rma_op_t, link);
        if (o->reply && !o->reply->complete)
            p2p_cancel(o->reply); /* nobody will answer it */
        if ((o->reply && !o->reply->complete) || (o->send && !o->send->complete))
            continue;
        list_del(&o->link);
        op_free(o);
    }
}

void rma_sweep(win_t *w, int all)
{
    list_node_t *n, *t;
    rma_reap();
    list_for_each_safe(n, t, &w->ops) {
        rma_op_t *o = list_entry(n, rma_op_t, link);
        int busy = (o->reply && !o->reply->complete) || (o->send && !o->send->complete);
        if (!all && busy)
            continue;
        if (busy && !rma_healthy(w)) {
            /* A failure or a recovery cut it off: nothing may complete it
             * any more (the communicator is gone). Its request objects and
             * buffer stay with the library until p2p is done with them
             * (rma_reap); the operation ends. */
            if (o->reply)
                o->reply->on_done = NULL;
            if (o->ureq) {
                o->ureq->status.MPI_ERROR = MPI_ERR_OTHER;
                req_complete(o->ureq);
            }
            list_del(&o->link);
            w->nops--;
            list_add_tail(&orphans, &o->link);
            continue;
        }
        if (o->send && !o->send->complete)
            progress_wait_req(o->send);
        if (o->reply && !o->reply->complete)
            progress_wait_req(o->reply);
        list_del(&o->link);
        w->nops--;
        op_free(o);
    }
}

static uint32_t take_tag(win_t *w)
{
    uint32_t t = w->next_tag++;
    if (w->next_tag > (uint32_t)FTMPI_TAG_UB)
        w->next_tag = RMA_TAG_FIRST_REPLY;
    return t;
}

/* Room for len more bytes at the end of target t's batch. */
static char *batch_reserve(win_t *w, int t, size_t len)
{
    rma_batch_t *b = &w->batch[t];
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : RMA_BATCH_MAX;
        while (cap < b->len + len)
            cap *= 2;
        char *n = realloc(b->buf, cap);
        if (!n)
            return NULL;
        b->buf = n;
        b->cap = cap;
    }
    char *p = b->buf + b->len;
    b->len += len;
    return p;
}

/* Send target t's batch as one message (the buffer goes with it). */
static int batch_send(win_t *w, int t)
{
    rma_batch_t *b = &w->batch[t];
    if (!b->len)
        return MPI_SUCCESS;
    rma_op_t *o = calloc(1, sizeof(*o));
    req_t *s = o ? req_new_p2p(REQ_SEND, w->comm, b->buf, (int)b->len, dt_get(MPI_BYTE), t,
                               RMA_TAG_REQ, SEND_STANDARD, 0)
                 : NULL;
    int rc = s ? p2p_start_send(s) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        if (s)
            req_free(s);
        free(o);
        b->len = 0; /* the requests are lost: the caller reports it */
        return rc;
    }
    o->w = w;
    o->target = t;
    o->send = s;
    o->msg = b->buf;
    b->buf = NULL;
    b->len = b->cap = 0;
    list_add_tail(&w->ops, &o->link);
    w->nops++;
    return MPI_SUCCESS;
}

/* Append one request to target a->target's batch (rma_wire.h); *reply_bytes
 * gets the size of the data reply. */
static int append_req(win_t *w, const rma_args_t *a, uint32_t tag, size_t *reply_bytes)
{
    rma_run_t *runs = NULL;
    size_t nruns = 0;
    int rc = a->tdt ? rma_runs_of(a->tdt, a->tcount, &runs, &nruns) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        return rc;
    size_t tbytes = rma_runs_bytes(runs, nruns);
    size_t data = 0;
    if (a->kind == RMA_PUT || a->kind == RMA_ACC || (a->kind == RMA_GACC && a->op->handle != MPI_NO_OP))
        data = tbytes;
    else if (a->kind == RMA_CAS)
        data = 2 * tbytes;
    size_t len = sizeof(rma_hdr_t) + nruns * sizeof(rma_run_t) + rma_pad8(data);
    rma_batch_t *b = &w->batch[a->target];
    if (b->len && b->len + len > RMA_BATCH_MAX && (rc = batch_send(w, a->target)) != MPI_SUCCESS) {
        free(runs);
        return rc;
    }
    char *m = batch_reserve(w, a->target, len);
    if (!m) {
        free(runs);
        return MPI_ERR_NO_MEM;
    }
    rma_hdr_t *h = (rma_hdr_t *)m;
    memset(h, 0, sizeof(*h));
    h->kind = (uint32_t)a->kind;
    h->tag = tag;
    h->op = a->kind == RMA_LOCK ? a->locktype : a->op ? a->op->handle : MPI_REPLACE;
    h->disp = (int64_t)a->tdisp * (w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? 1 : w->disp_units[a->target]);
    h->nruns = nruns;
    h->data = data;
    if (nruns) /* runs is NULL when there are none */
        memcpy(m + sizeof(*h), runs, nruns * sizeof(rma_run_t));
    char *d = m + sizeof(*h) + nruns * sizeof(rma_run_t);
    if (a->kind == RMA_CAS) {
        memcpy(d, a->cbuf, tbytes);
        memcpy(d + tbytes, a->obuf, tbytes);
    } else if (data) {
        dt_pack(a->odt, (size_t)a->ocount, a->obuf, 0, d, tbytes);
    }
    free(runs);
    *reply_bytes = a->kind == RMA_GET || a->kind == RMA_GACC || a->kind == RMA_CAS ? tbytes : 0;
    return MPI_SUCCESS;
}

static int new_user_req(win_t *w, req_t **ureq)
{
    req_t *u = req_alloc(REQ_COLL);
    if (!u)
        return MPI_ERR_NO_MEM;
    u->comm = w->comm;
    comm_retain(w->comm);
    u->status.MPI_SOURCE = MPI_ANY_SOURCE;
    u->status.MPI_TAG = MPI_ANY_TAG;
    u->status.MPI_ERROR = MPI_SUCCESS;
    *ureq = u;
    return MPI_SUCCESS;
}

static void finish_user_req(req_t **ureq, int rc)
{
    if (!ureq)
        return;
    if (rc != MPI_SUCCESS) {
        req_free(*ureq);
        *ureq = NULL;
        return;
    }
    req_complete(*ureq);
}

/* A request with a reply (get, get-accumulate, compare-and-swap, lock,
 * unlock, flush): the reply's receive is posted, then the batch goes. */
static int start_with_reply(win_t *w, const rma_args_t *a, req_t **ureq)
{
    rma_op_t *o = calloc(1, sizeof(*o));
    uint32_t tag = take_tag(w);
    size_t rbytes = 0;
    int rc = o ? append_req(w, a, tag, &rbytes) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        free(o);
        finish_user_req(ureq, rc);
        return rc;
    }
    o->w = w;
    o->target = a->target;
    if (rbytes)
        o->reply = req_new_p2p(REQ_RECV, w->comm, a->rbuf, a->rcount, a->rdt, a->target, (int)tag,
                               SEND_STANDARD, 0);
    else
        o->reply = req_new_p2p(REQ_RECV, w->comm, &o->st, (int)sizeof(o->st), dt_get(MPI_BYTE),
                               a->target, (int)tag, SEND_STANDARD, 0);
    if (!o->reply) {
        free(o);
        w->batch[a->target].len = 0;
        finish_user_req(ureq, MPI_ERR_NO_MEM);
        return MPI_ERR_NO_MEM;
    }
    o->reply->on_done = rbytes ? data_reply_done : reply_done;
    o->reply->ctx = o;
    o->ureq = ureq ? *ureq : NULL;
    w->pending[a->target]++;
    list_add_tail(&w->ops, &o->link);
    w->nops++;
    if (a->kind == RMA_FLUSH || a->kind == RMA_UNLOCK)
        w->unflushed[a->target] = 0; /* its reply covers what went before */
    rc = p2p_start_recv(o->reply);
    if (rc == MPI_SUCCESS)
        rc = batch_send(w, a->target);
    if (rc != MPI_SUCCESS) { /* no reply will come */
        p2p_cancel(o->reply);
        if (!o->reply->complete) {
            o->reply->status.MPI_ERROR = rc;
            req_complete(o->reply);
        }
    }
    return rc;
}

int rma_start(win_t *w, const rma_args_t *a, req_t **ureq)
{
    int rc;
    if (ureq && (rc = new_user_req(w, ureq)) != MPI_SUCCESS)
        return rc;
    int ctl = a->kind == RMA_LOCK || a->kind == RMA_UNLOCK || a->kind == RMA_FLUSH;
    if (!ctl)
        w->fence_ops |= w->fence; /* the fence is an epoch now (rma.h) */
    if (a->target == MPI_PROC_NULL || (a->tcount == 0 && a->kind != RMA_CAS && !ctl)) {
        if (ureq)
            req_complete(*ureq);
        return MPI_SUCCESS;
    }
    if (w->via == RMA_VIA_CMA && !ctl && !ureq && rma_cmaq_add(w, a))
        return MPI_SUCCESS; /* sent with the queue (rma_cmaq.c) */
    rma_cmaq_drain(w); /* what was queued goes first; its error is kept for the sync call */
    /* CMA windows: puts, gets and (but small plain) accumulates directly */
    int direct = w->via == RMA_VIA_SHM ||
                 (w->via == RMA_VIA_CMA && (a->kind == RMA_PUT || a->kind == RMA_GET ||
                                            (!ctl && rma_cma_atomic_ready(w, a))));
    if (direct && !ctl) {
        rc = rma_start_direct(w, a);
        if (ureq) {
            (*ureq)->status.MPI_ERROR = rc;
            req_complete(*ureq);
        }
        return rc;
    }
    if (w->nops > 4096)
        rma_sweep(w, 0);
    if (ctl || a->kind == RMA_GET || a->kind == RMA_GACC || a->kind == RMA_CAS)
        return start_with_reply(w, a, ureq);
    /* Put, accumulate: no reply; the data is in the batch, so the origin
     * buffer is free again (local completion: an Rput's request is done). */
    size_t rbytes;
    rc = append_req(w, a, 0, &rbytes);
    if (rc == MPI_SUCCESS) {
        w->unflushed[a->target] = 1;
        if (w->batch[a->target].len >= RMA_BATCH_MAX)
            rc = batch_send(w, a->target);
    }
    finish_user_req(ureq, rc);
    return rc;
}

/* Send what is gathered for t, with a flush request when some of it gets
 * no reply. */
static int flush_start(win_t *w, int t)
{
    if (w->unflushed[t]) {
        rma_args_t f = {0};
        f.kind = RMA_FLUSH;
        f.target = t;
        return rma_start(w, &f, NULL);
    }
    return batch_send(w, t);
}

/* Wait until every operation to target (-1: all) completed; its errors. */
/* Nothing to wait for at target (-1: any): no operation record, nothing
 * gathered, no error kept (loads and stores, CMA: the usual case). */
static int idle(const win_t *w, int target)
{
    if (w->nops)
        return 0;
    for (int t = target < 0 ? 0 : target; t < (target < 0 ? w->size : target + 1); t++)
        if (w->batch[t].len || w->unflushed[t] || w->err[t] != MPI_SUCCESS)
            return 0;
    return 1;
}

int rma_wait_pending(win_t *w, int target)
{
    int rc = MPI_SUCCESS;
    rma_cmaq_drain(w);
    if (idle(w, target))
        return MPI_SUCCESS;
    for (int t = target < 0 ? 0 : target; t < (target < 0 ? w->size : target + 1); t++) {
        int e = flush_start(w, t);
        if (e != MPI_SUCCESS && w->err[t] == MPI_SUCCESS)
            w->err[t] = e;
    }
    list_node_t *n;
    list_for_each(n, &w->ops) {
        rma_op_t *o = list_entry(n, rma_op_t, link);
        if (target >= 0 && o->target != target)
            continue;
        if (o->reply && !o->reply->complete) {
            int r = progress_wait_req(o->reply);
            if (r != MPI_SUCCESS && rc == MPI_SUCCESS)
                rc = r;
        }
    }
    for (int t = 0; t < w->size; t++) {
        if (target >= 0 && t != target)
            continue;
        if (w->err[t] != MPI_SUCCESS) {
            if (rc == MPI_SUCCESS)
                rc = w->err[t];
            w->err[t] = MPI_SUCCESS;
        }
    }
    rma_sweep(w, 0);
    return rc;
}
