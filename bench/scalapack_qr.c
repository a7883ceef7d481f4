/*
 * scalapack_qr.c - the reference for apps/qr's benchmark (docs/qr.md,
 * "Performance"): ScaLAPACK's pdgeqrf on an n x n random matrix, 2-D block
 * cyclic over a P x Q grid (BLACS "Row" order, as apps/qr), block NB.
 * Built and run by bench/qr_bench.sh with Open MPI's mpicc and Debian's
 * libscalapack-openmpi; one BLAS thread per rank (OPENBLAS_NUM_THREADS=1).
 *
 *   mpirun -np 4 scalapack_qr --n 4000 --nb 64 --grid 2x2 [--reps R]
 *
 * Prints one line per repetition: "pdgeqrf n N nb NB grid PxQ time S gflops G"
 * (flops 4/3 n^3, the count apps/qr reports), and checks that R's diagonal
 * is finite and non-zero (exit 1 otherwise).
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void Cblacs_pinfo(int *me, int *np);
extern void Cblacs_get(int ctx, int what, int *val);
extern void Cblacs_gridinit(int *ctx, const char *order, int P, int Q);
extern void Cblacs_gridinfo(int ctx, int *P, int *Q, int *myrow, int *mycol);
extern void Cblacs_gridexit(int ctx);
extern int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc,
                   const int *nprocs);
extern void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
                      const int *irsrc, const int *icsrc, const int *ctx, const int *lld,
                      int *info);
extern void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
                     const int *desc, double *tau, double *work, const int *lwork, int *info);

static double entry(uint64_t i, uint64_t j)
{
    uint64_t x = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = 1000, nb = 64, P = 1, Q = 1, reps = 1, me, np;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--nb"))
            nb = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--grid") && sscanf(argv[i + 1], "%dx%d", &P, &Q) == 2)
            ;
        else {
            fprintf(stderr, "scalapack_qr: bad option %s\n", argv[i]);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    Cblacs_pinfo(&me, &np);
    if (n < 1 || nb < 1 || P < 1 || Q < 1 || P * Q != np || reps < 1) {
        if (me == 0)
            fprintf(stderr, "scalapack_qr: need n, nb >= 1 and a grid PxQ with P*Q = -np\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ctx, myrow, mycol, zero = 0, info;
    Cblacs_get(-1, 0, &ctx);
    Cblacs_gridinit(&ctx, "Row", P, Q);
    Cblacs_gridinfo(ctx, &P, &Q, &myrow, &mycol);
    int lr = numroc_(&n, &nb, &myrow, &zero, &P), lc = numroc_(&n, &nb, &mycol, &zero, &Q);
    int ld = lr > 1 ? lr : 1, desc[9];
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctx, &ld, &info);
    double *a = malloc((size_t)ld * lc * sizeof(double) + 8);
    double *tau = malloc(((size_t)lc + 1) * sizeof(double)), wq;
    int one = 1, lwork = -1, bad = 0;
    pdgeqrf_(&n, &n, a, &one, &one, desc, tau, &wq, &lwork, &info);
    lwork = (int)wq + 1;
    double *work = malloc((size_t)lwork * sizeof(double));
    for (int r = 0; r < reps; r++) {
        for (int j = 0; j < lc; j++) {
            int gj = (j / nb) * Q * nb + mycol * nb + j % nb;
            for (int i = 0; i < lr; i++) {
                int gi = (i / nb) * P * nb + myrow * nb + i % nb;
                a[(size_t)j * ld + i] = entry((uint64_t)gi, (uint64_t)gj);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        pdgeqrf_(&n, &n, a, &one, &one, desc, tau, work, &lwork, &info);
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0;
        for (int j = 0; j < lc; j++) { /* R's diagonal entries held here */
            int gj = (j / nb) * Q * nb + mycol * nb + j % nb;
            for (int i = 0; i < lr; i++)
                if ((i / nb) * P * nb + myrow * nb + i % nb == gj) {
                    double d = a[(size_t)j * ld + i];
                    bad |= !isfinite(d) || d == 0.0;
                }
        }
        if (me == 0)
            printf("pdgeqrf n %d nb %d grid %dx%d time %.4f gflops %.3f info %d\n", n, nb, P, Q,
                   t, 4.0 / 3.0 * n * (double)n * n / t / 1e9, info);
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0 && (bad || info != 0))
        fprintf(stderr, "scalapack_qr: pdgeqrf failed (info %d, bad diagonal %d)\n", info, bad);
    free(a);
    free(tau);
    free(work);
    Cblacs_gridexit(ctx);
    MPI_Finalize();
    return bad || info != 0;
}
