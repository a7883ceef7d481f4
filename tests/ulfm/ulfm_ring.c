/*
 * The ULFM tutorials' ring, written from their description: a token goes
 * around the ring of ranks ROUNDS times, each rank adding 1. World rank 3
 * dies when it first holds the token in round 2 (the token dies with it).
 * The rank waiting for it sees MPIX_ERR_PROC_FAILED and revokes; the
 * others, blocked in their receives, see MPIX_ERR_REVOKED; all shrink,
 * agree on the rounds completed (the highest any survivor saw end), and
 * rank 0 starts the interrupted round again on the smaller ring.
 */
#include "ulfm_test.h"

#define ROUNDS 5
#define VICTIM 3

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    MPI_Comm ring;
    MPI_Comm_dup(MPI_COMM_WORLD, &ring);
    int done = 0, recoveries = 0; /* rounds completed (as rank 0 saw them end) */
    for (;;) {
        int p, r, rc = MPI_SUCCESS;
        MPI_Comm_size(ring, &p);
        MPI_Comm_rank(ring, &r);
        int next = (r + 1) % p, prev = (r + p - 1) % p;
        while (done < ROUNDS) {
            int token = 0;
            if (r == 0) {
                rc = MPI_Send(&token, 1, MPI_INT, next, done, ring);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Recv(&token, 1, MPI_INT, prev, done, ring, MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS)
                    break;
                CHECK(token == p - 1, "round %d: token %d on a ring of %d", done, token, p);
            } else {
                rc = MPI_Recv(&token, 1, MPI_INT, prev, done, ring, MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS)
                    break;
                if (u_rank == VICTIM && done == 2)
                    u_die();
                token++;
                rc = MPI_Send(&token, 1, MPI_INT, next, done, ring);
                if (rc != MPI_SUCCESS)
                    break;
            }
            done++;
        }
        if (rc == MPI_SUCCESS)
            break;
        u_revoke_shrink(&ring, rc);
        recoveries++;
        /* The round to start again: the lowest not completed everywhere
         * (an agreement on a bit mask of completed rounds). */
        int mask = (1 << done) - 1;
        CHECK(MPIX_Comm_agree(ring, &mask) == MPI_SUCCESS, "agree");
        done = 0;
        while (mask & (1 << done))
            done++;
    }
    int p;
    MPI_Comm_size(ring, &p);
    CHECK(p == u_size - 1 && recoveries == 1, "ring of %d after %d recoveries", p, recoveries);
    MPI_Comm_free(&ring);
    return u_finish();
}
