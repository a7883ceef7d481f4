/*
 * Allreduce, Rabenseifner: a reduce-scatter by recursive halving (after
 * log2 p' steps rank i holds the reduced i-th of p' chunks) followed by an
 * allgather by recursive doubling. Non-powers of two fold the first 2r
 * ranks in pairs first, as in allreduce_recdbl.c. Cost:
 *   2 log2 p' alpha + 2 n (p'-1)/p' beta + n (p'-1)/p' gamma
 * (+ 2 (alpha + n beta) + n gamma when p is not a power of two): for long
 * messages about twice as fast as recursive doubling. Commutative ops only
 * (the entry point falls back to recursive doubling otherwise).
 */
#include "coll/algs.h"

int allreduce_rabenseifner(sched_t *s, void *rbuf, size_t count, dt_t *dt, op_t *op)
{
    int p = coll_p(s), me = coll_me(s);
    int pof2 = coll_pof2(p), rem = p - pof2;
    if (count < (size_t)pof2 || !op->commute)
        return allreduce_recdbl(s, rbuf, count, dt, op);
    void *tmp = sched_tmpbuf(s, dt, count);
    size_t *cnt = sched_alloc(s, 2 * (size_t)pof2 * sizeof(size_t));
    if (!tmp || !cnt)
        return s->err;
    size_t *disp = cnt + pof2;
    for (int i = 0; i < pof2; i++) {
        cnt[i] = count / (size_t)pof2 + ((size_t)i < count % (size_t)pof2);
        disp[i] = i ? disp[i - 1] + cnt[i - 1] : 0;
    }
    int newrank;
    if (me < 2 * rem) {
        if (me % 2 == 0) {
            sched_send(s, rbuf, count, dt, me + 1);
            newrank = -1;
        } else {
            sched_recv(s, tmp, count, dt, me - 1);
            sched_fence(s);
            sched_reduce(s, tmp, rbuf, count, dt, op);
            newrank = me / 2;
        }
        sched_fence(s);
    } else {
        newrank = me - rem;
    }
    if (newrank >= 0) {
#define PEER(nr) ((nr) < rem ? (nr) * 2 + 1 : (nr) + rem)
        /* Reduce-scatter: keep the half of [lo, hi) that my bit selects. */
        int lo = 0, hi = pof2;
        for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
            int peer = PEER(newrank ^ mask);
            int mid = lo + mask;
            int klo = newrank & mask ? mid : lo, khi = newrank & mask ? hi : mid;
            int slo = newrank & mask ? lo : mid, shi = newrank & mask ? mid : hi;
            size_t ko, kn, so, sn;
            ko = disp[klo];
            kn = disp[khi - 1] + cnt[khi - 1] - ko;
            so = disp[slo];
            sn = disp[shi - 1] + cnt[shi - 1] - so;
            sched_recv(s, coll_at(tmp, dt, ko), kn, dt, peer);
            sched_send(s, coll_at(rbuf, dt, so), sn, dt, peer);
            sched_fence(s);
            sched_reduce(s, coll_at(tmp, dt, ko), coll_at(rbuf, dt, ko), kn, dt, op);
            sched_fence(s);
            lo = klo;
            hi = khi;
        }
        /* Allgather: double the range each step. */
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int peer = PEER(newrank ^ mask);
            int base = newrank & ~(2 * mask - 1);
            int mine = newrank & mask ? base + mask : base;
            int theirs = newrank & mask ? base : base + mask;
            size_t mo = disp[mine], mn = disp[mine + mask - 1] + cnt[mine + mask - 1] - mo;
            size_t to = disp[theirs], tn = disp[theirs + mask - 1] + cnt[theirs + mask - 1] - to;
            sched_recv(s, coll_at(rbuf, dt, to), tn, dt, peer);
            sched_send(s, coll_at(rbuf, dt, mo), mn, dt, peer);
            sched_fence(s);
        }
#undef PEER
    }
    if (me < 2 * rem) {
        if (me % 2)
            sched_send(s, rbuf, count, dt, me - 1);
        else
            sched_recv(s, rbuf, count, dt, me + 1);
    }
    return MPI_SUCCESS;
}
