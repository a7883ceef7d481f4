/*
 * rma_bw: one-sided latency, bandwidth and accumulate rate between two
 * ranks (docs/rma.md). Rank 0 is the origin, rank 1 the target, which waits
 * in MPI_Barrier meanwhile (it makes progress there: weak progress). A
 * window from MPI_Win_allocate (--shared: MPI_Win_allocate_shared;
 * --create: MPI_Win_create over malloc'd memory), one passive-target epoch
 * (MPI_Win_lock_all) around everything.
 *   put_lat / get_lat  one MPI_Put / MPI_Get + MPI_Win_flush, microseconds
 *   put_bw             64 MPI_Put then one flush, MB/s
 *   get_bw             64 MPI_Get then one flush, MB/s
 *   acc_rate           256 MPI_Accumulate(MPI_SUM) of `size` bytes of
 *                      doubles then one flush, thousands of operations/s
 *   fop_lat / cas_lat  (8 B only; with --fop / --cas) one
 *                      MPI_Fetch_and_op(MPI_SUM) / one MPI_Compare_and_swap
 *                      of a long long + MPI_Win_flush, microseconds (not by
 *                      default: Open MPI 4.1.4 crashes on a compare-and-swap
 *                      on an MPI_Win_allocate window, docs/rma.md)
 * Each value is the median of 7 timed batches. --quick: fewer sizes.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCHES 7

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v) { qsort(v, BATCHES, sizeof(double), cmp); return v[BATCHES / 2]; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, quick = 0, shared = 0, create = 0, fop = 0, cas = 0;
    for (int i = 1; i < argc; i++) {
        quick |= !strcmp(argv[i], "--quick");
        shared |= !strcmp(argv[i], "--shared");
        create |= !strcmp(argv[i], "--create");
        fop |= !strcmp(argv[i], "--fop");
        cas |= !strcmp(argv[i], "--cas");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t maxsz = quick ? 65536 : 1 << 20;
    char *buf = malloc(maxsz), *base;
    memset(buf, 1, maxsz);
    MPI_Win win;
    char *mem = NULL;
    if (create) {
        mem = malloc(maxsz);
        memset(mem, 0, maxsz);
        MPI_Win_create(mem, (MPI_Aint)maxsz, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else if (shared)
        MPI_Win_allocate_shared(rank == 1 ? (MPI_Aint)maxsz : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                                &base, &win);
    else
        MPI_Win_allocate((MPI_Aint)maxsz, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        printf("# unit put_lat us lower\n# unit get_lat us lower\n");
        printf("# unit put_bw MB/s higher\n# unit get_bw MB/s higher\n");
        printf("# unit acc_rate kops/s higher\n");
        if (fop)
            printf("# unit fop_lat us lower\n");
        if (cas)
            printf("# unit cas_lat us lower\n");
    }
    MPI_Win_lock_all(0, win);
    for (size_t sz = 8; sz <= maxsz; sz *= quick ? 8 : 4) {
        double t[7][BATCHES];
        int reps = sz <= 4096 ? 200 : 20;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            for (int b = 0; b < BATCHES; b++) {
                double t0 = MPI_Wtime();
                for (int r = 0; r < reps; r++) {
                    MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
                    MPI_Win_flush(1, win);
                }
                t[0][b] = (MPI_Wtime() - t0) / reps * 1e6;
                t0 = MPI_Wtime();
                for (int r = 0; r < reps; r++) {
                    MPI_Get(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
                    MPI_Win_flush(1, win);
                }
                t[1][b] = (MPI_Wtime() - t0) / reps * 1e6;
                t0 = MPI_Wtime();
                for (int r = 0; r < 64; r++)
                    MPI_Put(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
                MPI_Win_flush(1, win);
                t[2][b] = 64.0 * sz / (MPI_Wtime() - t0) / 1e6;
                t0 = MPI_Wtime();
                for (int r = 0; r < 64; r++)
                    MPI_Get(buf, (int)sz, MPI_BYTE, 1, 0, (int)sz, MPI_BYTE, win);
                MPI_Win_flush(1, win);
                t[4][b] = 64.0 * sz / (MPI_Wtime() - t0) / 1e6;
                int n = (int)(sz / sizeof(double)), nacc = 256;
                t0 = MPI_Wtime();
                for (int r = 0; r < nacc; r++)
                    MPI_Accumulate(buf, n, MPI_DOUBLE, 1, 0, n, MPI_DOUBLE, MPI_SUM, win);
                MPI_Win_flush(1, win);
                t[3][b] = nacc / (MPI_Wtime() - t0) / 1e3;
                long long one = 1, old, cmpv = 0;
                t0 = MPI_Wtime();
                for (int r = 0; r < reps * fop; r++) {
                    MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, 1, 0, MPI_SUM, win);
                    MPI_Win_flush(1, win);
                }
                t[5][b] = (MPI_Wtime() - t0) / reps * 1e6;
                t0 = MPI_Wtime();
                for (int r = 0; r < reps * cas; r++) {
                    MPI_Compare_and_swap(&one, &cmpv, &old, MPI_LONG_LONG, 1, 0, win);
                    MPI_Win_flush(1, win);
                }
                t[6][b] = (MPI_Wtime() - t0) / reps * 1e6;
            }
            printf("put_lat %zu %.3f\n", sz, median(t[0]));
            printf("get_lat %zu %.3f\n", sz, median(t[1]));
            printf("put_bw %zu %.1f\n", sz, median(t[2]));
            printf("get_bw %zu %.1f\n", sz, median(t[4]));
            printf("acc_rate %zu %.1f\n", sz, median(t[3]));
            if (sz == 8 && fop)
                printf("fop_lat %zu %.3f\n", sz, median(t[5]));
            if (sz == 8 && cas)
                printf("cas_lat %zu %.3f\n", sz, median(t[6]));
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(mem);
    free(buf);
    MPI_Finalize();
    return 0;
}
