/* Collective schedules: building and running (see sched.h). */
#include "coll/sched.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"

/* A few finished schedules are kept for reuse (their ops and peer arrays
 * included): short collectives then allocate nothing. */
#define SCHED_CACHE 4
static sched_t *cache[SCHED_CACHE];
static int ncache;

static sched_t *sched_get(int npeer)
{
    for (int i = ncache - 1; i >= 0; i--) {
        sched_t *s = cache[i];
        if (s->npeer < npeer)
            continue;
        cache[i] = cache[--ncache];
        sop_t *ops = s->ops;
        int cap = s->cap, np = s->npeer;
        int *last = s->last;
        memset(s, 0, sizeof(*s));
        s->ops = ops;
        s->cap = cap;
        s->last = last;
        s->npeer = np;
        return s;
    }
    sched_t *s = calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->last = malloc(4 * (size_t)npeer * sizeof(int));
    if (!s->last) {
        free(s);
        return NULL;
    }
    s->npeer = npeer;
    return s;
}

sched_t *sched_new(comm_t *c)
{
    int npeer = comm_peer_size(c);
    comm_t *lc = c->is_inter ? coll_inter_local(c) : NULL;
    if (lc && lc->size > npeer)
        npeer = lc->size;
    if (npeer < c->size)
        npeer = c->size;
    sched_t *s = sched_get(npeer);
    if (!s)
        return NULL;
    s->comm = c;
    s->tag = coll_tag(c);
    s->lcomm = lc;
    memset(s->last, 0xff, 4 * (size_t)s->npeer * sizeof(int)); /* all -1 */
    list_init(&s->link);
    return s;
}

void sched_free(sched_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nops; i++) {
        sop_t *o = &s->ops[i];
        if (o->req) /* only after an abort: left to complete on its own */
            o->req->user_freed = 1;
    }
    if (!s->leak)
        for (int i = 0; i < s->nmem; i++)
            free(s->mem[i]);
    for (int i = 0; i < s->nkeep; i++) {
        if (s->keep_op[i])
            op_release(s->keep[i]);
        else
            dt_release(s->keep[i]);
    }
    free(s->keep);
    free(s->keep_op);
    free(s->mem);
    free(s->ops);
    free(s->last);
    free(s);
}

void *sched_alloc(sched_t *s, size_t bytes)
{
    if (s->nmem == s->capmem) {
        int cap = s->capmem ? 2 * s->capmem : 8;
        void **m = realloc(s->mem, (size_t)cap * sizeof(*m));
        if (!m) {
            s->err = MPI_ERR_NO_MEM;
            return NULL;
        }
        s->mem = m;
        s->capmem = cap;
    }
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        s->err = MPI_ERR_NO_MEM;
        return NULL;
    }
    s->mem[s->nmem++] = p;
    return p;
}

void *sched_tmpbuf(sched_t *s, dt_t *dt, size_t count)
{
    size_t span = count ? (size_t)(dt->true_ub - dt->true_lb) + (count - 1) * (size_t)dt->extent
                        : 0;
    char *p = sched_alloc(s, span);
    return p ? p - dt->true_lb : NULL;
}

static int keep(sched_t *s, void *obj, int is_op)
{
    if (s->nkeep == s->capkeep) {
        int cap = s->capkeep ? 2 * s->capkeep : 8;
        void **k = realloc(s->keep, (size_t)cap * sizeof(*k));
        unsigned char *ko = k ? realloc(s->keep_op, (size_t)cap) : NULL;
        if (k)
            s->keep = k;
        if (!k || !ko) {
            s->err = MPI_ERR_NO_MEM;
            return -1;
        }
        s->keep_op = ko;
        s->capkeep = cap;
    }
    s->keep[s->nkeep] = obj;
    s->keep_op[s->nkeep++] = (unsigned char)is_op;
    return 0;
}

void sched_keep_dt(sched_t *s, dt_t *dt)
{
    if (dt && !dt->predefined) {
        if (keep(s, dt, 0) == 0)
            dt_retain(dt);
    }
}

void sched_keep_op(sched_t *s, op_t *op)
{
    if (op && !op->predefined) {
        if (keep(s, op, 1) == 0)
            op->refcount++;
    }
}

static int add(sched_t *s, sop_kind_t kind)
{
    if (s->nops == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        sop_t *o = realloc(s->ops, (size_t)cap * sizeof(*o));
        if (!o) {
            s->err = MPI_ERR_NO_MEM;
            return -1;
        }
        s->ops = o;
        s->cap = cap;
    }
    int i = s->nops++;
    sop_t *o = &s->ops[i];
    memset(o, 0, sizeof(*o));
    o->kind = (unsigned char)kind;
    o->state = SOP_WAIT;
    o->after = s->after;
    o->prev = -1;
    for (int d = 0; d < SCHED_MAX_DEPS; d++)
        o->dep[d] = -1;
    return i;
}

static int add_p2p(sched_t *s, sop_kind_t kind, int local, const void *buf, size_t count,
                   dt_t *dt, int peer)
{
    int i = add(s, kind);
    if (i < 0)
        return -1;
    sop_t *o = &s->ops[i];
    o->local = (unsigned char)local;
    o->peer = peer;
    o->count = count;
    o->dt = dt;
    if (kind == SOP_SEND)
        o->src = buf;
    else
        o->dst = (void *)buf;
    if (peer >= 0 && peer < s->npeer) {
        int *slot = &s->last[(2 * local + (kind == SOP_RECV)) * s->npeer + peer];
        o->prev = *slot;
        *slot = i;
    }
    return i;
}

int sched_send(sched_t *s, const void *buf, size_t count, dt_t *dt, int peer)
{
    return add_p2p(s, SOP_SEND, s->local_mode, buf, count, dt, peer);
}

int sched_recv(sched_t *s, void *buf, size_t count, dt_t *dt, int peer)
{
    return add_p2p(s, SOP_RECV, s->local_mode, buf, count, dt, peer);
}

int sched_reduce(sched_t *s, const void *in, void *inout, size_t count, dt_t *dt, op_t *op)
{
    int i = add(s, SOP_REDUCE);
    if (i < 0)
        return -1;
    sop_t *o = &s->ops[i];
    o->src = in;
    o->dst = inout;
    o->count = count;
    o->dt = dt;
    o->op = op;
    return i;
}

int sched_copy(sched_t *s, const void *src, size_t scount, dt_t *sdt, void *dst, size_t dcount,
               dt_t *ddt)
{
    int i = add(s, SOP_COPY);
    if (i < 0)
        return -1;
    sop_t *o = &s->ops[i];
    o->src = src;
    o->count = scount;
    o->dt = sdt;
    o->dst = dst;
    o->count2 = dcount;
    o->dt2 = ddt;
    return i;
}

void sched_dep(sched_t *s, int op, int on)
{
    if (op < 0 || on < 0)
        return;
    sop_t *o = &s->ops[op];
    for (int d = 0; d < SCHED_MAX_DEPS; d++) {
        if (o->dep[d] == on)
            return;
        if (o->dep[d] < 0) {
            o->dep[d] = on;
            return;
        }
    }
    /* Out of slots: fall back to a fence-like wait on everything before. */
    if (o->after < on + 1)
        o->after = on + 1;
}

void sched_fence(sched_t *s)
{
    s->after = s->nops;
}

/* ---- running ------------------------------------------------------------ */

static int issue(sched_t *s, sop_t *o)
{
    int rc = MPI_SUCCESS;
    comm_t *c = o->local ? s->lcomm : s->comm;
    int tag = o->local ? (s->tag | SCHED_TAG_LOCAL) : s->tag;
    switch (o->kind) {
    case SOP_SEND:
    case SOP_RECV:
        if (!c)
            return MPI_ERR_COMM;
        /* A member failed (FT-MPI): the others may have left this
         * collective already, so never start a new wait on them. */
        if (s->comm->state == COMM_DETECTED || c->state == COMM_DETECTED)
            return MPI_ERR_OTHER;
        if (s->comm->state == COMM_FAILED || c->state == COMM_FAILED)
            return MPI_ERR_COMM;
        if (o->kind == SOP_SEND)
            rc = coll_isend(c, o->src, o->count, o->dt, o->peer, tag, &o->req);
        else
            rc = coll_irecv(c, o->dst, o->count, o->dt, o->peer, tag, &o->req);
        if (rc != MPI_SUCCESS) {
            o->req = NULL;
            return rc;
        }
        o->state = SOP_ISSUED;
        return MPI_SUCCESS;
    case SOP_REDUCE:
        /* A user op runs unlocked (core/op.h): s->in_user keeps other
         * threads off s meanwhile. */
        s->in_user = !o->op->predefined;
        rc = op_apply(o->op, o->src, o->dst, (int)o->count, o->dt);
        s->in_user = 0;
        break;
    case SOP_COPY:
        rc = coll_local_copy2(o->src, o->count, o->dt, o->dst, o->count2, o->dt2);
        break;
    default:
        break;
    }
    o->state = SOP_DONE;
    return rc;
}

static int deps_done(const sched_t *s, const sop_t *o)
{
    for (int d = 0; d < SCHED_MAX_DEPS; d++)
        if (o->dep[d] >= 0 && s->ops[o->dep[d]].state != SOP_DONE)
            return 0;
    return o->prev < 0 || s->ops[o->prev].state != SOP_WAIT;
}

void sched_abort(sched_t *s, int err)
{
    if (s->finished)
        return;
    if (s->err == MPI_SUCCESS)
        s->err = err;
    for (int i = s->lo; i < s->nops; i++) {
        sop_t *o = &s->ops[i];
        if (o->state != SOP_ISSUED || !o->req)
            continue;
        if (o->kind == SOP_RECV && !o->req->complete)
            p2p_cancel(o->req);
        if (o->req->complete) {
            req_free(o->req);
        } else {
            /* Still in flight (a send being read, a streamed receive):
             * it completes and frees itself; its buffer must stay. */
            o->req->user_freed = 1;
            s->leak = 1;
        }
        o->req = NULL;
    }
    s->finished = 1;
}

int sched_progress(sched_t *s)
{
    if (s->in_user)
        return 0; /* its own thread is in a user op: that thread goes on */
    if (s->finished)
        return 1;
    if (s->err != MPI_SUCCESS) { /* a builder ran out of memory */
        sched_abort(s, s->err);
        return 1;
    }
    for (;;) {
        int changed = 0;
        for (int i = s->lo; i < s->nops; i++) {
            sop_t *o = &s->ops[i];
            if (o->state == SOP_DONE)
                continue;
            if (o->state == SOP_ISSUED) {
                if (!o->req->complete)
                    continue;
                int err = o->req->status.MPI_ERROR;
                req_free(o->req);
                o->req = NULL;
                o->state = SOP_DONE;
                changed = 1;
                if (err != MPI_SUCCESS) {
                    sched_abort(s, err);
                    return 1;
                }
                continue;
            }
            if (o->after > s->lo)
                break; /* behind a fence: so is everything after it */
            if (!deps_done(s, o))
                continue;
            int rc = issue(s, o);
            changed = 1;
            if (rc != MPI_SUCCESS) {
                o->state = SOP_DONE;
                sched_abort(s, rc);
                return 1;
            }
            if (o->state == SOP_ISSUED && o->req->complete)
                i--; /* collect it at once */
        }
        while (s->lo < s->nops && s->ops[s->lo].state == SOP_DONE)
            s->lo++;
        if (s->lo == s->nops) {
            s->finished = 1;
            return 1;
        }
        if (!changed)
            return 0;
    }
}

static int done_cb(void *arg)
{
    return sched_progress(arg);
}

int sched_wait(sched_t *s)
{
    if (!sched_progress(s)) {
        int rc = progress_wait(done_cb, s);
        if (rc != MPI_SUCCESS)
            sched_abort(s, rc);
    }
    return s->err;
}
