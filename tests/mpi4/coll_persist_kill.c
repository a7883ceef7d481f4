/*
 * A persistent collective whose peer is SIGKILLed (FT-MPI, SHRINK mode):
 * 4 ranks run a persistent MPI_Allreduce round after round; rank 3 kills
 * itself before round 3. The survivors' round (3, or 2 if they were still
 * in it when the failure became known) fails with the FT error
 * (MPI_ERR_OTHER) instead of hanging, and leaves the request inactive: it
 * can be started again. The survivors recover (MPI_Comm_dup with
 * FT_MPI_CHECK_RECOVER), then start the same request on the shrunk
 * MPI_COMM_WORLD: the sum is over the three of them.
 */
#include <signal.h>

#include "../mpi/mpitest.h"

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int rank = t_rank;
    int in = 0, out = -1, rc = MPI_SUCCESS, round;
    MPI_Request r;
    MPI_Allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (round = 0; round < 10; round++) {
        if (round == 3 && rank == 3)
            raise(SIGKILL);
        in = rank + 1 + round;
        rc = MPI_Start(&r);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            break;
        T_CHECK(out == 10 + 4 * round, "round %d: sum %d, want %d", round, out, 10 + 4 * round);
    }
    int cls = -1;
    MPI_Error_class(rc, &cls);
    /* Round 2 may fail too: rank 3 may leave it (its part done) and die
     * while the others still wait in it, and the failure is then known. */
    T_CHECK((round == 2 || round == 3) && cls == MPI_ERR_OTHER,
          "the failure was reported in round %d, class %d", round, cls);
    /* Recover; the request is inactive again and runs on the new world. */
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    T_CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    T_CHECK(size == 3, "world size after SHRINK is %d", size);
    in = 100;
    rc = MPI_Start(&r);
    T_CHECK(rc == MPI_SUCCESS, "start after the recovery returned %d", rc);
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    T_CHECK(rc == MPI_SUCCESS && out == 300, "after the recovery: rc %d sum %d, want 300", rc, out);
    rc = MPI_Request_free(&r);
    T_CHECK(rc == MPI_SUCCESS, "free returned %d", rc);
    MPI_Comm_free(&nc);
    printf("coll_persist_kill rank %d: %s\n", rank, t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
