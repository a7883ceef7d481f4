/*
 * MPI_Isendrecv with a SIGKILLed peer (FT-MPI, SHRINK, message mode CONT):
 * 3 ranks, rank 2 dies after a barrier. Rank 0 sends to rank 1 and
 * receives from dead rank 2; rank 1 sends to dead rank 2 and receives
 * from rank 0. Each request completes (no hang) with the FT error
 * MPI_ERR_OTHER, and the half with the live peer happens: rank 1 gets
 * rank 0's value. The survivors then recover.
 */
#include <signal.h>

#include "../mpi/mpitest.h"

int main(int argc, char **argv)
{
    int x = -1, rc;
    t_init(&argc, &argv);
    int rank = t_rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        raise(SIGKILL);
    /* Both survivors learn of the failure first. */
    rc = MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    T_CHECK(rc == MPI_ERR_OTHER, "recv from dead rank returned %d", rc);
    MPI_Request q;
    int v = 10 + rank;
    x = -1;
    if (rank == 0)
        rc = MPI_Isendrecv(&v, 1, MPI_INT, 1, 3, &x, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, &q);
    else
        rc = MPI_Isendrecv(&v, 1, MPI_INT, 2, 3, &x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &q);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    T_CHECK(rc == MPI_ERR_OTHER, "Isendrecv with a dead peer returned %d", rc);
    T_CHECK(rank != 1 || x == 10, "got %d from rank 0, want 10", x);
    /* Both are done before either recovers (docs/ft.md). */
    int tok = 0;
    MPI_Sendrecv(&tok, 1, MPI_INT, 1 - rank, 8, &tok, 1, MPI_INT, 1 - rank, 8, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    T_CHECK(rc == MPI_SUCCESS, "recovery returned %d", rc);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&nc);
    printf("isendrecv_kill rank %d: %s\n", rank, t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
