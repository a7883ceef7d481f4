/*
 * The ULFM semantics (docs/ulfm.md), selected with comm mode ULFM
 * (`mpirun --with-ft ulfm`). What the API edge calls:
 *
 *   failures   a failure changes no communicator; an operation that needs
 *              the failed process returns MPIX_ERR_PROC_FAILED (the layers
 *              below report it as MPI_ERR_OTHER, FT-MPI's failure code:
 *              ulfm_code renames it at the edge); a wildcard receive with
 *              an unacknowledged failure in its group is parked with
 *              MPIX_ERR_PROC_FAILED_PENDING and re-posted by the ack;
 *   revoke     an in-band flood over a binomial graph (ulfm_revoke.c);
 *   agree      an in-band, failure-tolerant tree agreement whose decision
 *              every member keeps serving until every live member has it
 *              (ulfm_agree.c); shrink is an agreement plus a context id.
 *
 * All in-band traffic goes over one hidden communicator spanning
 * MPI_COMM_WORLD with a context pair reserved at MPI_Init (ulfm_chan.c).
 */
#ifndef FTMPI_FT_ULFM_H
#define FTMPI_FT_ULFM_H

#include <stdint.h>

#include "core/comm.h"
#include "core/group.h"
#include "core/request.h"

/* Is the job running with the ULFM semantics? */
int ulfm_enabled(void);
/* End of MPI_Init (ULFM mode): the channel and its progress hook. */
int ulfm_init(void);
/* MPI_Finalize (ULFM mode): serve the agreements other processes may
 * still need from us until every one of them is released. */
void ulfm_finalize(void);

/* The code an API call returns for rc: MPI_ERR_OTHER (a process failure
 * below) becomes MPIX_ERR_PROC_FAILED in ULFM mode. */
int ulfm_code(int rc);
/* MPIX_ERR_REVOKED when c is revoked, else MPI_SUCCESS. */
int ulfm_usable(const comm_t *c);

/* Failures (ulfm_fail.c). A failure announced by the runtime: park the
 * wildcard receives it concerns. Called before p2p hears of it. */
void ulfm_on_failure(int world);
/* The failed members of c in the order they were announced (all of them,
 * or the first `acked` ones with acked_only). */
int ulfm_failed_group(comm_t *c, int acked_only, group_t **out);
/* Acknowledge the first num_to_ack failures of c (-1: all known now);
 * *num_acked: how many are acknowledged. Re-posts parked receives. */
int ulfm_ack(comm_t *c, int num_to_ack, int *num_acked);
/* Does c have a failure not acknowledged here (wildcard receives raise)? */
int ulfm_wildcard_blocked(comm_t *c);
/* Complete wildcard receive r with MPIX_ERR_PROC_FAILED_PENDING and
 * re-post it at the next acknowledgement on its communicator. */
void ulfm_park(req_t *r);
/* Is r such a parked receive (it stays valid: Wait/Test keep it)? */
int ulfm_parked(const req_t *r);

/* A hidden communicator whose revocation the user sees (a window's, for
 * MPIX_Win_revoke): its state now, so that a revoke that comes is applied,
 * also one that came before. */
void ulfm_watch(comm_t *c);

/* Revoke (ulfm_revoke.c). */
int ulfm_revoke(comm_t *c);
int ulfm_is_revoked(const comm_t *c);

/* Agreement (ulfm_agree.c). flag: in = contribution, out = AND over the
 * contributions. Returns MPI_SUCCESS or MPIX_ERR_PROC_FAILED (uniform:
 * every member returns the same). */
int ulfm_agree(comm_t *c, int *flag);
/* Non-blocking: *r completes when decided (status.MPI_ERROR the code),
 * and *flag is written then. */
int ulfm_iagree(comm_t *c, int *flag, req_t **r);
/* Shrink: the members alive at the agreed failure count (an
 * intercommunicator's: *local in this process's group, *remote in the
 * other; *remote is NULL for an intracommunicator) and the context pairs a
 * communicator of c's kind needs (1, or 2 for an intercommunicator), free
 * at every survivor and claimed here. */
int ulfm_shrink(comm_t *c, group_t **local, group_t **remote, uint32_t ctx[2]);
/* Non-blocking: fn(arg, rc, local, remote, ctx) runs from the progress
 * engine once the shrink is decided here (groups and pairs as above,
 * owned by fn when rc is MPI_SUCCESS). */
typedef void ulfm_shrunk_fn(void *arg, int rc, group_t *local, group_t *remote,
                            const uint32_t *ctx);
int ulfm_ishrink(comm_t *c, ulfm_shrunk_fn *fn, void *arg);

#endif
