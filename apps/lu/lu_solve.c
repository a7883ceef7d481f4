/*
 * lu_solve.c - after the factorization (lu.h): the backward solve U x = y,
 * the HPL scaled residual ||A x - b||_inf / (||A||_inf ||x||_inf n eps) per
 * right-hand side (the largest is reported; it must be below 16), and the
 * FNV-1a checksum of x (n x nrhs, column-major).
 *
 * Solve, block row K from the last to the first: the ranks of K's process
 * row multiply each of their blocks U_KJ right of the diagonal by x_J
 * (dgemm, one per block); an MPI_Reduce along the process row brings the
 * products, each in its own slot, and y_K to the diagonal block's owner,
 * which subtracts them from y_K in global block order (so x has the same
 * bits on every grid), solves with the diagonal block (dtrsm) and
 * broadcasts x_K to every computing rank.
 */
#include "lu.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int lu_backsolve(lu_app_t *a, dense_ctx_t *d)
{
    const dense_grid_t *g = &d->dgrid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, nrhs = a->o->nrhs, rc = MPI_SUCCESS;
    int64_t n = a->n, nblk = (n + nb - 1) / nb;
    size_t slot = (size_t)nb * (size_t)nrhs, ldx = (size_t)(A->lc > 0 ? A->lc : 1);
    /* slot 0: y_K; slot s: U_{K,K+s} x_{K+s}; then the sum, on the root */
    double *c = malloc(sizeof(double) * slot * (size_t)(2 * nblk + 1));
    if (!c)
        return MPI_ERR_NO_MEM;
    double *sum = c + slot * (size_t)nblk, *t = sum + slot * (size_t)nblk;
    memset(a->xl, 0, sizeof(double) * ldx * (size_t)nrhs);
    for (int64_t K = nblk - 1; K >= 0 && rc == MPI_SUCCESS; K--) {
        int64_t r0 = K * nb, nrem = nblk - K;
        int kb = (int)(n - r0 < nb ? n - r0 : nb);
        size_t ks = (size_t)kb * (size_t)nrhs;
        int prow = dense_g2p(r0, nb, g->P), pcol = dense_g2p(r0, nb, g->Q);
        if (g->myrow == prow) {
            int64_t li = dense_g2l(r0, nb, g->P);
            memset(c, 0, sizeof(double) * ks * (size_t)nrem);
            for (int r = 0; r < nrhs; r++) { /* y's column r: its owner */
                int64_t gcol = a->nA + r;
                if (dense_g2p(gcol, nb, g->Q) == g->mycol)
                    memcpy(c + (size_t)r * (size_t)kb,
                           &DENSE_AT(A, li, dense_g2l(gcol, nb, g->Q)), sizeof(double) * (size_t)kb);
            }
            for (int64_t J = K + 1; J < nblk; J++) {
                if (dense_g2p(J * nb, nb, g->Q) != g->mycol)
                    continue;
                int64_t lj = dense_g2l(J * nb, nb, g->Q);
                int wj = (int)(n - J * nb < nb ? n - J * nb : nb);
                cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, kb, nrhs, wj, 1.0,
                            &DENSE_AT(A, li, lj), (int)A->ld, a->xl + lj, (int)ldx, 0.0,
                            c + ks * (size_t)(J - K), kb);
            }
            /* one owner per slot, zeros elsewhere: the sum is exact */
            rc = MPI_Reduce(c, sum, (int)(ks * (size_t)nrem), MPI_DOUBLE, MPI_SUM, pcol, g->row);
            if (rc == MPI_SUCCESS && g->mycol == pcol) {
                /* y_K minus the blocks in global order: the same bits on every grid */
                memcpy(t, sum, sizeof(double) * ks);
                for (int64_t s = 1; s < nrem; s++)
                    for (size_t e = 0; e < ks; e++)
                        t[e] -= sum[ks * (size_t)s + e];
                cblas_dtrsm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, kb,
                            nrhs, 1.0, &DENSE_AT(A, li, dense_g2l(r0, nb, g->Q)), (int)A->ld, t,
                            kb);
            }
        }
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(t, (int)ks, MPI_DOUBLE, prow * g->Q + pcol, g->comm);
        if (rc != MPI_SUCCESS)
            break;
        for (int r = 0; r < nrhs; r++) {
            memcpy(a->x + (size_t)r * (size_t)n + (size_t)r0, t + (size_t)r * (size_t)kb,
                   sizeof(double) * (size_t)kb);
            if (g->mycol == pcol)
                memcpy(a->xl + (size_t)r * ldx + (size_t)dense_g2l(r0, nb, g->Q),
                       t + (size_t)r * (size_t)kb, sizeof(double) * (size_t)kb);
        }
    }
    free(c);
    return rc;
}

/* ||A x - b||_inf / (||A||_inf ||x||_inf n eps), the largest over the
   right-hand sides, with A and b built again from the input */
static int lu_residual(lu_app_t *a, dense_ctx_t *d, double *resid)
{
    const dense_grid_t *g = &d->dgrid;
    const dense_opts_t *o = a->o;
    int nb = a->A.nb, nrhs = o->nrhs, rc;
    int64_t n = a->n;
    dense_mat_t A0;
    if (dense_mat_alloc(&A0, g, n, n, nb))
        return MPI_ERR_NO_MEM;
    if (o->matrix) {
        if (dense_mat_read_mtx(&A0, g, o->matrix, 0, d->err, sizeof d->err)) {
            dense_mat_free(&A0);
            return FTITER_ERR_APP;
        }
    } else {
        dense_rand_ctx_t rc0 = {o->seed, LU_STREAM_A};
        dense_mat_fill(&A0, g, n, 0, n, dense_rand_fn, &rc0);
    }
    double anorm;
    if ((rc = dense_norm_inf(&A0, g, n, 0, n, &anorm)) != MPI_SUCCESS) {
        dense_mat_free(&A0);
        return rc;
    }
    size_t lr = (size_t)A0.lr, ldx = (size_t)(a->A.lc > 0 ? a->A.lc : 1);
    double *ax = calloc(lr * (size_t)nrhs + 1, sizeof(double));
    double *sum = calloc(lr * (size_t)nrhs + 1, sizeof(double));
    if (!ax || !sum) {
        free(ax);
        free(sum);
        dense_mat_free(&A0);
        return MPI_ERR_NO_MEM;
    }
    /* my columns of A0 are the first lc(n) of A's; xl is indexed the same way */
    if (A0.lr > 0 && A0.lc > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)A0.lr, nrhs, (int)A0.lc, 1.0,
                    A0.a, (int)A0.ld, a->xl, (int)ldx, 0.0, ax, (int)lr);
    dense_mat_free(&A0);
    rc = MPI_Allreduce(ax, sum, (int)(lr * (size_t)nrhs), MPI_DOUBLE, MPI_SUM, g->row);
    double loc[2 * 64], glob[2 * 64], worst = 0.0; /* per rhs: ||r||, and below */
    for (int r0 = 0; rc == MPI_SUCCESS && r0 < nrhs; r0 += 64) {
        int cnt = nrhs - r0 < 64 ? nrhs - r0 : 64;
        for (int r = 0; r < cnt; r++) {
            double mx = 0.0;
            dense_rand_ctx_t bc = {o->seed, LU_STREAM_B};
            for (size_t li = 0; li < lr; li++) {
                int64_t gi = dense_l2g((int64_t)li, nb, g->myrow, g->P);
                double v = fabs(sum[(size_t)(r0 + r) * lr + li] - dense_rand_fn(&bc, gi, r0 + r));
                if (!(v <= mx))
                    mx = v;
            }
            loc[r] = mx;
        }
        rc = MPI_Allreduce(loc, glob, cnt, MPI_DOUBLE, MPI_MAX, g->comm);
        for (int r = 0; rc == MPI_SUCCESS && r < cnt; r++) {
            double xn = 0.0;
            for (int64_t i = 0; i < n; i++) {
                double v = fabs(a->x[(size_t)(r0 + r) * (size_t)n + (size_t)i]);
                if (!(v <= xn))
                    xn = v;
            }
            double q = glob[r] / (anorm * xn * (double)n * DBL_EPSILON);
            if (!(q <= worst))
                worst = q;
        }
    }
    free(ax);
    free(sum);
    *resid = worst;
    return rc;
}

int lu_finish(void *app, dense_ctx_t *d)
{
    lu_app_t *a = app;
    int rc;
    if (d->dgrid.comm == MPI_COMM_NULL)
        return MPI_SUCCESS; /* an abft checksum rank: not part of the solve */
    if ((rc = lu_backsolve(a, d)) != MPI_SUCCESS)
        return rc;
    double resid = NAN;
    if ((rc = lu_residual(a, d, &resid)) != MPI_SUCCESS)
        return rc;
    d->check = resid;
    d->check_passed = isfinite(resid) && resid < d->check_limit;
    d->checksum = app_fnv1a(APP_FNV1A_INIT, a->x, sizeof(double) * (size_t)a->n *
                                                     (size_t)a->o->nrhs);
    return MPI_SUCCESS;
}
