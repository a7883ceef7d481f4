/*
 * Collectives: internal entry points and the point-to-point helpers they
 * use. Collective traffic runs on the communicator's collective context
 * (c->ctx + 1), with the call's sequence number as the tag, so it never
 * matches user messages.
 *
 * Every entry point coll_iX(..., req_t **req_p) builds a schedule with the
 * algorithm chosen by coll_select.c and either runs it to completion
 * (req_p == NULL: the blocking collective) or returns a REQ_COLL request
 * that the progress engine completes (the non-blocking one). coll_X(...)
 * is the blocking form. Arguments are already checked by the API layer;
 * results are MPI error classes. Intercommunicators are handled inside
 * (MPI-2 semantics; roots are MPI_ROOT / MPI_PROC_NULL / a remote rank).
 */
#ifndef FTMPI_COLL_H
#define FTMPI_COLL_H

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "core/request.h"

/* p2p helpers (coll_p2p.c) */
int coll_isend(comm_t *c, const void *buf, size_t count, dt_t *dt, int dst, int tag, req_t **r);
int coll_irecv(comm_t *c, void *buf, size_t count, dt_t *dt, int src, int tag, req_t **r);
int coll_sendrecv(comm_t *c, const void *sbuf, size_t scount, dt_t *sdt, int dst,
                  void *rbuf, size_t rcount, dt_t *rdt, int src, int tag);
int coll_waitall(req_t **rs, int n);
static inline int coll_tag(comm_t *c) { return (int)(c->coll_seq++ & 0x3fffffff); }
/* Temporary buffer able to hold count elements of dt; *base_p is what to
 * pass to p2p (already shifted by -true_lb). Free the return value. */
void *coll_tmpbuf(dt_t *dt, size_t count, void **base_p);
/* Copy count elements of dt from src to dst (local). */
void coll_local_copy(const void *src, void *dst, size_t count, dt_t *dt);
/* Copy (sbuf, scount, sdt) to (rbuf, rcount, rdt) locally (type signatures match). */
int coll_local_copy2(const void *sbuf, size_t scount, dt_t *sdt, void *rbuf, size_t rcount,
                     dt_t *rdt);

/* The local intracommunicator of an intercommunicator (same local group,
 * its own context), or NULL when the communicator layer has none. */
comm_t *coll_inter_local(comm_t *c);

/* ---- entry points (req_p == NULL: blocking) ------------------------------ */
int coll_ibarrier(comm_t *c, req_t **req_p);
int coll_ibcast(comm_t *c, void *buf, int count, dt_t *dt, int root, req_t **req_p);
int coll_igather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                 dt_t *rdt, int root, req_t **req_p);
int coll_igatherv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                  const int *rcounts, const int *displs, dt_t *rdt, int root, req_t **req_p);
int coll_iscatter(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                  dt_t *rdt, int root, req_t **req_p);
int coll_iscatterv(comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                   dt_t *sdt, void *rbuf, int rcount, dt_t *rdt, int root, req_t **req_p);
int coll_iallgather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                    dt_t *rdt, req_t **req_p);
int coll_iallgatherv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                     const int *rcounts, const int *displs, dt_t *rdt, req_t **req_p);
int coll_ialltoall(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                   dt_t *rdt, req_t **req_p);
int coll_ialltoallv(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                    dt_t *sdt, void *rbuf, const int *rcounts, const int *rdispls, dt_t *rdt,
                    req_t **req_p);
/* Alltoallw: displacements in bytes, one type per peer. */
int coll_ialltoallw(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                    dt_t *const *sdts, void *rbuf, const int *rcounts, const int *rdispls,
                    dt_t *const *rdts, req_t **req_p);
int coll_ireduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                 int root, req_t **req_p);
int coll_iallreduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                    req_t **req_p);
int coll_ireduce_scatter(comm_t *c, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                         op_t *op, req_t **req_p);
int coll_ireduce_scatter_block(comm_t *c, const void *sbuf, void *rbuf, int rcount, dt_t *dt,
                               op_t *op, req_t **req_p);
int coll_iscan(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
               req_t **req_p);
int coll_iexscan(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                 req_t **req_p);

/* Blocking forms used inside the library. */
static inline int coll_barrier(comm_t *c) { return coll_ibarrier(c, NULL); }
static inline int coll_bcast(comm_t *c, void *buf, int count, dt_t *dt, int root)
{
    return coll_ibcast(c, buf, count, dt, root, NULL);
}
static inline int coll_reduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt,
                              op_t *op, int root)
{
    return coll_ireduce(c, sbuf, rbuf, count, dt, op, root, NULL);
}
static inline int coll_allreduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt,
                                 op_t *op)
{
    return coll_iallreduce(c, sbuf, rbuf, count, dt, op, NULL);
}
static inline int coll_gather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                              int rcount, dt_t *rdt, int root)
{
    return coll_igather(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, NULL);
}
static inline int coll_allgather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                                 int rcount, dt_t *rdt)
{
    return coll_iallgather(c, sbuf, scount, sdt, rbuf, rcount, rdt, NULL);
}

/* ---- fault tolerance (called by ft/) ------------------------------------- */
/* A REQ_COLL request that is already complete with err (non-blocking
 * collectives that had to run to completion at once: ATOMIC mode, BLANK
 * gaps). */
int coll_done_request(comm_t *c, int err, req_t **req_p);
/* A recovery round waits for this process: every shared-memory collective
 * waiting now, on any communicator, fails with MPI_ERR_OTHER, and no
 * segment made before is used again (coll_sm.c). */
void coll_sm_interrupt(void);

#endif
