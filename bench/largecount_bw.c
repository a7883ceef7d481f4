/*
 * largecount_bw: the time of one transfer through the large-count functions
 * either side of INT_MAX bytes: MPI_Send_c/MPI_Recv_c (rank 0 to 1),
 * MPI_Bcast_c and an in-place MPI_Allreduce_c (MPI_SUM over uint8), for
 * 2^30 bytes (counts that fit an int) and 2^31 + 8 bytes (counts that do
 * not). Prints "<metric> <bytes> <seconds>" (bench/compare.sh), the median
 * over --reps runs (default 3; --quick: 1 run, 2^30 bytes only).
 * Memory: one buffer of the largest size a rank (2.2 GB).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, np, reps = 3, nsizes = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            reps = 1, nsizes = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
    }
    if (np < 2 || reps < 1 || reps > 100) {
        if (me == 0)
            fprintf(stderr, "largecount_bw: needs 2 ranks or more and 1..100 --reps\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const MPI_Count sizes[2] = {(MPI_Count)1 << 30, ((MPI_Count)1 << 31) + 8};
    unsigned char *b = malloc((size_t)sizes[nsizes - 1]);
    if (!b) {
        fprintf(stderr, "largecount_bw: rank %d: no memory for %lld bytes\n", me,
                (long long)sizes[nsizes - 1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(b, 1, (size_t)sizes[nsizes - 1]);
    if (me == 0)
        printf("# unit sendrecv_c s lower\n# unit bcast_c s lower\n# unit allreduce_c s lower\n");
    double t[100];
    const char *names[3] = {"sendrecv_c", "bcast_c", "allreduce_c"};
    for (int s = 0; s < nsizes; s++) {
        MPI_Count n = sizes[s];
        for (int k = 0; k < 3; k++) {
            for (int r = 0; r < reps; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (k == 0 && me == 0)
                    MPI_Send_c(b, n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                else if (k == 0 && me == 1)
                    MPI_Recv_c(b, n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                else if (k == 1)
                    MPI_Bcast_c(b, n, MPI_BYTE, 0, MPI_COMM_WORLD);
                else if (k == 2)
                    MPI_Allreduce_c(MPI_IN_PLACE, b, n, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD);
                MPI_Barrier(MPI_COMM_WORLD);
                t[r] = MPI_Wtime() - t0;
            }
            qsort(t, (size_t)reps, sizeof t[0], cmp);
            if (me == 0) {
                printf("%s %lld %.3f\n", names[k], (long long)n, t[reps / 2]);
                fflush(stdout);
            }
        }
    }
    free(b);
    MPI_Finalize();
    return 0;
}
