/*
 * The ULFM channel: one hidden communicator over MPI_COMM_WORLD, on a
 * context pair every process reserves in MPI_Init (the highest one, before
 * any communicator exists, so no agreement is needed), carries the revoke
 * and agreement messages of every communicator. A message names its
 * communicator by context id and a hash of its group, and is handled from
 * the progress engine whatever the process is blocked in; messages for a
 * communicator this process has not created yet wait in a stash.
 *
 * Also here: the per-communicator ULFM state, which outlives
 * MPI_Comm_free while other members may still need its agreements.
 */
#include "ft/ulfm_int.h"

#include <stdlib.h>
#include <string.h>

comm_t *ulfm_chan;
static ustate_t *states;
static umsg_q_t *orphans;           /* messages for communicators unknown here */
#define MAX_INFLIGHT 64
static req_t *inflight[MAX_INFLIGHT]; /* receives of rendezvous messages */
static void *inflight_buf[MAX_INFLIGHT];
static int ninflight;

int ulfm_enabled(void)
{
    return ftg.comm_mode == FTMPI_COMM_MODE_ULFM;
}

static ustate_t *find_state(uint32_t ctx, uint32_t ghash, uint32_t inc)
{
    for (ustate_t *s = states; s; s = s->next)
        if (s->ctx == ctx && s->ghash == ghash && s->inc == inc)
            return s;
    return NULL;
}

/* The members of c as the state lists them (see ustate_t): for an
 * intercommunicator both groups, the one led by the lower world rank
 * first. */
static int members(const comm_t *c, ustate_t *s)
{
    const group_t *a = c->group, *b = c->rgroup;
    s->mine_first = 1;
    if (b && b->world[0] < a->world[0]) {
        const group_t *t = a;
        a = b;
        b = t;
        s->mine_first = 0;
    }
    s->nfirst = a->size;
    s->size = a->size + (b ? b->size : 0);
    s->rank = s->mine_first ? c->rank : b->size + c->rank;
    s->world = malloc((size_t)s->size * sizeof(int));
    if (!s->world)
        return -1;
    memcpy(s->world, a->world, (size_t)a->size * sizeof(int));
    if (b)
        memcpy(s->world + a->size, b->world, (size_t)b->size * sizeof(int));
    return 0;
}

static uint32_t world_hash(const int *world, int n)
{
    uint32_t h = 2166136261u ^ (uint32_t)n;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint32_t)world[i]) * 16777619u;
    return h;
}

/* The state of c, made when c is registered (or, for MPI_COMM_WORLD and
 * MPI_COMM_SELF, at first use). States are kept until MPI_Finalize. */
ustate_t *ulfm_state(comm_t *c)
{
    if (c->ulfm)
        return c->ulfm;
    if (!ulfm_enabled() || c == ulfm_chan)
        return NULL;
    ustate_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (members(c, s) != 0) {
        free(s);
        return NULL;
    }
    uint32_t gh = world_hash(s->world, s->size), inc = 1;
    for (ustate_t *o = states; o; o = o->next)
        if (o->ctx == c->ctx && o->ghash == gh && o->inc >= inc)
            inc = o->inc + 1;
    s->comm = c;
    s->ctx = c->ctx;
    s->ghash = gh;
    s->inc = inc;
    s->rel_epoch_sent = -1;
    s->tree_epoch = -1;
    s->next = states;
    states = s;
    c->ulfm = s;
    /* Messages that arrived before this process made the communicator;
     * those of earlier incarnations are void. */
    for (umsg_q_t **p = &orphans; *p;) {
        umsg_q_t *q = *p;
        if (q->h.ctx == s->ctx && q->h.ghash == s->ghash && q->h.inc <= s->inc) {
            *p = q->next;
            if (q->h.inc == s->inc && q->h.kind == UM_REVOKE) {
                free(q);
                s->stash_revoked = 1;
            } else if (q->h.inc == s->inc) {
                q->next = s->stash;
                s->stash = q;
            } else {
                free(q);
            }
        } else {
            p = &q->next;
        }
    }
    return s;
}

static void comm_born(comm_t *c)
{
    ustate_t *s = ulfm_state(c);
    if (s && s->stash_revoked)
        ulfm_revoke(c);
}

void ulfm_watch(comm_t *c)
{
    comm_born(c);
}

/* MPI_Comm_free: the state stays. */
static void comm_gone(comm_t *c)
{
    ustate_t *s = c->ulfm;
    if (!s)
        return;
    s->comm = NULL;
    c->ulfm = NULL;
}

int ulfm_epoch(const ustate_t *s)
{
    int e = 0;
    for (int i = 0; i < ft.nfailed; i++)
        for (int k = 0; k < s->size; k++)
            if (s->world[k] == ft.failed[i]) {
                e++;
                break;
            }
    return e;
}

int ulfm_alive_list(const ustate_t *s, int epoch, int *list)
{
    char *dead = calloc((size_t)s->size, 1);
    if (!dead)
        return -1;
    int e = 0;
    for (int i = 0; i < ft.nfailed && e < epoch; i++)
        for (int k = 0; k < s->size; k++)
            if (s->world[k] == ft.failed[i]) {
                dead[k] = 1;
                e++;
                break;
            }
    int n = 0;
    for (int k = 0; k < s->size; k++)
        if (!dead[k])
            list[n++] = k;
    free(dead);
    return n;
}

/* ---- sending ----------------------------------------------------------- */

static void send_done(req_t *r)
{
    free(r->ctx);
    r->ctx = NULL;
}

int ulfm_send(int world, const um_hdr_t *h, const uint32_t *w)
{
    if (world == ftg.world_rank || ftg.peer_dead[world])
        return MPI_SUCCESS; /* nothing to tell a dead process */
    size_t bytes = sizeof *h + h->nw * sizeof(uint32_t);
    char *buf = malloc(bytes);
    if (!buf)
        return MPI_ERR_NO_MEM;
    memcpy(buf, h, sizeof *h);
    if (h->nw)
        memcpy(buf + sizeof *h, w, h->nw * sizeof(uint32_t));
    req_t *r = req_new_p2p(REQ_SEND, ulfm_chan, buf, (int)bytes, dt_get(MPI_BYTE), world,
                           (int)h->kind, SEND_STANDARD, 0);
    if (!r) {
        free(buf);
        return MPI_ERR_NO_MEM;
    }
    r->ctx = buf;
    r->on_done = send_done;
    int rc = p2p_start_send(r);
    if (rc != MPI_SUCCESS) {
        free(buf);
        r->ctx = NULL;
        r->on_done = NULL;
        req_free(r);
        return rc; /* the peer failed meanwhile: the failure event follows */
    }
    if (r->complete)
        req_free(r);
    else
        r->user_freed = 1; /* frees itself when done */
    return MPI_SUCCESS;
}

/* ---- receiving --------------------------------------------------------- */

static void stash(umsg_q_t **list, int from, const um_hdr_t *h, const uint32_t *w)
{
    umsg_q_t *q = malloc(sizeof *q + h->nw * sizeof(uint32_t));
    if (!q)
        return; /* lost: the sender's next epoch or the release repeats it */
    q->from = from;
    q->h = *h;
    if (h->nw)
        memcpy(q->w, w, h->nw * sizeof(uint32_t));
    q->next = *list;
    *list = q;
}

static void dispatch(int from, const char *buf, size_t len)
{
    um_hdr_t h;
    /* Messages of processes that failed since are taken too: a decision
     * or a revocation stays true; the epochs void the rest. */
    if (len < sizeof h)
        return;
    memcpy(&h, buf, sizeof h);
    if (h.kind == 0 || h.kind >= UM_KINDS || len != sizeof h + h.nw * sizeof(uint32_t))
        return;
    const uint32_t *w = (const uint32_t *)(const void *)(buf + sizeof h);
    ustate_t *s = find_state(h.ctx, h.ghash, h.inc);
    if (!s) {
        comm_t *c = comm_by_ctx(h.ctx);
        if (c && !c->ulfm)
            s = ulfm_state(c); /* MPI_COMM_WORLD, MPI_COMM_SELF */
        if (!s || s->ghash != h.ghash || s->inc != h.inc) {
            /* a communicator not made here yet (or an older one: void) */
            stash(&orphans, from, &h, w);
            return;
        }
    }
    if (h.kind == UM_REVOKE)
        ulfm_revoke_msg(s, from, &h);
    else
        ulfm_agree_msg(s, from, &h, w);
}

static int take_messages(void)
{
    int n = 0;
    for (int i = 0; i < ninflight;) {
        req_t *r = inflight[i];
        if (!r->complete) {
            i++;
            continue;
        }
        if (r->status.MPI_ERROR == MPI_SUCCESS)
            dispatch(r->status.MPI_SOURCE, inflight_buf[i], (size_t)r->status.ftmpi_count);
        free(inflight_buf[i]);
        req_free(r);
        inflight[i] = inflight[--ninflight];
        inflight_buf[i] = inflight_buf[ninflight];
        n++;
    }
    while (ninflight < MAX_INFLIGHT) {
        int found = 0;
        MPI_Status st;
        umsg_t *m = NULL;
        p2p_probe(ulfm_chan, MPI_ANY_SOURCE, MPI_ANY_TAG, 1, &found, &st, &m);
        if (!found || !m)
            break;
        size_t len = (size_t)st.ftmpi_count;
        char *buf = malloc(len ? len : 1);
        req_t *r = buf ? req_new_p2p(REQ_RECV, ulfm_chan, buf, (int)len, dt_get(MPI_BYTE),
                                     st.MPI_SOURCE, st.MPI_TAG, SEND_STANDARD, 0)
                       : NULL;
        if (!r) {
            free(buf);
            break; /* out of memory: the message stays taken, lost */
        }
        p2p_start_mrecv(r, m);
        inflight[ninflight] = r;
        inflight_buf[ninflight++] = buf;
        n++;
    }
    /* Take again what completed at once (eager messages). */
    for (int i = 0; i < ninflight; i++)
        if (inflight[i]->complete)
            return n + take_messages();
    return n;
}

static int in_hook;

static int ulfm_hook(void)
{
    if (in_hook)
        return 0;
    in_hook = 1;
    static int seen_failures = -1;
    int n = take_messages(), changed = ft.nfailed != seen_failures;
    seen_failures = ft.nfailed;
    /* Only states with work, or all of them when a failure moved epochs
     * (freed communicators' states are kept: keep the poll cheap). */
    for (ustate_t *s = states; s; s = s->next)
        if (changed || s->recs || s->stash)
            n += ulfm_agree_progress(s);
    in_hook = 0;
    return n;
}

int ulfm_ustate_busy(void)
{
    for (ustate_t *s = states; s; s = s->next)
        if (s->nrel < s->nseq)
            return 1;
    return 0;
}

int ulfm_init(void)
{
    if (!ulfm_enabled())
        return MPI_SUCCESS;
    uint32_t ctx = 2u * (COMM_CTX_PAIRS - 1);
    if (comm_ctx_claim(ctx) != 0)
        return MPI_ERR_INTERN;
    /* ranks of the channel are job-wide ids: every process, spawned ones
     * too (docs/dynamic.md), not only MPI_COMM_WORLD's */
    int *ids = malloc((size_t)ftg.world_size * sizeof(int));
    group_t *all = NULL;
    for (int i = 0; ids && i < ftg.world_size; i++)
        ids[i] = i;
    if (ids)
        all = group_new(ftg.world_size, ids);
    free(ids);
    ulfm_chan = all ? comm_new(all, NULL, ctx) : NULL;
    if (all)
        group_release(all);
    if (!ulfm_chan)
        return MPI_ERR_NO_MEM;
    ulfm_chan->hidden = 1;
    comm_register_hidden(ulfm_chan);
    comm_free_hook_ulfm = comm_gone;
    comm_register_hook_ulfm = comm_born;
    progress_add_hook(ulfm_hook);
    return MPI_SUCCESS;
}

static int nothing_unreleased(void *arg)
{
    (void)arg;
    return !ulfm_ustate_busy();
}

void ulfm_finalize(void)
{
    if (!ulfm_enabled() || !ulfm_chan)
        return;
    progress_wait(nothing_unreleased, NULL);
}
