/*
 * lu_panel.c - one step of the right-looking blocked LU (lu.h), as in
 * ScaLAPACK's pdgetrf. Panel k covers columns [j, j + jb), j = k NB:
 *
 *  1. the process column that owns them factors the panel (lu_pfact.c:
 *     recursive, one MPI_Allreduce per column for the pivot and the swap);
 *  2. the panel (L) and its pivots are broadcast along each process row;
 *  3. every rank swaps the rows of its columns right of the panel (and B):
 *     rows it holds both of in blocks of columns, all the panel's swaps per
 *     block (as LAPACK's dlaswp: each column is read once), the others with
 *     its process column peer (MPI_Sendrecv);
 *  4. the process row that owns rows [j, j + jb) solves U12 = L11^-1 A12
 *     (dtrsm) and broadcasts U12 down each process column;
 *  5. A22 -= L21 U12 (dgemm) on every rank.
 *
 * With --ft abft, lu_abft.c copies the panel at its start and the rows its
 * swaps and dtrsm change before step 3; step 5 is undone numerically.
 *
 * Look-ahead (depth 1, as HPL's; a->lookahead, never with --ft abft, whose
 * checksum column and backups assume one panel at a time): in step 5 the
 * process column that owns panel k + 1 first updates that panel's columns,
 * factors it and starts its broadcast (MPI_Ibcast, step 2 of panel k + 1),
 * then updates the rest of its columns, testing the broadcast between blocks
 * of columns so it moves on while the others finish their own update. Panel
 * k + 1 is then in A at the end of panel k (in every checkpoint from panel 1
 * on, so a rollback to panel k finds it factored), and its L in the other
 * buffer of every rank of the row, until a recovery (lu's rebuilt callback).
 * Everything sums in an order fixed by the layout, so a rolled-back panel
 * gives the same bits.
 */
#include "lu.h"

#include <cblas.h>
#include <string.h>

#define LU_TAG_SWAP 7201
#define LU_SWAP_COLS 32   /* columns per block of the local swaps */
#define LU_UPDATE_COLS 512 /* columns per dgemm between tests of the broadcast */

static void swap_local(dense_mat_t *A, int64_t l1, int64_t l2, int64_t c0, int64_t c1)
{
    for (int64_t t = c0; t < c1; t++) {
        double v = DENSE_AT(A, l1, t);
        DENSE_AT(A, l1, t) = DENSE_AT(A, l2, t);
        DENSE_AT(A, l2, t) = v;
    }
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
    if (P == 1) { /* every row is mine: all the swaps per block of columns */
        for (int64_t b = c0; b < A->lc; b += LU_SWAP_COLS) {
            int64_t e = b + LU_SWAP_COLS < A->lc ? b + LU_SWAP_COLS : A->lc;
            for (int c = 0; c < jb; c++) {
                int64_t gc = j + c, gp = (int64_t)a->ipiv[gc];
                if (gp != gc)
                    swap_local(A, gc, gp, b, e);
            }
        }
        return MPI_SUCCESS;
    }
    double *snd = a->U, *rcv = a->U + nc; /* U is free until step 4 */
    for (int c = 0; c < jb; c++) {
        int64_t gc = j + c, gp = (int64_t)a->ipiv[gc];
        if (gp == gc)
            continue;
        int r1 = dense_g2p(gc, nb, P), r2 = dense_g2p(gp, nb, P);
        int64_t l1 = dense_g2l(gc, nb, P), l2 = dense_g2l(gp, nb, P);
        if (r1 == g->myrow && r2 == g->myrow) {
            swap_local(A, l1, l2, c0, A->lc);
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

/* A(rows [r0, lr), columns [c0, c1)) -= L U(:, c0 - u0 ...): one dgemm, or
   with a broadcast pending (*req) blocks of columns, testing it between
   them (each block packs L again: blocks of 512 keep that small) */
static int update(lu_app_t *a, const double *L, int ldl, int jb, int64_t r0, int64_t c0,
                  int64_t c1, int64_t u0, MPI_Request *req)
{
    dense_mat_t *A = &a->A;
    int64_t m = A->lr - r0, step = *req != MPI_REQUEST_NULL ? LU_UPDATE_COLS : c1 - c0;
    int rc, flag;
    for (int64_t b = c0; b < c1; b += step) {
        int64_t e = b + step < c1 ? b + step : c1;
        if (m > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)(e - b), jb,
                        -1.0, L, ldl, a->U + (size_t)(b - u0) * (size_t)jb, jb, 1.0,
                        &DENSE_AT(A, r0, b), (int)A->ld);
        if (*req != MPI_REQUEST_NULL &&
            (rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* 1. panel k factored on its process column (unless it was, ahead) and copied
   with its pivots into Lbuf: my rows from its first on */
static int panel_prepare(lu_app_t *a, dense_ctx_t *d, int64_t k, double *Lbuf, int factor)
{
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, rc;
    int64_t j = k * nb, lcj = dense_g2l(j, nb, d->o->Q);
    int jb = (int)(a->n - j < nb ? a->n - j : nb);
    int64_t lri = dense_numroc(j, nb, g->myrow, d->o->P), nrow = A->lr - lri;
    if (factor && (rc = lu_panel_factor(a, d, j, jb, lcj)) != MPI_SUCCESS)
        return rc;
    for (int t = 0; t < jb; t++)
        memcpy(Lbuf + (size_t)t * (size_t)nrow, &DENSE_AT(A, lri, lcj + t),
               sizeof(double) * (size_t)nrow);
    memcpy(Lbuf + (size_t)nrow * (size_t)jb, a->ipiv + j, sizeof(double) * (size_t)jb);
    return MPI_SUCCESS;
}

int lu_panel(void *app, dense_ctx_t *d, int64_t k)
{
    lu_app_t *a = app;
    const dense_grid_t *g = &d->grid;
    dense_mat_t *A = &a->A;
    int nb = A->nb, rc, P = d->o->P, Q = d->o->Q;
    int la = a->lookahead;
    int ahead = la && k + 1 < d->npanels; /* look-ahead in this panel */
    int64_t j = k * nb;
    int jb = (int)(a->n - j < nb ? a->n - j : nb);
    int pcol = dense_g2p(j, nb, Q), prow = dense_g2p(j, nb, P);
    int64_t lri = dense_numroc(j, nb, g->myrow, P); /* my first row >= j */
    int64_t nrow = A->lr - lri;
    /* my first column right of it (an abft checksum rank: from the first
       one not finished on some data rank of my row) */
    int64_t c0 = dense_abft_first_col(j, jb, nb, g->mycol, Q);
    int64_t nc = A->lc - c0;
    double *L = a->Lb[k & 1];
    if (a->bk && (rc = lu_abft_backup(a, d, k)) != MPI_SUCCESS)
        return rc;
    /* 1-2. the panel (factored ahead in panel k - 1 unless k = 0 or abft),
       broadcast with its pivots along the rows (unless that was done ahead) */
    size_t lsz = (size_t)nrow * (size_t)jb;
    if (a->l_panel != k) {
        if (g->mycol == pcol &&
            (rc = panel_prepare(a, d, k, L, k == 0 || !la)) != MPI_SUCCESS)
            return rc;
        if ((rc = MPI_Bcast(L, (int)(lsz + (size_t)jb), MPI_DOUBLE, pcol, g->row)) !=
            MPI_SUCCESS)
            return rc;
    }
    memcpy(a->ipiv + j, L + lsz, sizeof(double) * (size_t)jb);
    if (a->bk)
        lu_abft_save_rows(a, d, j, jb, c0);
    /* 3. row swaps right of the panel */
    if ((rc = panel_swaps(a, d, j, jb, c0)) != MPI_SUCCESS)
        return rc;
    /* 4. U12 = L11^-1 A12 on the process row of j, broadcast down the columns
       (every rank of my column has the same nc: none or all skip it) */
    if (nc > 0 && g->myrow == prow) {
        cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, (int)nc,
                    1.0, L, (int)(nrow > 0 ? nrow : 1), &DENSE_AT(A, lri, c0), (int)A->ld);
        for (int64_t t = 0; t < nc; t++)
            memcpy(a->U + (size_t)t * (size_t)jb, &DENSE_AT(A, lri, c0 + t),
                   sizeof(double) * (size_t)jb);
    }
    if (nc > 0 && (rc = MPI_Bcast(a->U, (int)((size_t)jb * (size_t)nc), MPI_DOUBLE, prow,
                                  g->col)) != MPI_SUCCESS)
        return rc;
    /* 5. A22 -= L21 U12; with look-ahead panel k + 1's columns first, then
       that panel factored and its broadcast started */
    int64_t lr2 = dense_numroc(j + jb, nb, g->myrow, P);
    const double *L21 = L + (lr2 - lri);
    int ldl = (int)(nrow > 0 ? nrow : 1);
    MPI_Request req = MPI_REQUEST_NULL;
    int64_t cnext = c0; /* my columns from here on are updated below */
    if (ahead) {
        int64_t k1 = k + 1, j1 = k1 * nb;
        int jb1 = (int)(a->n - j1 < nb ? a->n - j1 : nb);
        int pn = dense_g2p(j1, nb, Q);
        int64_t nrow1 = A->lr - dense_numroc(j1, nb, g->myrow, P);
        double *L1 = a->Lb[k1 & 1];
        if (g->mycol == pn) { /* panel k + 1's columns are my first jb1 right of k's */
            if ((rc = update(a, L21, ldl, jb, lr2, c0, c0 + jb1, c0, &req)) != MPI_SUCCESS ||
                (rc = panel_prepare(a, d, k1, L1, 1)) != MPI_SUCCESS)
                return rc;
            cnext = c0 + jb1;
        }
        if ((rc = MPI_Ibcast(L1, (int)((size_t)nrow1 * (size_t)jb1 + (size_t)jb1), MPI_DOUBLE,
                             pn, g->row, &req)) != MPI_SUCCESS)
            return rc;
    }
    if ((rc = update(a, L21, ldl, jb, lr2, cnext, A->lc, c0, &req)) != MPI_SUCCESS ||
        (rc = MPI_Wait(&req, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
        return rc;
    a->l_panel = ahead ? k + 1 : -1;
    a->state = k + 1;
    /* the columns up to the panel's last are final: later checkpoints skip them */
    return dense_freeze_cols(d, A, j + jb) == FTITER_SUCCESS ? MPI_SUCCESS : FTITER_ERR_APP;
}
