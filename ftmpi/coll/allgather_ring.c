/*
 * Allgather, ring: in step k rank r sends block r-k to r+1 and receives
 * block r-k-1 from r-1. Cost: (p-1) (alpha + b beta) for blocks of b
 * bytes: the least data moved per rank, a latency linear in p: for long
 * blocks. A block is forwarded as soon as it has arrived (no step-wide
 * barrier). Any p.
 */
#include "coll/algs.h"

int allgather_ring(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    int left = (me - 1 + p) % p, right = (me + 1) % p;
    int prev = -1;
    for (int k = 0; k < p - 1; k++) {
        int sb = (me - k + p) % p, rb = (me - k - 1 + p) % p;
        sched_dep(s, sched_send(s, coll_at(rbuf, rdt, (size_t)sb * rcount), rcount, rdt, right),
                  prev);
        prev = sched_recv(s, coll_at(rbuf, rdt, (size_t)rb * rcount), rcount, rdt, left);
    }
    return MPI_SUCCESS;
}
