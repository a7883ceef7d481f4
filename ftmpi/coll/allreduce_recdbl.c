/*
 * Allreduce, recursive doubling. With p' = 2^floor(log2 p) and r = p - p':
 * the first 2r ranks pair up (2i sends to 2i+1, which folds it in), the p'
 * remaining ranks exchange their whole vectors with partners at distance
 * 1, 2, 4, ... and fold, and the odd ranks of the first 2r hand the result
 * back. Cost: (log2 p' + 2 [p not a power of 2]) * (alpha + n beta + n
 * gamma). Best for short messages. Works for every op: a rank keeps the
 * reduction of a contiguous block of ranks and folds lower blocks on the
 * left, higher on the right.
 */
#include "coll/algs.h"

int allreduce_recdbl(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op)
{
    int p = coll_p(s), me = coll_me(s);
    int pof2 = coll_pof2(p), rem = p - pof2;
    void *tmp = sched_tmpbuf(s, dt, count);
    if (!tmp)
        return s->err;
    void *acc = rbuf;
    int newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            sched_send(s, rbuf, count, dt, me + 1);
            newrank = -1;
        } else {
            sched_recv(s, tmp, count, dt, me - 1);
            sched_fence(s);
            sched_reduce(s, tmp, rbuf, count, dt, op); /* x(me-1) op x(me) */
            newrank = me / 2;
        }
        sched_fence(s);
    } else {
        newrank = me - rem;
    }
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int np = newrank ^ mask;
            int peer = np < rem ? np * 2 + 1 : np + rem;
            sched_recv(s, tmp, count, dt, peer);
            sched_send(s, acc, count, dt, peer);
            sched_fence(s);
            if (peer < me || op->commute) {
                sched_reduce(s, tmp, acc, count, dt, op);  /* theirs op mine */
            } else {
                sched_reduce(s, acc, tmp, count, dt, op);  /* mine op theirs */
                void *t = acc;
                acc = tmp;
                tmp = t;
            }
            sched_fence(s);
        }
        if (acc != rbuf) {
            sched_copy(s, acc, count, dt, rbuf, count, dt);
            sched_fence(s);
        }
    }
    if (me < 2 * rem) {
        if (me % 2)
            sched_send(s, rbuf, count, dt, me - 1);
        else
            sched_recv(s, rbuf, count, dt, me + 1);
    }
    return MPI_SUCCESS;
}
