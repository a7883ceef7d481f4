/*
 * Intercommunicator collectives without reduction (MPI-2 semantics). The
 * root argument is MPI_ROOT at the root, MPI_PROC_NULL at the other ranks
 * of the root's group, and the root's rank in the remote group elsewhere.
 * Work inside a group runs over the local intracommunicator (local mode).
 *   barrier   local barrier, leaders exchange, local broadcast: 2 local
 *             barrier/bcast costs + alpha
 *   bcast     root -> remote leader, binomial broadcast in the remote
 *             group: alpha + n beta + log2 q (alpha + n beta)
 *   gather(v), scatter(v)   linear, from/to every remote rank
 *   allgather(v), alltoall(v/w)   every rank exchanges directly with every
 *             remote rank: q (alpha + b beta) per rank
 */
#include "coll/algs.h"

int inter_barrier(sched_t *s)
{
    dt_t *byte = dt_get(MPI_BYTE);
    s->local_mode = 1;
    barrier_dissemination(s);
    s->local_mode = 0;
    if (coll_me(s) == 0) {
        sched_recv(s, NULL, 0, byte, 0);
        sched_send(s, NULL, 0, byte, 0);
        sched_fence(s);
    }
    s->local_mode = 1;
    bcast_binomial(s, NULL, 0, byte, 0);
    s->local_mode = 0;
    return MPI_SUCCESS;
}

int inter_bcast(sched_t *s, void *buf, size_t count, dt_t *dt, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        sched_send(s, buf, count, dt, 0);
        return MPI_SUCCESS;
    }
    if (coll_me(s) == 0) {
        sched_recv(s, buf, count, dt, root);
        sched_fence(s);
    }
    s->local_mode = 1;
    bcast_binomial(s, buf, count, dt, 0);
    s->local_mode = 0;
    return MPI_SUCCESS;
}

int inter_gatherv(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                  const int *rcounts, const int *displs, int rcount, dt_t *rdt, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root != MPI_ROOT) {
        sched_send(s, sbuf, scount, sdt, root);
        return MPI_SUCCESS;
    }
    int q = s->comm->rgroup->size;
    for (int i = 0; i < q; i++) {
        size_t at = displs ? (size_t)displs[i] : (size_t)i * (size_t)rcount;
        size_t n = rcounts ? (size_t)rcounts[i] : (size_t)rcount;
        sched_recv(s, coll_at(rbuf, rdt, at), n, rdt, i);
    }
    return MPI_SUCCESS;
}

int inter_scatterv(sched_t *s, const void *sbuf, const int *scounts, const int *displs,
                   int scount, dt_t *sdt, void *rbuf, size_t rcount, dt_t *rdt, int root)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root != MPI_ROOT) {
        sched_recv(s, rbuf, rcount, rdt, root);
        return MPI_SUCCESS;
    }
    int q = s->comm->rgroup->size;
    for (int i = 0; i < q; i++) {
        size_t at = displs ? (size_t)displs[i] : (size_t)i * (size_t)scount;
        size_t n = scounts ? (size_t)scounts[i] : (size_t)scount;
        sched_send(s, coll_at(sbuf, sdt, at), n, sdt, i);
    }
    return MPI_SUCCESS;
}

int inter_alltoallw(sched_t *s, const coll_blocks_t *b)
{
    int q = s->comm->rgroup->size, me = coll_me(s);
    for (int k = 0; k < q; k++) {
        int i = (me + k) % q;
        sched_recv(s, b->rp[i], b->rc[i], b->rd[i], i);
    }
    for (int k = 0; k < q; k++) {
        int i = (me + k) % q;
        sched_send(s, b->sp[i], b->sc[i], b->sd[i], i);
    }
    return MPI_SUCCESS;
}
