/*
 * ulfm_lat: latency of MPIX_Comm_agree and MPIX_Comm_shrink (docs/ulfm.md,
 * "Measured"). Run under mpirun --with-ft ulfm.
 *   ulfm_lat [--reps R] [--fail]
 * Without --fail: R agreements, then R shrinks (each result freed), on
 * MPI_COMM_WORLD. With --fail: the last rank kills itself (SIGKILL) first;
 * once every survivor knows it, R agreements (after acknowledging the
 * failure) and R shrinks on MPI_COMM_WORLD, which still holds the dead
 * process. Each rank takes the median of its R calls; printed: the largest
 * median over the ranks, in microseconds.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

int main(int argc, char **argv)
{
    int reps = 200, fail = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--fail"))
            fail = 1;
        else {
            fprintf(stderr, "usage: ulfm_lat [--reps R] [--fail]\n");
            return 2;
        }
    }
    if (reps < 1) {
        fprintf(stderr, "ulfm_lat: --reps must be at least 1\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim = size - 1;
    if (fail) {
        if (size < 2) {
            fprintf(stderr, "ulfm_lat: --fail needs 2 ranks or more\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == victim)
            kill(getpid(), SIGKILL);
        int x;
        MPI_Recv(&x, 1, MPI_INT, victim, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int acked;
        MPIX_Comm_ack_failed(MPI_COMM_WORLD, size, &acked);
    }
    double *t = malloc((size_t)reps * sizeof(double)), res[2];
    int flag;
    for (int i = 0; i < 10; i++) { /* warm up */
        flag = 1;
        MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    }
    for (int i = 0; i < reps; i++) {
        flag = 1;
        double t0 = MPI_Wtime();
        int rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
        t[i] = MPI_Wtime() - t0;
        if (rc != MPI_SUCCESS || flag != 1) {
            fprintf(stderr, "ulfm_lat: agree returned %d, flag %d\n", rc, flag);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    res[0] = median(t, reps);
    for (int i = 0; i < reps; i++) {
        MPI_Comm s;
        double t0 = MPI_Wtime();
        int rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
        t[i] = MPI_Wtime() - t0;
        int n = 0;
        if (rc == MPI_SUCCESS)
            MPI_Comm_size(s, &n);
        if (rc != MPI_SUCCESS || n != size - fail) {
            fprintf(stderr, "ulfm_lat: shrink returned %d, size %d\n", rc, n);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        MPI_Comm_free(&s);
    }
    res[1] = median(t, reps);
    /* The largest median, over a communicator of the live ranks. */
    MPI_Comm live;
    MPIX_Comm_shrink(MPI_COMM_WORLD, &live);
    double mx[2];
    MPI_Reduce(res, mx, 2, MPI_DOUBLE, MPI_MAX, 0, live);
    if (rank == 0)
        printf("np %d %s agree_us %.1f shrink_us %.1f\n", size, fail ? "one_failure" : "no_failure",
               mx[0] * 1e6, mx[1] * 1e6);
    MPI_Comm_free(&live);
    free(t);
    MPI_Finalize();
    return 0;
}
