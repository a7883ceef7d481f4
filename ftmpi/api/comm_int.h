/*
 * Helpers shared by the communicator, group, topology and
 * intercommunicator API files (api/comm_*.c, group.c, intercomm.c,
 * topo_*.c, neighbor.c). Internal; results are MPI error classes.
 */
#ifndef FTMPI_API_COMM_INT_H
#define FTMPI_API_COMM_INT_H

#include "api/api.h"
#include "coll/coll.h"
#include "coll/ctxid.h"
#include "core/info.h"
#include "core/topo.h"

/* A group handle argument: valid and (FT) not made unusable by a
 * recovery (it holds a process that failed since it was made). */
#define CHECK_GROUP(h, g)                                                 \
    do {                                                                  \
        (g) = group_get(h);                                               \
        if (!(g) || !ft_group_usable(g))                                  \
            API_FAIL(MPI_ERR_GROUP);                                      \
    } while (0)

/* An intracommunicator argument (MPI_ERR_COMM for an intercommunicator). */
#define CHECK_INTRA(c) do { if ((c)->is_inter) API_FAIL(MPI_ERR_COMM); } while (0)

/* An info argument: MPI_INFO_NULL (*i = NULL) or a valid object. */
#define CHECK_INFO_OR_NULL(h, i)                                          \
    do {                                                                  \
        (i) = NULL;                                                       \
        if ((h) != MPI_INFO_NULL && !((i) = info_get(h)))                 \
            API_FAIL(MPI_ERR_INFO);                                       \
    } while (0)

/* A new communicator over `local` (and `remote`: an intercommunicator)
 * using the agreed context pair ctx[0] (and ctx[1] for the local_comm of
 * an intercommunicator). It inherits parent's error handler, is
 * registered for matching and has a user handle. */
int api_comm_build(comm_t *parent, group_t *local, group_t *remote, const uint32_t *ctx,
                   comm_t **out);

/* What a duplicate inherits beyond groups and error handler: attributes
 * (copy callbacks), topology, info hints (Comm_dup, Comm_idup). */
int api_comm_dup_extras(comm_t *c, comm_t *n);

/* Agree on np context pairs for a communicator built from c, over c's
 * live members (under BLANK its gaps take no part: docs/ft.md). */
int api_ctx_agree_live(comm_t *c, int np, uint32_t *ctx);

/* Give back n agreed context pairs that this process does not use. */
void api_ctx_release(const uint32_t *ctx, int n);

/* Number of context pairs a communicator of this kind needs. */
static inline int api_ctx_pairs(int inter) { return inter ? 2 : 1; }

/* Intercommunicator ic: the local leader sends n ints to the remote
 * leader and receives the remote group's array, which is then broadcast
 * in the local group. Collective over ic. *rbuf_p is malloc'ed. */
int api_inter_exchange(comm_t *ic, const int *sbuf, int n, int **rbuf_p, int *rn_p);

/* MPI_Intercomm_create's body (validated arguments): pc and remote_leader
 * matter at the local leader only (pc NULL elsewhere). */
int api_intercomm_create(comm_t *lc, int local_leader, comm_t *pc, int remote_leader, int tag,
                         comm_t **out);

/* A group of n world ranks, or MPI_GROUP_EMPTY's object for n = 0, with
 * a user handle in *h. Consumes g. */
int api_group_out(group_t *g, MPI_Group *h);

/* A communicator with topology t over ranks 0..n-1 of intracomm c
 * (collective over c; MPI_COMM_NULL, *out = NULL, for ranks >= n).
 * Consumes t (NULL: out of memory, reported after taking part). */
int api_topo_comm(comm_t *c, int n, topo_t *t, comm_t **out);

/* Intracommunicator split (MPI_Comm_split, MPI_Comm_split_type). */
int api_comm_split_intra(comm_t *c, int color, int key, comm_t **out);

#endif
