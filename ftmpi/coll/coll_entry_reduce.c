/* Entry points: reduce, allreduce, reduce_scatter(_block), scan, exscan. */
#include "coll/coll_entry.h"
#include "coll/coll_sm.h"

#include <limits.h>
#include <stdlib.h>

/* The shared-memory component for a blocking reduction on c, or NULL
 * (*rc: an error of its setup). Contiguous vectors that start at the
 * buffer (the component copies bytes and reduces whole elements). */
static coll_sm_t *sm_for(comm_t *c, coll_kind_t k, int count, dt_t *dt, req_t **req_p, int *rc)
{
    *rc = MPI_SUCCESS;
    if (req_p || count <= 0 || dt->true_lb != 0 || !dt_is_contig(dt, (size_t)count))
        return NULL;
    return coll_sm_get(c, k, (size_t)count * dt->size, rc);
}

int coll_ireduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                 int root, req_t **req_p)
{
    int rc0;
    coll_sm_t *sm = sm_for(c, COLL_REDUCE, count, dt, req_p, &rc0);
    if (sm)
        return coll_sm_reduce(sm, sbuf, rbuf, (size_t)count, dt, op, root);
    if (rc0 != MPI_SUCCESS)
        return rc0;
    sched_t *s = coll_sched(c, dt, NULL, op);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    size_t n = (size_t)count;
    if (c->is_inter) {
        rc = inter_reduce(s, sbuf, rbuf, n, dt, op, root);
    } else if (n == 0) {
        /* nothing */
    } else if (c->size == 1) {
        if (sbuf != MPI_IN_PLACE)
            sched_copy(s, sbuf, n, dt, rbuf, n, dt);
    } else {
        coll_choice_t ch = coll_select(COLL_REDUCE, c->size, n * dt->size);
        if (ch.alg == REDUCE_PIPELINE)
            rc = reduce_pipeline(s, sbuf, rbuf, n, dt, op, root, ch.seg);
        else
            rc = reduce_binomial(s, sbuf, rbuf, n, dt, op, root);
    }
    return coll_finish(s, rc, req_p);
}

int coll_iallreduce(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                    req_t **req_p)
{
    int rc0;
    coll_sm_t *sm = sm_for(c, COLL_ALLREDUCE, count, dt, req_p, &rc0);
    if (sm)
        return coll_sm_allreduce(sm, sbuf, rbuf, (size_t)count, dt, op);
    if (rc0 != MPI_SUCCESS)
        return rc0;
    sched_t *s = coll_sched(c, dt, NULL, op);
    if (!s)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    size_t n = (size_t)count;
    if (c->is_inter)
        return coll_finish(s, inter_allreduce(s, sbuf, rbuf, n, dt, op), req_p);
    if (n == 0)
        return coll_finish(s, MPI_SUCCESS, req_p);
    if (sbuf != MPI_IN_PLACE) {
        sched_copy(s, sbuf, n, dt, rbuf, n, dt);
        sched_fence(s);
    }
    if (c->size > 1) {
        coll_choice_t ch = coll_select(COLL_ALLREDUCE, c->size, n * dt->size);
        switch (ch.alg) {
        case ALLREDUCE_RABENSEIFNER: rc = allreduce_rabenseifner(s, rbuf, n, dt, op); break;
        case ALLREDUCE_RING: rc = allreduce_ring(s, rbuf, n, dt, op, ch.seg); break;
        case ALLREDUCE_REDUCE_BCAST: rc = allreduce_reduce_bcast(s, rbuf, n, dt, op); break;
        default: rc = allreduce_recdbl(s, rbuf, n, dt, op); break;
        }
    }
    return coll_finish(s, rc, req_p);
}

/* Through the shared-memory component, or NULL (*rc: its setup's error). */
static coll_sm_t *rs_sm(comm_t *c, const int *rcounts, dt_t *dt, req_t **req_p, int *rc)
{
    *rc = MPI_SUCCESS;
    if (c->is_inter)
        return NULL;
    size_t total = 0;
    for (int i = 0; i < c->size; i++)
        total += (size_t)rcounts[i];
    return total > INT_MAX ? NULL : sm_for(c, COLL_REDUCE_SCATTER, (int)total, dt, req_p, rc);
}

int coll_ireduce_scatter(comm_t *c, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                         op_t *op, req_t **req_p)
{
    int rc0;
    coll_sm_t *sm = rs_sm(c, rcounts, dt, req_p, &rc0);
    if (sm)
        return coll_sm_reduce_scatter(sm, sbuf, rbuf, rcounts, dt, op);
    if (rc0 != MPI_SUCCESS)
        return rc0;
    sched_t *s = coll_sched(c, dt, NULL, op);
    if (!s)
        return MPI_ERR_NO_MEM;
    if (c->is_inter)
        return coll_finish(s, inter_reduce_scatter(s, sbuf, rbuf, rcounts, dt, op), req_p);
    int p = c->size, rc = MPI_SUCCESS;
    size_t total = 0;
    for (int i = 0; i < p; i++)
        total += (size_t)rcounts[i];
    if (total == 0)
        return coll_finish(s, MPI_SUCCESS, req_p);
    if (sbuf == MPI_IN_PLACE) {
        if (p == 1)
            return coll_finish(s, MPI_SUCCESS, req_p);
        if (!(sbuf = coll_copy_input(s, rbuf, total, dt)))
            return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    }
    if (p == 1) {
        sched_copy(s, sbuf, total, dt, rbuf, total, dt);
    } else {
        coll_choice_t ch = coll_select(COLL_REDUCE_SCATTER, p, total * dt->size);
        if (ch.alg == REDUCE_SCATTER_RING)
            rc = reduce_scatter_ring(s, sbuf, rbuf, rcounts, dt, op);
        else
            rc = reduce_scatter_reduce_scatterv(s, sbuf, rbuf, rcounts, dt, op);
    }
    return coll_finish(s, rc, req_p);
}

int coll_ireduce_scatter_block(comm_t *c, const void *sbuf, void *rbuf, int rcount, dt_t *dt,
                               op_t *op, req_t **req_p)
{
    int p = c->size;
    int stack[16] = {0}, *counts = p <= 16 ? stack : malloc((size_t)p * sizeof(int));
    if (!counts)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < p; i++)
        counts[i] = rcount;
    /* The schedule keeps no pointer to counts past the build. */
    int rc = coll_ireduce_scatter(c, sbuf, rbuf, counts, dt, op, req_p);
    if (counts != stack)
        free(counts);
    return rc;
}

static int scan_common(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                       int exclusive, req_t **req_p)
{
    sched_t *s = coll_sched(c, dt, NULL, op);
    if (!s)
        return MPI_ERR_NO_MEM;
    size_t n = (size_t)count;
    int rc = MPI_SUCCESS;
    if (n == 0 || (c->size == 1 && (exclusive || sbuf == MPI_IN_PLACE)))
        return coll_finish(s, MPI_SUCCESS, req_p);
    if (sbuf == MPI_IN_PLACE && !(sbuf = coll_copy_input(s, rbuf, n, dt)))
        return coll_finish(s, MPI_ERR_NO_MEM, req_p);
    coll_choice_t ch = coll_select(COLL_SCAN, c->size, n * dt->size);
    if (ch.alg == SCAN_LINEAR)
        rc = scan_linear(s, sbuf, rbuf, n, dt, op, exclusive);
    else
        rc = scan_recdbl(s, sbuf, rbuf, n, dt, op, exclusive);
    return coll_finish(s, rc, req_p);
}

int coll_iscan(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
               req_t **req_p)
{
    return scan_common(c, sbuf, rbuf, count, dt, op, 0, req_p);
}

int coll_iexscan(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op,
                 req_t **req_p)
{
    return scan_common(c, sbuf, rbuf, count, dt, op, 1, req_p);
}
