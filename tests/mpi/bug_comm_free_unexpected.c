/*
 * MPI_Comm_free must free the messages still queued on the communicator
 * (sent, never received). Rank 1 sends rank 0 64 eager messages of 4000
 * bytes on a fresh duplicate of MPI_COMM_WORLD, 100 times; rank 0 never
 * receives them and frees the duplicate each time. Rank 0's heap in use
 * (mallinfo2) must not grow by the 24 MiB that the queued messages would
 * hold if they leaked. Exit 0 only if it did not.
 */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 100
#define MSGS 64
#define BYTES 4000

int main(int argc, char **argv)
{
    static char buf[BYTES];
    int rank, size;
    size_t base = 0, end = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "bug_comm_free_unexpected: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(buf, 7, sizeof(buf));
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        if (rank == 1)
            for (int k = 0; k < MSGS; k++)
                MPI_Send(buf, BYTES, MPI_CHAR, 0, 1, d);
        /* same ring: once rank 0 has the barrier, it has queued them all */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Comm_free(&d);
        if (i == 9)
            base = mallinfo2().uordblks;
    }
    end = mallinfo2().uordblks;
    int fail = 0;
    if (rank == 0) {
        long grow = (long)end - (long)base;
        fail = grow > 4L * 1024 * 1024;
        printf("bug_comm_free_unexpected: heap grew by %ld bytes over %d rounds of %d KB: %s\n",
               grow, ROUNDS - 10, MSGS * BYTES / 1000, fail ? "FAILED (leak)" : "ok");
    }
    MPI_Finalize();
    return fail;
}
