/*
 * The shared-memory calls (coll_sm.h). Call s uses buffer s % COLL_SM_NBUF
 * of every member (s % COLL_SM_NSMALL of the small ring when it moves at
 * most COLL_SM_SMALL bytes); a member that writes into its buffer first
 * waits until every member is done with call s - depth (which used the
 * same buffers), which it almost always already is. Messages longer than one buffer go in chunks,
 * one call number each.
 *
 * Barrier:   post arrive; wait for every member's arrive.
 * Bcast:     the root copies into its buffer and posts rel; the others wait
 *            for it, copy out and post done.
 * Reduce:    everyone copies its input into its buffer and posts arrive; the
 *            root waits for all and reduces in rank order into its result.
 * Allreduce: everyone copies its input and posts arrive; short vectors:
 *            every member reduces all of them itself (one round); longer
 *            ones: member i reduces slice i into the shared result, posts
 *            slice, and everyone copies the result out after every slice.
 * Reductions always combine x0 op (x1 op (... op x(p-1))), so ops that do
 * not commute get the order MPI requires.
 */
#include "coll/coll_sm.h"

#include <string.h>

/* Allreduce chunks up to this many bytes times p: every member reduces the
 * whole vector itself. */
#define SM_DIRECT_BYTES 8192u

/* A writer that finds its ring full waits until the slowest member is
 * half a ring further, so that a member running ahead (a Reduce or Gather
 * contributor, a Bcast root) sleeps once per half ring, not once per
 * call. (Before the posts woke only the members whose wait they can end,
 * this cost more than it saved: every post woke the sleeper.) */
int coll_sm_buffers_free(coll_sm_t *sm, uint32_t s, size_t n)
{
    uint32_t depth = coll_sm_depth(n);
    return coll_sm_wait_ahead(sm, SMF_DONE, s - depth, depth / 2);
}

int coll_sm_barrier(coll_sm_t *sm)
{
    uint32_t s = coll_sm_begin(sm);
    /* Nothing to read: "done" first (the data calls' buffer checks count
     * on it), published with arrive. */
    coll_sm_post_done(sm, SMF_ARRIVE, s, -1);
    return coll_sm_wait(sm, SMF_ARRIVE, -1, s);
}

static int bcast_chunk(coll_sm_t *sm, char *buf, size_t n, int root)
{
    uint32_t s = coll_sm_begin(sm);
    int rc;
    if (sm->me == root) {
        if ((rc = coll_sm_buffers_free(sm, s, n)) != MPI_SUCCESS)
            return rc;
        memcpy(coll_sm_buf(sm, root, s, n), buf, n);
        coll_sm_post_done(sm, SMF_REL, s, -1);
        return MPI_SUCCESS;
    }
    if ((rc = coll_sm_wait(sm, SMF_REL, root, s)) != MPI_SUCCESS)
        return rc;
    memcpy(buf, coll_sm_buf(sm, root, s, n), n);
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}

int coll_sm_bcast(coll_sm_t *sm, void *buf, size_t bytes, int root)
{
    for (size_t off = 0; off < bytes; off += sm->chunk) {
        size_t n = bytes - off < sm->chunk ? bytes - off : sm->chunk;
        int rc = bcast_chunk(sm, (char *)buf + off, n, root);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Copy my input of call s into my buffer and tell the others. */
static int contribute(coll_sm_t *sm, uint32_t s, const void *in, size_t n)
{
    int rc = coll_sm_buffers_free(sm, s, n);
    if (rc != MPI_SUCCESS)
        return rc;
    memcpy(coll_sm_buf(sm, sm->me, s, n), in, n);
    coll_sm_post(sm, SMF_ARRIVE, s, -1);
    return MPI_SUCCESS;
}

/* Member k's n bytes of call s: mine (when given) for me. */
static const char *input(const coll_sm_t *sm, int k, uint32_t s, size_t n, const char *mine)
{
    return mine && k == sm->me ? mine : coll_sm_buf(sm, k, s, n);
}

int coll_sm_combine(coll_sm_t *sm, uint32_t s, size_t n, const char *mine, void *out, size_t lo,
                    size_t cnt, dt_t *dt, op_t *op)
{
    size_t off = lo * dt->size, len = cnt * dt->size;
    if (!len)
        return MPI_SUCCESS;
    memcpy(out, input(sm, sm->p - 1, s, n, mine) + off, len);
    for (int k = sm->p - 2; k >= 0; k--) {
        int rc = op_apply(op, input(sm, k, s, n, mine) + off, out, (int)cnt, dt);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int reduce_chunk(coll_sm_t *sm, const char *in, char *out, size_t cnt, dt_t *dt,
                        op_t *op, int root)
{
    uint32_t s = coll_sm_begin(sm);
    size_t n = cnt * dt->size;
    int rc;
    if (sm->me != root) { /* hand the input over and go: nothing to read */
        if ((rc = coll_sm_buffers_free(sm, s, n)) != MPI_SUCCESS)
            return rc;
        memcpy(coll_sm_buf(sm, sm->me, s, n), in, n);
        coll_sm_post_done(sm, SMF_ARRIVE, s, -1);
        return MPI_SUCCESS;
    }
    /* The root reduces its own input where it is (its buffer stays unused),
     * unless that is the output (MPI_IN_PLACE), written before it is read. */
    const char *mine = in;
    if (in == out) {
        if ((rc = coll_sm_buffers_free(sm, s, n)) != MPI_SUCCESS)
            return rc;
        memcpy(coll_sm_buf(sm, sm->me, s, n), in, n);
        mine = NULL;
    }
    coll_sm_mark(sm, SMF_ARRIVE, s);
    if ((rc = coll_sm_wait(sm, SMF_ARRIVE, -1, s)) != MPI_SUCCESS ||
        (rc = coll_sm_combine(sm, s, n, mine, out, 0, cnt, dt, op)) != MPI_SUCCESS)
        return rc;
    coll_sm_post(sm, SMF_DONE, s, -1);
    return MPI_SUCCESS;
}

static int allreduce_chunk(coll_sm_t *sm, const char *in, char *out, size_t cnt, dt_t *dt,
                           op_t *op)
{
    uint32_t s = coll_sm_begin(sm);
    size_t n = cnt * dt->size;
    int rc = contribute(sm, s, in, n);
    if (rc == MPI_SUCCESS)
        rc = coll_sm_wait(sm, SMF_ARRIVE, -1, s);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Small calls always go direct: the shared result buffers have the
     * depth of the large ring only. */
    if (n <= COLL_SM_SMALL || n * (size_t)sm->p <= SM_DIRECT_BYTES) {
        rc = coll_sm_combine(sm, s, n, NULL, out, 0, cnt, dt, op);
    } else {
        size_t lo = cnt * (size_t)sm->me / (size_t)sm->p;
        size_t hi = cnt * (size_t)(sm->me + 1) / (size_t)sm->p;
        char *res = coll_sm_res(sm, s);
        rc = coll_sm_combine(sm, s, n, NULL, res + lo * dt->size, lo, hi - lo, dt, op);
        if (rc != MPI_SUCCESS)
            return rc;
        coll_sm_post(sm, SMF_SLICE, s, -1);
        if ((rc = coll_sm_wait(sm, SMF_SLICE, -1, s)) != MPI_SUCCESS)
            return rc;
        memcpy(out, res, n);
    }
    if (rc == MPI_SUCCESS)
        coll_sm_post(sm, SMF_DONE, s, -1);
    return rc;
}

/* Elements of dt per chunk. */
static size_t chunk_count(const coll_sm_t *sm, const dt_t *dt)
{
    size_t k = sm->chunk / dt->size;
    return k ? k : 1;
}

int coll_sm_reduce(coll_sm_t *sm, const void *sbuf, void *rbuf, size_t count, dt_t *dt,
                   op_t *op, int root)
{
    const char *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t per = chunk_count(sm, dt), sz = dt->size;
    for (size_t i = 0; i < count; i += per) {
        size_t cnt = count - i < per ? count - i : per;
        int rc = reduce_chunk(sm, in + i * sz, (char *)rbuf + i * sz, cnt, dt, op, root);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int coll_sm_allreduce(coll_sm_t *sm, const void *sbuf, void *rbuf, size_t count, dt_t *dt,
                      op_t *op)
{
    const char *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t per = chunk_count(sm, dt), sz = dt->size;
    for (size_t i = 0; i < count; i += per) {
        size_t cnt = count - i < per ? count - i : per;
        int rc = allreduce_chunk(sm, in + i * sz, (char *)rbuf + i * sz, cnt, dt, op);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
