/* Entry points: allgather(v), alltoall(v/w). */
#include "coll/coll_entry.h"
#include "coll/coll_sm.h"

/* Per-peer block tables (n peers). */
static coll_blocks_t *blocks_new(sched_t *s, int n)
{
    coll_blocks_t *b = sched_alloc(s, sizeof(*b));
    void **ptrs = sched_alloc(s, 2 * (size_t)n * sizeof(void *));
    size_t *cnt = sched_alloc(s, 2 * (size_t)n * sizeof(size_t));
    dt_t **dts = sched_alloc(s, 2 * (size_t)n * sizeof(dt_t *));
    if (!b || !ptrs || !cnt || !dts)
        return NULL;
    b->sp = (const void **)ptrs;
    b->rp = ptrs + n;
    b->sc = cnt;
    b->rc = cnt + n;
    b->sd = dts;
    b->rd = dts + n;
    return b;
}

/* Allgather and alltoall (kind k) through the shared-memory component:
 * 1 when it ran, or its setup failed (*rc), 0 to build a schedule. */
static int all_sm(comm_t *c, coll_kind_t k, const void *sbuf, int scount, dt_t *sdt,
                  void *rbuf, int rcount, dt_t *rdt, req_t **req_p, int *rc)
{
    size_t nbytes = c->is_inter ? 0 : (size_t)rcount * rdt->size;
    coll_sm_t *sm = coll_sm_for_call(c, k, nbytes, req_p, rc);
    if (sm && k == COLL_ALLGATHER)
        *rc = coll_sm_allgather(sm, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt);
    else if (sm)
        *rc = coll_sm_alltoall(sm, sbuf, (size_t)scount, sdt, rbuf, (size_t)rcount, rdt);
    return sm || *rc != MPI_SUCCESS;
}

int coll_iallgather(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                    dt_t *rdt, req_t **req_p)
{
    int rc0;
    if (all_sm(c, COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, rdt, req_p, &rc0))
        return rc0;
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, p = c->size, me = c->rank;
    if (c->is_inter) {
        int q = c->rgroup->size;
        coll_blocks_t *b = blocks_new(s, q);
        if (!b)
            return coll_finish(s, MPI_ERR_NO_MEM, req_p);
        for (int i = 0; i < q; i++) {
            b->sp[i] = sbuf;
            b->sc[i] = (size_t)scount;
            b->sd[i] = sdt;
            b->rp[i] = coll_at(rbuf, rdt, (size_t)i * (size_t)rcount);
            b->rc[i] = (size_t)rcount;
            b->rd[i] = rdt;
        }
        return coll_finish(s, inter_alltoallw(s, b), req_p);
    }
    size_t rc_ = (size_t)rcount;
    if (sbuf != MPI_IN_PLACE) {
        sched_copy(s, sbuf, (size_t)scount, sdt, coll_at(rbuf, rdt, (size_t)me * rc_), rc_, rdt);
        sched_fence(s);
    }
    if (p > 1) {
        coll_choice_t ch = coll_select(COLL_ALLGATHER, p, rc_ * rdt->size);
        switch (ch.alg) {
        case ALLGATHER_RECDBL: rc = allgather_recdbl(s, rbuf, rc_, rdt); break;
        case ALLGATHER_BRUCK: rc = allgather_bruck(s, rbuf, rc_, rdt); break;
        default: rc = allgather_ring(s, rbuf, rc_, rdt); break;
        }
    }
    return coll_finish(s, rc, req_p);
}

int coll_iallgatherv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                     const int *rcounts, const int *displs, dt_t *rdt, req_t **req_p)
{
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, p = c->size, me = c->rank;
    if (c->is_inter) {
        int q = c->rgroup->size;
        coll_blocks_t *b = blocks_new(s, q);
        if (!b)
            return coll_finish(s, MPI_ERR_NO_MEM, req_p);
        for (int i = 0; i < q; i++) {
            b->sp[i] = sbuf;
            b->sc[i] = (size_t)scount;
            b->sd[i] = sdt;
            b->rp[i] = coll_at(rbuf, rdt, (size_t)displs[i]);
            b->rc[i] = (size_t)rcounts[i];
            b->rd[i] = rdt;
        }
        return coll_finish(s, inter_alltoallw(s, b), req_p);
    }
    if (sbuf != MPI_IN_PLACE) {
        sched_copy(s, sbuf, (size_t)scount, sdt, coll_at(rbuf, rdt, (size_t)displs[me]),
                   (size_t)rcounts[me], rdt);
        sched_fence(s);
    }
    if (p > 1) {
        size_t total = 0;
        for (int i = 0; i < p; i++)
            total += (size_t)rcounts[i];
        coll_choice_t ch = coll_select(COLL_ALLGATHERV, p, total / (size_t)p * rdt->size);
        if (ch.alg == ALLGATHERV_LINEAR)
            rc = allgatherv_linear(s, rbuf, rcounts, displs, rdt);
        else
            rc = allgatherv_ring(s, rbuf, rcounts, displs, rdt);
    }
    return coll_finish(s, rc, req_p);
}

/* Run the alltoall(v/w) block tables with the chosen algorithm. */
static int a2a_run(sched_t *s, coll_blocks_t *b, size_t bytes, coll_kind_t kind)
{
    if (s->comm->is_inter)
        return inter_alltoallw(s, b);
    coll_choice_t ch = coll_select(kind, s->comm->size, bytes);
    int pairwise = kind == COLL_ALLTOALL ? ch.alg == ALLTOALL_PAIRWISE
                                         : ch.alg == ALLTOALLV_PAIRWISE;
    return pairwise ? alltoall_pairwise(s, b) : alltoall_linear(s, b);
}

/* MPI_IN_PLACE: the data to send is in the receive blocks; copy it away. */
static int a2a_in_place(sched_t *s, coll_blocks_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        void *t = sched_tmpbuf(s, b->rd[i], b->rc[i]);
        if (!t)
            return MPI_ERR_NO_MEM;
        sched_copy(s, b->rp[i], b->rc[i], b->rd[i], t, b->rc[i], b->rd[i]);
        b->sp[i] = t;
        b->sc[i] = b->rc[i];
        b->sd[i] = b->rd[i];
    }
    sched_fence(s);
    return MPI_SUCCESS;
}

int coll_ialltoall(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                   dt_t *rdt, req_t **req_p)
{
    int rc0;
    if (all_sm(c, COLL_ALLTOALL, sbuf, scount, sdt, rbuf, rcount, rdt, req_p, &rc0))
        return rc0;
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int n = comm_peer_size(c);
    size_t bytes = (size_t)rcount * rdt->size;
    if (!c->is_inter && sbuf != MPI_IN_PLACE) {
        coll_choice_t ch = coll_select(COLL_ALLTOALL, n, bytes);
        if (ch.alg == ALLTOALL_BRUCK && n > 1)
            return coll_finish(s, alltoall_bruck(s, sbuf, (size_t)scount, sdt, rbuf,
                                                 (size_t)rcount, rdt), req_p);
    }
    coll_blocks_t *b = blocks_new(s, n);
    if (!b)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    for (int i = 0; i < n; i++) {
        b->rp[i] = coll_at(rbuf, rdt, (size_t)i * (size_t)rcount);
        b->rc[i] = (size_t)rcount;
        b->rd[i] = rdt;
        if (sbuf != MPI_IN_PLACE) {
            b->sp[i] = coll_at(sbuf, sdt, (size_t)i * (size_t)scount);
            b->sc[i] = (size_t)scount;
            b->sd[i] = sdt;
        }
    }
    if (sbuf == MPI_IN_PLACE && a2a_in_place(s, b, n) != MPI_SUCCESS)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    return coll_finish(s, a2a_run(s, b, bytes, COLL_ALLTOALL), req_p);
}

int coll_ialltoallv(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                    dt_t *sdt, void *rbuf, const int *rcounts, const int *rdispls, dt_t *rdt,
                    req_t **req_p)
{
    sched_t *s = coll_sched(c, sdt, rdt, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int n = comm_peer_size(c);
    coll_blocks_t *b = blocks_new(s, n);
    if (!b)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        b->rp[i] = coll_at(rbuf, rdt, (size_t)rdispls[i]);
        b->rc[i] = (size_t)rcounts[i];
        b->rd[i] = rdt;
        total += b->rc[i] * rdt->size;
        if (sbuf != MPI_IN_PLACE) {
            b->sp[i] = coll_at(sbuf, sdt, (size_t)sdispls[i]);
            b->sc[i] = (size_t)scounts[i];
            b->sd[i] = sdt;
        }
    }
    if (sbuf == MPI_IN_PLACE && a2a_in_place(s, b, n) != MPI_SUCCESS)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    return coll_finish(s, a2a_run(s, b, n ? total / (size_t)n : 0, COLL_ALLTOALLV), req_p);
}

int coll_ialltoallw(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                    dt_t *const *sdts, void *rbuf, const int *rcounts, const int *rdispls,
                    dt_t *const *rdts, req_t **req_p)
{
    sched_t *s = coll_sched(c, NULL, NULL, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    int n = comm_peer_size(c);
    for (int i = 0; i < n; i++) {
        if (sdts)
            sched_keep_dt(s, sdts[i]);
        sched_keep_dt(s, rdts[i]);
    }
    coll_blocks_t *b = blocks_new(s, n);
    if (!b)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        b->rp[i] = (char *)rbuf + rdispls[i];
        b->rc[i] = (size_t)rcounts[i];
        b->rd[i] = rdts[i];
        total += b->rc[i] * rdts[i]->size;
        if (sbuf != MPI_IN_PLACE) {
            b->sp[i] = (const char *)sbuf + sdispls[i];
            b->sc[i] = (size_t)scounts[i];
            b->sd[i] = sdts[i];
        }
    }
    if (sbuf == MPI_IN_PLACE && a2a_in_place(s, b, n) != MPI_SUCCESS)
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    /* Per-peer sizes may differ between peers: choose by the average, which
     * every rank computes alike only for alltoall; v/w use the pairwise
     * (order-insensitive) or linear schedule, both correct for any sizes. */
    return coll_finish(s, a2a_run(s, b, n ? total / (size_t)n : 0, COLL_ALLTOALLV), req_p);
}
