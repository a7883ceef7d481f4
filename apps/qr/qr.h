/*
 * qr.h - the QR demo (docs/dense.md, "QR"): least squares min ||b - A x||
 * by blocked Householder QR on a P x Q block-cyclic grid, surviving killed
 * ranks with --ft ckpt or --ft abft. Built on the dense layer
 * (apps/dense/dense.h).
 *
 *   qr_house.c   the factorization: panel, T factor, compact WY update, Q apply
 *   qr_solve.c   least squares: Q^T b, block back substitution
 *   qr_check.c   the checks: ||A - QR||, ||Q^T Q - I||, the LS residual
 *   qr_abft.c    --ft abft: checksum process column, copies of V, recovery
 *   qr_main.c    options, the dense layer's callbacks, main
 */
#ifndef QR_H
#define QR_H

#include "qr_solve.h"

/* Streams of the seeded random input (dense_rand_entry). */
enum { QR_STREAM_A = 0, QR_STREAM_B = 2 };

/* The orthogonality check applies Q and Q^T to an m x n matrix (twice the
   factorization's work): done when m * n is at most this. */
#define QR_ORTH_MAX_ENTRIES 4000000.0

typedef struct qr_app {
    int64_t m;          /* rows (--m, default n); columns: n */
    dense_mat_t A;      /* state: A, overwritten by R and the reflectors */
    double *tau;        /* state: the min(m, n) reflector scalars */
    qr_work_t wk;
    double *b;          /* my local rows of b (the same on every process column) */
    double *x;          /* the solution, n values, on every computing rank */
    qr_checks_t checks; /* set by finish on every computing rank */
    char ls_text[128];  /* the least-squares check's text, with ||b - A x|| */
    /* --ft abft (qr_abft.c) */
    double *bk;         /* panel k's block column (its owner), copied at its start */
    int64_t bk_panel;   /* the panel bk was taken for (-1: none) */
    int64_t state;      /* panels done in A (-1: in the middle of a panel) */
    double *vs;         /* a checksum rank: its process row's rows of every V */
    size_t *voff;       /* panel k's V in vs at voff[k] (npanels + 1 offsets) */
} qr_app_t;

/* --ft abft (qr_abft.c): the checksum column's ranks; setup (0, -1 out of
   memory); around panel k (the copy at its start; a checksum rank keeps V
   at its end); the recovery (dense_ops_t.abft_recover) */
int qr_abft_extra_ranks(const dense_opts_t *o);
int qr_abft_setup(qr_app_t *a, dense_ctx_t *d);
void qr_abft_free(qr_app_t *a);
void qr_abft_begin(qr_app_t *a, dense_ctx_t *d, int64_t k);
void qr_abft_end(qr_app_t *a, dense_ctx_t *d, int64_t k);
int qr_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done);

/* The dense layer's callbacks (qr_main.c). */
extern const dense_ops_t qr_ops;

#endif /* QR_H */
