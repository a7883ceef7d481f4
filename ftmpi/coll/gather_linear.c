/*
 * Gather: every rank sends to the root, which posts all receives at once
 * (p - 1) * alpha + n * beta at the root. Allgather: gather to rank 0 and
 * broadcast the result. Issue 6 adds binomial, Bruck and ring variants.
 */
#include "coll/coll.h"

#include <stdlib.h>

int coll_gather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                dt_t *rdt, int root)
{
    int p = c->size, tag = coll_tag(c);
    if (c->rank != root)
        return coll_send(c, sbuf, (size_t)scount, sdt, root, tag);
    req_t **rs = calloc((size_t)p, sizeof(*rs));
    if (!rs)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
        char *dst = (char *)rbuf + (MPI_Aint)i * rcount * rdt->extent;
        if (i == root) {
            if (sbuf != MPI_IN_PLACE)
                rc = coll_local_copy2(sbuf, (size_t)scount, sdt, dst, (size_t)rcount, rdt);
        } else {
            rc = coll_irecv(c, dst, (size_t)rcount, rdt, i, tag, &rs[i]);
        }
    }
    int rc2 = coll_waitall(rs, p);
    free(rs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int coll_allgather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                   dt_t *rdt)
{
    if (sbuf == MPI_IN_PLACE && c->rank != 0) {
        /* My block is already in place in rbuf: send it from there. */
        sbuf = (char *)rbuf + (MPI_Aint)c->rank * rcount * rdt->extent;
        scount = rcount;
        sdt = rdt;
    }
    int rc = coll_gather(c, sbuf, scount, sdt, rbuf, rcount, rdt, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Broadcast the whole receive buffer as p * rcount elements. */
    return coll_bcast(c, rbuf, c->size * rcount, rdt, 0);
}
