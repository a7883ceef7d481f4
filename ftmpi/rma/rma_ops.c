/* Origin side of RMA operations: requests to the target, or loads and
 * stores on a shared-memory window; completion bookkeeping. */
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
    int32_t st;     /* the status a put or accumulate gets back */
} rma_op_t;

/* ---- runs and their application ---------------------------------------- */

typedef struct {
    rma_run_t *v;
    size_t n, cap;
} runs_acc_t;

static int add_run(void *arg, MPI_Aint disp, dt_kind_t kind, size_t n)
{
    runs_acc_t *a = arg;
    if (a->n && a->v[a->n - 1].kind == (uint32_t)kind && dt_kind_size(kind) == (size_t)dt_kind_extent(kind) &&
        a->v[a->n - 1].disp + (int64_t)(a->v[a->n - 1].n * dt_kind_size(kind)) == disp) {
        a->v[a->n - 1].n += n; /* continues the previous run */
        return 0;
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        rma_run_t *v = realloc(a->v, cap * sizeof(*v));
        if (!v)
            return MPI_ERR_NO_MEM;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = (rma_run_t){disp, (uint32_t)kind, 0, n};
    return 0;
}

int rma_runs_of(dt_t *dt, int count, rma_run_t **runs, size_t *nruns)
{
    runs_acc_t a = {NULL, 0, 0};
    dt_kind_t k = dt->elem_kind;
    if (dt_is_contig(dt, (size_t)count) && k != DTK_NONE &&
        (MPI_Aint)dt_kind_size(k) == dt_kind_extent(k) && dt->size) {
        /* one run, without walking the type element by element */
        *runs = malloc(sizeof(rma_run_t));
        if (!*runs)
            return MPI_ERR_NO_MEM;
        (*runs)[0] = (rma_run_t){dt->true_lb, (uint32_t)k, 0,
                                 (uint64_t)count * (dt->size / dt_kind_size(k))};
        *nruns = 1;
        return MPI_SUCCESS;
    }
    int rc = dt_foreach_run(dt, (size_t)count, add_run, &a);
    if (rc != 0) {
        free(a.v);
        return rc;
    }
    *runs = a.v;
    *nruns = a.n;
    return MPI_SUCCESS;
}

size_t rma_runs_bytes(const rma_run_t *runs, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        b += runs[i].n * dt_kind_size((dt_kind_t)runs[i].kind);
    return b;
}

void rma_copy_out(const char *base, const rma_run_t *runs, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        size_t sz = dt_kind_size((dt_kind_t)runs[i].kind);
        MPI_Aint ext = dt_kind_extent((dt_kind_t)runs[i].kind);
        if ((MPI_Aint)sz == ext) {
            memcpy(out, base + runs[i].disp, runs[i].n * sz);
            out += runs[i].n * sz;
            continue;
        }
        for (size_t u = 0; u < runs[i].n; u++, out += sz)
            memcpy(out, base + runs[i].disp + (MPI_Aint)u * ext, sz);
    }
}

/* The predefined type of one basic kind (to hand op_apply). */
static dt_t *kind_type(dt_kind_t k)
{
    static dt_t *cache[DTK_COUNT_];
    if (!cache[k]) {
        for (int i = 1; i < 256; i++) {
            dt_t *d = dt_get(FTMPI_HANDLE(FTMPI_KIND_DATATYPE, i));
            if (d && d->predefined && d->kind == k) {
                cache[k] = d;
                break;
            }
        }
    }
    return cache[k];
}

int rma_apply(char *base, const rma_run_t *runs, size_t n, const char *in, op_t *op, char *old)
{
    if (old)
        rma_copy_out(base, runs, n, old);
    for (size_t i = 0; i < n; i++) {
        dt_kind_t k = (dt_kind_t)runs[i].kind;
        size_t sz = dt_kind_size(k), bytes = runs[i].n * sz;
        MPI_Aint ext = dt_kind_extent(k);
        char *at = base + runs[i].disp;
        if (!op) { /* MPI_REPLACE */
            if ((MPI_Aint)sz == ext)
                memcpy(at, in, bytes);
            else
                for (size_t u = 0; u < runs[i].n; u++)
                    memcpy(at + (MPI_Aint)u * ext, in + u * sz, sz);
        } else if ((MPI_Aint)sz == ext) {
            dt_t *kt = kind_type(k);
            if (!kt || op_apply(op, in, at, (int)runs[i].n, kt) != MPI_SUCCESS)
                return MPI_ERR_OP;
        } else { /* padded pairs: one unit at a time */
            dt_t *kt = kind_type(k);
            char unit[64];
            for (size_t u = 0; u < runs[i].n; u++) {
                memcpy(unit, in + u * sz, sz);
                if (!kt || op_apply(op, unit, at + (MPI_Aint)u * ext, 1, kt) != MPI_SUCCESS)
                    return MPI_ERR_OP;
            }
        }
        in += bytes;
    }
    return MPI_SUCCESS;
}

/* ---- shared memory: the origin does it itself ---------------------------- */

static int start_shm(win_t *w, const rma_args_t *a)
{
    char *tbase = (char *)w->seg + w->offs[a->target] + a->tdisp * w->disp_units[a->target];
    if (a->kind == RMA_PUT)
        return coll_local_copy2(a->obuf, (size_t)a->ocount, a->odt, tbase, (size_t)a->tcount,
                                a->tdt);
    if (a->kind == RMA_GET)
        return coll_local_copy2(tbase, (size_t)a->tcount, a->tdt, a->rbuf, (size_t)a->rcount,
                                a->rdt);
    rma_run_t *runs;
    size_t nruns;
    int rc = rma_runs_of(a->tdt, a->tcount, &runs, &nruns);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t bytes = rma_runs_bytes(runs, nruns);
    /* A contiguous origin is its own packed form: no copy. */
    int direct = a->kind != RMA_CAS && a->odt && dt_is_contig(a->odt, (size_t)a->ocount);
    char *in = direct ? NULL : malloc(bytes ? bytes : 1), *old = NULL;
    const char *src = direct ? (const char *)a->obuf + a->odt->true_lb : in;
    if (a->kind != RMA_ACC)
        old = malloc(bytes ? bytes : 1);
    if ((!direct && !in) || (a->kind != RMA_ACC && !old)) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if (a->kind == RMA_CAS) {
        rma_shm_lock(w);
        rma_copy_out(tbase, runs, nruns, old);
        if (memcmp(old, a->cbuf, bytes) == 0)
            rma_apply(tbase, runs, nruns, a->obuf, NULL, NULL);
        rma_shm_unlock(w);
        memcpy(a->rbuf, old, bytes);
        goto out;
    }
    if (a->odt && !direct)
        dt_pack(a->odt, (size_t)a->ocount, a->obuf, 0, in, bytes);
    op_t *op = a->op->predefined && a->op->handle == MPI_REPLACE ? NULL : a->op;
    rma_shm_lock(w);
    if (a->op->handle == MPI_NO_OP)
        rma_copy_out(tbase, runs, nruns, old);
    else
        rc = rma_apply(tbase, runs, nruns, src, op, old);
    rma_shm_unlock(w);
    if (old)
        dt_unpack(a->rdt, (size_t)a->rcount, a->rbuf, 0, old, bytes);
out:
    free(runs);
    free(in);
    free(old);
    return rc;
}

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

/* Build the request message: header, runs, data. */
static int build_msg(win_t *w, const rma_args_t *a, uint32_t tag, void **msgp, size_t *lenp,
                     size_t *reply_bytes)
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
    size_t len = sizeof(rma_hdr_t) + nruns * sizeof(rma_run_t) + data;
    char *m = malloc(len);
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
    *msgp = m;
    *lenp = len;
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

int rma_start(win_t *w, const rma_args_t *a, req_t **ureq)
{
    int rc;
    if (ureq && (rc = new_user_req(w, ureq)) != MPI_SUCCESS)
        return rc;
    int ctl = a->kind == RMA_LOCK || a->kind == RMA_UNLOCK;
    if (a->target == MPI_PROC_NULL || (a->tcount == 0 && a->kind != RMA_CAS && !ctl)) {
        if (ureq)
            req_complete(*ureq);
        return MPI_SUCCESS;
    }
    if (w->seg && !ctl) {
        rc = start_shm(w, a);
        if (ureq) {
            (*ureq)->status.MPI_ERROR = rc;
            req_complete(*ureq);
        }
        return rc;
    }
    if (w->nops > 4096)
        rma_sweep(w, 0);
    rma_op_t *o = calloc(1, sizeof(*o));
    uint32_t tag = take_tag(w);
    size_t len = 0, rbytes = 0;
    if (!o)
        rc = MPI_ERR_NO_MEM;
    else
        rc = build_msg(w, a, tag, &o->msg, &len, &rbytes);
    if (rc != MPI_SUCCESS) {
        free(o);
        if (ureq) {
            req_free(*ureq);
            *ureq = NULL;
        }
        return rc;
    }
    o->w = w;
    o->target = a->target;
    dt_t *byte = dt_get(MPI_BYTE);
    /* The reply's receive first: it must be there when the reply comes. */
    if (rbytes)
        o->reply = req_new_p2p(REQ_RECV, w->comm, a->rbuf, a->rcount, a->rdt, a->target, (int)tag,
                               SEND_STANDARD, 0);
    else
        o->reply = req_new_p2p(REQ_RECV, w->comm, &o->st, (int)sizeof(o->st), byte, a->target,
                               (int)tag, SEND_STANDARD, 0);
    o->send = req_new_p2p(REQ_SEND, w->comm, o->msg, (int)len, byte, a->target, RMA_TAG_REQ,
                          SEND_STANDARD, 0);
    if (!o->reply || !o->send) {
        rc = MPI_ERR_NO_MEM;
    } else {
        o->reply->on_done = rbytes ? data_reply_done : reply_done;
        o->reply->ctx = o;
        o->ureq = ureq ? *ureq : NULL;
        w->pending[a->target]++;
        list_add_tail(&w->ops, &o->link);
        w->nops++;
        rc = p2p_start_recv(o->reply);
        if (rc != MPI_SUCCESS) {
            o->reply->status.MPI_ERROR = rc;
            req_complete(o->reply);
        } else {
            rc = p2p_start_send(o->send);
            if (rc != MPI_SUCCESS) {
                req_free(o->send);
                o->send = NULL;
                p2p_cancel(o->reply);
                if (!o->reply->complete) {
                    o->reply->status.MPI_ERROR = rc;
                    req_complete(o->reply);
                }
            }
        }
        return rc;
    }
    if (o->reply)
        req_free(o->reply);
    if (o->send)
        req_free(o->send);
    free(o->msg);
    free(o);
    return rc;
}

/* Wait until every operation to target (-1: all) completed; its errors. */
int rma_wait_pending(win_t *w, int target)
{
    int rc = MPI_SUCCESS;
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
