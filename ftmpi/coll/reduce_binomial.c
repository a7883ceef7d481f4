/*
 * Reduce. Commutative ops: binomial tree on ranks relative to the root;
 * each step receives a partial result and folds it in: ceil(log2 p) *
 * (alpha + n * beta + n * gamma). Non-commutative ops: the root receives
 * every contribution and folds them in rank order (p - 1 steps), which is
 * what the standard's ordering requires; issue 6 adds ordered trees.
 */
#include "coll/coll.h"

#include <stdlib.h>

static int reduce_ordered(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt,
                          op_t *op, int root, int tag)
{
    int p = c->size;
    if (c->rank != root)
        return coll_send(c, sbuf, (size_t)count, dt, root, tag);
    /* acc = contribution of rank p-1, then acc = x_i op acc for i = p-2..0 */
    void *acc, *tmp;
    void *accm = coll_tmpbuf(dt, (size_t)count, &acc);
    void *tmpm = coll_tmpbuf(dt, (size_t)count, &tmp);
    int rc = accm && tmpm ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = p - 1; i >= 0 && rc == MPI_SUCCESS; i--) {
        void *dst = i == p - 1 ? acc : tmp;
        if (i == root)
            coll_local_copy(sbuf, dst, (size_t)count, dt);
        else
            rc = coll_recv(c, dst, (size_t)count, dt, i, tag);
        if (rc == MPI_SUCCESS && i != p - 1)
            rc = op_apply(op, tmp, acc, count, dt); /* acc = x_i op acc */
    }
    if (rc == MPI_SUCCESS)
        coll_local_copy(acc, rbuf, (size_t)count, dt);
    free(accm);
    free(tmpm);
    return rc;
}

int coll_reduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op, int root)
{
    int p = c->size;
    int tag = coll_tag(c);
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    if (count == 0)
        return MPI_SUCCESS;
    if (!op->commute)
        return reduce_ordered(c, sbuf, rbuf, count, dt, op, root, tag);
    void *acc, *tmp;
    void *accm = coll_tmpbuf(dt, (size_t)count, &acc);
    void *tmpm = coll_tmpbuf(dt, (size_t)count, &tmp);
    int rc = accm && tmpm ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        coll_local_copy(sbuf, acc, (size_t)count, dt);
    int rel = (c->rank - root + p) % p;
    for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
        if (rel & mask) {
            rc = coll_send(c, acc, (size_t)count, dt, (rel - mask + root) % p, tag);
            break;
        }
        if (rel + mask < p) {
            rc = coll_recv(c, tmp, (size_t)count, dt, (rel + mask + root) % p, tag);
            if (rc == MPI_SUCCESS)
                rc = op_apply(op, tmp, acc, count, dt);
        }
    }
    if (rc == MPI_SUCCESS && c->rank == root)
        coll_local_copy(acc, rbuf, (size_t)count, dt);
    free(accm);
    free(tmpm);
    return rc;
}

int coll_allreduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op)
{
    int rc = coll_reduce(c, sbuf, rbuf, count, dt, op, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    return coll_bcast(c, rbuf, count, dt, 0);
}
