/*
 * Reduce_scatter, reduce + scatterv: a binomial reduce of the whole vector
 * to rank 0, then a linear scatterv of the pieces. Cost: log2 p (alpha +
 * n beta + n gamma) + (p-1) alpha + n beta. Valid for every op
 * (non-commutative ops are reduced in rank order): the general fallback
 * and the choice for short vectors.
 */
#include "coll/algs.h"

int reduce_scatter_reduce_scatterv(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts,
                                   dt_t *dt, op_t *op)
{
    int p = coll_p(s), me = coll_me(s);
    size_t total = 0;
    int *displs = sched_alloc(s, (size_t)p * sizeof(int));
    if (!displs)
        return s->err;
    for (int i = 0; i < p; i++) {
        displs[i] = (int)total;
        total += (size_t)rcounts[i];
    }
    void *full = NULL;
    if (me == 0 && !(full = sched_tmpbuf(s, dt, total)))
        return s->err;
    int rc = reduce_binomial(s, sbuf, full, total, dt, op, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    sched_fence(s);
    return scatterv_linear(s, full, rcounts, displs, dt, rbuf, (size_t)rcounts[me], dt, 0);
}
