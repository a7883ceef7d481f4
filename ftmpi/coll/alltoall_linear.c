/*
 * Alltoall(v/w), linear: every rank posts all its receives and sends at
 * once (receives first, peers in the order r+1, r+2, ... so that no rank is
 * everyone's first target). Cost: (p-1) alpha + (p-1) b beta with all
 * messages in flight together: best for short blocks and small p. Any p.
 */
#include "coll/algs.h"

int alltoall_linear(sched_t *s, const coll_blocks_t *b)
{
    int p = coll_p(s), me = coll_me(s);
    for (int k = 1; k < p; k++) {
        int src = (me - k + p) % p;
        sched_recv(s, b->rp[src], b->rc[src], b->rd[src], src);
    }
    for (int k = 1; k < p; k++) {
        int dst = (me + k) % p;
        sched_send(s, b->sp[dst], b->sc[dst], b->sd[dst], dst);
    }
    sched_copy(s, b->sp[me], b->sc[me], b->sd[me], b->rp[me], b->rc[me], b->rd[me]);
    return MPI_SUCCESS;
}
