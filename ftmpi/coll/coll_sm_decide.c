/*
 * The shared decision slots of ATOMIC collectives (coll_sm_decide.h): one
 * write-once value per member and decision, set by compare-and-swap, so
 * that the members reach one outcome without a message to the head.
 */
#include "coll/coll_sm_decide.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/coll_sm.h"
#include "core/proc.h"
#include "p2p/progress.h"
#include "transport/shm/shm.h"

enum { D_NONE = 0, D_DONE = 1, D_FAILED = 2, D_VETO = 3 };
#define D_SLOT 64u /* one cache line per member */

struct coll_decide {
    char *base;
    size_t len;
    int p, me;
    uint32_t gen;
    int *world;           /* [p] world ranks of the members */
    shmseg_slot_t **bell; /* [p] their doorbells (NULL: none) */
    uint64_t seq;         /* decisions so far */
};

static _Atomic uint64_t *word(const coll_decide_t *d, int k)
{
    return (_Atomic uint64_t *)(d->base + (size_t)k * D_SLOT);
}

void coll_decide_free(coll_decide_t *d)
{
    if (!d)
        return;
    if (d->base)
        munmap(d->base, d->len);
    free(d->world);
    free(d->bell);
    free(d);
}

static coll_decide_t *decide_new(const comm_t *c)
{
    coll_decide_t *d = calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    d->p = c->size;
    d->me = c->rank;
    d->gen = ftg.generation;
    d->len = ((size_t)d->p * D_SLOT + 4095u) & ~(size_t)4095u;
    d->world = malloc((size_t)d->p * sizeof(int));
    d->bell = calloc((size_t)d->p, sizeof(*d->bell));
    if (!d->world || !d->bell) {
        coll_decide_free(d);
        return NULL;
    }
    memcpy(d->world, c->group->world, (size_t)d->p * sizeof(int));
    for (int k = 0; k < d->p && shm_self.base && ftg.slot_of_world; k++)
        if (ftg.slot_of_world[d->world[k]] >= 0)
            d->bell[k] = shmseg_slot(shm_self.base, (uint32_t)ftg.slot_of_world[d->world[k]]);
    return d;
}

int coll_decide_setup(comm_t *c, coll_decide_t **out)
{
    *out = NULL;
    coll_decide_t *d = decide_new(c);
    int have = d != NULL, all = 0;
    coll_sm_t seg;
    memset(&seg, 0, sizeof(seg));
    seg.len = d ? d->len : 4096u;
    int info[3] = {0, -1, 0}; /* pid, fd, made */
    if (c->rank == 0 && have)
        coll_sm_make_shared(&seg, info);
    dt_t *ints = dt_get(MPI_INT);
    int rc = coll_bcast(c, info, 3, ints, 0);
    if (rc == MPI_SUCCESS) {
        have = have && info[2] && (c->rank == 0 || coll_sm_map_shared(&seg, info));
        rc = coll_allreduce(c, &have, &all, 1, ints, op_get(MPI_MIN));
    }
    if (c->rank == 0 && info[1] >= 0)
        close(info[1]);
    if (rc != MPI_SUCCESS || !all) {
        if (seg.base)
            munmap(seg.base, seg.len);
        coll_decide_free(d);
        return rc;
    }
    d->base = seg.base;
    *out = d;
    return MPI_SUCCESS;
}

int coll_decide_matches(const coll_decide_t *d, const comm_t *c, uint32_t generation)
{
    return d->gen == generation && d->p == c->size && d->me == c->rank &&
           !memcmp(d->world, c->group->world, (size_t)c->size * sizeof(int));
}

/* Ring the members that sleep: a slot changed. The change was a
 * sequentially consistent read-modify-write, so either its sleeper count
 * is seen here or its last poll before sleeping (the hook) sees the slot. */
static void wake_all(const coll_decide_t *d)
{
    for (int k = 0; k < d->p; k++)
        if (k != d->me && d->bell[k] && atomic_load(&d->bell[k]->sleepers))
            shmseg_wake(d->bell[k]);
}

static int outcome(const coll_decide_t *d, uint64_t s);

uint64_t coll_decide_publish(coll_decide_t *d, int ok, int *ok_p)
{
    uint64_t s = ++d->seq, mine = s << 2 | (ok ? D_DONE : D_FAILED);
    _Atomic uint64_t *w = word(d, d->me);
    uint64_t v = atomic_load(w);
    /* Only a veto for s can get in between: the loop ends at once then. */
    while (v >> 2 < s)
        if (atomic_compare_exchange_strong(w, &v, mine))
            v = mine;
    *ok_p = (v & 3) == D_DONE;
    /* Wake the sleepers only once they can decide: when this was the last
     * value missing, or a "no". Of two members that publish last at the
     * same time, the later swap's reads see the earlier one's value, so at
     * least one of them wakes everyone (a wake per member per call, not
     * one per publisher). */
    if (outcome(d, s) >= 0)
        wake_all(d);
    return s;
}

/* Member k's value for decision s: D_NONE while it has none. A later
 * decision there means s was "yes". */
static int value_of(const coll_decide_t *d, int k, uint64_t s)
{
    uint64_t v = atomic_load(word(d, k));
    if (v >> 2 > s)
        return D_DONE;
    return v >> 2 == s ? (int)(v & 3) : D_NONE;
}

/* 1 yes, 0 no, -1 not yet known. */
static int outcome(const coll_decide_t *d, uint64_t s)
{
    int pending = 0;
    for (int k = 0; k < d->p; k++) {
        int x = value_of(d, k, s);
        if (x == D_FAILED || x == D_VETO)
            return 0;
        pending |= x == D_NONE;
    }
    return pending ? -1 : 1;
}

/* Every member without a value for s gets a veto (a value set meanwhile
 * stays: the swap fails and the loop sees it). */
static void veto_rest(coll_decide_t *d, uint64_t s)
{
    for (int k = 0; k < d->p; k++) {
        _Atomic uint64_t *w = word(d, k);
        uint64_t v = atomic_load(w);
        while (v >> 2 < s && !atomic_compare_exchange_strong(w, &v, s << 2 | D_VETO))
            ;
    }
    wake_all(d);
}

typedef struct {
    coll_decide_t *d;
    uint64_t s;
    int (*give_up)(void *);
    void *arg;
    int result;
} dwait_t;

/* A member known to have died publishes nothing more. */
static int member_dead(const coll_decide_t *d)
{
    for (int k = 0; k < d->p; k++)
        if (ftg.peer_dead[d->world[k]])
            return 1;
    return 0;
}

static int decided(void *a)
{
    dwait_t *w = a;
    int r = outcome(w->d, w->s);
    if (r < 0 && (member_dead(w->d) || w->give_up(w->arg))) {
        veto_rest(w->d, w->s);
        r = outcome(w->d, w->s);
    }
    if (r >= 0)
        w->result = r;
    return r >= 0;
}

/* The progress engine's last poll before it sleeps (MPI_THREAD_MULTIPLE:
 * each thread its own wait; the hook is added while any waits). */
static __thread dwait_t *waiting;
static int hook_users;

static int wait_hook(void)
{
    return waiting && decided(waiting);
}

int coll_decide_wait(coll_decide_t *d, uint64_t s, int (*give_up)(void *), void *arg)
{
    dwait_t w = {d, s, give_up, arg, -1};
    if (decided(&w))
        return w.result;
    dwait_t *outer = waiting;
    waiting = &w;
    if (hook_users++ == 0)
        progress_add_hook(wait_hook);
    int rc = progress_wait(decided, &w);
    waiting = outer;
    if (--hook_users == 0)
        progress_remove_hook(wait_hook);
    return rc != MPI_SUCCESS ? -rc : w.result;
}
