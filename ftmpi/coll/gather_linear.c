/*
 * Gather(v), linear: every rank sends its block to the root, which posts
 * all receives at once. Cost at the root: (p-1) alpha + (p-1) b beta; the
 * other ranks send one message. Best for long blocks (no forwarding) and
 * small p. Any p.
 */
#include "coll/algs.h"

int gather_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                  size_t rcount, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    if (me != root) {
        sched_send(s, sbuf, scount, sdt, root);
        return MPI_SUCCESS;
    }
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        sched_recv(s, coll_at(rbuf, rdt, (size_t)i * rcount), rcount, rdt, i);
    }
    if (sbuf != MPI_IN_PLACE)
        sched_copy(s, sbuf, scount, sdt, coll_at(rbuf, rdt, (size_t)root * rcount), rcount, rdt);
    return MPI_SUCCESS;
}

int gatherv_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   const int *rcounts, const int *displs, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    if (me != root) {
        sched_send(s, sbuf, scount, sdt, root);
        return MPI_SUCCESS;
    }
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        sched_recv(s, coll_at(rbuf, rdt, (size_t)displs[i]), (size_t)rcounts[i], rdt, i);
    }
    if (sbuf != MPI_IN_PLACE)
        sched_copy(s, sbuf, scount, sdt, coll_at(rbuf, rdt, (size_t)displs[root]),
                   (size_t)rcounts[root], rdt);
    return MPI_SUCCESS;
}
