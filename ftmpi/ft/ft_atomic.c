/*
 * The ATOMIC decision of a collective (docs/ft.md, "ATOMIC without the
 * head"): did every member complete it?
 *
 * Fast path, for an intracommunicator whose members all run on this host
 * and that has slots for this generation and these members: the members
 * decide through the shared slots of coll/coll_sm_decide.c, without a
 * message. A member that waits there and then learns that a member died or
 * that a recovery round waits for it vetoes the members that have not
 * published yet, which makes the decision "no".
 *
 * Head path, in every other case: every member votes through the
 * runtime's head (rtc_agree), which answers every voter alike. A member
 * that decided "no" in the slots votes "no" at the head as well, so that a
 * member that took the head path gets its answer (every member takes the
 * same path: they hold the same slots, and under BLANK see the same
 * members, gaps changing only at a recovery). After any "no"
 * the slots are dropped; they are made (two collective steps and three
 * head agreements, once per communicator and generation) after a head
 * "yes" when every member wants them, so every member takes the same path
 * for every decision that the slots can make "yes".
 */
#include "ft/ft_int.h"
#include "coll/coll_sm_decide.h"
#include "core/mpit_stats.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    coll_decide_t *d;    /* the slots, NULL while there are none */
    long fast;           /* decisions begun in slots on this communicator */
    long head;           /* decisions begun at the head (not after a slot "no") */
    int refused;         /* the members refused the slots in generation refused_gen */
    uint32_t refused_gen;
} atomic_t;

/* The setup's head agreements: the collective's key with a bit that a
 * collective's key never has (context ids are even). */
#define SETUP_KEY_BIT (1ull << 48)

/* The head's key for the collective c is about to run: context id,
 * generation, the first member of c's whole group g (communicators that
 * share a context id, the halves of a split or the two sides of an
 * intercommunicator, have disjoint groups; under BLANK, g is the group
 * with its gaps, which every member sees alike, not the live members) and
 * the call's number. Only agreements pending at the same time need
 * different keys. */
uint64_t ft_atomic_key(const comm_t *c, const group_t *g)
{
    uint32_t first = (uint32_t)g->world[0];
    if (c->is_inter && c->rgroup && c->rgroup->size && (uint32_t)c->rgroup->world[0] < first)
        first = (uint32_t)c->rgroup->world[0];
    return ((uint64_t)(c->ctx & 0xffff) << 48) | ((uint64_t)(ftg.generation & 0xff) << 40) |
           ((uint64_t)(first & 0xffff) << 24) | (uint64_t)(c->coll_seq & 0xffffff);
}

static void atomic_free(comm_t *c)
{
    atomic_t *a = c->ft_atomic;
    if (!a)
        return;
    coll_decide_free(a->d);
    free(a);
    c->ft_atomic = NULL;
}

int ft_atomic_prepare(comm_t *c)
{
    if (c->ft_atomic)
        return MPI_SUCCESS;
    comm_free_hook_atomic = atomic_free;
    c->ft_atomic = calloc(1, sizeof(atomic_t));
    return c->ft_atomic ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* FTMPI_ATOMIC_SLOTS=0: always the head (for comparisons). */
static int slots_enabled(void)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("FTMPI_ATOMIC_SLOTS");
        on = !(e && (!strcmp(e, "0") || !strcasecmp(e, "off")));
    }
    return on;
}

/* No failure that a recovery has not handled, no recovery round: the
 * members' views of a communicator (BLANK's live members) agree. */
static int quiet(void)
{
    return ft.nfailed == 0 && !ft.round_waiting && !ft.in_recovery;
}

/* A member that has gone to a recovery round will not publish (a member
 * known dead is seen by coll_decide_wait itself). */
static int give_up(void *arg)
{
    (void)arg;
    return ft.round_waiting || ft.in_recovery;
}

/* What every member computes alike: could c have slots at all? */
static int slots_possible(const comm_t *c)
{
    if (c->is_inter || c->size < 2 || !shm_self.base || !ftg.slot_of_world)
        return 0;
    for (int i = 0; i < c->size; i++)
        if (ftg.slot_of_world[c->group->world[i]] < 0)
            return 0;
    return 1;
}

/* A vote through the head over c's current members (both groups of an
 * intercommunicator): 1 yes, 0 no. */
static int head_vote(const comm_t *c, uint64_t key, int vote)
{
    const group_t *g = c->group, *r = c->is_inter ? c->rgroup : NULL;
    int n = g->size + (r ? r->size : 0), agreed = 0;
    int *who = malloc((size_t)(n ? n : 1) * sizeof(int));
    uint32_t *incs = malloc((size_t)(n ? n : 1) * sizeof(uint32_t));
    if (!who || !incs) {
        free(who);
        free(incs);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        who[i] = i < g->size ? g->world[i] : r->world[i - g->size];
        incs[i] = ftg.inc_of_world[who[i]];
    }
    MPIT_ADD(mpit_stats.atomic_head, 1);
    if (rtc_agree(key, vote, who, incs, n, &agreed) < 0)
        agreed = 0;
    free(who);
    free(incs);
    return agreed;
}

static void drop_slots(atomic_t *a)
{
    coll_decide_free(a->d);
    a->d = NULL;
}

/* After a head "yes" with no slots: make them if every member wants them
 * and every member made them. */
static void try_setup(comm_t *c, atomic_t *a, uint64_t key)
{
    if (!slots_possible(c) || (a->refused && a->refused_gen == ftg.generation))
        return;
    coll_decide_t *d = NULL;
    int ok = head_vote(c, key | SETUP_KEY_BIT,
                       quiet() && slots_enabled() && ftg.comm_mode != FTMPI_COMM_MODE_ULFM);
    if (ok) {
        int rc = coll_decide_setup(c, &d);
        ok = head_vote(c, key | SETUP_KEY_BIT, rc == MPI_SUCCESS && d);
    }
    if (!ok) {
        coll_decide_free(d);
        a->refused = 1;
        a->refused_gen = ftg.generation;
        return;
    }
    a->d = d;
}

int ft_atomic_decide(comm_t *c, uint64_t key, int ok)
{
    atomic_t *a = c->ft_atomic;
    if (c->size == 1 && !c->is_inter)
        return ok; /* the only member */
    if (a->d && !coll_decide_matches(a->d, c, ftg.generation))
        drop_slots(a); /* a recovery: new generation, maybe new members */
    if (a->d) {
        int mine = 0;
        /* Fault points (--kill-at NAME=N@R): between the local end of the
         * N-th such collective and the vote, and between vote and decision. */
        rtc_fault_point("atomic_before_vote", ++a->fast);
        uint64_t s = coll_decide_publish(a->d, ok, &mine);
        rtc_fault_point("atomic_after_vote", a->fast);
        if (mine && coll_decide_wait(a->d, s, give_up, NULL) == 1) {
            MPIT_ADD(mpit_stats.atomic_local, 1);
            return 1;
        }
        /* "no": the slots are not used again, and the members that went to
         * the head get their answer (it can only be "no"). */
        drop_slots(a);
        head_vote(c, key, 0);
        return 0;
    }
    /* Fault points around the N-th head vote on c (intercommunicators,
     * several hosts, the first collective of a generation...). */
    rtc_fault_point("atomic_head_before_vote", ++a->head);
    int yes = head_vote(c, key, ok);
    rtc_fault_point("atomic_head_after_vote", a->head);
    if (!yes) {
        drop_slots(a);
        return 0;
    }
    if (!a->d)
        try_setup(c, a, key);
    return 1;
}
