/*
 * Allgatherv, ring: allgather_ring.c with per-rank counts and
 * displacements: (p-1) alpha + sum of the other blocks * beta. Zero-size
 * blocks are still passed on (as empty messages), which keeps the two
 * sides of every step in step. Any p.
 */
#include "coll/algs.h"

int allgatherv_ring(sched_t *s, void *rbuf, const int *rcounts, const int *displs, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    int left = (me - 1 + p) % p, right = (me + 1) % p;
    int prev = -1;
    for (int k = 0; k < p - 1; k++) {
        int sb = (me - k + p) % p, rb = (me - k - 1 + p) % p;
        sched_dep(s, sched_send(s, coll_at(rbuf, rdt, (size_t)displs[sb]), (size_t)rcounts[sb],
                                rdt, right), prev);
        prev = sched_recv(s, coll_at(rbuf, rdt, (size_t)displs[rb]), (size_t)rcounts[rb], rdt,
                          left);
    }
    return MPI_SUCCESS;
}
