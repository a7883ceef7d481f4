/*
 * Shared decision slots for ATOMIC collectives (docs/ft.md, "ATOMIC
 * without the head"): one 64-byte slot per member of a communicator whose
 * members all run on this host, in a memfd segment of its own (made like
 * the shared-memory collectives' segment, coll_sm.c) that stays mapped by
 * the survivors when a member is killed.
 *
 * Each slot holds one word, (s << 2) | outcome, for the decision number s
 * of the segment (1, 2, ...). A member publishes its outcome for s (DONE or
 * FAILED) with a compare-and-swap from a value below s; a waiter that has
 * given up on a member that has not published swaps VETO in instead. Each
 * slot's value for s is therefore written once, by whoever swaps first:
 * the decision "yes" (every slot DONE for s) or "no" (some slot FAILED or
 * VETO for s) is the same for every member that reaches one. A value
 * above s means the decision s was "yes" (the caller stops using the
 * segment after a "no", ft/ft_atomic.c).
 */
#ifndef FTMPI_COLL_SM_DECIDE_H
#define FTMPI_COLL_SM_DECIDE_H

#include <stdint.h>

#include "core/comm.h"

typedef struct coll_decide coll_decide_t;

/* Make and map the slots of c's current members (rank 0 makes the memfd,
 * the others map it; two collective steps over c). MPI_SUCCESS with *out
 * set, or *out NULL when this member could not map it; an error class when
 * a step failed (a member died). */
int coll_decide_setup(comm_t *c, coll_decide_t **out);
void coll_decide_free(coll_decide_t *d);

/* Was d made for this generation and these members (c's current group)? */
int coll_decide_matches(const coll_decide_t *d, const comm_t *c, uint32_t generation);

/* Publish this member's outcome (ok: DONE, else FAILED) of the next
 * decision of d. Returns its number s, and in *ok_p this member's final
 * vote: 0 when it failed or a waiter vetoed it first. */
uint64_t coll_decide_publish(coll_decide_t *d, int ok, int *ok_p);

/* The decision s (1 yes, 0 no). Waits through the progress engine while
 * some member has not published; once a member is known to have died or
 * give_up(arg) returns 1, vetoes the members that still have not. A negative MPI error class if the wait
 * itself was ended (the job is going down). */
int coll_decide_wait(coll_decide_t *d, uint64_t s, int (*give_up)(void *), void *arg);

#endif
