/*
 * Allgather, recursive doubling: in step k rank r exchanges everything it
 * has (2^k blocks) with rank r xor 2^k. Cost: log2 p alpha + (p-1) b beta.
 * For short and medium blocks on powers of two. Other p: with p' the
 * largest power of two below p, rank p'+i first hands its block to rank i,
 * the p' ranks run the exchange (carrying the extra blocks along: a group
 * of ranks [a, a+2^k) also holds blocks [a+p', a+2^k+p') ∩ [p', p)), and
 * rank i finally sends the whole result to p'+i: two more steps.
 */
#include "coll/algs.h"

static void xchg_range(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt, int peer, int slo,
                       int shi, int rlo, int rhi)
{
    if (rhi > rlo)
        sched_recv(s, coll_at(rbuf, rdt, (size_t)rlo * rcount), (size_t)(rhi - rlo) * rcount, rdt,
                   peer);
    if (shi > slo)
        sched_send(s, coll_at(rbuf, rdt, (size_t)slo * rcount), (size_t)(shi - slo) * rcount, rdt,
                   peer);
}

static int clip(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int allgather_recdbl(sched_t *s, void *rbuf, size_t rcount, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    int pof2 = coll_pof2(p), rem = p - pof2;
    size_t all = (size_t)p * rcount;
    if (me >= pof2) {
        sched_send(s, coll_at(rbuf, rdt, (size_t)me * rcount), rcount, rdt, me - pof2);
        sched_fence(s);
        sched_recv(s, rbuf, all, rdt, me - pof2);
        return MPI_SUCCESS;
    }
    if (me < rem) {
        sched_recv(s, coll_at(rbuf, rdt, (size_t)(me + pof2) * rcount), rcount, rdt, me + pof2);
        sched_fence(s);
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer = me ^ mask;
        int mine = me & ~(mask - 1), theirs = peer & ~(mask - 1);
        /* the blocks of the group itself */
        xchg_range(s, rbuf, rcount, rdt, peer, mine, mine + mask, theirs, theirs + mask);
        /* and the extra blocks it carries */
        int ms = clip(mine, 0, rem), me_ = clip(mine + mask, 0, rem);
        int ts = clip(theirs, 0, rem), te = clip(theirs + mask, 0, rem);
        xchg_range(s, rbuf, rcount, rdt, peer, ms + pof2, me_ + pof2, ts + pof2, te + pof2);
        sched_fence(s);
    }
    if (me < rem)
        sched_send(s, rbuf, all, rdt, me + pof2);
    return MPI_SUCCESS;
}
