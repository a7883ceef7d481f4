/*
 * Broadcast, scatter + allgather (van de Geijn): the message is cut into p
 * chunks; a binomial scatter gives chunk i to relative rank i, then a ring
 * allgather gives every rank every chunk. Cost:
 *   scatter   log2 p * alpha + n (p-1)/p * beta
 *   allgather (p-1) * alpha + n (p-1)/p * beta
 * i.e. about 2 n beta for long messages, with no single rank sending more
 * than 2n: good for long messages on mid-sized communicators. Any p; when
 * count < p some chunks are empty and their messages are skipped on both
 * sides. The ring sends of step k+1 wait only for the receive of step k, so
 * the ring runs as a pipeline.
 */
#include "coll/algs.h"

/* Elements [first, end) of chunks [a, b) of size cs, clipped to count. */
static void chunk_range(size_t count, size_t cs, int a, int b, size_t *first, size_t *n)
{
    size_t lo = (size_t)a * cs, hi = (size_t)b * cs;
    if (lo > count)
        lo = count;
    if (hi > count)
        hi = count;
    *first = lo;
    *n = hi - lo;
}

int bcast_scatter_allgather(sched_t *s, void *buf, size_t count, dt_t *dt, int root)
{
    int p = coll_p(s);
    int rel = (coll_me(s) - root + p) % p;
    size_t cs = (count + (size_t)p - 1) / (size_t)p;
    size_t first, n;

    /* Binomial scatter: my subtree is [rel, rel + lowbit(rel)). */
    int mask = 1;
    while (mask < p) {
        if (rel & mask) {
            int hi = rel + mask < p ? rel + mask : p;
            chunk_range(count, cs, rel, hi, &first, &n);
            if (n)
                sched_recv(s, coll_at(buf, dt, first), n, dt, (rel - mask + root) % p);
            sched_fence(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int child = rel + mask;
        if (child >= p)
            continue;
        int hi = child + mask < p ? child + mask : p;
        chunk_range(count, cs, child, hi, &first, &n);
        if (n)
            sched_send(s, coll_at(buf, dt, first), n, dt, (child + root) % p);
    }
    sched_fence(s);

    /* Ring allgather over relative ranks: step k sends chunk rel-k and
     * receives chunk rel-k-1. */
    int left = (rel - 1 + p) % p, right = (rel + 1) % p;
    int prev_recv = -1;
    for (int k = 0; k < p - 1; k++) {
        int sc = (rel - k + p) % p, rc = (rel - k - 1 + p) % p;
        chunk_range(count, cs, sc, sc + 1, &first, &n);
        if (n)
            sched_dep(s, sched_send(s, coll_at(buf, dt, first), n, dt, (right + root) % p),
                      prev_recv);
        chunk_range(count, cs, rc, rc + 1, &first, &n);
        prev_recv = -1;
        if (n)
            prev_recv = sched_recv(s, coll_at(buf, dt, first), n, dt, (left + root) % p);
    }
    return MPI_SUCCESS;
}
