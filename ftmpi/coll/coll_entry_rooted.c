/* Entry points: barrier, bcast, gather(v), scatter(v). */
#include "coll/coll_entry.h"
#include "coll/coll_sm.h"

#include <stdlib.h>

int coll_ibarrier(comm_t *c, req_t **req_p)
{
    int rc0 = MPI_SUCCESS;
    coll_sm_t *sm = req_p ? NULL : coll_sm_get(c, COLL_BARRIER, 0, &rc0);
    if (sm)
        return coll_sm_barrier(sm);
    if (rc0 != MPI_SUCCESS)
        return rc0;
    sched_t *s = coll_sched(c, NULL, NULL, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    if (!c->is_inter)
        coll_last_note(COLL_BARRIER, BARRIER_DISSEMINATION); /* for the traces */
    int rc = c->is_inter ? inter_barrier(s) : barrier_dissemination(s);
    return coll_finish(s, rc, req_p);
}

static int bcast_alg(sched_t *s, void *buf, size_t n, dt_t *dt, int root)
{
    coll_choice_t ch = coll_select(COLL_BCAST, s->comm->size, n);
    switch (ch.alg) {
    case BCAST_PIPELINE: return bcast_pipeline(s, buf, n, dt, root, ch.seg);
    case BCAST_BINTREE: return bcast_bintree(s, buf, n, dt, root, ch.seg);
    case BCAST_SCATTER_ALLGATHER: return bcast_scatter_allgather(s, buf, n, dt, root);
    default: return bcast_binomial(s, buf, n, dt, root);
    }
}

/* Through the shared-memory component; a non-contiguous layout goes
 * through a packed copy. */
static int bcast_sm(coll_sm_t *sm, void *buf, int count, dt_t *dt, int root)
{
    size_t n = (size_t)count, bytes = n * dt->size;
    if (dt_is_contig(dt, n))
        return coll_sm_bcast(sm, (char *)buf + dt->true_lb, bytes, root);
    dt_t *byte = dt_get(MPI_BYTE);
    char *t = malloc(bytes);
    if (!t)
        return MPI_ERR_NO_MEM;
    int me = sm->c->rank, rc = MPI_SUCCESS;
    if (me == root)
        rc = coll_local_copy2(buf, n, dt, t, bytes, byte);
    if (rc == MPI_SUCCESS)
        rc = coll_sm_bcast(sm, t, bytes, root);
    if (rc == MPI_SUCCESS && me != root)
        rc = coll_local_copy2(t, bytes, byte, buf, n, dt);
    free(t);
    return rc;
}

int coll_ibcast(comm_t *c, void *buf, int count, dt_t *dt, int root, req_t **req_p)
{
    /* The choice may depend on the byte count only: ranks may use
     * different types of the same signature. */
    size_t nbytes = (size_t)count * dt->size;
    int rc0;
    coll_sm_t *sm = coll_sm_for_call(c, COLL_BCAST, nbytes, req_p, &rc0);
    if (sm)
        return bcast_sm(sm, buf, count, dt, root);
    if (rc0 != MPI_SUCCESS)
        return rc0;
    sched_t *s = coll_sched(c, dt, NULL, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    size_t bytes = (size_t)count * dt->size;
    if (c->is_inter) {
        rc = inter_bcast(s, buf, (size_t)count, dt, root);
    } else if (c->size > 1 && bytes > 0) {
        /* Algorithms cut the message by bytes, so that ranks whose types
         * differ (with the same signature) cut it in the same places. */
        dt_t *byte = dt_get(MPI_BYTE);
        if (dt_is_contig(dt, (size_t)count)) {
            rc = bcast_alg(s, (char *)buf + dt->true_lb, bytes, byte, root);
        } else {
            char *t = sched_alloc(s, bytes);
            if (!t)
                return coll_finish(s, MPI_ERR_NO_MEM, req_p);
            if (c->rank == root) {
                sched_copy(s, buf, (size_t)count, dt, t, bytes, byte);
                sched_fence(s);
            }
            rc = bcast_alg(s, t, bytes, byte, root);
            sched_fence(s);
            if (c->rank != root)
                sched_copy(s, t, bytes, byte, buf, (size_t)count, dt);
        }
    }
    return coll_finish(s, rc, req_p);
}

/* Gather and scatter (kind k) through the shared-memory component: 1 when
 * it ran, or its setup failed (*rc), 0 to build a schedule. */
static int rooted_sm(comm_t *c, coll_kind_t k, const void *sbuf, int scount, dt_t *sdt,
                     void *rbuf, int rcount, dt_t *rdt, int root, req_t **req_p, int *rc)
{
    /* Intercommunicators: the roots' side may pass no types at all. */
    int by_recv = (c->rank == root) == (k == COLL_GATHER); /* the gather root, scatter leaves */
    size_t nbytes = c->is_inter ? 0
                    : by_recv ? (size_t)rcount * rdt->size : (size_t)scount * sdt->size;
    coll_sm_t *sm = coll_sm_for_call(c, k, nbytes, req_p, rc);
    if (sm && k == COLL_GATHER)
        *rc = coll_sm_gather(sm, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
    else if (sm)
        *rc = coll_sm_scatter(sm, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
    return sm || *rc != MPI_SUCCESS;
}

int coll_igather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                 dt_t *rdt, int root, req_t **req_p)
{
    int rc0;
    if (rooted_sm(c, COLL_GATHER, sbuf, scount, sdt, rbuf, rcount, rdt, root, req_p, &rc0))
        return rc0;
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc;
    if (c->is_inter) {
        rc = inter_gatherv(s, sbuf, (size_t)scount, sdt, rbuf, NULL, NULL, rcount, rdt, root);
    } else {
        size_t bytes = c->rank == root ? (size_t)rcount * rdt->size : (size_t)scount * sdt->size;
        coll_choice_t ch = coll_select(COLL_GATHER, c->size, bytes);
        if (ch.alg == GATHER_BINOMIAL)
            rc = gather_binomial(s, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
        else
            rc = gather_linear(s, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
    }
    return coll_finish(s, rc, req_p);
}

int coll_igatherv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                  const int *rcounts, const int *displs, dt_t *rdt, int root, req_t **req_p)
{
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc;
    if (c->is_inter)
        rc = inter_gatherv(s, sbuf, (size_t)scount, sdt, rbuf, rcounts, displs, 0, rdt, root);
    else
        rc = gatherv_linear(s, sbuf, (size_t)scount, sdt, rbuf, rcounts, displs, rdt, root);
    return coll_finish(s, rc, req_p);
}

int coll_iscatter(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                  dt_t *rdt, int root, req_t **req_p)
{
    int rc0;
    if (rooted_sm(c, COLL_SCATTER, sbuf, scount, sdt, rbuf, rcount, rdt, root, req_p, &rc0))
        return rc0;
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc;
    if (c->is_inter) {
        rc = inter_scatterv(s, sbuf, NULL, NULL, scount, sdt, rbuf, (size_t)rcount, rdt, root);
    } else {
        size_t bytes = c->rank == root ? (size_t)scount * sdt->size : (size_t)rcount * rdt->size;
        coll_choice_t ch = coll_select(COLL_SCATTER, c->size, bytes);
        if (ch.alg == SCATTER_BINOMIAL)
            rc = scatter_binomial(s, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
        else
            rc = scatter_linear(s, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt, root);
    }
    return coll_finish(s, rc, req_p);
}

int coll_iscatterv(comm_t *c, const void *sbuf, const int *scounts, const int *displs,
                   dt_t *sdt, void *rbuf, int rcount, dt_t *rdt, int root, req_t **req_p)
{
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc;
    if (c->is_inter)
        rc = inter_scatterv(s, sbuf, scounts, displs, 0, sdt, rbuf, (size_t)rcount, rdt, root);
    else
        rc = scatterv_linear(s, sbuf, scounts, displs, sdt, rbuf, (size_t)rcount, rdt, root);
    return coll_finish(s, rc, req_p);
}
