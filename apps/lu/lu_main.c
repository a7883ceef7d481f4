/*
 * lu_main.c - the LU demo (lu.h, docs/dense.md): solve A x = b with
 * NRHS right-hand sides by blocked LU with partial pivoting on a P x Q
 * grid, surviving killed ranks with --ft ckpt.
 *
 *   ftmpirun --comm-mode=rebuild -np 5 --kill-at panel=3@1 lu --n 512 --nb 32 \
 *            --grid 2x2 --ft ckpt --ckpt-interval 4
 *
 * Exit statuses: 0 the check passed, 1 it failed, 2 bad options, 3 more
 * failures than checksum ranks, 4 other fatal errors, 5 bad input.
 */
#include "lu.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

void openblas_set_num_threads(int);

static int lu_opt(void *ctx, const char *opt, const char *val)
{
    dense_opts_t *o = ctx;
    double v;
    if (strcmp(opt, "--nrhs"))
        return -1;
    if (!val || app_opt_num(val, 1, 4096, &v) || v != (double)(int)v)
        return -2;
    o->nrhs = (int)v;
    return 1;
}

static int lu_setup(void *app, dense_ctx_t *d)
{
    lu_app_t *a = app;
    const dense_opts_t *o = d->o;
    int nb = o->nb;
    a->n = o->n;
    a->nA = (o->n + nb - 1) / nb * nb;
    if (dense_mat_alloc(&a->A, &d->grid, a->n, a->nA + o->nrhs, nb))
        goto nomem;
    size_t lr = (size_t)a->A.lr, lc = (size_t)(a->A.lc > 0 ? a->A.lc : 1);
    a->ipiv = calloc((size_t)a->n, sizeof(double));
    a->L = malloc(sizeof(double) * (lr * (size_t)nb + (size_t)nb) + 8);
    a->U = malloc(sizeof(double) * ((size_t)nb + 2) * lc + 8);
    a->rowbuf = malloc(sizeof(double) * 4 * (size_t)nb + 8);
    a->x = malloc(sizeof(double) * (size_t)a->n * (size_t)o->nrhs + 8);
    a->xl = malloc(sizeof(double) * lc * (size_t)o->nrhs + 8);
    if (!a->ipiv || !a->L || !a->U || !a->rowbuf || !a->x || !a->xl)
        goto nomem;
    if (dense_register(d, a->A.a, dense_mat_bytes(&a->A)) ||
        dense_register(d, a->ipiv, sizeof(double) * (size_t)a->n)) {
        snprintf(d->err, sizeof d->err, "cannot register the state");
        return FTITER_ERR_APP;
    }
    return MPI_SUCCESS;
nomem:
    snprintf(d->err, sizeof d->err, "out of memory for the %lld x %lld matrix",
             (long long)a->n, (long long)a->n);
    return FTITER_ERR_APP;
}

static int lu_init(void *app, dense_ctx_t *d)
{
    lu_app_t *a = app;
    const dense_opts_t *o = d->o;
    memset(a->A.a, 0, dense_mat_bytes(&a->A));
    if (o->matrix) {
        if (dense_mat_read_mtx(&a->A, &d->grid, o->matrix, 0, d->err, sizeof d->err))
            return FTITER_ERR_APP;
    } else {
        dense_rand_ctx_t ca = {o->seed, LU_STREAM_A};
        dense_mat_fill(&a->A, &d->grid, a->n, 0, a->n, dense_rand_fn, &ca);
    }
    dense_rand_ctx_t cb = {o->seed, LU_STREAM_B};
    dense_mat_fill(&a->A, &d->grid, a->n, a->nA, o->nrhs, dense_rand_fn, &cb);
    for (int64_t i = 0; i < a->n; i++)
        a->ipiv[i] = (double)i;
    return MPI_SUCCESS;
}

static const dense_ops_t lu_ops = {
    .setup = lu_setup,
    .init = lu_init,
    .panel = lu_panel,
    .finish = lu_finish,
};

int main(int argc, char **argv)
{
    openblas_set_num_threads(1);
    dense_opts_t o;
    /* every process parses the same arguments (a replacement too): no
       communication before the skeleton starts */
    int prc = dense_opts_parse(&o, "lu", argc, argv, lu_opt, &o);
    int init_rc = MPI_Init(&argc, &argv);
    /* [A | B] and its checkpoint copies, the residual check's copy of A */
    dense_info_t info = {"  --nrhs R            right-hand sides (default 1)\n", 40.0, NULL};
    dense_ctx_t d;
    int st = dense_start(&d, &o, prc, init_rc, &info);
    if (st >= 0)
        return st;
    lu_app_t a;
    memset(&a, 0, sizeof(a));
    a.o = &o;
    d.npanels = (o.n + o.nb - 1) / o.nb;
    double n = (double)o.n;
    d.flops = 2.0 / 3.0 * n * n * n + 1.5 * n * n + 2.0 * n * n * (o.nrhs - 1);
    d.check_name = "scaled_residual";
    d.check_text = "||Ax-b||_inf / (||A||_inf ||x||_inf n eps)";
    d.check_limit = 16.0;
    dense_run(&d, &lu_ops, &a);
    dense_mat_free(&a.A);
    free(a.ipiv);
    free(a.L);
    free(a.U);
    free(a.rowbuf);
    free(a.x);
    free(a.xl);
    return dense_end(&d);
}
