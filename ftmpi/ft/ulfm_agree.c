/*
 * MPIX_Comm_agree and the agreement under MPIX_Comm_shrink: an in-band,
 * failure-tolerant tree agreement (docs/ulfm.md, "Agreement").
 *
 * Epochs. The runtime announces failures to every process in one order,
 * so "the first e failures among the members of c" is the same set
 * everywhere; e is the epoch. An attempt runs on the binomial tree over
 * the members alive at its epoch, rooted at the lowest live rank.
 *
 * One attempt: each member sends its contribution, ANDed with its
 * subtree's, up the tree (UP); the root decides and the decision goes
 * down (DOWN); a member returns when it has the decision. Then, in the
 * background, acknowledgements go up (ACK) and the root releases the
 * agreement down the tree (REL): until then every member keeps serving
 * it, so a member that returned still answers for it.
 *
 * Failures. A member that learns of a failure in the communicator moves
 * to the next epoch: new tree, contributions sent again. A member that has
 * decided contributes its decision (UP flagged DECIDED), which every
 * member above it adopts: a decision once made is the decision, as long as
 * one process that has it is alive. A DOWN of an earlier epoch (its
 * sender may be dead by now) is taken unless this member has contributed
 * undecided to a later attempt since, which that attempt may decide
 * without it: so a late decision cannot meet a different one made since.
 * Messages from a later epoch wait until the failures are known here; UP
 * and ACK from an earlier one are dropped. REL carries the
 * decision and releases every agreement up to its sequence number (a
 * member cannot contribute to agreement k+1 before deciding k).
 *
 * Cost without failures: 2 (p - 1) messages and 2 ceil(log2 p) rounds to
 * the return, 2 (p - 1) more in the background. Each failure adds at most
 * one more attempt of the same cost.
 */
#include "ft/ulfm_int.h"

#include <stdlib.h>
#include <string.h>

static void rec_free(urec_t *a)
{
    free(a->mine);
    free(a->acc);
    free(a->res);
    free(a);
}

void ulfm_agree_free(ustate_t *s)
{
    while (s->recs) {
        urec_t *a = s->recs;
        s->recs = a->next;
        rec_free(a);
    }
    if (s->last_rel)
        rec_free(s->last_rel);
    s->last_rel = NULL;
}

static urec_t *rec_find(ustate_t *s, uint32_t seq)
{
    for (urec_t *a = s->recs; a; a = a->next)
        if (a->seq == seq)
            return a;
    return NULL;
}

static int comm_rank_of(const ustate_t *s, int world)
{
    for (int k = 0; k < s->size; k++)
        if (s->world[k] == world)
            return k;
    return -1;
}

static int kid_index(const ustate_t *s, int rank)
{
    for (int i = 0; i < s->nkids; i++)
        if (s->kids[i] == rank)
            return i;
    return -1;
}

/* The tree of epoch e (binomial: the parent of position v clears v's
 * lowest set bit). */
static void build_tree(ustate_t *s, int e)
{
    int *list = malloc((size_t)s->size * sizeof(int));
    s->tree_epoch = e;
    s->parent = -1;
    s->nkids = 0;
    if (!list)
        return;
    int m = ulfm_alive_list(s, e, list), me = -1;
    for (int v = 0; v < m; v++)
        if (list[v] == s->rank)
            me = v;
    if (me > 0)
        s->parent = list[me & (me - 1)];
    for (int k = 1; me >= 0 && me + k < m && s->nkids < UT_MAX_KIDS; k <<= 1) {
        if (me != 0 && k >= (me & -me))
            break;
        s->kids[s->nkids++] = list[me + k];
    }
    free(list);
}

static void send_rec(ustate_t *s, const urec_t *a, int rank, uint32_t kind, uint32_t flags,
                     const uint32_t *w, int nw)
{
    um_hdr_t h = {kind, s->ctx, s->ghash, s->inc, a->seq, (uint32_t)s->tree_epoch, a->depoch, flags,
                  (uint32_t)nw};
    ulfm_send(s->world[rank], &h, w);
}

static void rec_epoch(ustate_t *s, urec_t *a)
{
    a->epoch = s->tree_epoch;
    memset(a->got_up, 0, sizeof a->got_up);
    memset(a->got_ack, 0, sizeof a->got_ack);
    a->sent_up = a->sent_down = a->sent_ack = 0;
    if (!a->decided)
        memcpy(a->acc, a->mine, (size_t)a->nw * sizeof(uint32_t));
}

static void decide(urec_t *a, const uint32_t *w, uint32_t depoch)
{
    if (a->decided)
        return;
    memcpy(a->res, w, (size_t)a->nw * sizeof(uint32_t));
    a->depoch = depoch;
    a->decided = 1;
}

static void combine(urec_t *a, const uint32_t *w)
{
    a->acc[AW_FLAG] &= w[AW_FLAG];
    if (w[AW_ACKED] < a->acc[AW_ACKED])
        a->acc[AW_ACKED] = w[AW_ACKED];
    for (int i = AW_MASK; i < a->nw; i++)
        a->acc[i] &= w[i];
}

/* Every agreement up to seq is decided by every live member. */
static void release(ustate_t *s, uint32_t seq, const uint32_t *w, int nw, uint32_t depoch)
{
    for (urec_t **p = &s->recs; *p;) {
        urec_t *a = *p;
        if (a->seq > seq) {
            p = &a->next;
            continue;
        }
        if (a->seq == seq && nw == a->nw)
            decide(a, w, depoch);
        if (!a->decided) { /* cannot be (see above); keep serving it */
            p = &a->next;
            continue;
        }
        a->released = 1;
        for (int i = 0; i < s->nkids; i++)
            send_rec(s, a, s->kids[i], UM_REL, 0, a->res, a->nw);
        *p = a->next;
        a->next = NULL;
        urec_t *drop = a;  /* records out of the list live on until consumed */
        if (!s->last_rel || a->seq > s->last_rel->seq) {
            drop = s->last_rel;
            s->last_rel = a;
        }
        if (drop && drop->consumed)
            rec_free(drop);
        if (a->seq + 1 > s->nrel)
            s->nrel = a->seq + 1;
    }
}

/* Do whatever this agreement can do now in its epoch. */
static void step(ustate_t *s, urec_t *a)
{
    int all_up = 1, all_ack = 1;
    for (int i = 0; i < s->nkids; i++) {
        all_up &= a->got_up[i];
        all_ack &= a->got_ack[i];
    }
    if (!a->decided && !a->sent_up && all_up && !a->held) {
        if (s->parent < 0) {
            decide(a, a->acc, (uint32_t)a->epoch);
        } else {
            /* Tests kill here: a member dies with its subtree's part. */
            rtc_fault_point("ulfm_agree_up", (long)a->seq);
            send_rec(s, a, s->parent, UM_UP, 0, a->acc, a->nw);
            a->sent_up = 1;
            a->up_epoch = a->epoch;
        }
    }
    if (!a->decided)
        return;
    if (!a->sent_down) {
        for (int i = 0; i < s->nkids; i++) {
            send_rec(s, a, s->kids[i], UM_DOWN, 0, a->res, a->nw);
            /* Tests kill here: the decision reached one child only. */
            if (i == 0)
                rtc_fault_point("ulfm_agree_down", (long)a->seq);
        }
        a->sent_down = 1;
    }
    if (s->parent >= 0 && !a->sent_up) {
        send_rec(s, a, s->parent, UM_UP, UM_F_DECIDED, a->res, a->nw);
        a->sent_up = 1;
    }
    if (!a->sent_ack && all_ack) {
        a->sent_ack = 1;
        if (s->parent < 0)
            release(s, a->seq, a->res, a->nw, a->depoch);
        else
            send_rec(s, a, s->parent, UM_ACK, 0, NULL, 0);
    }
}

/* Tell a member that is behind that agreement s->last_rel is released. */
static void send_release(ustate_t *s, int rank)
{
    urec_t *a = s->last_rel;
    if (a)
        send_rec(s, a, rank, UM_REL, 0, a->res, a->nw);
}

static void handle(ustate_t *s, int from, const um_hdr_t *h, const uint32_t *w);

/* Move to the epoch the failures known here give, and take the stashed
 * messages that became current. */
static int refresh(ustate_t *s)
{
    int n = 0, e = ulfm_epoch(s);
    if (e != s->tree_epoch && (s->recs || s->last_rel || s->stash)) {
        build_tree(s, e);
        for (urec_t *a = s->recs; a; a = a->next)
            rec_epoch(s, a);
        if (s->last_rel && s->rel_epoch_sent != e) {
            /* Members that did not see the release may now wait for us. */
            s->rel_epoch_sent = e;
            if (s->parent >= 0)
                send_release(s, s->parent);
            for (int i = 0; i < s->nkids; i++)
                send_release(s, s->kids[i]);
        }
        n++;
    }
    umsg_q_t *q = s->stash;
    s->stash = NULL;
    while (q) {
        umsg_q_t *next = q->next;
        if (q->h.seq < s->nseq && (int)q->h.epoch <= s->tree_epoch) {
            handle(s, q->from, &q->h, q->w); /* may stash it again */
            free(q);
            n++;
        } else {
            q->next = s->stash;
            s->stash = q;
        }
        q = next;
    }
    return n;
}

static void stash_msg(ustate_t *s, int from, const um_hdr_t *h, const uint32_t *w)
{
    umsg_q_t *q = malloc(sizeof *q + h->nw * sizeof(uint32_t));
    if (!q)
        return;
    q->from = from;
    q->h = *h;
    if (h->nw)
        memcpy(q->w, w, h->nw * sizeof(uint32_t));
    q->next = s->stash;
    s->stash = q;
}

static void handle(ustate_t *s, int from, const um_hdr_t *h, const uint32_t *w)
{
    int rank = comm_rank_of(s, from);
    if (rank < 0)
        return;
    if (h->seq >= s->nseq || (int)h->epoch > s->tree_epoch) {
        stash_msg(s, from, h, w); /* an agreement or failures not known here yet */
        return;
    }
    urec_t *a = rec_find(s, h->seq);
    if (h->kind == UM_REL) {
        release(s, h->seq, w, (int)h->nw, h->depoch);
        return;
    }
    if (!a || a->released) {
        /* Released here: the sender has not heard; tell it. */
        if (h->seq < s->nrel && (h->kind == UM_UP || h->kind == UM_ACK))
            send_release(s, rank);
        return;
    }
    if (h->kind == UM_DOWN && (int)h->nw == a->nw && (int)h->epoch >= a->up_epoch) {
        /* A decision, maybe of an earlier epoch (its sender may be dead):
         * it is the decision, unless we contributed undecided to a later
         * attempt, which may decide without it. */
        decide(a, w, h->depoch);
        step(s, a);
        return;
    }
    if ((int)h->epoch != a->epoch)
        return; /* an earlier epoch's UP or ACK: void */
    if (h->kind != UM_ACK && (int)h->nw != a->nw)
        return; /* not this agreement's payload */
    int k = kid_index(s, rank);
    switch (h->kind) {
    case UM_UP:
        if (k < 0)
            return;
        a->got_up[k] = 1;
        if (h->flags & UM_F_DECIDED)
            decide(a, w, h->depoch);
        else if (!a->decided)
            combine(a, w);
        break;
    case UM_ACK:
        if (k >= 0)
            a->got_ack[k] = 1;
        break;
    default:
        return;
    }
    step(s, a);
}

void ulfm_agree_msg(ustate_t *s, int from, const um_hdr_t *h, const uint32_t *w)
{
    refresh(s);
    handle(s, from, h, w);
}

/* The flag an agreement decided, as this process reads it: the AND over
 * all contributions, or on an intercommunicator over the other group's
 * (see agree_words). */
static int agreed_flag(const ustate_t *s, const urec_t *a)
{
    if (s->nfirst == s->size)
        return (int)a->res[AW_FLAG];
    return (int)a->res[AW_MASK + (s->mine_first ? 1 : 0)];
}

static int agreed_code(const urec_t *a)
{
    return a->res[AW_ACKED] < a->depoch ? MPIX_ERR_PROC_FAILED : MPI_SUCCESS;
}

static int shrink_result(ustate_t *s, urec_t *a, group_t **local, group_t **remote,
                         uint32_t *ctx);
static void shrink_next(void);

/* A non-blocking agreement or shrink whose decision is here and whose
 * failed set is known: finish it. */
static int finish_nb(ustate_t *s, urec_t *a)
{
    if ((!a->ureq && !a->shrunk) || !a->decided || ulfm_epoch(s) < (int)a->depoch)
        return 0;
    a->consumed = 1;
    if (a->shrunk) {
        ulfm_shrunk_fn *fn = a->shrunk;
        a->shrunk = NULL;
        group_t *local = NULL, *remote = NULL;
        uint32_t ctx[2];
        int rc = shrink_result(s, a, &local, &remote, ctx);
        fn(a->shrunk_arg, rc, local, remote, ctx);
        return 1;
    }
    *a->flag_out = agreed_flag(s, a);
    a->ureq->status.MPI_ERROR = agreed_code(a);
    req_t *r = a->ureq;
    a->ureq = NULL;
    req_complete(r);
    return 1;
}

int ulfm_agree_progress(ustate_t *s)
{
    int n = refresh(s);
    for (urec_t *a = s->recs; a; a = a->next)
        step(s, a);
    for (urec_t *a = s->recs; a; a = a->next)
        n += finish_nb(s, a);
    if (s->last_rel)
        n += finish_nb(s, s->last_rel);
    return n;
}

/* ---- the calls ---------------------------------------------------------- */

static int start(comm_t *c, const uint32_t *mine, int nw, int held, urec_t **out)
{
    ustate_t *s = ulfm_state(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    urec_t *a = calloc(1, sizeof *a);
    if (!a)
        return MPI_ERR_NO_MEM;
    a->nw = nw;
    a->mine = malloc((size_t)nw * sizeof(uint32_t));
    a->acc = malloc((size_t)nw * sizeof(uint32_t));
    a->res = malloc((size_t)nw * sizeof(uint32_t));
    if (!a->mine || !a->acc || !a->res) {
        rec_free(a);
        return MPI_ERR_NO_MEM;
    }
    memcpy(a->mine, mine, (size_t)nw * sizeof(uint32_t));
    a->held = held;
    a->seq = s->nseq++;
    a->epoch = -1;
    a->up_epoch = -1;
    a->next = s->recs;
    s->recs = a;
    if (s->tree_epoch < 0 || s->tree_epoch != ulfm_epoch(s))
        build_tree(s, ulfm_epoch(s));
    rec_epoch(s, a);
    refresh(s);  /* stashed messages for this agreement */
    step(s, a);
    *out = a;
    return MPI_SUCCESS;
}

typedef struct {
    ustate_t *s;
    urec_t *a;
} wait_t;

static int decided_here(void *arg)
{
    wait_t *wt = arg;
    return wt->a->decided && ulfm_epoch(wt->s) >= (int)wt->a->depoch;
}

/* Run an agreement to its decision (blocking). The record stays with the
 * state; the caller reads a->res and marks it consumed. */
static int run(comm_t *c, const uint32_t *mine, int nw, urec_t **out)
{
    urec_t *a;
    int rc = start(c, mine, nw, 0, &a);
    if (rc != MPI_SUCCESS)
        return rc;
    wait_t wt = {c->ulfm, a};
    progress_wait(decided_here, &wt);
    *out = a;
    return MPI_SUCCESS;
}

static void consumed(ustate_t *s, urec_t *a)
{
    a->consumed = 1;
    if (!a->released || a == s->last_rel)
        return;
    rec_free(a); /* released and taken out of the list already */
}

/* This process's contribution to an agreement on flag; returns the
 * number of words. On an intercommunicator each side must get the AND of
 * the other side's flags: the flag goes in word AW_MASK (first group) or
 * AW_MASK + 1 (second) and all ones in the other, which the AND keeps
 * apart. */
static int agree_words(const ustate_t *s, int flag, uint32_t mine[4])
{
    mine[AW_FLAG] = (uint32_t)flag;
    mine[AW_ACKED] = (uint32_t)s->acked;
    if (s->nfirst == s->size)
        return 2;
    mine[AW_FLAG] = ~0u;
    mine[AW_MASK] = s->mine_first ? (uint32_t)flag : ~0u;
    mine[AW_MASK + 1] = s->mine_first ? ~0u : (uint32_t)flag;
    return 4;
}

int ulfm_agree(comm_t *c, int *flag)
{
    ustate_t *s = ulfm_state(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    uint32_t mine[4];
    urec_t *a;
    int rc = run(c, mine, agree_words(s, *flag, mine), &a);
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = agreed_flag(s, a);
    rc = agreed_code(a);
    consumed(s, a);
    return rc;
}

int ulfm_iagree(comm_t *c, int *flag, req_t **rp)
{
    ustate_t *s = ulfm_state(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    uint32_t mine[4];
    int nw = agree_words(s, *flag, mine);
    req_t *r = req_alloc(REQ_COLL);
    if (!r)
        return MPI_ERR_NO_MEM;
    r->comm = c;
    comm_retain(c);
    urec_t *a;
    int rc = start(c, mine, nw, 0, &a);
    if (rc != MPI_SUCCESS) {
        req_free(r);
        return rc;
    }
    a->ureq = r;
    a->flag_out = flag;
    finish_nb(s, a);
    *rp = r;
    return MPI_SUCCESS;
}

/* ---- shrink ------------------------------------------------------------- */

/* Survivors of the decision's epoch, split by group (list: state ranks). */
static int survivors(ustate_t *s, urec_t *a, group_t **local, group_t **remote)
{
    int *list = malloc(2 * (size_t)s->size * sizeof(int));
    if (!list)
        return MPI_ERR_NO_MEM;
    int *w = list + s->size, m = ulfm_alive_list(s, (int)a->depoch, list), nf = 0;
    for (int i = 0; i < m; i++) {
        w[i] = s->world[list[i]];
        nf += list[i] < s->nfirst;
    }
    int inter = s->nfirst < s->size;
    /* the first group's survivors are w[0, nf), the second's w[nf, m) */
    int lo = s->mine_first ? 0 : nf, ln = s->mine_first ? nf : m - nf;
    int ro = s->mine_first ? nf : 0, rn = m - ln;
    int rc = MPI_SUCCESS;
    *local = group_new(ln, w + lo);
    *remote = inter ? group_new(rn, w + ro) : NULL;
    if (!*local || (inter && !*remote))
        rc = MPI_ERR_NO_MEM;
    else if (inter && rn == 0)
        rc = MPIX_ERR_PROC_FAILED; /* the whole other group failed */
    if (rc != MPI_SUCCESS) {
        if (*local)
            group_release(*local);
        if (*remote)
            group_release(*remote);
        *local = *remote = NULL;
    }
    free(list);
    return rc;
}

/* The result of the decided shrink agreement a: the survivors, and the
 * lowest context pairs free at every one of them when it contributed
 * (1, or 2 for an intercommunicator: the second for its local part),
 * claimed here. */
static int shrink_result(ustate_t *s, urec_t *a, group_t **local, group_t **remote,
                         uint32_t *ctx)
{
    int rc = survivors(s, a, local, remote);
    if (rc != MPI_SUCCESS) {
        shrink_next();
        return rc;
    }
    int need = *remote ? 2 : 1, got = 0;
    for (uint32_t pair = 0; pair < COMM_CTX_PAIRS && got < need; pair++)
        if (a->res[AW_MASK + pair / 32] & (1u << (pair % 32))) {
            if (comm_ctx_claim(2 * pair) != 0)
                break; /* taken meanwhile here */
            ctx[got++] = 2 * pair;
        }
    if (got < need) {
        while (got > 0)
            comm_ctx_release(ctx[--got]);
        group_release(*local);
        if (*remote)
            group_release(*remote);
        *local = *remote = NULL;
        rc = MPI_ERR_INTERN; /* no pair free everywhere, or taken here */
    }
    shrink_next();
    return rc;
}

/* Shrinks of this process contribute one at a time: each offers the
 * context pairs free here, so a shrink must not offer them before the
 * previous one claimed its own. A later shrink starts at once (its place
 * in its communicator's order is taken) but is held: it gives no
 * contribution until the earlier one has claimed. */
static int shrink_busy;                 /* a shrink between contribution and claim */
static urec_t *held_head, *held_tail;   /* held shrinks, in call order */

static void shrink_words(uint32_t *mine)
{
    mine[AW_FLAG] = 1;
    mine[AW_ACKED] = 0;
    comm_ctx_mask(mine + AW_MASK);
}

/* The earlier shrink has claimed: let the next held one contribute. */
static void shrink_next(void)
{
    shrink_busy = 0;
    urec_t *a = held_head;
    if (!a)
        return;
    held_head = a->next_held;
    if (!held_head)
        held_tail = NULL;
    shrink_busy = 1;
    a->held = 0;
    shrink_words(a->mine);
    if (!a->decided)
        for (int i = AW_MASK; i < a->nw; i++)
            a->acc[i] &= a->mine[i];
    step(a->held_s, a);
}

static int shrink_start(comm_t *c, urec_t **out)
{
    uint32_t *mine = malloc((AW_MASK + COMM_CTX_WORDS) * sizeof(uint32_t));
    if (!mine)
        return MPI_ERR_NO_MEM;
    int hold = shrink_busy;
    if (hold) /* contributes nothing until released (all ones: AND neutral) */
        memset(mine, 0xff, (AW_MASK + COMM_CTX_WORDS) * sizeof(uint32_t));
    else
        shrink_words(mine);
    ustate_t *s = ulfm_state(c);
    urec_t *a;
    int rc = s ? start(c, mine, AW_MASK + COMM_CTX_WORDS, hold, &a) : MPI_ERR_NO_MEM;
    free(mine);
    if (rc != MPI_SUCCESS)
        return rc;
    shrink_busy = 1;
    if (hold) {
        a->held_s = s;
        if (held_tail)
            held_tail->next_held = a;
        else
            held_head = a;
        held_tail = a;
    }
    *out = a;
    return MPI_SUCCESS;
}

int ulfm_shrink(comm_t *c, group_t **local, group_t **remote, uint32_t ctx[2])
{
    urec_t *a;
    int rc = shrink_start(c, &a);
    if (rc != MPI_SUCCESS)
        return rc;
    wait_t wt = {c->ulfm, a};
    progress_wait(decided_here, &wt);
    rc = shrink_result(c->ulfm, a, local, remote, ctx);
    consumed(c->ulfm, a);
    return rc;
}

int ulfm_ishrink(comm_t *c, ulfm_shrunk_fn *fn, void *arg)
{
    urec_t *a;
    int rc = shrink_start(c, &a);
    if (rc != MPI_SUCCESS)
        return rc;
    a->shrunk = fn;
    a->shrunk_arg = arg;
    finish_nb(c->ulfm, a);
    return MPI_SUCCESS;
}
