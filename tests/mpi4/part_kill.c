/*
 * part_kill: a partitioned receive whose sender is SIGKILLed (FT-MPI,
 * SHRINK, 3 ranks). Rank 1 sends 4 partitions to rank 0 and dies after
 * making 2 of them ready; rank 0's MPI_Wait returns the FT error
 * (MPI_ERR_OTHER) instead of hanging, and the partitions that came are
 * reported by MPI_Parrived before that. Rank 2 waits at a barrier, which
 * fails too. The survivors recover and finish.
 */
#include <signal.h>

#include "../mpi/mpitest.h"

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int rank = t_rank, rc = MPI_SUCCESS, b[8];
    MPI_Request q;
    for (int i = 0; i < 8; i++)
        b[i] = rank == 1 ? 10 + i : -1;
    if (rank == 1) {
        MPI_Psend_init(b, 4, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
        MPI_Start(&q);
        MPI_Pready(0, q);
        MPI_Pready(1, q);
        MPI_Send(&rank, 1, MPI_INT, 0, 6, MPI_COMM_WORLD); /* after them */
        MPI_Recv(&rank, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        raise(SIGKILL);
    }
    if (rank == 0) {
        int tok, flag = 0;
        MPI_Precv_init(b, 4, 2, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
        MPI_Start(&q);
        MPI_Recv(&tok, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30)
            MPI_Parrived(q, 1, &flag);
        T_CHECK(flag && b[2] == 12 && b[3] == 13, "partition 1 arrived %d: %d %d", flag, b[2],
                b[3]);
        MPI_Send(&tok, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
        T_CHECK(rc == MPI_ERR_OTHER, "wait with a dead sender returned %d", rc);
        rc = MPI_Request_free(&q);
        T_CHECK(rc == MPI_SUCCESS, "free returned %d", rc);
    }
    rc = MPI_Barrier(MPI_COMM_WORLD);
    T_CHECK(rc == MPI_ERR_OTHER || rc == MPI_SUCCESS, "barrier returned %d", rc);
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    T_CHECK(rc == MPI_SUCCESS, "recovery returned %d", rc);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&nc);
    printf("part_kill rank %d: %s\n", rank, t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
