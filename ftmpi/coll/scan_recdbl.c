/*
 * Scan / Exscan, recursive doubling: in step k rank r exchanges the
 * reduction of its current block of ranks with r xor 2^k; what comes from
 * a lower rank is folded into both the running block total and the
 * result, what comes from a higher rank into the block total only (on the
 * right, so non-commutative ops keep rank order). Cost: ceil(log2 p)
 * (alpha + n beta + 2 n gamma): for short and medium vectors. Any p.
 */
#include "coll/algs.h"

int scan_recdbl(sched_t *s, const void *sbuf, void *rbuf, size_t count, dt_t *dt, op_t *op,
                int exclusive)
{
    int p = coll_p(s), me = coll_me(s);
    void *part = sched_tmpbuf(s, dt, count);   /* reduction of my current block */
    void *tmp = sched_tmpbuf(s, dt, count);
    if (!part || !tmp)
        return s->err;
    sched_copy(s, sbuf, count, dt, part, count, dt);
    if (!exclusive)
        sched_copy(s, sbuf, count, dt, rbuf, count, dt);
    sched_fence(s);
    int have = !exclusive; /* rbuf holds something */
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = me ^ mask;
        if (peer >= p)
            continue;
        sched_recv(s, tmp, count, dt, peer);
        sched_send(s, part, count, dt, peer);
        sched_fence(s);
        if (peer < me) {
            if (have) {
                sched_reduce(s, tmp, rbuf, count, dt, op);   /* rbuf = theirs op rbuf */
            } else {
                sched_copy(s, tmp, count, dt, rbuf, count, dt);
                have = 1;
            }
            sched_reduce(s, tmp, part, count, dt, op);       /* part = theirs op part */
        } else if (op->commute) {
            sched_reduce(s, tmp, part, count, dt, op);
        } else {
            sched_reduce(s, part, tmp, count, dt, op);       /* tmp = part op theirs */
            void *t = part;
            part = tmp;
            tmp = t;
        }
        sched_fence(s);
    }
    return MPI_SUCCESS;
}
