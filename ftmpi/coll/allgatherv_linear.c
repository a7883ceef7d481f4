/*
 * Allgatherv, direct: every rank posts a receive from and a send to every
 * other rank at once. Cost: (p-1) alpha + sum of the blocks * beta, all
 * messages in flight together: the fastest for short blocks and small p,
 * congested for large ones. Any p.
 */
#include "coll/algs.h"

int allgatherv_linear(sched_t *s, void *rbuf, const int *rcounts, const int *displs, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    for (int k = 1; k < p; k++) {
        int src = (me - k + p) % p;
        sched_recv(s, coll_at(rbuf, rdt, (size_t)displs[src]), (size_t)rcounts[src], rdt, src);
    }
    for (int k = 1; k < p; k++)
        sched_send(s, coll_at(rbuf, rdt, (size_t)displs[me]), (size_t)rcounts[me], rdt,
                   (me + k) % p);
    return MPI_SUCCESS;
}
