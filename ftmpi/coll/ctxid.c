/*
 * Context-id agreement: the protocol is described in coll/ctxid.h and
 * docs/communicators.md. One state machine serves the blocking calls
 * (driven by progress_wait) and MPI_Comm_idup (driven by a progress hook
 * while any non-blocking agreement is in flight).
 *
 * A round is a binomial-tree AND-reduce of W words to the root (plus the
 * exchange between the two roots when there is a bridge) and a binomial
 * broadcast of the result: 2 ceil(log2 p) (+1) steps of one message of
 * 4 W bytes (W = 257: 1 KiB, one eager packet).
 */
#include "coll/ctxid.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "core/proc.h"

#define W (COMM_CTX_WORDS + 1)  /* free masks + one flag word */
#define F_SURE 1u    /* nothing else can change this member's mask this round */
#define F_NOHOLD 2u  /* no pair held by another agreement was left out */
#define MAX_KIDS 32

enum { PH_MASK, PH_CONFIRM };
enum { ST_KIDS, ST_UP, ST_BRIDGE, ST_DOWN };

typedef struct agree {
    list_node_t link;          /* in `inflight` */
    ctx_party_t pt;
    int *map;                  /* owned copy of pt.map */
    int blocking, npairs;
    int phase, step, nw;
    int parent, nkids, kids[MAX_KIDS];  /* members (tree relative to root) */
    uint32_t acc[W], res[W], rem[W];
    uint32_t *kbuf;            /* [nkids][W] */
    req_t *rq[MAX_KIDS + 2];
    int nrq;
    int holding;
    uint32_t pick[CTX_MAX_PAIRS];
    int rc, finished;
    ctx_done_fn *done;
    void *arg;
} agree_t;

static list_node_t inflight = LIST_INIT(inflight);
static uint32_t held[COMM_CTX_WORDS];  /* pairs held by agreements awaiting confirmation */
static int n_async;
static int in_hook;

static int ctxid_progress(void);

/* ---- messages ----------------------------------------------------------- */

static int member_rank(const agree_t *a, int v)
{
    return a->map ? a->map[v] : v;
}

static int post(agree_t *a, comm_t *c, int coll, int send, uint32_t *buf, int n, int peer,
                int tag)
{
    dt_t *u32 = dt_get(MPI_UINT32_T);
    req_t **rp = &a->rq[a->nrq];
    int rc;
    if (coll) {
        rc = send ? coll_isend(c, buf, (size_t)n, u32, peer, tag, rp)
                  : coll_irecv(c, buf, (size_t)n, u32, peer, tag, rp);
    } else {
        /* point-to-point context (MPI_Intercomm_create's peer_comm + tag) */
        req_t *r = req_new_p2p(send ? REQ_SEND : REQ_RECV, c, buf, n, u32, peer, tag,
                               SEND_STANDARD, 0);
        if (!r)
            return MPI_ERR_NO_MEM;
        rc = send ? p2p_start_send(r) : p2p_start_recv(r);
        if (rc != MPI_SUCCESS)
            req_free(r);
        else
            *rp = r;
    }
    if (rc == MPI_SUCCESS)
        a->nrq++;
    return rc;
}

static int post_member(agree_t *a, int send, uint32_t *buf, int v)
{
    return post(a, a->pt.cc, 1, send, buf, a->nw, member_rank(a, v), a->pt.tag);
}

/* 1 when every outstanding request is complete (they are then freed and
 * the first error, if any, is in a->rc). */
static int reqs_done(agree_t *a)
{
    for (int i = 0; i < a->nrq; i++)
        if (!a->rq[i]->complete)
            return 0;
    for (int i = 0; i < a->nrq; i++) {
        int err = a->rq[i]->status.MPI_ERROR;
        if (err != MPI_SUCCESS && a->rc == MPI_SUCCESS)
            a->rc = err;
        req_free(a->rq[i]);
    }
    a->nrq = 0;
    return 1;
}

/* ---- rounds ------------------------------------------------------------- */

static int alone(const agree_t *a)
{
    return inflight.next == &a->link && a->link.next == &inflight;
}

static void hold(const uint32_t *pick, int n, int on)
{
    for (int i = 0; i < n; i++) {
        uint32_t pair = pick[i] / 2, bit = 1u << (pair % 32);
        if (on)
            held[pair / 32] |= bit;
        else
            held[pair / 32] &= ~bit;
    }
}

static int round_start(agree_t *a)
{
    a->nw = a->phase == PH_MASK ? W : 1;
    if (a->phase == PH_MASK) {
        uint32_t m[COMM_CTX_WORDS];
        uint32_t flags = F_NOHOLD;
        comm_ctx_mask(m);
        for (int w = 0; w < COMM_CTX_WORDS; w++) {
            a->acc[w] = m[w] & ~held[w];
            if (m[w] & held[w])
                flags &= ~F_NOHOLD;
        }
        /* Blocking and single-threaded with nothing else in flight: no
         * other agreement can claim a pair here before this round ends. */
        if (a->blocking && !ftg.multiple && alone(a))
            flags |= F_SURE;
        a->acc[W - 1] = flags;
    } else {
        a->acc[0] = a->holding ? 1u : 0u;
    }
    for (int i = 0; i < a->nkids; i++) {
        int rc = post_member(a, 0, a->kbuf + (size_t)i * W, a->kids[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    a->step = ST_KIDS;
    return MPI_SUCCESS;
}

/* Lowest n pairs set in the AND of the masks; returns how many found. */
static int pick_lowest(agree_t *a)
{
    int got = 0;
    for (int w = 0; w < COMM_CTX_WORDS && got < a->npairs; w++) {
        uint32_t bits = a->res[w];
        while (bits && got < a->npairs) {
            int b = __builtin_ctz(bits);
            bits &= bits - 1;
            a->pick[got++] = (uint32_t)(w * 32 + b) * 2;
        }
    }
    return got;
}

static int locally_free(const agree_t *a)
{
    uint32_t m[COMM_CTX_WORDS];
    comm_ctx_mask(m);
    for (int i = 0; i < a->npairs; i++) {
        uint32_t pair = a->pick[i] / 2, bit = 1u << (pair % 32);
        if (!(m[pair / 32] & bit) || (held[pair / 32] & bit))
            return 0;
    }
    return 1;
}

static int claim(agree_t *a)
{
    for (int i = 0; i < a->npairs; i++)
        if (comm_ctx_claim(a->pick[i]) != 0) {
            while (--i >= 0)
                comm_ctx_release(a->pick[i]);
            return MPI_ERR_INTERN;
        }
    return MPI_SUCCESS;
}

static void finish(agree_t *a, int rc)
{
    if (a->holding) {
        hold(a->pick, a->npairs, 0);
        a->holding = 0;
    }
    list_del(&a->link);
    if (!a->blocking && --n_async == 0)
        progress_remove_hook(ctxid_progress);
    comm_release(a->pt.cc);
    if (a->pt.bc)
        comm_release(a->pt.bc);
    a->rc = rc;
    a->finished = 1;
}

static void agree_free(agree_t *a)
{
    free(a->kbuf);
    free(a->map);
    free(a);
}

/* The round is over on this member: decide (every member decides the
 * same, from the same result), then finish or start the next round. */
static int round_end(agree_t *a)
{
    if (a->phase == PH_MASK) {
        if (pick_lowest(a) < a->npairs) {
            if (a->res[W - 1] & F_NOHOLD) {
                finish(a, MPI_ERR_INTERN); /* every context id is in use */
                return MPI_SUCCESS;
            }
            a->phase = PH_MASK; /* pairs held elsewhere will come back */
        } else if (a->res[W - 1] & F_SURE) {
            finish(a, claim(a));
            return MPI_SUCCESS;
        } else {
            if (locally_free(a)) {
                hold(a->pick, a->npairs, 1);
                a->holding = 1;
            }
            a->phase = PH_CONFIRM;
        }
    } else {
        int ok = a->res[0] != 0;
        if (a->holding) {
            hold(a->pick, a->npairs, 0);
            a->holding = 0;
        }
        if (ok) {
            finish(a, claim(a));
            return MPI_SUCCESS;
        }
        a->phase = PH_MASK;
    }
    return round_start(a);
}

/* Advance as far as possible without waiting; returns 1 if anything moved.
 * A failure (a request completed in error, or could not be posted) is
 * kept in a->rc; the agreement ends once nothing of it is outstanding. */
static int agree_step(agree_t *a)
{
    int moved = 0;
    while (!a->finished) {
        if (!reqs_done(a))
            return moved;
        moved = 1;
        const ctx_party_t *pt = &a->pt;
        int rc = a->rc;
        if (rc != MPI_SUCCESS) {
            finish(a, rc);
            break;
        }
        switch (a->step) {
        case ST_KIDS:
            for (int i = 0; i < a->nkids; i++)
                for (int w = 0; w < a->nw; w++)
                    a->acc[w] &= a->kbuf[(size_t)i * W + w];
            if (pt->me != pt->root) {
                rc = post_member(a, 1, a->acc, a->parent);
                if (rc == MPI_SUCCESS)
                    rc = post_member(a, 0, a->res, a->parent);
                a->step = ST_UP;
                break;
            }
            if (pt->bc) {
                rc = post(a, pt->bc, pt->bcoll, 0, a->rem, a->nw, pt->bpeer, pt->btag);
                if (rc == MPI_SUCCESS)
                    rc = post(a, pt->bc, pt->bcoll, 1, a->acc, a->nw, pt->bpeer, pt->btag);
                a->step = ST_BRIDGE;
                break;
            }
            memcpy(a->res, a->acc, (size_t)a->nw * sizeof(uint32_t));
            /* broadcast the result */
            __attribute__((fallthrough));
        case ST_UP:
        case ST_BRIDGE:
            if (a->step == ST_BRIDGE)
                for (int w = 0; w < a->nw; w++)
                    a->res[w] = a->acc[w] & a->rem[w];
            for (int i = 0; i < a->nkids && rc == MPI_SUCCESS; i++)
                rc = post_member(a, 1, a->res, a->kids[i]);
            a->step = ST_DOWN;
            break;
        case ST_DOWN:
            rc = round_end(a);
            break;
        }
        if (rc != MPI_SUCCESS && a->rc == MPI_SUCCESS)
            a->rc = rc;
    }
    if (!a->blocking) {
        /* non-blocking: report and let go */
        a->done(a->arg, a->rc, a->pick);
        agree_free(a);
    }
    return moved;
}

/* ---- drivers ------------------------------------------------------------ */

static agree_t *agree_new(const ctx_party_t *pt, int npairs, int blocking)
{
    agree_t *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    a->pt = *pt;
    a->npairs = npairs;
    a->blocking = blocking;
    if (pt->map) {
        a->map = malloc((size_t)pt->p * sizeof(int));
        if (!a->map) {
            free(a);
            return NULL;
        }
        memcpy(a->map, pt->map, (size_t)pt->p * sizeof(int));
        a->pt.map = a->map;
    }
    /* binomial tree over members relative to the root */
    int p = pt->p, rel = (pt->me - pt->root + p) % p;
    a->parent = -1;
    for (int mask = 1; mask < p; mask <<= 1) {
        if (rel & mask) {
            a->parent = (rel - mask + pt->root) % p;
            break;
        }
        if (rel + mask < p && a->nkids < MAX_KIDS)
            a->kids[a->nkids++] = (rel + mask + pt->root) % p;
    }
    a->kbuf = malloc((size_t)(a->nkids ? a->nkids : 1) * W * sizeof(uint32_t));
    if (!a->kbuf) {
        free(a->map);
        free(a);
        return NULL;
    }
    comm_retain(pt->cc);
    if (pt->bc)
        comm_retain(pt->bc);
    list_add_tail(&inflight, &a->link);
    return a;
}

static int blocking_poll(void *arg)
{
    agree_t *a = arg;
    agree_step(a);
    return a->finished;
}

int ctx_agree(const ctx_party_t *pt, int npairs, uint32_t *ctx)
{
    if (npairs < 1 || npairs > CTX_MAX_PAIRS)
        return MPI_ERR_INTERN;
    agree_t *a = agree_new(pt, npairs, 1);
    if (!a)
        return MPI_ERR_NO_MEM;
    a->rc = round_start(a);
    int rc = progress_wait(blocking_poll, a);
    if (rc != MPI_SUCCESS && !a->finished)
        return rc; /* the job is going down: leave the agreement be */
    rc = a->rc;
    if (rc == MPI_SUCCESS)
        memcpy(ctx, a->pick, (size_t)npairs * sizeof(uint32_t));
    agree_free(a);
    return rc;
}

static int ctxid_progress(void)
{
    if (in_hook)
        return 0;
    in_hook = 1;
    int moved = 0;
    list_node_t *n, *t;
    list_for_each_safe(n, t, &inflight) {
        agree_t *a = list_entry(n, agree_t, link);
        if (!a->blocking)
            moved += agree_step(a);
    }
    in_hook = 0;
    return moved;
}

int ctx_agree_start(const ctx_party_t *pt, int npairs, ctx_done_fn *done, void *arg)
{
    if (npairs < 1 || npairs > CTX_MAX_PAIRS)
        return MPI_ERR_INTERN;
    agree_t *a = agree_new(pt, npairs, 0);
    if (!a)
        return MPI_ERR_NO_MEM;
    a->done = done;
    a->arg = arg;
    if (n_async++ == 0)
        progress_add_hook(ctxid_progress);
    a->rc = round_start(a);
    agree_step(a); /* may finish at once (one member, or an error) */
    return MPI_SUCCESS;
}

void ctx_party_of(comm_t *c, ctx_party_t *pt)
{
    memset(pt, 0, sizeof(*pt));
    if (c->is_inter) {
        comm_t *lc = c->local_comm;
        pt->cc = lc;
        pt->p = lc->size;
        pt->me = lc->rank;
        pt->tag = coll_tag(lc);
        pt->bc = c;
        pt->bpeer = 0;
        pt->btag = coll_tag(c);
        pt->bcoll = 1;
    } else {
        pt->cc = c;
        pt->p = c->size;
        pt->me = c->rank;
        pt->tag = coll_tag(c);
    }
    pt->root = 0;
}

/* The collectives run the local half of intercommunicator operations on
 * this communicator. */
comm_t *coll_inter_local(comm_t *c)
{
    return c->is_inter ? c->local_comm : NULL;
}
