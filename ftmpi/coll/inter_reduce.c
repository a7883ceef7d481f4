/*
 * Intercommunicator reductions (MPI-2 semantics): a group's data is reduced
 * inside the group to its leader (local rank 0) with the binomial reduce
 * (rank order kept for non-commutative ops), leaders exchange, and the
 * result is spread in the receiving group.
 *   reduce          local reduce + alpha + n beta to the root
 *   allreduce       local reduce, leader exchange, local broadcast
 *   reduce_scatter  local reduce, leader exchange, local scatterv
 */
#include "coll/algs.h"

/* Reduce my group's vectors to local rank 0; returns the buffer there. */
static void *local_reduce(sched_t *s, const void *sbuf, size_t count, dt_t *dt, op_t *op)
{
    void *acc = NULL;
    if (coll_me(s) == 0 && !(acc = sched_tmpbuf(s, dt, count)))
        return NULL;
    s->local_mode = 1;
    reduce_binomial(s, sbuf, acc, count, dt, op, 0);
    s->local_mode = 0;
    sched_fence(s);
    return acc;
}

int inter_reduce(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                 int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        sched_recv(s, rbuf, count, dt, 0);
        return MPI_SUCCESS;
    }
    void *acc = local_reduce(s, sbuf, count, dt, op);
    if (s->err)
        return s->err;
    if (coll_me(s) == 0)
        sched_send(s, acc, count, dt, root);
    return MPI_SUCCESS;
}

int inter_allreduce(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op)
{
    void *acc = local_reduce(s, sbuf, count, dt, op);
    if (s->err)
        return s->err;
    if (coll_me(s) == 0) {
        sched_recv(s, rbuf, count, dt, 0);
        sched_send(s, acc, count, dt, 0);
        sched_fence(s);
    }
    s->local_mode = 1;
    bcast_binomial(s, rbuf, count, dt, 0);
    s->local_mode = 0;
    return MPI_SUCCESS;
}

int inter_reduce_scatter(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                         op_t *op)
{
    int p = coll_p(s);
    size_t n = 0;
    int *displs = sched_alloc(s, (size_t)p * sizeof(int));
    if (!displs)
        return s->err;
    for (int i = 0; i < p; i++) {
        displs[i] = (int)n;
        n += (size_t)rcounts[i];
    }
    void *acc = local_reduce(s, sbuf, n, dt, op);
    if (s->err)
        return s->err;
    void *theirs = NULL;
    if (coll_me(s) == 0) {
        if (!(theirs = sched_tmpbuf(s, dt, n)))
            return s->err;
        sched_recv(s, theirs, n, dt, 0);
        sched_send(s, acc, n, dt, 0);
        sched_fence(s);
    }
    s->local_mode = 1;
    scatterv_linear(s, theirs, rcounts, displs, dt, rbuf, (size_t)rcounts[coll_me(s)], dt, 0);
    s->local_mode = 0;
    return MPI_SUCCESS;
}
