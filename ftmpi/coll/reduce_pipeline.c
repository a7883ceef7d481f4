/*
 * Reduce, pipelined chain: segments of `seg` bytes flow from the far end of
 * a chain towards the root; each rank receives a segment's partial result,
 * folds in its own contribution and forwards it while the next segment
 * arrives. Cost with m segments: (p - 1 + m - 1) * (alpha + (n/m)(beta +
 * gamma)), about n (beta + gamma) for long messages whatever p.
 *
 * Commutative ops run the chain over ranks relative to the root
 * (root+p-1 -> ... -> root+1 -> root). Non-commutative ops run it over
 * absolute ranks p-1 -> ... -> 0, where rank r folds "x_r op partial(r+1..)"
 * in rank order, and rank 0 forwards segments to the root.
 */
#include "coll/algs.h"

#define RPIPE_DEFAULT_SEG (32 * 1024)

int reduce_pipeline(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                    int root, size_t seg)
{
    int p = coll_p(s), me = coll_me(s);
    int commute = op->commute;
    int troot = commute ? root : 0;
    int rel = (me - troot + p) % p;
    int in_place = sbuf == MPI_IN_PLACE;
    const void *src = in_place ? rbuf : sbuf;
    size_t sc = coll_segcount(dt, seg, RPIPE_DEFAULT_SEG);
    int from = (rel + 1 + troot) % p, to = (rel - 1 + troot + p) % p;

    /* Where the partial results of this rank are built. */
    void *acc = NULL;
    if (rel < p - 1) {
        if (rel == 0 && me == root && !in_place)
            acc = rbuf;
        else if ((acc = sched_tmpbuf(s, dt, count)) == NULL)
            return s->err;
    }
    for (size_t off = 0; off < count; off += sc) {
        size_t n = count - off < sc ? count - off : sc;
        const char *mine = coll_at(src, dt, off);
        const char *out = mine;   /* what this rank forwards */
        int ready = -1;
        if (rel < p - 1) {
            char *a = coll_at(acc, dt, off);
            int r = sched_recv(s, a, n, dt, from);
            ready = sched_reduce(s, mine, a, n, dt, op); /* a = mine op partial */
            sched_dep(s, ready, r);
            out = a;
            if (rel == 0 && me == root && acc != rbuf) {
                int cp = sched_copy(s, a, n, dt, coll_at(rbuf, dt, off), n, dt);
                sched_dep(s, cp, ready);
                ready = cp;
            }
        }
        if (rel > 0)
            sched_dep(s, sched_send(s, out, n, dt, to), ready);
        else if (me != root)  /* non-commutative, rank 0: forward to the root */
            sched_dep(s, sched_send(s, out, n, dt, root), ready);
        if (troot != root && me == root && rel != 0)
            sched_recv(s, coll_at(rbuf, dt, off), n, dt, 0);
    }
    return MPI_SUCCESS;
}
