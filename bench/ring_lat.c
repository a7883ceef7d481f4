/*
 * ring_lat: time per hop of a token passed around all ranks, waiting for
 * the token in two ways:
 *   ring_recv    a blocking MPI_Recv;
 *   ring_iprobe  MPI_Iprobe in a loop until the token is there, then
 *                MPI_Recv (how HPL and task-based codes wait).
 * With more ranks than cores this measures the waiting policy: a rank that
 * keeps its core while it waits delays the rank that has the token
 * (docs/progress.md). A plain MPI program: bench/compare.sh runs it under
 * ftmpi, Open MPI and MPICH side by side.
 *
 *   mpirun -np 4 ./ring_lat [--quick] [--laps N] [--reps R]
 *
 * Output (rank 0): "ring_recv <np> <usec per hop>", "ring_iprobe <np>
 * <usec per hop>": the median of R timed runs of N laps each. The token is
 * checked at every hop; exit status 1 if it is ever wrong.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RL_TAG 11
#define RL_MAX_REPS 51

static int rank, size, bad;

static void wait_token(int prev, int iprobe, long *token)
{
    if (iprobe) {
        int flag = 0;
        while (!flag)
            MPI_Iprobe(prev, RL_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    }
    MPI_Recv(token, 1, MPI_LONG, prev, RL_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* laps around the ring; returns seconds */
static double run(int laps, int iprobe)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    long token = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            token = (long)lap * size;
            MPI_Send(&token, 1, MPI_LONG, next, RL_TAG, MPI_COMM_WORLD);
            wait_token(prev, iprobe, &token);
            if (token != (long)lap * size + size - 1)
                bad = 1;
        } else {
            wait_token(prev, iprobe, &token);
            if (token != (long)lap * size + rank - 1)
                bad = 1;
            token++;
            MPI_Send(&token, 1, MPI_LONG, next, RL_TAG, MPI_COMM_WORLD);
        }
    }
    double t = MPI_Wtime() - t0;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int laps = 2000, reps = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            laps = 200, reps = 3;
        } else if (!strcmp(argv[i], "--laps") && i + 1 < argc) {
            laps = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--quick] [--laps N] [--reps R]\n", argv[0]);
            MPI_Finalize();
            return 2;
        }
    }
    if (size < 2 || laps < 1 || reps < 1 || reps > RL_MAX_REPS) {
        if (rank == 0)
            fprintf(stderr, "ring_lat: needs 2 or more ranks, laps >= 1, 1 <= reps <= %d\n",
                    RL_MAX_REPS);
        MPI_Finalize();
        return 2;
    }
    if (rank == 0)
        printf("# unit ring_recv usec lower\n# unit ring_iprobe usec lower\n");
    for (int mode = 0; mode < 2; mode++) {
        double t[RL_MAX_REPS];
        run(laps / 10 + 1, mode); /* warm-up */
        for (int r = 0; r < reps; r++)
            t[r] = run(laps, mode);
        qsort(t, (size_t)reps, sizeof(double), cmp);
        if (rank == 0)
            printf("%s %d %.3f\n", mode ? "ring_iprobe" : "ring_recv", size,
                   t[reps / 2] / ((double)laps * size) * 1e6);
    }
    int all_bad = 0;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (all_bad && rank == 0)
        fprintf(stderr, "ring_lat: a token arrived with a wrong value\n");
    MPI_Finalize();
    return all_bad ? 1 : 0;
}
