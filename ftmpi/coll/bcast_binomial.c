/*
 * Broadcast, binomial tree rooted at `root` (ranks relative to the root): a
 * rank receives from the rank that differs in its lowest set bit, then
 * sends to rank + 2^k for each lower k, largest subtree first.
 * Cost: ceil(log2 p) * (alpha + n * beta). Best for short messages, where
 * latency dominates; for long ones the root's log2 p full sends cost too
 * much (see bcast_pipeline.c, bcast_scatter_allgather.c).
 */
#include "coll/algs.h"

int bcast_binomial(sched_t *s, void *buf, size_t count, dt_t *dt, int root)
{
    int p = coll_p(s);
    int rel = (coll_me(s) - root + p) % p;
    int mask = 1;
    while (mask < p) {
        if (rel & mask) {
            sched_recv(s, buf, count, dt, (rel - mask + root) % p);
            sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < p)
            sched_send(s, buf, count, dt, (rel + mask + root) % p);
    return MPI_SUCCESS;
}
