/*
 * Broadcast, pipelined chain: the message is cut into segments of `seg`
 * bytes that flow along the chain root -> root+1 -> ... -> root+p-1; a rank
 * forwards segment k as soon as it has it, while segment k+1 arrives.
 * Cost with m segments of size n/m: (p - 1 + m - 1) * (alpha + (n/m) beta):
 * about n * beta for long messages, whatever p. Latency grows with p, so
 * this is for long messages only.
 */
#include "coll/algs.h"

#define PIPE_DEFAULT_SEG (64 * 1024)

int bcast_pipeline(sched_t *s, void *buf, size_t count, dt_t *dt, int root, size_t seg)
{
    int p = coll_p(s);
    int rel = (coll_me(s) - root + p) % p;
    size_t sc = coll_segcount(dt, seg, PIPE_DEFAULT_SEG);
    int prev = (rel - 1 + root + p) % p, next = (rel + 1 + root) % p;
    for (size_t off = 0; off < count; off += sc) {
        size_t n = count - off < sc ? count - off : sc;
        char *b = coll_at(buf, dt, off);
        int r = -1;
        if (rel > 0)
            r = sched_recv(s, b, n, dt, prev);
        if (rel < p - 1)
            sched_dep(s, sched_send(s, b, n, dt, next), r);
    }
    return MPI_SUCCESS;
}
