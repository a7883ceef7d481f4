/*
 * lu_panel.c - one step of the right-looking blocked LU (lu.h), as in
 * ScaLAPACK's pdgetrf. Panel k covers columns [j, j + jb), j = k NB:
 *
 *  1. the process column that owns them factors the panel column by column
 *     (as pdgetf2): pivot search with MPI_Allreduce(MAXLOC) over the process
 *     column (ties: the lowest row), the pivot row and row j+c exchanged by
 *     an MPI_Allreduce(SUM) of the two rows (each row has one owner, the
 *     other ranks add zeros: exact), scaling, rank-1 update of the panel;
 *  2. the panel (L) and its pivots are broadcast along each process row;
 *  3. every rank swaps the rows of its columns right of the panel (and B)
 *     with its process column peers (MPI_Sendrecv);
 *  4. the process row that owns rows [j, j + jb) solves U12 = L11^-1 A12
 *     (dtrsm) and broadcasts U12 down each process column;
 *  5. A22 -= L21 U12 (dgemm) on every rank.
 * Everything sums in an order fixed by the layout, so a rolled-back panel
 * gives the same bits.
 */
#include "lu.h"

#include <cblas.h>
#include <limits.h>
#include <string.h>

#define LU_TAG_SWAP 7201

typedef struct dbl_int {
    double v;
    int i;
} dbl_int_t;

/* 1. the panel on its process column: columns lcj .. lcj + jb - 1 of my part */
static int panel_factor(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, rc, P = d->o->P;
    double *buf = a->rowbuf, *sum = a->rowbuf + 2 * nb;
    for (int c = 0; c < jb; c++) {
        int64_t gc = j + c, col = lcj + c;
        int64_t l0 = dense_numroc(gc, nb, g->myrow, P); /* my first row >= gc */
        dbl_int_t loc = {-1.0, INT_MAX}, piv;
        for (int64_t li = l0; li < A->lr; li++) {
            double v = DENSE_AT(A, li, col);
            v = v < 0 ? -v : v;
            if (v > loc.v) {
                loc.v = v;
                loc.i = (int)dense_l2g(li, nb, g->myrow, P);
            }
        }
        if ((rc = MPI_Allreduce(&loc, &piv, 1, MPI_DOUBLE_INT, MPI_MAXLOC, g->col)) != MPI_SUCCESS)
            return rc;
        int64_t gp = piv.i;
        a->ipiv[gc] = (double)gp;
        /* rows gc and gp, panel columns: buf[0, jb) row gc, buf[jb, 2 jb) row gp */
        memset(buf, 0, sizeof(double) * 2 * (size_t)jb);
        int own_c = dense_g2p(gc, nb, P) == g->myrow, own_p = dense_g2p(gp, nb, P) == g->myrow;
        int64_t lc_ = dense_g2l(gc, nb, P), lp = dense_g2l(gp, nb, P);
        for (int t = 0; t < jb; t++) {
            if (own_c)
                buf[t] = DENSE_AT(A, lc_, lcj + t);
            if (own_p)
                buf[jb + t] = DENSE_AT(A, lp, lcj + t);
        }
        if ((rc = MPI_Allreduce(buf, sum, 2 * jb, MPI_DOUBLE, MPI_SUM, g->col)) != MPI_SUCCESS)
            return rc;
        const double *prow = sum + jb; /* the pivot row: row gc after the swap */
        for (int t = 0; t < jb; t++) {
            if (own_p)
                DENSE_AT(A, lp, lcj + t) = sum[t];
            if (own_c)
                DENSE_AT(A, lc_, lcj + t) = prow[t];
        }
        double p = prow[c];
        int64_t l1 = dense_numroc(gc + 1, nb, g->myrow, P); /* my first row > gc */
        if (p != 0.0) {
            double r = 1.0 / p;
            for (int64_t li = l1; li < A->lr; li++)
                DENSE_AT(A, li, col) *= r;
        }
        for (int t = c + 1; t < jb; t++) {
            double u = prow[t];
            double *dst = &DENSE_AT(A, 0, lcj + t), *src = &DENSE_AT(A, 0, col);
            for (int64_t li = l1; li < A->lr; li++)
                dst[li] -= src[li] * u;
        }
    }
    return MPI_SUCCESS;
}

/* 3. swap rows gc <-> ipiv[gc] of my columns [c0, lc) */
static int panel_swaps(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t c0)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, rc, P = d->o->P;
    int64_t nc = A->lc - c0;
    if (nc <= 0)
        return MPI_SUCCESS;
    double *snd = a->U, *rcv = a->U + nc; /* U is free until step 4 */
    for (int c = 0; c < jb; c++) {
        int64_t gc = j + c, gp = (int64_t)a->ipiv[gc];
        if (gp == gc)
            continue;
        int r1 = dense_g2p(gc, nb, P), r2 = dense_g2p(gp, nb, P);
        int64_t l1 = dense_g2l(gc, nb, P), l2 = dense_g2l(gp, nb, P);
        if (r1 == g->myrow && r2 == g->myrow) {
            for (int64_t t = c0; t < A->lc; t++) {
                double v = DENSE_AT(A, l1, t);
                DENSE_AT(A, l1, t) = DENSE_AT(A, l2, t);
                DENSE_AT(A, l2, t) = v;
            }
        } else if (r1 == g->myrow || r2 == g->myrow) {
            int64_t mine = r1 == g->myrow ? l1 : l2;
            int peer = r1 == g->myrow ? r2 : r1;
            for (int64_t t = c0; t < A->lc; t++)
                snd[t - c0] = DENSE_AT(A, mine, t);
            if ((rc = MPI_Sendrecv(snd, (int)nc, MPI_DOUBLE, peer, LU_TAG_SWAP, rcv, (int)nc,
                                   MPI_DOUBLE, peer, LU_TAG_SWAP, g->col, MPI_STATUS_IGNORE)) !=
                MPI_SUCCESS)
                return rc;
            for (int64_t t = c0; t < A->lc; t++)
                DENSE_AT(A, mine, t) = rcv[t - c0];
        }
    }
    return MPI_SUCCESS;
}

int lu_panel(void *app, dense_ctx_t *d, int64_t k)
{
    lu_app_t *a = app;
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, rc, P = d->o->P, Q = d->o->Q;
    int64_t j = k * nb;
    int jb = (int)(a->n - j < nb ? a->n - j : nb);
    int pcol = dense_g2p(j, nb, Q), prow = dense_g2p(j, nb, P);
    int64_t lri = dense_numroc(j, nb, g->myrow, P); /* my first row >= j */
    int64_t nrow = A->lr - lri;
    /* my first column right of it (an abft checksum rank: all its columns) */
    int64_t c0 = g->mycol < Q ? dense_numroc(j + jb, nb, g->mycol, Q) : 0;
    int64_t nc = A->lc - c0;
    if (a->bk && (rc = lu_abft_backup(a, d, k)) != MPI_SUCCESS)
        return rc;
    /* 1-2. factor the panel, broadcast it with its pivots along the rows */
    size_t lsz = (size_t)nrow * (size_t)jb;
    if (g->mycol == pcol) {
        int64_t lcj = dense_g2l(j, nb, Q);
        if ((rc = panel_factor(a, d, j, jb, lcj)) != MPI_SUCCESS)
            return rc;
        for (int t = 0; t < jb; t++)
            memcpy(a->L + (size_t)t * (size_t)nrow, &DENSE_AT(A, lri, lcj + t),
                   sizeof(double) * (size_t)nrow);
        memcpy(a->L + lsz, a->ipiv + j, sizeof(double) * (size_t)jb);
    }
    if ((rc = MPI_Bcast(a->L, (int)(lsz + (size_t)jb), MPI_DOUBLE, pcol, g->row)) != MPI_SUCCESS)
        return rc;
    memcpy(a->ipiv + j, a->L + lsz, sizeof(double) * (size_t)jb);
    /* 3. row swaps right of the panel */
    if ((rc = panel_swaps(a, d, j, jb, c0)) != MPI_SUCCESS)
        return rc;
    if (nc <= 0) {
        a->state = k + 1;
        dense_freeze_cols(d, A, j + jb);
        return MPI_SUCCESS; /* nothing right of the panel here (the bcast below pairs
                               with no one: every rank of my column has nc = 0) */
    }
    /* 4. U12 = L11^-1 A12 on the process row of j, broadcast down the columns */
    if (g->myrow == prow) {
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, (int)nc,
                    1.0, a->L, (int)(nrow > 0 ? nrow : 1), &DENSE_AT(A, lri, c0), (int)A->ld);
        for (int64_t t = 0; t < nc; t++)
            memcpy(a->U + (size_t)t * (size_t)jb, &DENSE_AT(A, lri, c0 + t),
                   sizeof(double) * (size_t)jb);
    }
    if ((rc = MPI_Bcast(a->U, (int)((size_t)jb * (size_t)nc), MPI_DOUBLE, prow, g->col)) !=
        MPI_SUCCESS)
        return rc;
    /* 5. A22 -= L21 U12 */
    int64_t lr2 = dense_numroc(j + jb, nb, g->myrow, P), m2 = A->lr - lr2;
    if (m2 > 0)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m2, (int)nc, jb, -1.0,
                    a->L + (lr2 - lri), (int)nrow, a->U, jb, 1.0, &DENSE_AT(A, lr2, c0),
                    (int)A->ld);
    a->state = k + 1;
    /* the columns up to the panel's last are final: later checkpoints skip them */
    return dense_freeze_cols(d, A, j + jb) == FTITER_SUCCESS ? MPI_SUCCESS : FTITER_ERR_APP;
}
