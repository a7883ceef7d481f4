/*
 * MPIX_Comm_revoke: a flood over a binomial graph. The first time a
 * process hears of the revocation (its own call or a REVOKE message) it
 * marks the communicator revoked, ends every pending operation on it with
 * MPIX_ERR_REVOKED (both contexts: point-to-point and collectives), and
 * tells its neighbours rank +- 2^k (mod size). Each member so sends at
 * most 2 ceil(log2 p) messages, and the notice reaches every live member
 * in about log2 p steps as long as the live members stay connected in
 * that graph (any 2 ceil(log2 p) - 1 failures at once cannot cut it).
 * Shrink, agree and the failure queries use the ULFM channel, so they
 * work on a revoked communicator.
 */
#include "ft/ulfm_int.h"

int ulfm_is_revoked(const comm_t *c)
{
    const ustate_t *s = c->ulfm;
    return s && s->revoked;
}

static void mark(ustate_t *s)
{
    if (s->revoked)
        return;
    s->revoked = 1;
    if (s->comm) {
        /* Pending operations fail now; later posts (the next round of a
         * collective that was between rounds) fail in p2p. */
        s->comm->revoked = 1;
        p2p_fail_pending(s->comm, MPIX_ERR_REVOKED, P2P_ALL);
        if (s->comm->local_comm) { /* an intercommunicator's local half */
            s->comm->local_comm->revoked = 1;
            p2p_fail_pending(s->comm->local_comm, MPIX_ERR_REVOKED, P2P_ALL);
        }
        ulfm_revoked_parked(s->comm);
    }
    um_hdr_t h = {UM_REVOKE, s->ctx, s->ghash, s->inc, 0, 0, 0, 0, 0};
    for (int k = 1; k < s->size; k <<= 1) {
        int up = (s->rank + k) % s->size, down = (s->rank - k + s->size) % s->size;
        ulfm_send(s->world[up], &h, NULL);
        if (down != up)
            ulfm_send(s->world[down], &h, NULL);
    }
}

int ulfm_revoke(comm_t *c)
{
    ustate_t *s = ulfm_state(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    mark(s);
    return MPI_SUCCESS;
}

void ulfm_revoke_msg(ustate_t *s, int from, const um_hdr_t *h)
{
    (void)from;
    (void)h;
    mark(s);
}
