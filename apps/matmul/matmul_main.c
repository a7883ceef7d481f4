/*
 * matmul_main.c - the matrix-multiply demo (matmul.h, docs/dense.md):
 * C = A B by SUMMA on a P x Q grid, surviving killed ranks with --ft ckpt
 * (in-memory checkpoints of C) or --ft abft (C rebuilt from a checksum row
 * of the grid, matmul_abft.c: -np P*Q + Q + M).
 *
 *   ftmpirun --comm-mode=rebuild -np 5 --kill-at panel=3@1 matmul --n 512 \
 *            --nb 32 --grid 2x2 --ft ckpt --ckpt-interval 4
 *
 * A is the seeded random matrix (stream 0) or a Matrix Market file; B is
 * random (stream 1). Exit statuses as lu (lu_main.c).
 */
#include "matmul.h"

#include <stdlib.h>
#include <string.h>

void openblas_set_num_threads(int);

/* A and B are input: built here, locally, on every process (a replacement
   too); only C is state */
static int mm_setup(void *app, dense_ctx_t *d)
{
    mm_app_t *a = app;
    const dense_opts_t *o = d->o;
    /* an abft checksum-row rank has the shape of grid row 0 (the longest) */
    int csum = d->grid.myrow >= o->P;
    dense_grid_t g0 = d->grid, *g = &g0;
    g0.P = o->P; /* the distribution is over the P data rows */
    if (csum)
        g0.myrow = 0;
    int nb = o->nb;
    a->n = o->n;
    a->ready = -1;
    if (dense_mat_alloc(&a->A, g, a->n, a->n, nb) || dense_mat_alloc(&a->B, g, a->n, a->n, nb) ||
        dense_mat_alloc(&a->C, g, a->n, a->n, nb))
        goto nomem;
    for (int s = 0; s < 3; s++) {
        a->pa[s] = malloc(sizeof(double) * (size_t)(a->A.lr + 1) * (size_t)nb);
        a->pb[s] = malloc(sizeof(double) * (size_t)(a->B.lc + 1) * (size_t)nb);
        if (!a->pa[s] || !a->pb[s])
            goto nomem;
    }
    if (csum) {
        if (mm_abft_setup(a, d)) {
            if (!d->err[0])
                goto nomem;
            return FTITER_ERR_APP;
        }
    } else if (o->matrix) {
        if (dense_mat_read_mtx(&a->A, g, o->matrix, 0, d->err, sizeof d->err))
            return FTITER_ERR_APP;
    } else {
        dense_rand_ctx_t ca = {o->seed, MM_STREAM_A};
        dense_mat_fill(&a->A, g, a->n, 0, a->n, dense_rand_fn, &ca);
    }
    dense_rand_ctx_t cb = {o->seed, MM_STREAM_B};
    dense_mat_fill(&a->B, g, a->n, 0, a->n, dense_rand_fn, &cb);
    if (dense_register(d, a->C.a, dense_mat_bytes(&a->C))) {
        snprintf(d->err, sizeof d->err, "cannot register the state");
        return FTITER_ERR_APP;
    }
    return MPI_SUCCESS;
nomem:
    snprintf(d->err, sizeof d->err, "out of memory for three %lld x %lld matrices",
             (long long)a->n, (long long)a->n);
    return FTITER_ERR_APP;
}

static int mm_init(void *app, dense_ctx_t *d)
{
    mm_app_t *a = app;
    (void)d;
    memset(a->C.a, 0, dense_mat_bytes(&a->C));
    return MPI_SUCCESS;
}

static const dense_ops_t mm_ops = {
    .setup = mm_setup,
    .init = mm_init,
    .panel = mm_panel,
    .finish = mm_finish,
    .rebuilt = mm_rebuilt,
    .abft_recover = mm_abft_recover,
};

int main(int argc, char **argv)
{
    openblas_set_num_threads(1);
    dense_opts_t o;
    int prc = dense_opts_parse(&o, "matmul", argc, argv, NULL, NULL);
    int init_rc = MPI_Init(&argc, &argv);
    /* A, B, C, the checkpoint copies of C */
    dense_info_t info = {NULL, 48.0, mm_abft_extra_ranks};
    dense_ctx_t d;
    int st = dense_start(&d, &o, prc, init_rc, &info);
    if (st >= 0)
        return st;
    mm_app_t a;
    memset(&a, 0, sizeof(a));
    d.npanels = (o.n + o.nb - 1) / o.nb;
    double n = (double)o.n;
    d.flops = 2.0 * n * n * n;
    d.check_name = "scaled_error";
    d.check_text = "||Cx-A(Bx)||_inf / (||A||_inf ||B||_inf ||x||_inf n eps)";
    d.check_limit = 16.0;
    dense_run(&d, &mm_ops, &a);
    dense_mat_free(&a.A);
    dense_mat_free(&a.B);
    dense_mat_free(&a.C);
    for (int s = 0; s < 3; s++) {
        free(a.pa[s]);
        free(a.pb[s]);
    }
    return dense_end(&d);
}
