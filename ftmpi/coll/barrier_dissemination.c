/*
 * Barrier, dissemination algorithm (Hensgen, Finkel, Manber): in round k
 * every rank signals rank (r + 2^k) mod p and waits for (r - 2^k) mod p.
 * Works for any p. Cost: ceil(log2 p) * alpha; every rank sends and
 * receives one zero-byte message per round.
 */
#include "coll/algs.h"

int barrier_dissemination(sched_t *s)
{
    int p = coll_p(s), r = coll_me(s);
    dt_t *byte = dt_get(MPI_BYTE);
    for (int k = 1; k < p; k <<= 1) {
        sched_recv(s, NULL, 0, byte, (r - k + p) % p);
        sched_send(s, NULL, 0, byte, (r + k) % p);
        sched_fence(s);
    }
    return MPI_SUCCESS;
}
