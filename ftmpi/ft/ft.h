/*
 * Fault tolerance: failure state, notification handling, the recovery
 * protocol and the FT-MPI modes (docs/ft.md). Sits above p2p and coll;
 * the API edge calls in.
 *
 * Failure (RTC_EV_FAILURE, same order on every process):
 *   the failed rank is marked dead; every pending operation with it
 *   completes with MPI_ERR_OTHER; under MANUAL/AUTO every communicator that
 *   contains it becomes DETECTED (in RESET mode its pending operations
 *   fail too, so that no process stays blocked while the others recover).
 * Round started (RTC_EV_ROUND, to every process that has not joined it):
 *   what the process is blocked in ends with MPI_ERR_OTHER and its
 *   communicating calls fail until it joins (docs/ft.md, "Who is told to
 *   recover"). A round refused because the job is finalizing makes the
 *   recovery return MPI_ERR_OTHER.
 * Recovery (ft_recover, collective over all live processes + replacements):
 *   join the runtime's round, wait for the agreed membership, then apply
 *   it: new generation, MPI_COMM_WORLD rebuilt per the communicator mode,
 *   every other communicator destroyed, attributes FTMPI_NUM_FAILED_PROCS
 *   and FTMPI_ERROR_FAILURE set, and last the delete callbacks of
 *   MPI_COMM_WORLD's attributes called in attachment order (survivors).
 */
#ifndef FTMPI_FT_H
#define FTMPI_FT_H

#include "core/comm.h"
#include "core/datatype.h"

/* End of MPI_Init: installs the event handler; in a replacement process
 * joins the recovery under way and returns MPI_INIT_RESTARTED_NODE. */
int ft_after_init(void);

/* Is there a failure that no recovery has handled yet? */
int ft_recovery_pending(void);

/* Has a recovery round started that waits for this process? Then every
 * communicating call returns MPI_ERR_OTHER until it joins (docs/ft.md). */
int ft_round_waiting(void);

/* Run a recovery now (see above). MPI_SUCCESS or an error class. */
int ft_recover(void);

/* MPI_Comm_dup hook: on MPI_COMM_WORLD with a failure not yet recovered
 * (or when the dup fails because of a failure) recover first. Sets
 * *handled when it produced *newcomm itself. */
int ft_comm_dup(comm_t *c, MPI_Comm *newcomm, int *handled);

/* MPI_Comm_dup hook, after an ordinary dup failed with rc: when it was a
 * dup of MPI_COMM_WORLD that a process failure interrupted (the failure
 * became known only inside the dup), recover and return the recovery's
 * duplicate in *newcomm. Returns the code the dup returns. */
int ft_comm_dup_interrupted(comm_t *c, int rc, MPI_Comm *newcomm);

/* AUTO mode: called at the API edge with the code a call is about to
 * return; starts the recovery when that code reports a failure. */
void ft_auto_recover(int rc);

/* Collective wrapper for the ATOMIC mode and BLANK gaps (ft_coll.c):
 *   ft_coll_t f;
 *   rc = ft_coll_begin(&f, c, rbuf, rcount, rdt, &root);   // root may be NULL
 *   if (rc == MPI_SUCCESS) rc = ft_coll_end(&f, coll_xxx(c, ...));
 * rbuf/rcount/rdt: this process's whole receive region (NULL if none). */
typedef struct {
    comm_t *c;
    group_t *saved_group;
    int *root_p, saved_root;
    int atomic;
    uint64_t key;
    void *save;
    char *lo;
    size_t len;
    int slots;          /* per-rank slots to move back to original ranks */
    size_t slot_bytes;
    char *rbuf;
} ft_coll_t;
int ft_coll_begin(ft_coll_t *f, comm_t *c, void *rbuf, size_t rcount, dt_t *rdt, int *root);
int ft_coll_end(ft_coll_t *f, int rc);
/* ATOMIC (ft_atomic.c): ft_atomic_prepare at ft_coll_begin (the
 * communicator's decision state; MPI_ERR_NO_MEM); ft_atomic_decide at
 * ft_coll_end: 1 when every member completed the collective (ok: this
 * one did), else 0, the same on every member. key: the head's agreement
 * key of the collective. */
int ft_atomic_prepare(comm_t *c);
uint64_t ft_atomic_key(const comm_t *c, const group_t *g);
int ft_atomic_decide(comm_t *c, uint64_t key, int ok);
/* The BLANK part alone, for the collective steps of building a
 * communicator (context agreement, split's exchange): while c has gaps it
 * runs over c's live members until ft_coll_end. No ATOMIC vote. */
int ft_live_begin(ft_coll_t *f, comm_t *c);
/* For collectives whose receive buffer has one slot of slot_count
 * elements per rank (gather, allgather, alltoall): under BLANK the gaps'
 * slots are left untouched and the others land at their ranks' places. */
int ft_coll_begin_slots(ft_coll_t *f, comm_t *c, void *rbuf, size_t slot_count, dt_t *rdt,
                        int *root);

/* After a recovery, a group made before it that contains a process that
 * failed is no longer usable (MPI_ERR_GROUP, except MPI_Group_free). */
int ft_group_usable(const group_t *g);

/* BLANK mode: is comm rank r of c a gap (failed, not replaced)? */
int ft_is_gap(const comm_t *c, int r);

#endif
