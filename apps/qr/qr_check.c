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

#include "dense_grid.h"

/* Sum cnt values over the whole grid (along the row, then the column):
   a fixed order, the same result everywhere. */
static int grid_sum(const qr_dist_t *A, double *v, int cnt)
{
    int rc = MPI_Allreduce(MPI_IN_PLACE, v, cnt, MPI_DOUBLE, MPI_SUM, A->rowc);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(MPI_IN_PLACE, v, cnt, MPI_DOUBLE, MPI_SUM, A->colc);
    return rc;
}

static qr_dist_t like(const qr_dist_t *A)
{
    qr_dist_t C = *A;
    C.a = calloc((size_t)A->lld * A->nloc + 1, sizeof(double));
    return C;
}

/* ||A - Q R||_F^2 and ||A||_F^2, summed over the grid. */
static int factor_error(const qr_dist_t *A, const double *tau, const qr_dist_t *A0,
                        qr_work_t *wk, double *err2, double *norm2)
{
    qr_dist_t C = like(A);
    if (!C.a)
        return MPI_ERR_NO_MEM;
    for (int lj = 0; lj < A->nloc; lj++) {
        int gj = dense_global_of(lj, A->nb, A->mycol, A->Q);
        for (int li = 0; li < A->mloc; li++)
            if (dense_global_of(li, A->nb, A->myrow, A->P) <= gj)
                C.a[(size_t)lj * A->lld + li] = A->a[(size_t)lj * A->lld + li];
    }
    int rc = qr_apply_q(A, tau, 0, &C, wk);
    double s[2] = {0.0, 0.0};
    for (int lj = 0; lj < A->nloc; lj++)
        for (int li = 0; li < A->mloc; li++) {
            double a0 = A0->a[(size_t)lj * A0->lld + li];
            double d = C.a[(size_t)lj * C.lld + li] - a0;
            s[0] += d * d;
            s[1] += a0 * a0;
        }
    if (rc == MPI_SUCCESS)
        rc = grid_sum(A, s, 2);
    *err2 = s[0];
    *norm2 = s[1];
    free(C.a);
    return rc;
}

/* ||Q^T (Q [I; 0]) - [I; 0]||_F^2 */
static int orth_error(const qr_dist_t *A, const double *tau, qr_work_t *wk, double *err2)
{
    qr_dist_t C = like(A);
    if (!C.a)
        return MPI_ERR_NO_MEM;
    for (int lj = 0; lj < A->nloc; lj++) {
        int gj = dense_global_of(lj, A->nb, A->mycol, A->Q);
        for (int li = 0; li < A->mloc; li++)
            if (dense_global_of(li, A->nb, A->myrow, A->P) == gj)
                C.a[(size_t)lj * A->lld + li] = 1.0;
    }
    int rc = qr_apply_q(A, tau, 0, &C, wk);
    if (rc == MPI_SUCCESS)
        rc = qr_apply_q(A, tau, 1, &C, wk);
    double s = 0.0;
    for (int lj = 0; lj < A->nloc; lj++) {
        int gj = dense_global_of(lj, A->nb, A->mycol, A->Q);
        for (int li = 0; li < A->mloc; li++) {
            double e = dense_global_of(li, A->nb, A->myrow, A->P) == gj ? 1.0 : 0.0;
            double d = C.a[(size_t)lj * C.lld + li] - e;
            s += d * d;
        }
    }
    if (rc == MPI_SUCCESS)
        rc = grid_sum(A, &s, 1);
    *err2 = s;
    free(C.a);
    return rc;
}

/* r = b - A0 x (my rows), then A0^T r (my columns): {||r||^2, ||A^T r||^2,
   ||b||^2} over the grid (each row counted by process column 0 only, each
   column by process row 0 only). */
static int ls_residual(const qr_dist_t *A0, const double *b_loc, const double *x, double s[3])
{
    size_t ml = (size_t)A0->mloc, nl = (size_t)A0->nloc;
    double *xl = malloc((nl + 1) * sizeof(double)), *r = malloc((ml + 1) * sizeof(double));
    double *z = malloc((nl + 1) * sizeof(double));
    int rc = MPI_ERR_NO_MEM;
    if (!xl || !r || !z)
        goto out;
    for (size_t lj = 0; lj < nl; lj++)
        xl[lj] = x[dense_global_of((int)lj, A0->nb, A0->mycol, A0->Q)];
    memset(r, 0, (ml + 1) * sizeof(double));
    if (ml > 0 && nl > 0)
        cblas_dgemv(CblasColMajor, CblasNoTrans, (int)ml, (int)nl, 1.0, A0->a, A0->lld, xl, 1,
                    0.0, r, 1);
    rc = MPI_Allreduce(MPI_IN_PLACE, r, (int)ml, MPI_DOUBLE, MPI_SUM, A0->rowc);
    if (rc != MPI_SUCCESS)
        goto out;
    for (size_t i = 0; i < ml; i++)
        r[i] = b_loc[i] - r[i];
    memset(z, 0, (nl + 1) * sizeof(double));
    if (ml > 0 && nl > 0)
        cblas_dgemv(CblasColMajor, CblasTrans, (int)ml, (int)nl, 1.0, A0->a, A0->lld, r, 1, 0.0,
                    z, 1);
    rc = MPI_Allreduce(MPI_IN_PLACE, z, (int)nl, MPI_DOUBLE, MPI_SUM, A0->colc);
    if (rc != MPI_SUCCESS)
        goto out;
    s[0] = s[1] = s[2] = 0.0;
    for (size_t i = 0; A0->mycol == 0 && i < ml; i++) {
        s[0] += r[i] * r[i];
        s[2] += b_loc[i] * b_loc[i];
    }
    for (size_t j = 0; A0->myrow == 0 && j < nl; j++)
        s[1] += z[j] * z[j];
    rc = grid_sum(A0, s, 3);
out:
    free(xl);
    free(r);
    free(z);
    return rc;
}

int qr_checks(const qr_dist_t *A, const double *tau, const qr_dist_t *A0, const double *b_loc,
              const double *x, int orth, qr_work_t *wk, qr_checks_t *out)
{
    double mn = (double)(A->m > A->n ? A->m : A->n), eps = DBL_EPSILON;
    double err2, norm2, ls[3];
    int rc = factor_error(A, tau, A0, wk, &err2, &norm2);
    if (rc != MPI_SUCCESS)
        return rc;
    double anorm = sqrt(norm2);
    out->factor = sqrt(err2) / (anorm * mn * eps);
    out->orth = -1.0;
    if (orth) {
        rc = orth_error(A, tau, wk, &err2);
        if (rc != MPI_SUCCESS)
            return rc;
        out->orth = sqrt(err2) / (mn * eps);
    }
    rc = ls_residual(A0, b_loc, x, ls);
    if (rc != MPI_SUCCESS)
        return rc;
    out->ls_resid = sqrt(ls[0]);
    out->ls_ratio = sqrt(ls[1]) / (anorm * sqrt(ls[2]) * mn * eps);
    return MPI_SUCCESS;
}
