/*
 * lu_pfact.c - the panel factorization of the LU demo (lu.h): the jb columns
 * of one panel, on the process column that owns them, as LAPACK's recursive
 * dgetrf2 split over the process column:
 *
 *   factor(c0, w):  w <= LU_PFACT_BASE: column by column (below);
 *                   else factor(c0, w1) for the left half, then
 *                   U12 = L11^-1 A12 (dtrsm, on the process row of the
 *                   diagonal block, broadcast down the process column),
 *                   A22 -= L21 U12 (dgemm on every rank's rows below),
 *                   factor(c0 + w1, w - w1).
 *
 * Column c: one MPI_Allreduce over the process column with a user-defined
 * operation finds the pivot and swaps the rows in the same message (as
 * HPL's combined pivot search and row broadcast): every rank contributes its
 * largest |entry| in column c with its global row and that whole panel row,
 * and the owner of row j + c that row; the result has the largest entry
 * (ties: the lowest row) with its row, and row j + c, exactly copied (no
 * arithmetic, so the bits are those of a 1 x 1 grid). The two rows are then
 * exchanged across the whole panel (LAPACK's order: full rows, so the
 * delayed updates of the right half see the swapped rows), the column below
 * the pivot scaled by its reciprocal, and the columns right of c up to the
 * end of the current block get the rank-1 update. With one process row no
 * MPI call is made. Every rank computes its rows with the same loops and
 * BLAS calls on the same values: the factors do not depend on the grid.
 */
#include "lu.h"

#include <cblas.h>
#include <string.h>

#define LU_PFACT_BASE 16

/* the reduction buffer: [|pivot|, its row, the pivot row (jb), has row c,
   row c (jb)] */
enum { PV_ABS = 0, PV_ROW = 1, PV_PROW = 2 };

static int pv_jb; /* the panel width of the buffers being reduced */

static void pv_pick(const double *in, double *io, int jb)
{
    if (in[PV_ABS] > io[PV_ABS] || (in[PV_ABS] == io[PV_ABS] && in[PV_ROW] < io[PV_ROW])) {
        io[PV_ABS] = in[PV_ABS];
        io[PV_ROW] = in[PV_ROW];
        memcpy(io + PV_PROW, in + PV_PROW, sizeof(double) * (size_t)jb);
    }
    if (in[PV_PROW + jb] != 0.0)
        memcpy(io + PV_PROW + jb, in + PV_PROW + jb, sizeof(double) * (size_t)(jb + 1));
}

/* the operation on *len buffers of type pv_type (one buffer is one element:
   a reduction cannot cut it into segments) */
static void pv_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    size_t w = 2 * (size_t)pv_jb + 3;
    for (int i = 0; i < *len; i++)
        pv_pick((const double *)in + (size_t)i * w, (double *)inout + (size_t)i * w, pv_jb);
}

static MPI_Op pv_mpi_op = MPI_OP_NULL;
static MPI_Datatype pv_type = MPI_DATATYPE_NULL;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: free the
   operation and the datatype there */
static int pv_release(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm;
    (void)key;
    (void)val;
    (void)extra;
    if (pv_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&pv_type);
    if (pv_mpi_op != MPI_OP_NULL)
        MPI_Op_free(&pv_mpi_op);
    return MPI_SUCCESS;
}

/* the operation, and the datatype of one buffer for panels of width jb */
static int pv_prepare(int jb)
{
    int rc, key;
    if (pv_mpi_op == MPI_OP_NULL) {
        if ((rc = MPI_Op_create(pv_op, 1, &pv_mpi_op)) != MPI_SUCCESS ||
            (rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, pv_release, &key, NULL)) !=
                MPI_SUCCESS ||
            (rc = MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL)) != MPI_SUCCESS)
            return rc;
        MPI_Comm_free_keyval(&key);
    }
    if (pv_type != MPI_DATATYPE_NULL && pv_jb == jb)
        return MPI_SUCCESS;
    if (pv_type != MPI_DATATYPE_NULL && (rc = MPI_Type_free(&pv_type)) != MPI_SUCCESS)
        return rc;
    if ((rc = MPI_Type_contiguous(2 * jb + 3, MPI_DOUBLE, &pv_type)) != MPI_SUCCESS ||
        (rc = MPI_Type_commit(&pv_type)) != MPI_SUCCESS)
        return rc;
    pv_jb = jb;
    return MPI_SUCCESS;
}

/* the pivot of column c (panel-relative) and the swap of rows j + c and the
   pivot's across the panel's jb columns */
static int pivot_column(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj, int c)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, P = d->o->P, w = 2 * jb + 3, rc;
    int64_t gc = j + c, col = lcj + c;
    double *mine = a->rowbuf, *all = a->rowbuf + w;
    memset(mine, 0, sizeof(double) * (size_t)w);
    mine[PV_ABS] = -1.0;
    mine[PV_ROW] = (double)INT64_MAX;
    int64_t l0 = dense_numroc(gc, nb, g->myrow, P), lbest = -1; /* my first row >= gc */
    for (int64_t li = l0; li < A->lr; li++) {
        double v = DENSE_AT(A, li, col);
        v = v < 0 ? -v : v;
        if (v > mine[PV_ABS]) {
            mine[PV_ABS] = v;
            lbest = li;
        }
    }
    int own_c = dense_g2p(gc, nb, P) == g->myrow;
    int64_t lc_ = dense_g2l(gc, nb, P);
    if (lbest >= 0) {
        mine[PV_ROW] = (double)dense_l2g(lbest, nb, g->myrow, P);
        for (int t = 0; t < jb; t++)
            mine[PV_PROW + t] = DENSE_AT(A, lbest, lcj + t);
    }
    if (own_c) {
        mine[PV_PROW + jb] = 1.0;
        for (int t = 0; t < jb; t++)
            mine[PV_PROW + jb + 1 + t] = DENSE_AT(A, lc_, lcj + t);
    }
    if (P > 1) {
        if ((rc = pv_prepare(jb)) != MPI_SUCCESS ||
            (rc = MPI_Allreduce(mine, all, 1, pv_type, pv_mpi_op, g->col)) != MPI_SUCCESS)
            return rc;
    } else {
        all = mine;
    }
    int64_t gp = (int64_t)all[PV_ROW];
    a->ipiv[gc] = (double)gp;
    const double *prow = all + PV_PROW, *crow = all + PV_PROW + jb + 1;
    if (dense_g2p(gp, nb, P) == g->myrow) {
        int64_t lp = dense_g2l(gp, nb, P);
        for (int t = 0; t < jb; t++)
            DENSE_AT(A, lp, lcj + t) = crow[t];
    }
    if (own_c)
        for (int t = 0; t < jb; t++)
            DENSE_AT(A, lc_, lcj + t) = prow[t];
    /* the pivot row for the rank-1 update (rowbuf's first jb doubles are
       free again: `all` is past them, or the row is copied first) */
    memmove(a->rowbuf + 2 * w, prow, sizeof(double) * (size_t)jb);
    return MPI_SUCCESS;
}

/* columns [c0, c0 + w) of the panel, column by column */
static int factor_base(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj, int c0,
                       int w)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, P = d->o->P, rc;
    const double *prow = a->rowbuf + 2 * (2 * jb + 3);
    for (int c = c0; c < c0 + w; c++) {
        if ((rc = pivot_column(a, d, j, jb, lcj, c)) != MPI_SUCCESS)
            return rc;
        int64_t col = lcj + c, l1 = dense_numroc(j + c + 1, nb, g->myrow, P); /* rows > j+c */
        double p = prow[c];
        if (p != 0.0) {
            double r = 1.0 / p;
            for (int64_t li = l1; li < A->lr; li++)
                DENSE_AT(A, li, col) *= r;
        }
        for (int t = c + 1; t < c0 + w; t++) {
            double u = prow[t];
            double *dst = &DENSE_AT(A, 0, lcj + t), *src = &DENSE_AT(A, 0, col);
            for (int64_t li = l1; li < A->lr; li++)
                dst[li] -= src[li] * u;
        }
    }
    return MPI_SUCCESS;
}

static int factor(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj, int c0, int w)
{
    if (w <= LU_PFACT_BASE)
        return factor_base(a, d, j, jb, lcj, c0, w);
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, P = d->o->P, rc;
    int w1 = w / 2 / 8 * 8 > 0 ? w / 2 / 8 * 8 : w / 2, w2 = w - w1;
    if ((rc = factor(a, d, j, jb, lcj, c0, w1)) != MPI_SUCCESS)
        return rc;
    /* U12 = L11^-1 A12: rows j + c0 .. + w1 are in the diagonal block, on
       the process row of j */
    int drow = dense_g2p(j, nb, P);
    int64_t ld0 = dense_g2l(j, nb, P) + c0;
    const double *u = a->ublk;
    int ldu = w1;
    if (g->myrow == drow) {
        double *a12 = &DENSE_AT(A, ld0, lcj + c0 + w1);
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, w1, w2, 1.0,
                    &DENSE_AT(A, ld0, lcj + c0), (int)A->ld, a12, (int)A->ld);
        if (P > 1)
            for (int t = 0; t < w2; t++)
                memcpy(a->ublk + (size_t)t * (size_t)w1, a12 + (size_t)t * (size_t)A->ld,
                       sizeof(double) * (size_t)w1);
        u = a12;
        ldu = (int)A->ld;
    }
    if (P > 1 && (rc = MPI_Bcast(a->ublk, w1 * w2, MPI_DOUBLE, drow, g->col)) != MPI_SUCCESS)
        return rc;
    /* A22 -= L21 U12 on my rows below row j + c0 + w1 */
    int64_t l1 = dense_numroc(j + c0 + w1, nb, g->myrow, P), m = A->lr - l1;
    if (m > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, w2, w1, -1.0,
                    &DENSE_AT(A, l1, lcj + c0), (int)A->ld, u, ldu, 1.0,
                    &DENSE_AT(A, l1, lcj + c0 + w1), (int)A->ld);
    return factor(a, d, j, jb, lcj, c0 + w1, w2);
}

int lu_panel_factor(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj)
{
    return factor(a, d, j, jb, lcj, 0, jb);
}
