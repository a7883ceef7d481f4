/*
 * sw_run.c - the two ways to run the model.
 *
 * sw_run_plain: the model as such codes are written: every rank computes,
 * a loop of time steps, restart files with --restart-in / --restart-out
 * (and --restart-every K: the model's own periodic checkpoints, fsync'd).
 *
 * sw_run_ft: the same model under the iterative skeleton. Its state is
 * exactly what the restart routines write: the skeleton's save/load
 * callbacks call sw_restart_write / sw_restart_read on fmemopen streams
 * over the skeleton's buffer, which diskless_ckpt encodes onto the
 * checksum ranks. Nothing else of the model changes.
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sw_app {
    const sw_opts_t *o;
    sw_model_t m;
    ftiter_t *sk;
    sw_result_t *r;
    int input_error;    /* --restart-in failed (exit SW_EXIT_INPUT) */
    double file_s;
    int64_t file_writes;
} sw_app_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Collective: the starting state (test case or restart files), the
   reference mass and energy. A restart file that fails on any rank fails
   on every rank (the verdict is agreed). */
static int app_start(sw_app_t *a)
{
    sw_model_t *m = &a->m;
    int rc, bad = 0, any;
    /* the initial state, and the surface (not in the restart record) */
    if ((rc = sw_model_init(m)) != MPI_SUCCESS)
        return rc;
    if (a->o->restart_in)
        bad = sw_restart_read_file(m, a->o->restart_in) != 0;
    if ((rc = MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, m->comm)) != MPI_SUCCESS)
        return rc;
    m->step0 = m->step; /* the skeleton counts the steps of this run */
    if (any) {
        if (bad)
            fprintf(stderr, "pstswm: bad restart file: %s\n", m->err);
        a->input_error = 1;
        return FTITER_ERR_APP;
    }
    if (!a->o->restart_in) { /* a restart record carries the first run's */
        sw_diag_t d;
        if ((rc = sw_diagnose(m, &d, 0, NULL, NULL)) != MPI_SUCCESS)
            return rc;
        m->mass0 = d.mass;
        m->energy0 = d.energy;
    }
    return MPI_SUCCESS;
}

/* Collective, every output interval: diagnostics line and plots. */
static int app_output(sw_app_t *a)
{
    sw_model_t *m = &a->m;
    sw_diag_t d;
    int rc = sw_diagnose(m, &d, 0, NULL, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!d.finite)
        a->r->unstable = 1;
    if (m->g.rank == 0 && !a->o->json)
        sw_report_line(stdout, &d, m->mass0, m->energy0);
    if (a->o->plot_dir && (rc = sw_plot(m, a->o->plot_dir)) != MPI_SUCCESS)
        return rc;
    return MPI_SUCCESS;
}

/* Collective: one step, then whatever falls due at its end. */
static int app_step(sw_app_t *a)
{
    sw_model_t *m = &a->m;
    int rc = sw_model_step(m);
    if (rc != MPI_SUCCESS)
        return rc;
    if (m->out_steps > 0 && m->step % m->out_steps == 0 && m->step < m->nsteps &&
        (rc = app_output(a)) != MPI_SUCCESS)
        return rc;
    if (a->o->restart_every > 0 && m->step % a->o->restart_every == 0 && m->step < m->nsteps) {
        double t0 = now();
        if (sw_restart_write_file(m, a->o->restart_out) != 0) {
            snprintf(m->err, sizeof m->err, "cannot write the restart file %s.r%d",
                     a->o->restart_out, m->g.rank);
            return FTITER_ERR_APP;
        }
        a->file_s += now() - t0;
        a->file_writes++;
    }
    if (a->o->delay_us > 0) {
        struct timespec ts = {a->o->delay_us / 1000000, (a->o->delay_us % 1000000) * 1000};
        nanosleep(&ts, NULL);
    }
    return MPI_SUCCESS;
}

/* Collective, at the end: restart files, plots, diagnostics, checksum. */
static int app_end(sw_app_t *a, double step_s, double ckpt_s, int64_t steps_run)
{
    sw_model_t *m = &a->m;
    sw_result_t *r = a->r;
    int rc;
    if (a->o->restart_out && sw_restart_write_file(m, a->o->restart_out) != 0) {
        snprintf(m->err, sizeof m->err, "cannot write the restart file %s.r%d",
                 a->o->restart_out, m->g.rank);
        return FTITER_ERR_APP;
    }
    if (a->o->plot_dir && (rc = sw_plot(m, a->o->plot_dir)) != MPI_SUCCESS)
        return rc;
    if ((rc = sw_diagnose(m, &r->d, 0, NULL, NULL)) != MPI_SUCCESS)
        return rc;
    if (!r->d.finite)
        r->unstable = 1;
    if (a->o->ref_trunc && r->d.finite &&
        (rc = sw_reference_errors(m, a->o->ref_trunc, &r->d)) != MPI_SUCCESS)
        return rc;
    r->mass_rel = (r->d.mass - m->mass0) / m->mass0;
    r->energy_rel = (r->d.energy - m->energy0) / m->energy0;
    if ((rc = sw_state_checksum(m, &r->checksum)) != MPI_SUCCESS)
        return rc;
    if (a->o->profile && (rc = sw_prof_reduce(&m->prof, steps_run, m->comm, &r->prof)) !=
                             MPI_SUCCESS)
        return rc;
    double t[4] = {step_s, ckpt_s, a->file_s, (double)steps_run}, tm[4];
    if ((rc = MPI_Allreduce(t, tm, 4, MPI_DOUBLE, MPI_MAX, m->comm)) != MPI_SUCCESS)
        return rc;
    r->steps = m->step;
    r->steps_run = (int64_t)tm[3];
    r->step_s = r->steps_run > 0 ? tm[0] / (double)r->steps_run : 0.0;
    r->ckpt_s = tm[1];
    r->file_s = tm[2];
    r->file_writes = a->file_writes;
    r->nlon = m->g.nlon;
    r->nlat = m->g.nlat;
    r->dt = m->dt;
    r->nsteps = m->nsteps;
    r->restart_bytes = sw_restart_size(m);
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ plain */

int sw_run_plain(const sw_opts_t *o, sw_result_t *r)
{
    sw_app_t a;
    memset(&a, 0, sizeof a);
    a.o = o;
    a.r = r;
    int rank, g_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (sw_model_create(&a.m, o, MPI_COMM_WORLD) != 0) {
        if (rank == 0)
            fprintf(stderr, "pstswm: %s\n", a.m.err);
        sw_model_free(&a.m);
        return SW_EXIT_USAGE;
    }
    double t0 = now(), ts = 0;
    int rc = app_start(&a);
    int64_t run = 0;
    while (rc == MPI_SUCCESS && a.m.step < a.m.nsteps && !r->unstable) {
        double t1 = now();
        rc = app_step(&a);
        ts += now() - t1;
        run++;
    }
    if (rc == MPI_SUCCESS)
        rc = app_end(&a, ts, 0.0, run);
    r->run_s = now() - t0;
    int status = SW_EXIT_OK;
    if (rc != MPI_SUCCESS) {
        if (a.m.err[0])
            fprintf(stderr, "pstswm: rank %d: %s\n", rank, a.m.err);
        status = a.input_error ? SW_EXIT_INPUT : SW_EXIT_ERROR;
    } else if (rank == 0) {
        sw_report(stdout, o, r, g_size);
    }
    if (rc == MPI_SUCCESS && r->unstable)
        status = SW_EXIT_UNSTABLE;
    sw_model_free(&a.m);
    return status;
}

/* ------------------------------------------------------------------ skeleton */

static int ft_setup(void *arg, ftiter_t *sk, MPI_Comm data)
{
    sw_app_t *a = arg;
    a->sk = sk;
    if (sw_model_create(&a->m, a->o, data) != 0)
        return FTITER_ERR_APP;
    /* the restart record's size depends on the layout only (plus room for the
       terminating NUL byte that a "w" fmemopen stream keeps) */
    return ftiter_register_serial(sk, sw_restart_size(&a->m) + 64) == FTITER_SUCCESS
               ? MPI_SUCCESS
               : FTITER_ERR_APP;
}

static int ft_init(void *arg, MPI_Comm data)
{
    return app_start(arg);
}

static int ft_iterate(void *arg, MPI_Comm data, int64_t iter)
{
    sw_app_t *a = arg;
    if (a->m.step != a->m.step0 + iter) {
        snprintf(a->m.err, sizeof a->m.err,
                 "the model is at step %lld, the skeleton at %lld steps after step %lld",
                 (long long)a->m.step, (long long)iter, (long long)a->m.step0);
        return FTITER_ERR_APP;
    }
    return app_step(a);
}

static int ft_converged(void *arg, MPI_Comm data, int64_t iter, int *done)
{
    sw_app_t *a = arg;
    *done = a->m.step >= a->m.nsteps || a->r->unstable;
    return MPI_SUCCESS;
}

static int ft_comm_rebuilt(void *arg, MPI_Comm data)
{
    sw_model_set_comm(&((sw_app_t *)arg)->m, data);
    return MPI_SUCCESS;
}

static int ft_finish(void *arg, MPI_Comm data, int64_t iter, int converged)
{
    sw_app_t *a = arg;
    const ftiter_stats_t *st = ftiter_stats(a->sk);
    return app_end(a, st->iterate_s, st->ckpt_s, st->iterations_run);
}

/* the model's restart routines, on memory streams over the skeleton's buffer */
static int ft_save(void *arg, void *buf, size_t cap, size_t *len)
{
    sw_app_t *a = arg;
    FILE *f = fmemopen(buf, cap, "w");
    if (!f)
        return FTITER_ERR_APP;
    int rc = sw_restart_write(&a->m, f);
    long pos = ftell(f);
    fclose(f);
    if (rc != 0 || pos < 0 || (size_t)pos != sw_restart_size(&a->m)) {
        snprintf(a->m.err, sizeof a->m.err, "the in-memory restart record is incomplete");
        return FTITER_ERR_APP;
    }
    *len = (size_t)pos;
    return MPI_SUCCESS;
}

static int ft_load(void *arg, const void *buf, size_t len)
{
    sw_app_t *a = arg;
    FILE *f = fmemopen((void *)buf, len, "r");
    if (!f)
        return FTITER_ERR_APP;
    int rc = sw_restart_read(&a->m, f);
    fclose(f);
    if (rc != 0)
        fprintf(stderr, "pstswm: in-memory restart: %s\n", a->m.err);
    return rc == 0 ? MPI_SUCCESS : FTITER_ERR_APP;
}

static const ftiter_ops_t sw_ops = {
    .setup = ft_setup,
    .init = ft_init,
    .iterate = ft_iterate,
    .converged = ft_converged,
    .comm_rebuilt = ft_comm_rebuilt,
    .finish = ft_finish,
    .save = ft_save,
    .load = ft_load,
};

int sw_run_ft(const sw_opts_t *o, int init_rc, sw_result_t *r)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dckpt_params_t dp = {o->code, o->m, 0, 0};
    int ngroups, ndata;
    if (dckpt_plan(size, &dp, &ngroups, &ndata) != DCKPT_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "pstswm: %d ranks cannot hold %s checkpoints with %d checksum "
                            "rank(s) (need at least %d ranks; rs: at most 256 per group)\n",
                    size, app_code_name(o->code), o->m, o->m + 1);
        return SW_EXIT_USAGE;
    }
    /* the decomposition must fit: checked here, locally, on every rank */
    int nlon, nlat;
    sw_grid_size(o->trunc, &nlon, &nlat);
    if (ndata > o->trunc + 1 || ndata > nlat / 2) {
        if (rank == 0)
            fprintf(stderr,
                    "pstswm: T%d has %d zonal wavenumbers and %d latitudes: at most %d "
                    "computing ranks (each needs at least one wavenumber and two latitudes), "
                    "got %d (%d ranks - %d checksum)\n",
                    o->trunc, o->trunc + 1, nlat, o->trunc + 1 < nlat / 2 ? o->trunc + 1 : nlat / 2,
                    ndata, size, size - ndata);
        return SW_EXIT_USAGE;
    }
    sw_app_t a;
    memset(&a, 0, sizeof a);
    a.o = o;
    a.r = r;
    r->ft = 1;
    int64_t nsteps = (int64_t)llround(o->days * 86400.0 / (o->dt > 0 ? o->dt : sw_default_dt(o->trunc)));
    ftiter_params_t par = {.ckpt_interval = o->ckpt_interval, .max_iter = nsteps,
                           .ckpt = dp, .verbose = o->verbose};
    ftiter_t *sk = NULL;
    int rc = ftiter_create(&par, &sw_ops, &a, init_rc, &sk);
    if (rc == FTITER_SUCCESS)
        rc = ftiter_run(sk);
    int status = SW_EXIT_OK;
    if (rc != FTITER_SUCCESS) {
        if (a.input_error) {
            /* every computing rank knows (the verdict was agreed); the
               checksum ranks wait in the skeleton: end the job */
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, SW_EXIT_INPUT);
        }
        /* messages; MPI_Abort, or (the other ranks of an unrecoverable run)
           MPI_Finalize and exit 3 */
        exit(app_ftiter_fail("pstswm", rank, rc, a.m.err));
    }
    r->sk = sk;
    r->run_s = ftiter_stats(sk)->solve_s;
    if (rank == 0)
        sw_report(stdout, o, r, size);
    if (ftiter_is_data_rank(sk) && r->unstable)
        status = SW_EXIT_UNSTABLE;
    ftiter_free(&sk);
    r->sk = NULL;
    sw_model_free(&a.m);
    return status;
}
