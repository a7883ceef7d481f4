/*
 * qr_solve.h - least squares from a distributed QR factorization
 * (qr_house.h), and the checks every run prints (docs/qr.md, "Checks").
 */
#ifndef QR_SOLVE_H
#define QR_SOLVE_H

#include "qr_house.h"

/* Minimizes ||b - A x||_2 for m >= n: c = Q^T b, then R x = c(0:n) by
   block back substitution. b_loc: my local rows of b (mloc values, the same
   on every process column); x: n values, the result on every rank.
   Collective. MPI error code (MPI_ERR_NO_MEM for memory). */
int qr_solve_ls(const dense_grid_t *g, const dense_mat_t *A, const double *tau, const double *b_loc, double *x,
                qr_work_t *wk);

typedef struct qr_checks {
    double factor;      /* ||A - Q R||_F / (||A||_F max(m,n) eps) */
    double orth;        /* ||Q^T Q - I||_F / (max(m,n) eps); < 0: not computed */
    double ls_resid;    /* ||b - A x||_2 */
    double ls_ratio;    /* ||A^T (b - A x)||_2 / (||A||_F ||b||_2 max(m,n) eps) */
} qr_checks_t;

/* A check passes below this (the HPL threshold). */
#define QR_CHECK_THRESHOLD 16.0

/* The checks, from the factored A and tau, the original matrix A0 (same
   distribution), b_loc and x as qr_solve_ls. The orthogonality check
   applies Q and Q^T to [I; 0] (twice the factorization's work): done when
   `orth` is non-zero. Collective. MPI error code. */
int qr_checks(const dense_grid_t *g, const dense_mat_t *A, const double *tau,
              const dense_mat_t *A0, const double *b_loc,
              const double *x, int orth, qr_work_t *wk, qr_checks_t *out);

#endif /* QR_SOLVE_H */
