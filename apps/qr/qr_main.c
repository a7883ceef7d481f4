/*
 * qr_main.c - the QR demo (qr.h, docs/dense.md "QR"): least squares
 * min ||b - A x||_2 for an m x n matrix (m >= n) by blocked Householder QR
 * on a P x Q grid, surviving killed ranks with --ft ckpt or --ft abft
 * (a checksum process column, qr_abft.c: -np P*Q + P + M).
 *
 *   ftmpirun --comm-mode=rebuild -np 5 --kill-at panel=3@1 qr --n 512 --nb 32 \
 *            --grid 2x2 --ft ckpt --ckpt-interval 4
 *
 * Exit statuses: 0 the checks passed, 1 one failed, 2 bad options, 3 more
 * failures than checksum ranks, 4 other fatal errors, 5 bad input.
 */
#include "qr.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void openblas_set_num_threads(int);

/* --m: the rows of the random matrix (0 until given: n) */
static int qr_opt(void *ctx, const char *opt, const char *val)
{
    int64_t *m = ctx;
    double v;
    if (strcmp(opt, "--m"))
        return -1;
    if (!val || app_opt_num(val, 1, 2147483647.0, &v))
        return -2;
    *m = (int64_t)v;
    return 1;
}

/* the input of grid position (myrow, gq->mycol) into t (zeroed) */
static int qr_input(void *app, dense_ctx_t *d, dense_mat_t *t, const dense_grid_t *gq)
{
    qr_app_t *a = app;
    const dense_opts_t *o = d->o;
    if (o->matrix)
        return dense_mat_read_mtx(t, gq, o->matrix, 0, d->err, sizeof d->err) ? FTITER_ERR_APP
                                                                             : MPI_SUCCESS;
    dense_rand_ctx_t c = {o->seed, QR_STREAM_A};
    dense_mat_fill(t, gq, a->m, 0, o->n, dense_rand_fn, &c);
    return MPI_SUCCESS;
}

/* the P x Q data grid's maps with my communicators: with --ft abft a rank
   of the checksum column (grid column Q) has the shape of column 0 */
static dense_grid_t qr_grid(const dense_ctx_t *d, int shape)
{
    dense_grid_t g = d->grid;
    g.Q = d->o->Q;
    if (shape && g.mycol >= g.Q)
        g.mycol = 0;
    return g;
}

static int qr_setup(void *app, dense_ctx_t *d)
{
    qr_app_t *a = app;
    const dense_opts_t *o = d->o;
    dense_grid_t g0 = qr_grid(d, 1);
    const dense_grid_t *g = &g0;
    if (dense_mat_alloc(&a->A, g, a->m, o->n, o->nb) || qr_work_init(&a->wk, g, &a->A))
        goto nomem;
    if (o->ft == DENSE_FT_ABFT && qr_abft_setup(a, d))
        goto nomem;
    a->tau = calloc((size_t)o->n + 1, sizeof(double));
    a->b = malloc(sizeof(double) * ((size_t)a->A.lr + 1));
    a->x = calloc((size_t)o->n + 1, sizeof(double));
    if (!a->tau || !a->b || !a->x)
        goto nomem;
    /* b is input, not state: every rank (a replacement too) makes its rows */
    for (int64_t i = 0; i < a->A.lr; i++)
        a->b[i] = dense_rand_entry(o->seed, QR_STREAM_B, dense_l2g(i, o->nb, g->myrow, g->P), 0);
    if (dense_register(d, a->A.a, dense_mat_bytes(&a->A)) ||
        dense_register(d, a->tau, sizeof(double) * (size_t)o->n)) {
        snprintf(d->err, sizeof d->err, "cannot register the state");
        return FTITER_ERR_APP;
    }
    return MPI_SUCCESS;
nomem:
    snprintf(d->err, sizeof d->err, "out of memory for the %lld x %lld matrix",
             (long long)a->m, (long long)o->n);
    return FTITER_ERR_APP;
}

static int qr_init(void *app, dense_ctx_t *d)
{
    qr_app_t *a = app;
    memset(a->tau, 0, sizeof(double) * (size_t)d->o->n);
    a->state = 0;
    /* a data rank its part, an abft checksum rank the sum of its row's */
    return dense_abft_input(d, &a->A, qr_input, a);
}

/* MPI_ERR_NO_MEM from qr_house/qr_solve is not a process failure to recover
   from: the run stops with a message */
static int no_mem_stops(dense_ctx_t *d, int rc, const char *where)
{
    if (rc != MPI_ERR_NO_MEM)
        return rc;
    snprintf(d->err, sizeof d->err, "out of memory in %s", where);
    return FTITER_ERR_APP;
}

static int qr_panel(void *app, dense_ctx_t *d, int64_t k)
{
    qr_app_t *a = app;
    dense_grid_t g = qr_grid(d, 0);
    if (a->bk)
        qr_abft_begin(a, d, k);
    int rc = no_mem_stops(d, qr_factor_panel(&g, &a->A, (int)k, a->tau, &a->wk), "panel");
    if (rc == MPI_SUCCESS && a->bk)
        qr_abft_end(a, d, k);
    /* the panel's columns and those left of it are final (R and V): later
       checkpoints skip them */
    if (rc == MPI_SUCCESS && dense_freeze_cols(d, &a->A, (k + 1) * a->A.nb) != FTITER_SUCCESS)
        rc = FTITER_ERR_APP;
    return rc;
}

/* x from the factorization, then the checks against a fresh copy of A */
static int qr_finish(void *app, dense_ctx_t *d)
{
    qr_app_t *a = app;
    const dense_opts_t *o = d->o;
    const dense_grid_t *g = &d->dgrid;
    if (g->comm == MPI_COMM_NULL)
        return MPI_SUCCESS; /* an abft checksum rank: not part of the solve */
    int rc = qr_solve_ls(g, &a->A, a->tau, a->b, a->x, &a->wk);
    if (rc != MPI_SUCCESS)
        return no_mem_stops(d, rc, "the least-squares solve");
    dense_mat_t A0;
    if (dense_mat_alloc(&A0, g, a->m, o->n, o->nb)) {
        snprintf(d->err, sizeof d->err, "out of memory for the check's copy of A");
        return FTITER_ERR_APP;
    }
    rc = qr_input(a, d, &A0, g);
    int orth = (double)a->m * (double)o->n <= QR_ORTH_MAX_ENTRIES;
    if (rc == MPI_SUCCESS)
        rc = qr_checks(g, &a->A, a->tau, &A0, a->b, a->x, orth, &a->wk, &a->checks);
    dense_mat_free(&A0);
    if (rc != MPI_SUCCESS)
        return no_mem_stops(d, rc, "the checks");
    const qr_checks_t *c = &a->checks;
    double lim = d->check_limit;
    d->check = c->factor;
    d->nextra = 2;
    d->extra[0] = (struct dense_extra_check){"orthogonality", "||Q^TQ-I||_F / (max(m,n) eps)", c->orth};
    snprintf(a->ls_text, sizeof a->ls_text,
             "||A^T r||_2 / (||A||_F ||b||_2 max(m,n) eps), r = b-Ax, ||r||_2 = %.6e", c->ls_resid);
    d->extra[1] = (struct dense_extra_check){"least_squares", a->ls_text, c->ls_ratio};
    d->check_passed = isfinite(c->factor) && c->factor < lim && isfinite(c->ls_ratio) &&
                      c->ls_ratio < lim && (c->orth < 0.0 || c->orth < lim);
    d->checksum = app_fnv1a(APP_FNV1A_INIT, a->x, sizeof(double) * (size_t)o->n);
    return MPI_SUCCESS;
}

const dense_ops_t qr_ops = {
    .setup = qr_setup,
    .init = qr_init,
    .panel = qr_panel,
    .finish = qr_finish,
    .abft_recover = qr_abft_recover,
};

int main(int argc, char **argv)
{
    openblas_set_num_threads(1);
    dense_opts_t o;
    int64_t m = 0;
    /* every process parses the same arguments (a replacement too): no
       communication before the skeleton starts */
    int prc = dense_opts_parse(&o, "qr", argc, argv, qr_opt, &m);
    int init_rc = MPI_Init(&argc, &argv);
    /* A, its checkpoint copies, the checks' copies of A and of Q R */
    dense_info_t info = {"  --m M               rows of the random matrix, M >= n (default n)\n",
                         48.0, qr_abft_extra_ranks, 1};
    dense_ctx_t d;
    int st = dense_start(&d, &o, prc, init_rc, &info);
    if (st >= 0)
        return st;
    if (m && (m < o.n || o.matrix)) { /* every rank decides the same */
        if (d.world_rank == 0)
            fprintf(stderr, "qr: --m %lld: %s\n", (long long)m,
                    o.matrix ? "the rows come from --matrix (square), --m is for the random matrix"
                             : "least squares needs at least as many rows as columns (n)");
        MPI_Finalize();
        return DENSE_EXIT_USAGE;
    }
    qr_app_t a;
    memset(&a, 0, sizeof(a));
    a.m = m ? m : o.n;
    d.rows = m;
    d.npanels = (o.n + o.nb - 1) / o.nb;
    double dm = (double)a.m, dn = (double)o.n;
    d.flops = 2.0 * dm * dn * dn - 2.0 / 3.0 * dn * dn * dn;
    d.check_name = "scaled_residual";
    d.check_text = "||A-QR||_F / (||A||_F max(m,n) eps)";
    d.check_limit = QR_CHECK_THRESHOLD;
    dense_run(&d, &qr_ops, &a);
    dense_mat_free(&a.A);
    qr_work_free(&a.wk);
    free(a.tau);
    free(a.b);
    free(a.x);
    qr_abft_free(&a);
    return dense_end(&d);
}
