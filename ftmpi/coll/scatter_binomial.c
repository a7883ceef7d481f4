/*
 * Scatter, binomial tree: the mirror of gather_binomial.c. The root sends
 * each child its whole subtree's blocks in one message; inner ranks keep
 * their own block and pass the rest on. Cost: ceil(log2 p) alpha + (p-1)
 * b beta at the root: for short blocks. Any p.
 */
#include "coll/algs.h"

int scatter_binomial(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                     size_t rcount, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    int rel = (me - root + p) % p;
    int lowbit = rel ? rel & -rel : coll_pof2(p) * 2;
    int sub = rel + lowbit < p ? lowbit : p - rel;
    const void *buf;
    size_t bc;
    dt_t *bdt;
    if (rel == 0) {
        bdt = sdt;
        bc = scount;
        if (root == 0) {
            buf = sbuf;
        } else { /* rotate: tmp[i] = block root+i */
            void *t = sched_tmpbuf(s, sdt, (size_t)p * scount);
            if (!t)
                return s->err;
            size_t a = (size_t)(p - root) * scount, b = (size_t)root * scount;
            sched_copy(s, coll_at(sbuf, sdt, b), a, sdt, t, a, sdt);
            sched_copy(s, sbuf, b, sdt, coll_at(t, sdt, a), b, sdt);
            sched_fence(s);
            buf = t;
        }
        if (rbuf != MPI_IN_PLACE)
            sched_copy(s, buf, scount, sdt, rbuf, rcount, rdt);
    } else if (sub == 1) {
        sched_recv(s, rbuf, rcount, rdt, (rel - lowbit + root) % p);
        return MPI_SUCCESS;
    } else {
        bdt = rdt;
        bc = rcount;
        void *t = sched_tmpbuf(s, rdt, (size_t)sub * rcount);
        if (!t)
            return s->err;
        sched_recv(s, t, (size_t)sub * rcount, rdt, (rel - lowbit + root) % p);
        sched_fence(s);
        sched_copy(s, t, rcount, rdt, rbuf, rcount, rdt);
        buf = t;
    }
    int mask = 1;
    while (mask < lowbit && rel + mask < p)
        mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rel + mask;
        if (child >= p || mask >= lowbit)
            continue;
        int csub = child + mask < p ? mask : p - child;
        sched_send(s, coll_at(buf, bdt, (size_t)mask * bc), (size_t)csub * bc, bdt,
                   (child + root) % p);
    }
    return MPI_SUCCESS;
}
