/*
 * lu.h - the LU demo (docs/dense.md): A x = b by right-looking blocked LU
 * with partial pivoting on a P x Q block-cyclic grid (as ScaLAPACK's
 * pdgetrf), then the backward solve; checked with the HPL scaled residual.
 *
 *   lu_main.c    main, the app's options, setup/init (the seeded or
 *                Matrix Market matrix, the right-hand sides)
 *   lu_pfact.c   the panel factorization over the process column
 *                (recursive; pivot search and swap by one MPI reduction)
 *   lu_panel.c   one panel: the factored panel broadcast, row swaps,
 *                dtrsm of the row panel, trailing dgemm update, look-ahead
 *   lu_solve.c   the backward solve, the residual check, the checksum of x
 *   lu_abft.c    --ft abft: a checksum process column, the copy at each
 *                panel's start, the rebuild of a lost rank's blocks
 *
 * The right-hand sides are carried as extra columns: the matrix is
 * [A | 0 | B], n x (nA + nrhs), nA = n rounded up to a multiple of NB, so the
 * factorization applies P and L^-1 to B (as HPL does) and leaves U and
 * y = L^-1 P B; the solve is U x = y. L is kept in the strictly lower part
 * of its panels with the row swaps of later panels not applied to it (it is
 * not needed after the factorization).
 */
#ifndef LU_H
#define LU_H

#include "dense.h"

typedef struct lu_app {
    dense_opts_t *o;
    int64_t n, nA;          /* order; first column of B */
    dense_mat_t A;          /* [A | 0 | B], the state */
    double *ipiv;           /* n: global pivot rows (as doubles: exact), the state */
    /* work (not state) */
    double *Lb[2];          /* panel k in Lb[k % 2] (look-ahead: k + 1 in the other),
                               my rows >= its first row: lr x nb, then its pivots */
    int64_t l_panel;        /* the panel already in its Lb (look-ahead), or -1 */
    int lookahead;          /* factor panel k + 1 during panel k (lu_panel.c) */
    double *U;              /* the row panel, nb x my columns */
    double *ublk;           /* a U block inside the panel factorization: nb x nb */
    double *rowbuf;         /* the pivot reduction's buffers and the pivot row */
    double *x;              /* the solution, n x nrhs, on every computing rank */
    double *xl;             /* x by my local column: lc x nrhs */
    /* --ft abft (lu_abft.c) */
    double *bk;             /* panel k's block column (its owner), copied at its start */
    int64_t bk_panel;       /* the panel bk was taken for (-1: none) */
    int64_t state;          /* panels done in A (-1: in the middle of a panel) */
    double *bkr;            /* the rows panel k swaps or solves, my columns right of
                               it, copied before the swaps: nbkr x (lc - bkr_c0) */
    int64_t *bkr_row;       /* their local indices (at most 2 NB) */
    int nbkr;               /* -1: not copied yet in panel bk_panel */
    int64_t bkr_c0;
} lu_app_t;

/* lu_pfact.c: factor the jb columns of the panel at global column j (local
   column lcj), collective over the process column that owns them */
int lu_panel_factor(lu_app_t *a, dense_ctx_t *d, int64_t j, int jb, int64_t lcj);
/* dense_ops_t panel callback: panel k of n / NB */
int lu_panel(void *app, dense_ctx_t *d, int64_t k);
/* dense_ops_t finish callback: solve, check, checksum */
int lu_finish(void *app, dense_ctx_t *d);

/* --ft abft (lu_abft.c): the checksum column's ranks; the copy of the panel
   taken at the start of panel k; the copy of the rows it swaps, before the
   swaps (its pivots in a->ipiv, my columns from c0); the recovery
   (dense_ops_t.abft_recover) */
int lu_abft_extra_ranks(const dense_opts_t *o);
int lu_abft_alloc(lu_app_t *a);
int lu_abft_backup(lu_app_t *a, dense_ctx_t *d, int64_t k);
void lu_abft_save_rows(lu_app_t *a, const dense_ctx_t *d, int64_t j, int jb, int64_t c0);
int lu_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done);

/* the right-hand side b (stream 1 of the seed) and the matrix A (stream 0) */
#define LU_STREAM_A 0
#define LU_STREAM_B 1

#endif /* LU_H */
