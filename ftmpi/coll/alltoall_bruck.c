/*
 * Alltoall, Bruck: blocks are rotated so that position i holds the block
 * for rank r+i; in step k every block whose position has bit k set is sent
 * (packed together) to rank r+2^k; after ceil(log2 p) steps position i
 * holds the block from rank r-i, and a last local pass puts the blocks in
 * place. Cost: ceil(log2 p) alpha + (p/2) ceil(log2 p) b beta plus local
 * copies: fewer messages than pairwise, more data: for short blocks on
 * larger p. Any p.
 */
#include "coll/algs.h"

int alltoall_bruck(sched_t *s, const void *sbuf, size_t scount, dt_t *sdt, void *rbuf,
                   size_t rcount, dt_t *rdt)
{
    int p = coll_p(s), me = coll_me(s);
    void *tmp = sched_tmpbuf(s, rdt, (size_t)p * rcount);
    void *spack = sched_tmpbuf(s, rdt, (size_t)(p / 2 + 1) * rcount);
    void *rpack = sched_tmpbuf(s, rdt, (size_t)(p / 2 + 1) * rcount);
    if (!tmp || !spack || !rpack)
        return s->err;
    /* Rotate: tmp[i] = my block for rank me+i (converted to rdt). */
    for (int i = 0; i < p; i++)
        sched_copy(s, coll_at(sbuf, sdt, (size_t)((me + i) % p) * scount), scount, sdt,
                   coll_at(tmp, rdt, (size_t)i * rcount), rcount, rdt);
    sched_fence(s);
    for (int d = 1; d < p; d <<= 1) {
        int n = 0;
        for (int i = 1; i < p; i++)
            if (i & d)
                sched_copy(s, coll_at(tmp, rdt, (size_t)i * rcount), rcount, rdt,
                           coll_at(spack, rdt, (size_t)n++ * rcount), rcount, rdt);
        sched_fence(s);
        sched_recv(s, rpack, (size_t)n * rcount, rdt, (me - d + p) % p);
        sched_send(s, spack, (size_t)n * rcount, rdt, (me + d) % p);
        sched_fence(s);
        n = 0;
        for (int i = 1; i < p; i++)
            if (i & d)
                sched_copy(s, coll_at(rpack, rdt, (size_t)n++ * rcount), rcount, rdt,
                           coll_at(tmp, rdt, (size_t)i * rcount), rcount, rdt);
        sched_fence(s);
    }
    /* Position i now holds the block from rank me-i. */
    for (int i = 0; i < p; i++)
        sched_copy(s, coll_at(tmp, rdt, (size_t)i * rcount), rcount, rdt,
                   coll_at(rbuf, rdt, (size_t)((me - i + p) % p) * rcount), rcount, rdt);
    return MPI_SUCCESS;
}
