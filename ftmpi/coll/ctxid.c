/*
 * Context-id agreement: every member contributes its mask of free context
 * pairs; the bitwise AND (one allreduce) gives the pairs free everywhere
 * and the lowest one is taken. The same sequence of communicator creations
 * therefore gives the same ids, which FT-MPI's CONT message mode relies on
 * after a recovery.
 */
#include "coll/coll.h"

int coll_ctx_alloc(comm_t *c, uint32_t *ctx_p)
{
    uint32_t mask[COMM_CTX_WORDS], all[COMM_CTX_WORDS];
    comm_ctx_mask(mask);
    int rc = coll_allreduce(c, mask, all, COMM_CTX_WORDS, dt_get(MPI_UINT32_T),
                            op_get(MPI_BAND));
    if (rc != MPI_SUCCESS)
        return rc;
    for (int w = 0; w < COMM_CTX_WORDS; w++) {
        if (!all[w])
            continue;
        int bit = __builtin_ctz(all[w]);
        uint32_t ctx = (uint32_t)(w * 32 + bit) * 2;
        comm_ctx_claim(ctx);
        *ctx_p = ctx;
        return MPI_SUCCESS;
    }
    return MPI_ERR_INTERN; /* every context id is in use */
}
