/*
 * Scan / Exscan, linear chain: rank r waits for the prefix of ranks
 * 0..r-1 from r-1, folds in its own contribution and passes the new prefix
 * to r+1. Cost: (p-1) (alpha + n beta + n gamma) end to end, one message
 * per rank: for long vectors (no rank handles more than 2n), and valid for
 * every op (folds are in rank order).
 */
#include "coll/algs.h"

int scan_linear(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                int exclusive)
{
    int p = coll_p(s), me = coll_me(s);
    if (!exclusive) {
        if (me > 0) {
            /* rbuf = prefix(0..me-1) op x_me */
            void *tmp = sched_tmpbuf(s, dt, count);
            if (!tmp)
                return s->err;
            sched_recv(s, tmp, count, dt, me - 1);
            sched_copy(s, sbuf, count, dt, rbuf, count, dt);
            sched_fence(s);
            sched_reduce(s, tmp, rbuf, count, dt, op);
            sched_fence(s);
        } else {
            sched_copy(s, sbuf, count, dt, rbuf, count, dt);
            sched_fence(s);
        }
        if (me < p - 1)
            sched_send(s, rbuf, count, dt, me + 1);
        return MPI_SUCCESS;
    }
    /* Exscan: rbuf = prefix(0..me-1); pass on prefix op x_me. */
    if (me == 0) {
        if (p > 1)
            sched_send(s, sbuf, count, dt, 1);
        return MPI_SUCCESS;
    }
    sched_recv(s, rbuf, count, dt, me - 1);
    sched_fence(s);
    if (me < p - 1) {
        void *tmp = sched_tmpbuf(s, dt, count);
        if (!tmp)
            return s->err;
        sched_copy(s, sbuf, count, dt, tmp, count, dt);
        sched_fence(s);
        sched_reduce(s, rbuf, tmp, count, dt, op); /* tmp = prefix op x_me */
        sched_fence(s);
        sched_send(s, tmp, count, dt, me + 1);
    }
    return MPI_SUCCESS;
}
