/*
 * Reduce_scatter, ring: in step k rank r sends its partial sum of piece
 * r-k-1 to r+1 and receives piece r-k-2 from r-1, folding in its own
 * contribution; after p-1 steps rank r holds piece r complete. Cost:
 * (p-1) alpha + n (p-1)/p (beta + gamma): the least data, for long
 * vectors. Commutative ops only (the entry point falls back otherwise).
 * Any p.
 */
#include "coll/algs.h"

int reduce_scatter_ring(sched_t *s, const void *sbuf, void *rbuf, const int *rcounts, dt_t *dt,
                        op_t *op)
{
    int p = coll_p(s), me = coll_me(s);
    if (!op->commute)
        return reduce_scatter_reduce_scatterv(s, sbuf, rbuf, rcounts, dt, op);
    size_t total = 0;
    size_t *disp = sched_alloc(s, (size_t)p * sizeof(size_t));
    if (!disp)
        return s->err;
    for (int i = 0; i < p; i++) {
        disp[i] = total;
        total += (size_t)rcounts[i];
    }
    void *tmp = sched_tmpbuf(s, dt, total);
    if (!tmp)
        return s->err;
    int left = (me - 1 + p) % p, right = (me + 1) % p;
    int prev = -1;
    for (int k = 0; k < p - 1; k++) {
        int sp = (me - k - 1 + 2 * p) % p, rp = (me - k - 2 + 2 * p) % p;
        const void *from = k == 0 ? coll_at(sbuf, dt, disp[sp]) : coll_at(tmp, dt, disp[sp]);
        sched_dep(s, sched_send(s, from, (size_t)rcounts[sp], dt, right), prev);
        void *at = coll_at(tmp, dt, disp[rp]);
        int r = sched_recv(s, at, (size_t)rcounts[rp], dt, left);
        prev = sched_reduce(s, coll_at(sbuf, dt, disp[rp]), at, (size_t)rcounts[rp], dt, op);
        sched_dep(s, prev, r);
    }
    sched_dep(s, sched_copy(s, coll_at(tmp, dt, disp[me]), (size_t)rcounts[me], dt, rbuf,
                            (size_t)rcounts[me], dt), prev);
    return MPI_SUCCESS;
}
