/*
 * Reduce, binomial tree. Each step receives the partial result of a
 * subtree and folds it in: cost ceil(log2 p) * (alpha + n beta + n gamma).
 * Best for short and medium messages.
 *
 * Commutative ops use ranks relative to the root, so the result ends at
 * the root. Non-commutative ops use absolute ranks with the tree rooted at
 * rank 0: rank r then always holds the reduction of the contiguous ranks
 * [r, r + 2^k), and what it receives covers the next ranks, so folding
 * "mine op theirs" keeps rank order; rank 0 forwards the result to the
 * root when the root is another rank.
 */
#include "coll/algs.h"

/* A temporary buffer other than cur (two at most are needed). */
static void *other_tmp(sched_t *s, void *tmp[2], const void *cur, dt_t *dt, size_t count)
{
    int i = cur == tmp[0] ? 1 : 0;
    if (!tmp[i])
        tmp[i] = sched_tmpbuf(s, dt, count);
    return tmp[i];
}

int reduce_binomial(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                    int root)
{
    int p = coll_p(s), me = coll_me(s);
    int commute = op->commute;
    int troot = commute ? root : 0;       /* root of the tree */
    int rel = (me - troot + p) % p;
    const void *src = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    const void *cur = src;                /* my partial result */
    int cur_ro = sbuf != MPI_IN_PLACE;    /* cur is the caller's input: never written */
    void *tmp[2] = {NULL, NULL};
    int final_here = me == root && rel == 0;

    int mask = 1;
    for (; mask < p; mask <<= 1) {
        if (rel & mask)
            break;
        int child = rel + mask;
        if (child >= p)
            continue;
        int cabs = (child + troot) % p;
        void *in;
        if (commute && !cur_ro) {
            /* cur = incoming op cur, in place */
            in = other_tmp(s, tmp, cur, dt, count);
            sched_recv(s, in, count, dt, cabs);
            sched_fence(s);
            sched_reduce(s, in, (void *)cur, count, dt, op);
            sched_fence(s);
            continue;
        }
        /* Receive into a buffer other than cur, then fold cur into it:
         * buf = cur op incoming. */
        void *dst;
        if (final_here && cur != rbuf)
            dst = rbuf;
        else
            dst = other_tmp(s, tmp, cur, dt, count);
        sched_recv(s, dst, count, dt, cabs);
        sched_fence(s);
        sched_reduce(s, cur, dst, count, dt, op);
        sched_fence(s);
        cur = dst;
        cur_ro = 0;
    }
    if (s->err)
        return s->err;
    if (rel != 0) {
        sched_send(s, cur, count, dt, (rel - mask + troot) % p);
        sched_fence(s);
    }
    if (troot != root) { /* non-commutative, root != 0: 0 forwards to the root */
        if (me == 0)
            sched_send(s, cur, count, dt, root);
        else if (me == root)
            sched_recv(s, rbuf, count, dt, 0);
        return MPI_SUCCESS;
    }
    if (final_here && cur != rbuf)
        sched_copy(s, cur, count, dt, rbuf, count, dt);
    return MPI_SUCCESS;
}
