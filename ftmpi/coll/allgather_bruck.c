/*
 * Allgather, Bruck: blocks are kept rotated (position i holds block r+i);
 * in step k rank r sends its first min(2^k, p-2^k) blocks to r-2^k and
 * receives as many from r+2^k behind them. A final local rotation puts
 * the blocks in rank order. Cost: ceil(log2 p) alpha + (p-1) b beta for
 * any p: recursive doubling's latency without its power-of-two fold.
 * Needs a p-block temporary buffer (rank 0 works in place).
 */
#include "coll/algs.h"

int allgather_bruck(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    /* Rank 0 works in rbuf, which may be NULL for a zero-size allgather:
     * only a temporary buffer that could not be allocated is an error
     * (issue 19: rank 0 left without communicating). */
    void *tmp = me == 0 ? rbuf : sched_tmpbuf(s, rdt, (size_t)p * rcount);
    if (me != 0 && !tmp)
        return s->err;
    if (me != 0) {
        sched_copy(s, coll_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt, tmp, rcount, rdt);
        sched_fence(s);
    }
    for (int d = 1; d < p; d <<= 1) {
        int n = d < p - d ? d : p - d;
        sched_recv(s, coll_at(tmp, rdt, (size_t)d * rcount), (size_t)n * rcount, rdt,
                   (me + d) % p);
        sched_send(s, tmp, (size_t)n * rcount, rdt, (me - d + p) % p);
        sched_fence(s);
    }
    if (me != 0) {
        /* tmp[i] is block me+i: tmp[0, p-me) -> rbuf[me, p), tmp[p-me, p) -> rbuf[0, me) */
        size_t a = (size_t)(p - me) * rcount, b = (size_t)me * rcount;
        sched_copy(s, tmp, a, rdt, coll_at(rbuf, rdt, b), a, rdt);
        sched_copy(s, coll_at(tmp, rdt, a), b, rdt, rbuf, b, rdt);
    }
    return MPI_SUCCESS;
}
