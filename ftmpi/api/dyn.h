/*
 * Dynamic processes (docs/dynamic.md): what api/dyn_*.c share.
 *
 * Processes are named by job-wide ids (core/proc.h); a process learns a
 * peer that was not there at its launch from the runtime's key-value
 * store ("ftmpi.proc.<id>", published by the launcher at the peer's
 * HELLO). The roots of two groups that are not yet connected talk over
 * the bridge: a hidden communicator of every id, on a context pair that
 * every process of a job with room to spawn (--universe) reserves at
 * MPI_Init; the intercommunicator is then built as MPI_Intercomm_create
 * builds one, with the bridge as the peer communicator.
 */
#ifndef FTMPI_API_DYN_H
#define FTMPI_API_DYN_H

#include "api/comm_int.h"

/* MPI_Init's part: the bridge, and for a spawned process its siblings
 * and the intercommunicator to its parents. */
int dyn_init(void);
/* The bridge (NULL when the job has no room to spawn). */
comm_t *dyn_bridge(void);
/* Make the processes ids[0..n-1] reachable (blocking until each has said
 * HELLO); ids already known are skipped. MPI error class. */
int dyn_learn(const int *ids, int n);
/* Connect the group of intracommunicator lc (root `root`) with another
 * group whose root is the process `peer` (known at root only) that runs
 * the same call with the same tag: *out is the intercommunicator. */
int dyn_connect_groups(comm_t *lc, int root, int peer, int tag, comm_t **out);
/* A tag for the bridge, unique for this process's calls. */
int dyn_next_tag(void);

#endif
