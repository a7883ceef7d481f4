/*
 * The block calls of the shared-memory component (coll_sm.h): Gather,
 * Scatter, Allgather, Alltoall and Reduce_scatter, each one call number
 * with its whole footprint in one buffer per member (coll_sm_get falls back
 * to point-to-point when it does not fit).
 *
 * Gather:         members pack their block into their buffer and post
 *                 arrive; the root copies each block out as it arrives.
 * Scatter:        the root packs all p blocks into its buffer and posts
 *                 rel; each member copies its block out.
 * Allgather:      everyone packs its block and posts arrive, then copies
 *                 every other member's block out as it arrives.
 * Alltoall:       everyone packs its p blocks (block k for member k) and
 *                 posts arrive, then copies block `me` of every member.
 * Reduce_scatter: everyone copies its vector and posts arrive, then
 *                 reduces its own segment of all inputs (rank order).
 * Readers start at the member after themselves, so that p readers do not
 * all read member 0's buffer first. Every call ends with "done" (what the
 * writers of call s + depth wait for).
 */
#include "coll/coll_sm.h"

#include <string.h>

#include "coll/algs.h"

/* count x dt at buf <-> n packed bytes at b (n = count x dt->size). */
static int pack(char *b, const void *buf, size_t count, dt_t *dt)
{
    return coll_local_copy2(buf, count, dt, b, count * dt->size, dt_get(MPI_BYTE));
}

static int unpack(void *buf, size_t count, dt_t *dt, const char *b)
{
    return coll_local_copy2(b, count * dt->size, dt_get(MPI_BYTE), buf, count, dt);
}

/* Gather and allgather: copy every other member's n-byte block of call s
 * out to its place in rbuf as it arrives, then post "done". */
static int collect(coll_sm_t *sm, uint32_t s, size_t n, void *rbuf, size_t rcount, dt_t *rdt)
{
    for (int i = 1; i < sm->p; i++) {
        int k = (sm->me + i) % sm->p, rc;
        if ((rc = coll_sm_wait(sm, SMF_ARRIVE, k, s)) != MPI_SUCCESS ||
            (rc = unpack(coll_at(rbuf, rdt, (size_t)k * rcount), rcount, rdt,
                         coll_sm_buf(sm, k, s, n))) != MPI_SUCCESS)
            return rc;
    }
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}

int coll_sm_gather(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt, int root)
{
    uint32_t s = coll_sm_begin(sm);
    int me = sm->me, rc;
    size_t n = me == root ? rcount * rdt->size : scount * sdt->size;
    if (me != root) {
        if ((rc = coll_sm_buffers_free(sm, s, n)) != MPI_SUCCESS ||
            (rc = pack(coll_sm_buf(sm, me, s, n), sbuf, scount, sdt)) != MPI_SUCCESS)
            return rc;
        coll_sm_post_done(sm, SMF_ARRIVE, s, root);
        return MPI_SUCCESS;
    }
    if (sbuf != MPI_IN_PLACE &&
        (rc = coll_local_copy2(sbuf, scount, sdt, coll_at(rbuf, rdt, (size_t)me * rcount),
                               rcount, rdt)) != MPI_SUCCESS)
        return rc;
    return collect(sm, s, n, rbuf, rcount, rdt);
}

int coll_sm_scatter(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                    size_t rcount, dt_t *rdt, int root)
{
    int me = sm->me, p = sm->p, rc;
    size_t n = me == root ? scount * sdt->size : rcount * rdt->size, all = n * (size_t)p;
    if (!coll_sm_fits(sm, COLL_SCATTER, n))
        return coll_sm_cma_call(sm, COLL_SCATTER, sbuf, scount, sdt, rbuf, rcount, rdt, root);
    uint32_t s = coll_sm_begin(sm);
    if (me == root) {
        if ((rc = coll_sm_buffers_free(sm, s, all)) != MPI_SUCCESS)
            return rc;
        char *b = coll_sm_buf(sm, me, s, all);
        for (int k = 0; k < p; k++)
            if (k != me &&
                (rc = pack(b + (size_t)k * n, coll_at(sbuf, sdt, (size_t)k * scount), scount,
                           sdt)) != MPI_SUCCESS)
                return rc;
        coll_sm_post_done(sm, SMF_REL, s, -1);
        if (rbuf == MPI_IN_PLACE)
            return MPI_SUCCESS;
        return coll_local_copy2(coll_at(sbuf, sdt, (size_t)me * scount), scount, sdt, rbuf,
                                rcount, rdt);
    }
    if ((rc = coll_sm_wait(sm, SMF_REL, root, s)) != MPI_SUCCESS ||
        (rc = unpack(rbuf, rcount, rdt, coll_sm_buf(sm, root, s, all) + (size_t)me * n)) !=
            MPI_SUCCESS)
        return rc;
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}

int coll_sm_allgather(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                      size_t rcount, dt_t *rdt)
{
    int me = sm->me, rc;
    size_t n = rcount * rdt->size;
    if (!coll_sm_fits(sm, COLL_ALLGATHER, n))
        return coll_sm_cma_call(sm, COLL_ALLGATHER, sbuf, scount, sdt, rbuf, rcount, rdt, 0);
    uint32_t s = coll_sm_begin(sm);
    char *mine = coll_at(rbuf, rdt, (size_t)me * rcount);
    if ((rc = coll_sm_buffers_free(sm, s, n)) != MPI_SUCCESS)
        return rc;
    rc = sbuf == MPI_IN_PLACE ? pack(coll_sm_buf(sm, me, s, n), mine, rcount, rdt)
                              : pack(coll_sm_buf(sm, me, s, n), sbuf, scount, sdt);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    if (sbuf != MPI_IN_PLACE &&
        (rc = coll_local_copy2(sbuf, scount, sdt, mine, rcount, rdt)) != MPI_SUCCESS)
        return rc;
    return collect(sm, s, n, rbuf, rcount, rdt);
}

int coll_sm_alltoall(coll_sm_t *sm, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                     size_t rcount, dt_t *rdt)
{
    int me = sm->me, p = sm->p, rc;
    size_t n = rcount * rdt->size, all = n * (size_t)p;
    if (!coll_sm_fits(sm, COLL_ALLTOALL, n))
        return coll_sm_cma_call(sm, COLL_ALLTOALL, sbuf, scount, sdt, rbuf, rcount, rdt, 0);
    uint32_t s = coll_sm_begin(sm);
    if (sbuf == MPI_IN_PLACE) /* the blocks to send are in rbuf, packed away first */
        sbuf = rbuf, scount = rcount, sdt = rdt;
    if ((rc = coll_sm_buffers_free(sm, s, all)) != MPI_SUCCESS)
        return rc;
    char *b = coll_sm_buf(sm, me, s, all);
    for (int k = 0; k < p; k++)
        if ((rc = pack(b + (size_t)k * n, coll_at(sbuf, sdt, (size_t)k * scount), scount,
                       sdt)) != MPI_SUCCESS)
            return rc;
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    for (int i = 0; i < p; i++) {
        int k = (me + i) % p;
        if ((rc = coll_sm_wait(sm, SMF_ARRIVE, k, s)) != MPI_SUCCESS ||
            (rc = unpack(coll_at(rbuf, rdt, (size_t)k * rcount), rcount, rdt,
                         coll_sm_buf(sm, k, s, all) + (size_t)me * n)) != MPI_SUCCESS)
            return rc;
    }
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}

int coll_sm_reduce_scatter(coll_sm_t *sm, const void *sbuf, void *rbuf, const int *rcounts,
                           dt_t *dt, op_t *op)
{
    uint32_t s = coll_sm_begin(sm);
    size_t total = 0, lo = 0;
    for (int k = 0; k < sm->p; k++) {
        if (k == sm->me)
            lo = total;
        total += (size_t)rcounts[k];
    }
    size_t n = total * dt->size;
    int rc = coll_sm_buffers_free(sm, s, n);
    if (rc != MPI_SUCCESS)
        return rc;
    memcpy(coll_sm_buf(sm, sm->me, s, n), sbuf == MPI_IN_PLACE ? rbuf : sbuf, n);
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    if ((rc = coll_sm_wait(sm, SMF_ARRIVE, -1, s)) != MPI_SUCCESS ||
        (rc = coll_sm_combine(sm, s, n, NULL, rbuf, lo, (size_t)rcounts[sm->me], dt, op)) !=
            MPI_SUCCESS)
        return rc;
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}
