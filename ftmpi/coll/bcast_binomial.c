/*
 * Broadcast, binomial tree rooted at `root` (ranks relative to the root):
 * a rank receives from the rank that differs in its lowest set bit, then
 * sends to rank + 2^k for each lower k. ceil(log2 p) steps of the whole
 * message: cost ceil(log2 p) * (alpha + n * beta). Best for short messages;
 * issue 6 adds pipelined and scatter+allgather variants for long ones.
 */
#include "coll/coll.h"

int coll_bcast(comm_t *c, void *buf, int count, dt_t *dt, int root)
{
    int p = c->size;
    int tag = coll_tag(c);
    if (p == 1 || count == 0)
        return MPI_SUCCESS;
    int rel = (c->rank - root + p) % p;
    int mask = 1;
    while (mask < p) {
        if (rel & mask) {
            int src = (rel - mask + root) % p;
            int rc = coll_recv(c, buf, (size_t)count, dt, src, tag);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    while (mask > 0) {
        if (rel + mask < p) {
            int dst = (rel + mask + root) % p;
            int rc = coll_send(c, buf, (size_t)count, dt, dst, tag);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        mask >>= 1;
    }
    return MPI_SUCCESS;
}
