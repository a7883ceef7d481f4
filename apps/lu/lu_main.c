/*
 * lu_main.c - the LU demo (lu.h, docs/dense.md): solve A x = b with
 * NRHS right-hand sides by blocked LU with partial pivoting on a P x Q
 * grid, surviving killed ranks with --ft ckpt (in-memory checkpoints) or
 * --ft abft (a checksum process column, lu_abft.c: -np P*Q + P + M).
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
#include <unistd.h>

void openblas_set_num_threads(int);

static int lu_lookahead = -1; /* --lookahead: 1 on, 0 off, -1 auto */

static int lu_opt(void *ctx, const char *opt, const char *val)
{
    dense_opts_t *o = ctx;
    double v;
    if (!strcmp(opt, "--lookahead")) {
        if (val && !strcmp(val, "on"))
            lu_lookahead = 1;
        else if (val && !strcmp(val, "off"))
            lu_lookahead = 0;
        else if (val && !strcmp(val, "auto"))
            lu_lookahead = -1;
        else
            return -2;
        return 1;
    }
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
    a->state = a->bk_panel = a->l_panel = -1;
    /* the distribution is over the P x Q data grid; an abft checksum-column
       rank has the shape of grid column 0 (the widest) */
    dense_grid_t g0 = d->grid;
    g0.P = o->P;
    g0.Q = o->Q;
    if (g0.mycol >= o->Q)
        g0.mycol = 0;
    if (dense_mat_alloc(&a->A, &g0, a->n, a->nA + o->nrhs, nb))
        goto nomem;
    size_t lr = (size_t)a->A.lr, lc = (size_t)(a->A.lc > 0 ? a->A.lc : 1);
    a->ipiv = calloc((size_t)a->n, sizeof(double));
    for (int b = 0; b < 2; b++)
        a->Lb[b] = malloc(sizeof(double) * (lr * (size_t)nb + (size_t)nb) + 8);
    a->U = malloc(sizeof(double) * ((size_t)nb + 2) * lc + 8);
    a->ublk = malloc(sizeof(double) * (size_t)nb * (size_t)nb + 8);
    a->rowbuf = malloc(sizeof(double) * (6 * (size_t)nb + 16));
    a->x = malloc(sizeof(double) * (size_t)a->n * (size_t)o->nrhs + 8);
    a->xl = malloc(sizeof(double) * lc * (size_t)o->nrhs + 8);
    if (!a->ipiv || !a->Lb[0] || !a->Lb[1] || !a->U || !a->ublk || !a->rowbuf || !a->x ||
        !a->xl)
        goto nomem;
    if (o->ft == DENSE_FT_ABFT && lu_abft_alloc(a))
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

/* [A | 0 | B] of grid position (myrow, gq->mycol) into t (zeroed) */
static int lu_input(void *app, dense_ctx_t *d, dense_mat_t *t, const dense_grid_t *gq)
{
    lu_app_t *a = app;
    const dense_opts_t *o = d->o;
    if (o->matrix) {
        if (dense_mat_read_mtx(t, gq, o->matrix, 0, d->err, sizeof d->err))
            return FTITER_ERR_APP;
    } else {
        dense_rand_ctx_t ca = {o->seed, LU_STREAM_A};
        dense_mat_fill(t, gq, a->n, 0, a->n, dense_rand_fn, &ca);
    }
    dense_rand_ctx_t cb = {o->seed, LU_STREAM_B};
    dense_mat_fill(t, gq, a->n, a->nA, o->nrhs, dense_rand_fn, &cb);
    return MPI_SUCCESS;
}

static int lu_init(void *app, dense_ctx_t *d)
{
    lu_app_t *a = app;
    /* a data rank its part, an abft checksum rank the sum of its row's */
    int rc = dense_abft_input(d, &a->A, lu_input, a);
    for (int64_t i = 0; i < a->n; i++)
        a->ipiv[i] = (double)i;
    a->state = 0;
    return rc;
}

/* after every (re)build of the grid: no panel broadcast ahead is pending */
static int lu_rebuilt(void *app, dense_ctx_t *d)
{
    (void)d;
    ((lu_app_t *)app)->l_panel = -1;
    return MPI_SUCCESS;
}

static const dense_ops_t lu_ops = {
    .setup = lu_setup,
    .init = lu_init,
    .panel = lu_panel,
    .finish = lu_finish,
    .rebuilt = lu_rebuilt,
    .abft_recover = lu_abft_recover,
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
    dense_info_t info = {"  --nrhs R            right-hand sides (default 1)\n"
                         "  --lookahead on|off|auto  factor the next panel during the update\n"
                         "                      (auto, the default: on when every computing\n"
                         "                      rank can have a core; never with --ft abft)\n",
                         40.0,
                         lu_abft_extra_ranks, 1};
    dense_ctx_t d;
    int st = dense_start(&d, &o, prc, init_rc, &info);
    if (st >= 0)
        return st;
    lu_app_t a;
    memset(&a, 0, sizeof(a));
    a.o = &o;
    /* oversubscribed, a rank waiting for the panel gives its core to another
       rank anyway, and the panel's reductions then wait for their peers to
       be scheduled: look-ahead only when every computing rank has a core */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a.lookahead = o.ft != DENSE_FT_ABFT &&
                  (lu_lookahead >= 0 ? lu_lookahead : (long)o.P * o.Q <= cores);
    d.npanels = (o.n + o.nb - 1) / o.nb;
    double n = (double)o.n;
    d.flops = 2.0 / 3.0 * n * n * n + 1.5 * n * n + 2.0 * n * n * (o.nrhs - 1);
    d.panel_flops = 2.0 / 3.0 * n * n * n; /* pdgetrf's count */
    d.check_name = "scaled_residual";
    d.check_text = "||Ax-b||_inf / (||A||_inf ||x||_inf n eps)";
    d.check_limit = 16.0;
    dense_run(&d, &lu_ops, &a);
    dense_mat_free(&a.A);
    free(a.ipiv);
    free(a.Lb[0]);
    free(a.Lb[1]);
    free(a.U);
    free(a.ublk);
    free(a.rowbuf);
    free(a.x);
    free(a.xl);
    free(a.bk);
    free(a.bkr);
    free(a.bkr_row);
    return dense_end(&d);
}
