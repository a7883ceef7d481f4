/*
 * Gather, binomial tree: ranks relative to the root; a rank collects the
 * blocks of its subtree (its children's subtrees arrive as one message
 * each) and sends them to its parent in one message. Cost: ceil(log2 p)
 * alpha + (p-1) b beta at the root, with inner ranks forwarding: best for
 * short blocks, where p-1 separate messages at the root would cost more.
 * Inner ranks keep their subtree in a temporary buffer laid out in the send
 * type; the root (unless it is rank 0) rotates the result into place.
 * Any p.
 */
#include "coll/algs.h"

static int lowbit_sub(int rel, int p)
{
    int m = rel ? rel & -rel : 1;
    while (!rel && m < p)
        m <<= 1;
    return rel + m < p ? m : p - rel; /* blocks in rel's subtree */
}

int gather_binomial(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                    size_t rcount, dt_t *rdt, int root)
{
    int p = coll_p(s), me = coll_me(s);
    int rel = (me - root + p) % p;
    int sub = lowbit_sub(rel, p);
    int lowbit = rel ? rel & -rel : coll_pof2(p) * 2;
    /* buffer holding my subtree in relative order, and its block layout */
    void *buf;
    size_t bc;
    dt_t *bdt;
    if (rel == 0) {
        bdt = rdt;
        bc = rcount;
        buf = root == 0 ? rbuf : sched_tmpbuf(s, rdt, (size_t)p * rcount);
        if (!buf)
            return s->err;
        if (sbuf != MPI_IN_PLACE)
            sched_copy(s, sbuf, scount, sdt, buf, rcount, rdt);
        else if (root != 0)
            sched_copy(s, coll_at(rbuf, rdt, (size_t)root * rcount), rcount, rdt, buf, rcount,
                       rdt);
    } else if (sub == 1) {
        sched_send(s, sbuf, scount, sdt, (rel - lowbit + root) % p);
        return MPI_SUCCESS;
    } else {
        bdt = sdt;
        bc = scount;
        if (!(buf = sched_tmpbuf(s, sdt, (size_t)sub * scount)))
            return s->err;
        sched_copy(s, sbuf, scount, sdt, buf, scount, sdt);
    }
    for (int mask = 1; mask < lowbit && rel + mask < p; mask <<= 1) {
        int child = rel + mask;
        int csub = child + mask < p ? mask : p - child;
        sched_recv(s, coll_at(buf, bdt, (size_t)mask * bc), (size_t)csub * bc, bdt,
                   (child + root) % p);
    }
    sched_fence(s);
    if (rel != 0) {
        sched_send(s, buf, (size_t)sub * bc, bdt, (rel - lowbit + root) % p);
        return MPI_SUCCESS;
    }
    if (root != 0) { /* buf[i] is block root+i */
        size_t a = (size_t)(p - root) * rcount, b = (size_t)root * rcount;
        sched_copy(s, buf, a, rdt, coll_at(rbuf, rdt, b), a, rdt);
        sched_copy(s, coll_at(buf, rdt, a), b, rdt, rbuf, b, rdt);
    }
    return MPI_SUCCESS;
}
