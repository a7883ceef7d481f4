/*
 * qr_house.h - distributed blocked Householder QR on a 2-D block-cyclic
 * matrix, as ScaLAPACK's pdgeqrf does it (docs/qr.md, "Algorithm"):
 *
 *   for each panel of NB columns (process column pc owns it):
 *     panel factorization, recursive (as dgeqrf inside the panel): the
 *       left half, its reflectors applied to the right half in compact WY
 *       form (one MPI_Allreduce of [V1^T V1 | V1^T A2] over the process
 *       column), then the right half; below 16 columns column by column
 *       (pdgeqr2): the norm of the column below the diagonal by one
 *       MPI_Allgather over the process column, the reflector applied to the
 *       rest of the block with one MPI_Allreduce of the row w = v^T A_blk;
 *     T factor (dlarft): G = V^T V (one MPI_Allreduce over the process
 *       column), T(0:i, i) = -tau_i T(0:i, 0:i) G(0:i, i);
 *     V and T broadcast along the process rows;
 *     trailing update in compact WY form (dlarfb): W = V^T C (local dgemm,
 *       MPI_Allreduce over the process column), W = T^T W, C -= V W.
 *
 * The local blocks (dense_mat_t) are column major with leading dimension ld; OpenBLAS
 * does the local work. Every reduction has a fixed order for a given grid,
 * so the factorization is deterministic: the same grid gives the same bits.
 */
#ifndef QR_HOUSE_H
#define QR_HOUSE_H

#include "dense.h"

/* Work space for one panel: V (my rows from the panel's first row, NB
   columns), T (NB x NB), the panel's taus, and the W of the update. */
typedef struct qr_work {
    double *buf;       /* T, tau, V: what the row broadcast carries */
    double *w;         /* NB x (local columns) */
    double *gram;      /* NB x NB: V^T V; in the panel, the column norms (2P) */
    size_t nbuf, nw, ngram; /* their capacities, in doubles */
} qr_work_t;

int qr_work_init(qr_work_t *wk, const dense_grid_t *g, const dense_mat_t *A);
void qr_work_free(qr_work_t *wk);

/* Panels of the factorization: ceil(min(m, n) / nb). */
int qr_npanels(const dense_mat_t *A);

/* Panel k of the factorization: factor it, form T, broadcast, update the
   trailing matrix. tau[0 .. min(m,n)) is replicated on every rank; the
   panel's entries are set here. Collective over the grid. MPI error code.
   With --ft abft, g is the data grid's P x Q with the row communicators of
   the P x (Q + 1) grid: a rank of grid column Q (a checksum rank) receives
   V and T and updates all its columns; its V is then in qr_house_v(wk). */
int qr_factor_panel(const dense_grid_t *g, dense_mat_t *A, int k, double *tau, qr_work_t *wk);

/* The panel column's rows of V of panel k (mv x jb, mv = A->lr minus my
   rows above the panel: the unit lower triangle on the diagonal block,
   zeros above it) from the factored A, on the rank of process column k % Q;
   and where V lies in wk after qr_factor_panel (every rank of the row). */
void qr_panel_v(const dense_grid_t *g, const dense_mat_t *A, int k, double *V);
double *qr_house_v(const qr_work_t *wk, const dense_mat_t *A, int k);

/* C = Q C (trans 0) or C = Q^T C (trans 1), with Q = H_0 H_1 ... from the
   factored A and tau; C has A's row distribution (m rows, its own column
   count C->N, same nb and grid). Collective. MPI error code. */
int qr_apply_q(const dense_grid_t *g, const dense_mat_t *A, const double *tau, int trans,
               dense_mat_t *C, qr_work_t *wk);

#endif /* QR_HOUSE_H */
