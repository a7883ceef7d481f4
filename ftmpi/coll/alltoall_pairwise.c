/*
 * Alltoall(v/w), pairwise exchange: in step k (1..p-1) rank r sends to
 * r+k and receives from r-k, one step at a time. Cost: (p-1) (alpha +
 * b beta) with one message in and one out per rank at any time: no
 * congestion, for long blocks. Any p.
 */
#include "coll/algs.h"

int alltoall_pairwise(sched_t *s, const coll_blocks_t *b)
{
    int p = coll_p(s), me = coll_me(s);
    sched_copy(s, b->sp[me], b->sc[me], b->sd[me], b->rp[me], b->rc[me], b->rd[me]);
    for (int k = 1; k < p; k++) {
        int dst = (me + k) % p, src = (me - k + p) % p;
        sched_recv(s, b->rp[src], b->rc[src], b->rd[src], src);
        sched_send(s, b->sp[dst], b->sc[dst], b->sd[dst], dst);
        sched_fence(s);
    }
    return MPI_SUCCESS;
}
