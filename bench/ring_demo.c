/*
 * ring_demo: pass a token around a ring of ranks, then check a sum with
 * MPI_Allreduce. A small, plain MPI-1 program to show that a build of the
 * library compiles and runs ordinary MPI code (.ci/demo.sh runs it on 4 ranks).
 *
 *   mpicc bench/ring_demo.c -o ring_demo
 *   mpirun -np 4 ./ring_demo [laps]
 *
 * Each rank adds (rank + 1) to the token as it passes; after `laps` laps rank 0
 * checks the token against laps * n * (n + 1) / 2. Exit status 0 when every
 * check holds, 1 otherwise.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#define RING_TAG 7

int main(int argc, char **argv)
{
    int rank, size, namelen, laps = 3, ok = 1;
    char host[MPI_MAX_PROCESSOR_NAME];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &namelen);
    if (argc > 1 && (laps = atoi(argv[1])) < 1)
        laps = 1;

    printf("rank %d of %d on %s: hello\n", rank, size, host);
    fflush(stdout);

    if (size > 1) {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        long token = 0;
        MPI_Status st;
        for (int lap = 1; lap <= laps; lap++) {
            if (rank == 0) {
                token += 1;
                MPI_Send(&token, 1, MPI_LONG, next, RING_TAG, MPI_COMM_WORLD);
                MPI_Recv(&token, 1, MPI_LONG, prev, RING_TAG, MPI_COMM_WORLD, &st);
                printf("rank 0: lap %d done, token %ld back from rank %d\n", lap, token, prev);
            } else {
                MPI_Recv(&token, 1, MPI_LONG, prev, RING_TAG, MPI_COMM_WORLD, &st);
                printf("rank %d: lap %d, token %ld from rank %d, passing %ld to rank %d\n",
                       rank, lap, token, prev, token + rank + 1, next);
                token += rank + 1;
                MPI_Send(&token, 1, MPI_LONG, next, RING_TAG, MPI_COMM_WORLD);
            }
            fflush(stdout);
        }
        if (rank == 0) {
            long want = (long)laps * size * (size + 1) / 2;
            ok = token == want;
            printf("ring: %d ranks, %d laps, token %ld, expected %ld: %s\n", size, laps, token,
                   want, ok ? "OK" : "WRONG");
        }
    }

    int sum = 0, want_sum = size * (size - 1) / 2;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != want_sum) {
        printf("rank %d: allreduce sum of ranks %d, expected %d: WRONG\n", rank, sum, want_sum);
        ok = 0;
    } else if (rank == 0) {
        printf("allreduce: sum of ranks %d, expected %d: OK\n", sum, want_sum);
    }
    fflush(stdout);

    /* Every rank learns whether all checks held, so that all exit alike. */
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
