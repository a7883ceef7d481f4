/*
 * Scatter(v), linear: the root sends every rank its block, all at once.
 * Cost at the root: (p-1) alpha + (p-1) b beta. Best for long blocks and
 * small p. Any p.
 */
#include "coll/algs.h"

int scatter_linear(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    if (me != root) {
        sched_recv(s, rbuf, rcount, rdt, root);
        return MPI_SUCCESS;
    }
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        sched_send(s, coll_at(sbuf, sdt, (size_t)i * scount), scount, sdt, i);
    }
    if (rbuf != MPI_IN_PLACE)
        sched_copy(s, coll_at(sbuf, sdt, (size_t)root * scount), scount, sdt, rbuf, rcount, rdt);
    return MPI_SUCCESS;
}

int scatterv_linear(sched_t *s, const void *sbuf, const int *scounts, const int *displs,
                    dt_t *sdt, void *rbuf, size_t rcount, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    if (me != root) {
        sched_recv(s, rbuf, rcount, rdt, root);
        return MPI_SUCCESS;
    }
    for (int k = 1; k < p; k++) {
        int i = (root + k) % p;
        sched_send(s, coll_at(sbuf, sdt, (size_t)displs[i]), (size_t)scounts[i], sdt, i);
    }
    if (rbuf != MPI_IN_PLACE)
        sched_copy(s, coll_at(sbuf, sdt, (size_t)displs[root]), (size_t)scounts[root], sdt, rbuf,
                   rcount, rdt);
    return MPI_SUCCESS;
}
