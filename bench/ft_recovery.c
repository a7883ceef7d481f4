/*
 * One failure, measured: the last rank writes the CLOCK_MONOTONIC time into
 * the file named by FT_BENCH_FILE and kills itself with SIGKILL while every
 * other rank waits in MPI_Recv from it. Each survivor prints
 *   detect_us <t(its receive returned) - t(kill)>
 *   recover_us <duration of its recovering MPI_Comm_dup>
 * and a REBUILD replacement prints
 *   replace_us <t(its MPI_Init returned) - t(kill)>.
 * bench/ft_recovery.sh runs it repeatedly and reports medians.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static double kill_time(const char *path)
{
    double t = 0;
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%lf", &t) != 1)
            t = 0;
        fclose(f);
    }
    return t;
}

int main(int argc, char **argv)
{
    const char *path = getenv("FT_BENCH_FILE");
    if (!path) {
        fprintf(stderr, "ft_recovery: set FT_BENCH_FILE\n");
        return 2;
    }
    int rc = MPI_Init(&argc, &argv);
    double t_init = now_us();
    int rank, size, x;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rc == MPI_INIT_RESTARTED_NODE) {
        printf("replace_us %.1f\n", t_init - kill_time(path));
        MPI_Finalize();
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int victim = size - 1;
    if (rank == victim) {
        FILE *f = fopen(path, "w");
        fprintf(f, "%.3f\n", now_us());
        fclose(f);
        raise(SIGKILL);
    }
    rc = MPI_Recv(&x, 1, MPI_INT, victim, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double t_detect = now_us();
    double t0 = now_us();
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    double t1 = now_us();
    printf("detect_us %.1f\nrecover_us %.1f\n", t_detect - kill_time(path), t1 - t0);
    if (rc != MPI_ERR_OTHER)
        printf("error: receive from the dead rank returned %d\n", rc);
    MPI_Comm_free(&nc);
    MPI_Finalize();
    return 0;
}
