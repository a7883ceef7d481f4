/*
 * A 1-D Jacobi solver that survives process failures the ULFM way:
 * revoke, shrink, roll back to the last checkpoint, redistribute, go on.
 *
 * Every CK iterations the vector is gathered on every rank (the in-memory
 * checkpoint); MPIX_Comm_agree on "my gather succeeded" commits it
 * uniformly, so every survivor rolls back to the same iteration. The
 * victims (world ranks in ULFM_VICTIMS) kill themselves with SIGKILL at
 * iterations 50, 170, ... The result of each rank's block is compared,
 * exactly, with a serial computation.
 */
#include "jacobi_1d.h"

static int victims[8], nv;

static void die(int it, int rank)
{
    (void)rank;
    for (int k = 0; k < nv; k++)
        if (victims[k] == u_rank && it == 50 + 120 * k)
            u_die();
}

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    nv = jacobi_victims(victims);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    memset(ck, 0, sizeof ck);
    ck[0] = 1.0;
    ck_it = 0;
    int recoveries = 0;
restart:;
    int rc = jacobi_run(comm, die);
    if (rc != MPI_SUCCESS) {
        u_revoke_shrink(&comm, rc);
        recoveries++;
        goto restart;
    }
    jacobi_check();
    int p;
    MPI_Comm_size(comm, &p);
    CHECK(p == u_size - nv, "%d ranks at the end, want %d", p, u_size - nv);
    CHECK(recoveries >= (nv > 0), "%d recoveries", recoveries);
    MPI_Comm_free(&comm);
    return u_finish();
}
