/*
 * qr.h - the QR demo (docs/dense.md, "QR"): least squares min ||b - A x||
 * by blocked Householder QR on a P x Q block-cyclic grid, surviving killed
 * ranks with --ft ckpt. Built on the dense layer (apps/dense/dense.h).
 *
 *   qr_house.c   the factorization: panel, T factor, compact WY update, Q apply
 *   qr_solve.c   least squares: Q^T b, block back substitution
 *   qr_check.c   the checks: ||A - QR||, ||Q^T Q - I||, the LS residual
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
} qr_app_t;

/* The dense layer's callbacks (qr_main.c). */
extern const dense_ops_t qr_ops;

#endif /* QR_H */
