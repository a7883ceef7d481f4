/*
 * Library issue (docs/master_worker.md, "Library issues"): a receive that
 * streams (single copy refused: CTS, then DATA fragments) is in no list
 * that a failure walks, so when its sender dies mid-stream it never
 * completes. Rank 1 dies while streaming 64 MB to rank 0:
 *   FTMPI_NO_CMA=1 mpirun -x FTMPI_NO_CMA --comm-mode=shrink -np 2 ./lib_stream_failure
 * rank 0's MPI_Recv should return MPI_ERR_OTHER; it never returns.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    int rank, n = 64 << 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc(n, 1);
    if (rank == 1) {
        MPI_Request r;
        int flag;
        MPI_Isend(buf, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, &r);
        for (int i = 0; i < 20; i++) { MPI_Test(&r, &flag, MPI_STATUS_IGNORE); usleep(1000); }
        raise(SIGKILL);                      /* dies in the middle of the stream */
    }
    if (rank == 0) {
        int rc = MPI_Recv(buf, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 0: MPI_Recv from the dead sender returned %d%s\n", rc, rc == MPI_ERR_OTHER ? "" : " (want MPI_ERR_OTHER)");
    }
    MPI_Finalize();
    free(buf);
    return 0;
}
