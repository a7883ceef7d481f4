/*
 * scalapack_dense.c - the ScaLAPACK side of bench/dense_bench.sh: times
 * pdgemm (C = A B), pdgetrf (LU with partial pivoting) or pdgeqrf
 * (Householder QR) of a random n x n
 * matrix on a P x Q BLACS grid with NB x NB blocks, as the dense demos do
 * (docs/dense.md, "Benchmarks"). Built by dense_bench.sh with Open MPI's
 * mpicc against Debian's libscalapack-openmpi; not part of the CMake build.
 *
 *   mpirun.openmpi -np 4 scalapack_dense gemm|getrf|geqrf N NB P Q
 *
 * Prints one line: "scalapack OP n=N nb=NB grid=PxQ time_s=T gflops=G"
 * (T: the slowest rank, between barriers).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_get(int ctx, int what, int *val);
void Cblacs_gridinit(int *ctx, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctx, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctx);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ctx, const int *lld, int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, const double *b, const int *ib, const int *jb, const int *descb,
             const double *beta, double *c, const int *ic, const int *jc, const int *descc);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *ipiv, int *info);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, double *tau, double *work, const int *lwork, int *info);
void openblas_set_num_threads(int);

static double entry(uint64_t i, uint64_t j, uint64_t s)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull ^ (j + s * 0x632be59bd9b4e019ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53 - 0.5;
}

static void fill(double *a, int lr, int lc, int nb, int myrow, int mycol, int P, int Q, int s)
{
    for (int lj = 0; lj < lc; lj++) {
        uint64_t gj = (uint64_t)((lj / nb) * Q + mycol) * nb + lj % nb;
        for (int li = 0; li < lr; li++) {
            uint64_t gi = (uint64_t)((li / nb) * P + myrow) * nb + li % nb;
            a[(size_t)lj * lr + li] = entry(gi, gj, (uint64_t)s);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    openblas_set_num_threads(1);
    if (argc != 6 || (strcmp(argv[1], "gemm") && strcmp(argv[1], "getrf") &&
                      strcmp(argv[1], "geqrf"))) {
        fprintf(stderr, "usage: scalapack_dense gemm|getrf|geqrf N NB P Q\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int gemm = !strcmp(argv[1], "gemm"), geqrf = !strcmp(argv[1], "geqrf");
    int n = atoi(argv[2]), nb = atoi(argv[3]), P = atoi(argv[4]), Q = atoi(argv[5]);
    int size, ctx, nprow, npcol, myrow, mycol, zero = 0, one = 1, info;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (n < 1 || nb < 1 || P * Q != size) {
        fprintf(stderr, "scalapack_dense: bad N, NB or grid (P*Q must be -np)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    Cblacs_get(0, 0, &ctx);
    Cblacs_gridinit(&ctx, "Row", P, Q);
    Cblacs_gridinfo(ctx, &nprow, &npcol, &myrow, &mycol);
    int lr = numroc_(&n, &nb, &myrow, &zero, &nprow);
    int lc = numroc_(&n, &nb, &mycol, &zero, &npcol);
    int lld = lr > 1 ? lr : 1, desc[9];
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctx, &lld, &info);
    size_t cnt = (size_t)lld * (size_t)(lc > 0 ? lc : 1);
    double *a = malloc(cnt * sizeof(double)), *b = NULL, *c = NULL;
    int *ipiv = malloc(sizeof(int) * (size_t)(lr + nb));
    fill(a, lr, lc, nb, myrow, mycol, P, Q, 0);
    if (gemm) {
        b = malloc(cnt * sizeof(double));
        c = calloc(cnt, sizeof(double));
        fill(b, lr, lc, nb, myrow, mycol, P, Q, 1);
    }
    double alpha = 1.0, beta = 0.0, *tau = NULL, *work = NULL, wq = 0.0;
    int lwork = -1;
    if (geqrf) { /* workspace query, then the buffers (outside the timing) */
        tau = malloc(sizeof(double) * (size_t)(lc + nb));
        pdgeqrf_(&n, &n, a, &one, &one, desc, tau, &wq, &lwork, &info);
        lwork = (int)wq + 1;
        work = malloc(sizeof(double) * (size_t)lwork);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (gemm)
        pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c,
                &one, &one, desc);
    else if (geqrf)
        pdgeqrf_(&n, &n, a, &one, &one, desc, tau, work, &lwork, &info);
    else
        pdgetrf_(&n, &n, a, &one, &one, desc, ipiv, &info);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    double dn = n, flops = gemm    ? 2.0 * dn * dn * dn
                           : geqrf ? 4.0 / 3.0 * dn * dn * dn
                                   : 2.0 / 3.0 * dn * dn * dn;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("scalapack %s n=%d nb=%d grid=%dx%d time_s=%.4f gflops=%.3f info=%d\n", argv[1], n,
               nb, P, Q, tmax, flops / tmax / 1e9, gemm ? 0 : info);
    free(a);
    free(b);
    free(c);
    free(ipiv);
    free(tau);
    free(work);
    Cblacs_gridexit(ctx);
    MPI_Finalize();
    return 0;
}
