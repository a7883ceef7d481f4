/*
 * Broadcast, segmented binary tree: ranks relative to the root form a
 * binary tree (children 2i+1, 2i+2); each segment is forwarded to both
 * children as soon as it arrives. Cost with m segments of n/m bytes:
 * (2 log2 p + m - 1) * (alpha + (n/m) beta), about 2 n beta for long
 * messages (every inner node sends everything twice) but a depth of only
 * log2 p: between the binomial tree and the chain.
 */
#include "coll/algs.h"

#define BINTREE_DEFAULT_SEG (16 * 1024)

int bcast_bintree(sched_t *s, void *buf, size_t count, dt_t *dt, int root, size_t seg)
{
    int p = coll_p(s);
    int rel = (coll_me(s) - root + p) % p;
    size_t sc = coll_segcount(dt, seg, BINTREE_DEFAULT_SEG);
    int parent = (rel - 1) / 2;
    for (size_t off = 0; off < count; off += sc) {
        size_t n = count - off < sc ? count - off : sc;
        char *b = coll_at(buf, dt, off);
        int r = -1;
        if (rel > 0)
            r = sched_recv(s, b, n, dt, (parent + root) % p);
        for (int c = 2 * rel + 1; c <= 2 * rel + 2 && c < p; c++)
            sched_dep(s, sched_send(s, b, n, dt, (c + root) % p), r);
    }
    return MPI_SUCCESS;
}
