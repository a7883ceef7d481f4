/*
 * Barrier, dissemination algorithm: in round k every rank signals rank
 * (r + 2^k) mod p and waits for (r - 2^k) mod p. ceil(log2 p) rounds of one
 * zero-byte message each: cost ceil(log2 p) * alpha, for any p.
 */
#include "coll/coll.h"

int coll_barrier(comm_t *c)
{
    int p = c->size, r = c->rank;
    int tag = coll_tag(c);
    dt_t *byte = dt_get(MPI_BYTE);
    for (int k = 1; k < p; k <<= 1) {
        int rc = coll_sendrecv(c, NULL, 0, byte, (r + k) % p, NULL, 0, byte, (r - k + p) % p, tag);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
