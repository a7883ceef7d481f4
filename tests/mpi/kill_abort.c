/*
 * kill_abort: the program side of kill_abort.sh (the default ABORT mode:
 * one rank dies by SIGKILL, the whole job must end quickly, non-zero, with
 * a message naming the rank, and leave no process behind).
 *
 *   kill_abort raise   rank 1 raises SIGKILL after a barrier; the others
 *                      block in MPI_Recv from rank 1 (and would hang for
 *                      ever if nobody ended the job)
 *   kill_abort loop    every rank loops on Allreduce + short sleeps until
 *                      the launcher kills rank 1 (mpirun --kill 1@1.5);
 *                      gives up after 30 s with exit code 3
 * Every rank first prints "pid PID rank RANK" so the driver can check that
 * the processes are gone afterwards.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    const char *mode = argc > 1 ? argv[1] : "raise";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("pid %d rank %d\n", (int)getpid(), rank);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(mode, "raise") == 0) {
        if (rank == 1) {
            raise(SIGKILL);
            for (;;)
                pause();
        }
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fprintf(stderr, "kill_abort: rank %d: MPI_Recv from the dead rank returned\n", rank);
        return 4;
    }
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < 30) {
        int s = 0;
        MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    fprintf(stderr, "kill_abort: rank %d still running after 30 s\n", rank);
    MPI_Finalize();
    return 3;
}
