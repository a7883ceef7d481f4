/*
 * qr_check.c - the checks of a QR run (qr_solve.h): the factorization's
 * backward error ||A - QR||, the orthogonality of Q, and the least-squares
 * residual with the normal-equations ratio (LAPACK's dqrt17).
 */
#include "qr_solve.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dense.h"

/* Sum cnt values over the whole grid (along the row, then the column):
   a fixed order, the same result everywhere. */
static int grid_sum(const dense_grid_t *g, double *v, int cnt)
{
    int rc = MPI_Allreduce(MPI_IN_PLACE, v, cnt, MPI_DOUBLE, MPI_SUM, g->row);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(MPI_IN_PLACE, v, cnt, MPI_DOUBLE, MPI_SUM, g->col);
    return rc;
}

/* A new matrix of A's shape: R, the upper triangle of A (upper = 1), or
   [I; 0] (upper = 0). C.a is NULL when out of memory. */
static dense_mat_t like(const dense_grid_t *g, const dense_mat_t *A, int upper)
{
    dense_mat_t C = *A;
    C.a = calloc((size_t)A->ld * A->lc + 1, sizeof(double));
    for (int lj = 0; C.a && lj < A->lc; lj++) {
        int gj = (int)dense_l2g(lj, A->nb, g->mycol, g->Q);
        for (int li = 0; li < A->lr; li++) {
            int gi = (int)dense_l2g(li, A->nb, g->myrow, g->P);
            size_t at = (size_t)lj * A->ld + li;
            if (upper && gi <= gj)
                C.a[at] = A->a[at];
            else if (!upper && gi == gj)
                C.a[at] = 1.0;
        }
    }
    return C;
}

/* ||A - Q R||_F^2 and ||A||_F^2, summed over the grid. */
static int factor_error(const dense_grid_t *g, const dense_mat_t *A, const double *tau,
                        const dense_mat_t *A0,
                        qr_work_t *wk, double *err2, double *norm2)
{
    dense_mat_t C = like(g, A, 1);
    if (!C.a)
        return MPI_ERR_NO_MEM;
    int rc = qr_apply_q(g, A, tau, 0, &C, wk);
    double s[2] = {0.0, 0.0};
    for (int lj = 0; lj < A->lc; lj++)
        for (int li = 0; li < A->lr; li++) {
            double a0 = A0->a[(size_t)lj * A0->ld + li];
            double d = C.a[(size_t)lj * C.ld + li] - a0;
            s[0] += d * d;
            s[1] += a0 * a0;
        }
    if (rc == MPI_SUCCESS)
        rc = grid_sum(g, s, 2);
    *err2 = s[0];
    *norm2 = s[1];
    free(C.a);
    return rc;
}

/* ||Q^T (Q [I; 0]) - [I; 0]||_F^2 */
static int orth_error(const dense_grid_t *g, const dense_mat_t *A, const double *tau, qr_work_t *wk, double *err2)
{
    dense_mat_t C = like(g, A, 0);
    if (!C.a)
        return MPI_ERR_NO_MEM;
    int rc = qr_apply_q(g, A, tau, 0, &C, wk);
    if (rc == MPI_SUCCESS)
        rc = qr_apply_q(g, A, tau, 1, &C, wk);
    double s = 0.0;
    for (int lj = 0; lj < A->lc; lj++) {
        int gj = (int)dense_l2g(lj, A->nb, g->mycol, g->Q);
        for (int li = 0; li < A->lr; li++) {
            double e = (int)dense_l2g(li, A->nb, g->myrow, g->P) == gj ? 1.0 : 0.0;
            double d = C.a[(size_t)lj * C.ld + li] - e;
            s += d * d;
        }
    }
    if (rc == MPI_SUCCESS)
        rc = grid_sum(g, &s, 1);
    *err2 = s;
    free(C.a);
    return rc;
}

/* r = b - A0 x (my rows), then A0^T r (my columns): {||r||^2, ||A^T r||^2,
   ||b||^2} over the grid (each row counted by process column 0 only, each
   column by process row 0 only). */
static int ls_residual(const dense_grid_t *g, const dense_mat_t *A0, const double *b_loc, const double *x, double s[3])
{
    size_t ml = (size_t)A0->lr, nl = (size_t)A0->lc;
    double *xl = malloc((nl + 1) * sizeof(double)), *r = malloc((ml + 1) * sizeof(double));
    double *z = malloc((nl + 1) * sizeof(double));
    int rc = MPI_ERR_NO_MEM;
    if (!xl || !r || !z)
        goto out;
    for (size_t lj = 0; lj < nl; lj++)
        xl[lj] = x[(int)dense_l2g((int)lj, A0->nb, g->mycol, g->Q)];
    memset(r, 0, (ml + 1) * sizeof(double));
    if (ml > 0 && nl > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)ml, (int)nl, 1.0, A0->a, A0->ld, xl, 1,
                    0.0, r, 1);
    rc = MPI_Allreduce(MPI_IN_PLACE, r, (int)ml, MPI_DOUBLE, MPI_SUM, g->row);
    if (rc != MPI_SUCCESS)
        goto out;
    for (size_t i = 0; i < ml; i++)
        r[i] = b_loc[i] - r[i];
    memset(z, 0, (nl + 1) * sizeof(double));
    if (ml > 0 && nl > 0)
        cblas_dgemv(CblasColMajor, CblasTrans, (int)ml, (int)nl, 1.0, A0->a, A0->ld, r, 1, 0.0,
                    z, 1);
    rc = MPI_Allreduce(MPI_IN_PLACE, z, (int)nl, MPI_DOUBLE, MPI_SUM, g->col);
    if (rc != MPI_SUCCESS)
        goto out;
    s[0] = s[1] = s[2] = 0.0;
    for (size_t i = 0; g->mycol == 0 && i < ml; i++) {
        s[0] += r[i] * r[i];
        s[2] += b_loc[i] * b_loc[i];
    }
    for (size_t j = 0; g->myrow == 0 && j < nl; j++)
        s[1] += z[j] * z[j];
    rc = grid_sum(g, s, 3);
out:
    free(xl);
    free(r);
    free(z);
    return rc;
}

int qr_checks(const dense_grid_t *g, const dense_mat_t *A, const double *tau,
              const dense_mat_t *A0, const double *b_loc,
              const double *x, int orth, qr_work_t *wk, qr_checks_t *out)
{
    double mn = (double)(A->M > A->N ? A->M : A->N), eps = DBL_EPSILON;
    double err2, norm2, ls[3];
    int rc = factor_error(g, A, tau, A0, wk, &err2, &norm2);
    if (rc != MPI_SUCCESS)
        return rc;
    double anorm = sqrt(norm2);
    out->factor = sqrt(err2) / (anorm * mn * eps);
    out->orth = -1.0;
    if (orth) {
        rc = orth_error(g, A, tau, wk, &err2);
        if (rc != MPI_SUCCESS)
            return rc;
        out->orth = sqrt(err2) / (mn * eps);
    }
    rc = ls_residual(g, A0, b_loc, x, ls);
    if (rc != MPI_SUCCESS)
        return rc;
    out->ls_resid = sqrt(ls[0]);
    out->ls_ratio = sqrt(ls[1]) / (anorm * sqrt(ls[2]) * mn * eps);
    return MPI_SUCCESS;
}
