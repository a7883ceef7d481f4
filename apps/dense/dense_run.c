/*
 * dense_run.c - the driver (dense.h): one panel = one iteration of the
 * iterative skeleton with --ft ckpt (in-memory checkpoints every K panels,
 * recovery, resume from the last checkpointed panel), or the same callbacks
 * in a plain loop with --ft none. The grid's communicators are rebuilt from
 * the skeleton's data communicator after every recovery.
 *
 * --ft abft: the skeleton still runs the loop and the FT-MPI recovery, but
 * its checkpoint (every panel, onto --checksums M ranks) holds only 8 bytes:
 * the number of panels done. The matrices are not checkpointed: the grid has
 * extra checksum ranks (the app's), and after a recovery the app's
 * abft_recover rebuilds the replacements' blocks from the checksums and
 * brings every rank to the checkpointed panel count (a survivor that had
 * already applied the next panel undoes it).
 */
#include "dense.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct run_ctx {
    dense_ctx_t *d;
    const dense_ops_t *ops;
    void *app;
    double check_s; /* time in the app's finish (the checks), this rank */
} run_ctx_t;

int dense_register(dense_ctx_t *d, void *ptr, size_t bytes)
{
    if (d->o->ft == DENSE_FT_ABFT)
        return FTITER_SUCCESS; /* protected by the app's checksums */
    if (d->sk == NULL) {
        d->plain.ckpt_bytes += bytes;
        return FTITER_SUCCESS;
    }
    return ftiter_register(d->sk, ptr, bytes);
}

int dense_freeze_cols(dense_ctx_t *d, const dense_mat_t *A, int64_t j)
{
    if (d->o->ft != DENSE_FT_CKPT || d->sk == NULL || !d->is_compute)
        return FTITER_SUCCESS;
    int64_t lc = dense_numroc(j < A->N ? j : A->N, A->nb, d->grid.mycol, d->o->Q);
    int64_t lr = dense_numroc(j < A->M ? j : A->M, A->nb, d->grid.myrow, d->o->P);
    size_t col = (size_t)A->ld * sizeof(double);
    return ftiter_freeze_strided(d->sk, (size_t)lc * col, 0, col, (size_t)A->lc,
                                 (size_t)lr * sizeof(double));
}

/* ------------------------------------------------------------------ callbacks */

static int run_setup(void *arg, ftiter_t *sk, MPI_Comm data)
{
    run_ctx_t *r = arg;
    (void)data;
    dense_ctx_t *d = r->d;
    d->sk = sk;
    d->abft_done = -1;
    if (d->o->ft == DENSE_FT_ABFT && sk &&
        ftiter_register(sk, &d->abft_mark, sizeof(d->abft_mark)) != FTITER_SUCCESS)
        return FTITER_ERR_APP;
    return r->ops->setup(r->app, d);
}

/* The ABFT data grid's communicators, its own split of the data
 * communicator included (the ckpt grid's belong to d->grid). */
static void data_grid_free(dense_ctx_t *d)
{
    if (!d->dgrid_own)
        return;
    MPI_Comm sub = d->dgrid.comm;
    dense_grid_free(&d->dgrid);
    if (sub != MPI_COMM_NULL)
        MPI_Comm_free(&sub);
    d->dgrid.comm = MPI_COMM_NULL;
    d->dgrid_own = 0;
}

/* the P x Q grid of the data ranks inside the (P + 1) x Q ABFT grid */
static int run_data_grid(dense_ctx_t *d, MPI_Comm data)
{
    dense_grid_t *g = &d->dgrid;
    data_grid_free(d);
    if (d->o->ft != DENSE_FT_ABFT) {
        *g = d->grid; /* the same communicators, freed with d->grid */
        d->dgrid_own = 0;
        return MPI_SUCCESS;
    }
    MPI_Comm sub;
    int in = d->grid.myrow < d->o->P && d->grid.mycol < d->o->Q;
    int rc = MPI_Comm_split(data, in ? 0 : MPI_UNDEFINED, d->grid.rank, &sub);
    d->dgrid_own = in;
    if (rc != MPI_SUCCESS || !in) {
        g->comm = g->row = g->col = MPI_COMM_NULL;
        d->dgrid_own = 0;
        return rc;
    }
    g->row = g->col = MPI_COMM_NULL;
    return dense_grid_build(g, sub, d->o->P, d->o->Q);
}

void dense_grid_place(const dense_ctx_t *d, int r, int *myrow, int *mycol)
{
    int P = d->o->P, Q = d->o->Q;
    if (r < P * Q || d->o->ft != DENSE_FT_ABFT) {
        *myrow = r / Q;
        *mycol = r % Q;
    } else if (d->abft_column) {
        *myrow = r - P * Q;
        *mycol = Q;
    } else {
        *myrow = P;
        *mycol = r - P * Q;
    }
}

static int run_rebuilt(void *arg, MPI_Comm data)
{
    run_ctx_t *r = arg;
    dense_ctx_t *d = r->d;
    int abft = d->o->ft == DENSE_FT_ABFT, rank, row, col;
    int rc = MPI_Comm_rank(data, &rank);
    dense_grid_place(d, rank, &row, &col);
    if (rc == MPI_SUCCESS)
        rc = dense_grid_build_at(&d->grid, data, d->o->P + (abft && !d->abft_column),
                                 d->o->Q + (abft && d->abft_column), row, col);
    if (rc == MPI_SUCCESS)
        rc = run_data_grid(d, data);
    if (rc == MPI_SUCCESS && d->o->ft == DENSE_FT_ABFT) {
        long long done = d->abft_done, any;
        if ((rc = MPI_Allreduce(&done, &any, 1, MPI_LONG_LONG, MPI_MAX, data)) != MPI_SUCCESS)
            return rc;
        if (any >= 0) { /* a recovery (not the fresh start, where init follows) */
            rc = r->ops->abft_recover(r->app, d, d->abft_mark, d->abft_done);
            if (rc != MPI_SUCCESS)
                return rc;
            d->abft_done = d->abft_mark;
        }
    }
    if (rc == MPI_SUCCESS && r->ops->rebuilt)
        rc = r->ops->rebuilt(r->app, d);
    return rc;
}

static int run_init(void *arg, MPI_Comm data)
{
    run_ctx_t *r = arg;
    (void)data;
    int rc = r->ops->init(r->app, r->d);
    r->d->abft_done = r->d->abft_mark = 0;
    return rc;
}

static int run_iterate(void *arg, MPI_Comm data, int64_t iter)
{
    run_ctx_t *r = arg;
    (void)data;
    FTMPI_Fault_point("panel", (long)iter);
    int rc = r->ops->panel(r->app, r->d, iter);
    if (rc == MPI_SUCCESS)
        r->d->abft_done = r->d->abft_mark = iter + 1;
    long us = r->d->o->delay_us;
    if (rc == MPI_SUCCESS && us > 0) {
        struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    return rc;
}

static int run_converged(void *arg, MPI_Comm data, int64_t iter, int *done)
{
    run_ctx_t *r = arg;
    (void)data;
    *done = iter >= r->d->npanels;
    return MPI_SUCCESS;
}

/* the app's checks, then the verdict to every computing rank and the
   slowest rank's times to grid rank 0 */
static int run_finish(void *arg, MPI_Comm data, int64_t iter, int converged)
{
    run_ctx_t *r = arg;
    dense_ctx_t *d = r->d;
    (void)iter;
    (void)converged;
    double t0 = ftiter_now();
    int rc = r->ops->finish(r->app, d);
    if (rc != MPI_SUCCESS)
        return rc;
    r->check_s = ftiter_now() - t0;
    double v[2] = {d->check, (double)d->check_passed};
    if ((rc = MPI_Bcast(v, 2, MPI_DOUBLE, 0, data)) != MPI_SUCCESS)
        return rc;
    d->check = v[0];
    d->check_passed = (int)v[1];
    const ftiter_stats_t *st = d->sk ? ftiter_stats(d->sk) : &d->plain;
    double t[5] = {st->ckpt_s, st->iterate_s, (double)st->iterations_run, r->check_s,
                   st->prefault_s},
           tm[5];
    if ((rc = MPI_Allreduce(t, tm, 5, MPI_DOUBLE, MPI_MAX, data)) != MPI_SUCCESS)
        return rc;
    d->max_prefault_s = tm[4];
    d->max_ckpt_s = tm[0];
    d->max_panel_s = tm[1];
    d->max_panels_run = (int64_t)tm[2];
    d->check_s = tm[3];
    return MPI_SUCCESS;
}

static const ftiter_ops_t run_ops = {
    .setup = run_setup,
    .init = run_init,
    .iterate = run_iterate,
    .converged = run_converged,
    .comm_rebuilt = run_rebuilt,
    .finish = run_finish,
};

/* ------------------------------------------------------------------ --ft none */

/* The same callbacks without the skeleton: a failure ends the run. */
static int run_plain(run_ctx_t *r)
{
    dense_ctx_t *d = r->d;
    ftiter_stats_t *st = &d->plain;
    double t0 = ftiter_now();
    int rc;
    if ((rc = r->ops->setup(r->app, d)) != MPI_SUCCESS)
        return rc;
    if ((rc = run_rebuilt(r, MPI_COMM_WORLD)) != MPI_SUCCESS ||
        (rc = run_init(r, MPI_COMM_WORLD)) != MPI_SUCCESS)
        return rc;
    for (int64_t k = 0; k < d->npanels; k++) {
        double t1 = ftiter_now();
        if ((rc = run_iterate(r, MPI_COMM_WORLD, k)) != MPI_SUCCESS)
            return rc;
        st->iterate_s += ftiter_now() - t1;
        st->iterations_run++;
        st->iterations = k + 1;
    }
    st->converged = 1;
    rc = run_finish(r, MPI_COMM_WORLD, st->iterations, 1);
    st->solve_s = ftiter_now() - t0;
    return rc;
}

int dense_run(dense_ctx_t *d, const dense_ops_t *ops, void *app)
{
    const dense_opts_t *o = d->o;
    run_ctx_t r = {d, ops, app, 0.0};
    int rc;
    if (o->ft == DENSE_FT_NONE) {
        rc = run_plain(&r);
        if (rc != MPI_SUCCESS) {
            if (d->err[0])
                fprintf(stderr, "%s: rank %d: %s\n", o->prog, d->world_rank, d->err);
            fprintf(stderr, "%s: rank %d cannot continue (--ft none: no recovery): %s\n",
                    o->prog, d->world_rank, rc > 0 ? "an MPI call failed" : ftiter_strerror(rc));
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, DENSE_EXIT_ERROR);
        }
    } else {
        ftiter_params_t par = {.ckpt_interval = o->ckpt_interval, .max_iter = d->npanels,
                               .ckpt = {o->code, o->m, 0, 0, o->ckpt_overlap}, .verbose = o->verbose};
        if (o->ft == DENSE_FT_ABFT) /* the panel count only, every panel */
            par.ckpt_interval = 1;
        else /* the state at panel 0 is the input: init rebuilds it */
            par.skip_initial = 1;
        ftiter_t *sk = NULL;
        rc = ftiter_create(&par, &run_ops, &r, d->init_rc, &sk);
        d->sk = sk;
        if (rc == FTITER_SUCCESS)
            rc = ftiter_run(sk);
        if (rc == FTITER_ERR_APP && o->ft == DENSE_FT_ABFT && !d->is_compute) {
            /* the data ranks know why (abft_recover) and end the job */
            MPI_Finalize();
            exit(DENSE_EXIT_UNRECOVERABLE);
        }
        if (rc != FTITER_SUCCESS && d->abft_lost) {
            /* more ranks of one process column lost than ABFT can rebuild */
            fprintf(stderr, "%s: rank %d: %s\n", o->prog, d->world_rank, d->err);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, DENSE_EXIT_UNRECOVERABLE);
        }
        if (rc != FTITER_SUCCESS)
            exit(app_ftiter_fail(o->prog, d->world_rank, rc, d->err));
    }
    if (d->world_rank == 0)
        dense_report(stdout, d);
    return 0;
}

int dense_end(dense_ctx_t *d)
{
    int status = d->is_compute && !d->check_passed ? DENSE_EXIT_CHECK : DENSE_EXIT_OK;
    if (d->world_rank == 0 && !d->check_passed) {
        if (!(d->check < d->check_limit) || d->nextra == 0)
            fprintf(stderr, "%s: the check FAILED: %s = %.3e, not below %g\n", d->o->prog,
                    d->check_name, d->check, d->check_limit);
        for (int i = 0; i < d->nextra; i++)
            if (!(d->extra[i].value < d->check_limit))
                fprintf(stderr, "%s: the check FAILED: %s = %.3e, not below %g\n", d->o->prog,
                        d->extra[i].name, d->extra[i].value, d->check_limit);
        fflush(stderr);
    }
    if (d->sk)
        ftiter_free(&d->sk);
    data_grid_free(d);
    dense_grid_free(&d->grid);
    MPI_Finalize();
    return status;
}
