/*
 * Collectives: internal entry points (one per operation, algorithms chosen
 * inside) and the point-to-point helpers they use. Collective traffic runs
 * on the communicator's collective context, with the call's sequence
 * number as the tag, so it never matches user messages.
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
int coll_send(comm_t *c, const void *buf, size_t count, dt_t *dt, int dst, int tag);
int coll_recv(comm_t *c, void *buf, size_t count, dt_t *dt, int src, int tag);
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

int coll_barrier(comm_t *c);
int coll_bcast(comm_t *c, void *buf, int count, dt_t *dt, int root);
int coll_reduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op, int root);
int coll_allreduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op);
int coll_gather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                dt_t *rdt, int root);
int coll_allgather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                   dt_t *rdt);

/* Agree on a fresh context id over c (collective over c). */
int coll_ctx_alloc(comm_t *c, uint32_t *ctx_p);

#endif
