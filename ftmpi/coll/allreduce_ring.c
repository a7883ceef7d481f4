/*
 * Allreduce, ring: the vector is cut into p chunks; a ring reduce-scatter
 * (p-1 steps: send a chunk right, receive the next from the left and fold
 * it in) leaves chunk r+1 complete at rank r, and a ring allgather (p-1
 * steps) circulates the complete chunks. Cost:
 *   2 (p-1) alpha + 2 n (p-1)/p beta + n (p-1)/p gamma
 * the least data per rank of all algorithms, but a latency linear in p:
 * for long messages. Chunks may be cut into segments of `seg` bytes; each
 * segment moves on as soon as its own previous step is done, so the steps
 * overlap. Any p. Commutative ops only (the entry point falls back to
 * recursive doubling otherwise).
 */
#include "coll/algs.h"

int allreduce_ring(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op, size_t seg)
{
    int p = coll_p(s), me = coll_me(s);
    if (count < (size_t)p || !op->commute)
        return allreduce_recdbl(s, rbuf, count, dt, op);
    void *tmp = sched_tmpbuf(s, dt, count);
    size_t *cnt = sched_alloc(s, 2 * (size_t)p * sizeof(size_t));
    if (!tmp || !cnt)
        return s->err;
    size_t *disp = cnt + p;
    for (int i = 0; i < p; i++) {
        cnt[i] = count / (size_t)p + ((size_t)i < count % (size_t)p);
        disp[i] = i ? disp[i - 1] + cnt[i - 1] : 0;
    }
    size_t sc = seg ? coll_segcount(dt, seg, seg) : cnt[0];
    size_t nseg = (cnt[0] + sc - 1) / sc;
    int *last = sched_alloc(s, nseg * sizeof(int)); /* per segment slot: op the next send waits for */
    if (!last)
        return s->err;
    int left = (me - 1 + p) % p, right = (me + 1) % p;
    for (size_t j = 0; j < nseg; j++)
        last[j] = -1;

    /* Reduce-scatter. */
    for (int k = 0; k < p - 1; k++) {
        int sch = (me - k + p) % p, rch = (me - k - 1 + p) % p;
        for (size_t j = 0; j < nseg; j++) {
            size_t so = j * sc, ro = j * sc;
            if (so < cnt[sch]) {
                size_t n = cnt[sch] - so < sc ? cnt[sch] - so : sc;
                sched_dep(s, sched_send(s, coll_at(rbuf, dt, disp[sch] + so), n, dt, right),
                          last[j]);
            }
            last[j] = -1;
            if (ro < cnt[rch]) {
                size_t n = cnt[rch] - ro < sc ? cnt[rch] - ro : sc;
                size_t at = disp[rch] + ro;
                int r = sched_recv(s, coll_at(tmp, dt, at), n, dt, left);
                last[j] = sched_reduce(s, coll_at(tmp, dt, at), coll_at(rbuf, dt, at), n, dt, op);
                sched_dep(s, last[j], r);
            }
        }
    }
    /* Allgather of the complete chunks. */
    for (int k = 0; k < p - 1; k++) {
        int sch = (me + 1 - k + p) % p, rch = (me - k + p) % p;
        for (size_t j = 0; j < nseg; j++) {
            size_t o = j * sc;
            if (o < cnt[sch]) {
                size_t n = cnt[sch] - o < sc ? cnt[sch] - o : sc;
                sched_dep(s, sched_send(s, coll_at(rbuf, dt, disp[sch] + o), n, dt, right),
                          last[j]);
            }
            last[j] = -1;
            if (o < cnt[rch]) {
                size_t n = cnt[rch] - o < sc ? cnt[rch] - o : sc;
                last[j] = sched_recv(s, coll_at(rbuf, dt, disp[rch] + o), n, dt, left);
            }
        }
    }
    return MPI_SUCCESS;
}
