/*
 * Allreduce as a binomial reduce to rank 0 followed by a binomial
 * broadcast: 2 ceil(log2 p) * (alpha + n beta) + ceil(log2 p) n gamma.
 * Never the fastest, but valid for every op and every p; the reference
 * that the other allreduce algorithms are tested against.
 */
#include "coll/algs.h"

int allreduce_reduce_bcast(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op)
{
    int rc = reduce_binomial(s, coll_me(s) == 0 ? MPI_IN_PLACE : rbuf, rbuf, count, dt, op, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    sched_fence(s);
    return bcast_binomial(s, rbuf, count, dt, 0);
}
