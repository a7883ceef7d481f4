/*
 * matmul.h - the matrix-multiply demo (docs/dense.md): C = A B on a P x Q
 * block-cyclic grid by SUMMA, checked with ||C x - A (B x)||_inf /
 * (||A||_inf ||B||_inf ||x||_inf n eps) for a random x.
 *
 *   matmul_main.c   main, setup (A and B built from the seed on every rank,
 *                   a replacement too: they are input, not state), init
 *   matmul_summa.c  one panel of SUMMA; the check and the checksum of C
 *   matmul_abft.c   --ft abft: the checksum row of the grid, the rebuild of
 *                   a lost rank's C after a recovery
 *
 * State: C (checkpointed with --ft ckpt). Panel k adds A(:, k) B(k, :) for
 * the k-th block column of A and block row of B.
 */
#ifndef MATMUL_H
#define MATMUL_H

#include "dense.h"

typedef struct mm_app {
    int64_t n;
    dense_mat_t A, B, C;     /* C is the state */
    double *pa[3], *pb[3];   /* panel buffers: A(:, k) my rows, B(k, :) my columns */
    int64_t ready;           /* panel whose buffers hold its data (-1: none) */
} mm_app_t;

enum { MM_STREAM_A = 0, MM_STREAM_B = 1, MM_STREAM_X = 3 };

int mm_panel(void *app, dense_ctx_t *d, int64_t k);
int mm_finish(void *app, dense_ctx_t *d);
int mm_rebuilt(void *app, dense_ctx_t *d);
/* --ft abft: A (and B, C) of a checksum-row rank; its ranks per grid */
int mm_abft_setup(mm_app_t *a, dense_ctx_t *d);
int mm_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done);
int mm_abft_extra_ranks(const dense_opts_t *o);

#endif /* MATMUL_H */
