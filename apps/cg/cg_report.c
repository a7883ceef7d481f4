/*
 * cg_report.c - the end-of-run report, as text or as one JSON object.
 *
 * Times of a recovery (docs/cg.md, "What the report measures"), from the
 * skeleton's record (CLOCK_MONOTONIC, the same on every rank) and, for the
 * kill time, ftmpirun's event log (t + monotonic_t0 of its launch line):
 *   detection_s     kill -> the last survivor's failing MPI call returned
 *   mpi_recovery_s  that -> MPI recovery complete (the last survivor's callback started)
 *   restore_s       that -> every rank restored (data decoded, communicators rebuilt)
 *   iterations_recomputed  iterations done when the failure was seen - iteration resumed from
 */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ event log */

typedef struct kill_ev {
    int rank;
    double t; /* CLOCK_MONOTONIC */
} kill_ev_t;

static int json_num(const char *line, const char *key, double *v)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *s = strstr(line, pat);
    if (!s)
        return -1;
    *v = strtod(s + strlen(pat), NULL);
    return 0;
}

/* The times at which ranks were killed or seen dead (earliest event per incarnation). */
static int report_kills(const char *path, kill_ev_t **ev_p)
{
    *ev_p = NULL;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return -1;
    char line[4096];
    double t0 = NAN;
    int n = 0, cap = 0;
    kill_ev_t *ev = NULL;
    while (fgets(line, sizeof line, f)) {
        double t, r;
        if (strstr(line, "\"event\":\"launch\"")) {
            json_num(line, "monotonic_t0", &t0);
            continue;
        }
        if (!strstr(line, "\"event\":\"kill\"") && !strstr(line, "\"event\":\"proc_failed\""))
            continue;
        if (json_num(line, "t", &t) || json_num(line, "rank", &r) || isnan(t0))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            kill_ev_t *ne = realloc(ev, sizeof(*ne) * (size_t)cap);
            if (!ne)
                break;
            ev = ne;
        }
        ev[n++] = (kill_ev_t){(int)r, t + t0};
    }
    fclose(f);
    *ev_p = ev;
    return n;
}

/* Kill time of recovery `i`: the earliest kill of one of its failed ranks
   after the previous recovery ended and before its first detection. */
static double report_kill_time(const ftiter_stats_t *st, int i, const kill_ev_t *ev, int nev)
{
    const ftiter_recovery_t *rc = &st->rec[i];
    double lo = i > 0 ? st->rec[i - 1].t_restored : 0.0, best = NAN;
    double hi = rc->t_detect_first > 0 ? rc->t_detect_first : rc->t_mpi_recovered;
    for (int e = 0; e < nev; e++) {
        int hit = 0;
        for (int k = 0; k < rc->nfailed && k < FTITER_MAX_FAILED_LIST; k++)
            hit |= rc->failed[k] == ev[e].rank;
        if (hit && ev[e].t > lo && ev[e].t <= hi + 1e-3 && !(ev[e].t >= best))
            best = ev[e].t;
    }
    return best;
}

/* ------------------------------------------------------------------ output */

typedef struct rec_view {
    double detect, detect_first, mpi, restore;
    int64_t recomputed;
} rec_view_t;

static rec_view_t report_view(const ftiter_recovery_t *r, double t_kill)
{
    rec_view_t v;
    double t_seen = r->t_detect_last > 0 ? r->t_detect_last : r->t_mpi_recovered;
    v.detect = isnan(t_kill) ? NAN : t_seen - t_kill;
    v.detect_first = isnan(t_kill) || r->t_detect_first <= 0 ? NAN : r->t_detect_first - t_kill;
    v.mpi = r->t_mpi_recovered > 0 ? r->t_mpi_recovered - t_seen : NAN;
    v.restore = r->t_mpi_recovered > 0 ? r->t_restored - r->t_mpi_recovered : NAN;
    v.recomputed = r->iter_detect >= 0 ? r->iter_detect - r->iter_resume : 0;
    if (v.recomputed < 0)
        v.recomputed = 0;
    return v;
}

static void json_dbl(FILE *out, const char *key, double v, int comma)
{
    if (isfinite(v))
        fprintf(out, "\"%s\": %.9g%s", key, v, comma ? ", " : "");
    else
        fprintf(out, "\"%s\": null%s", key, comma ? ", " : "");
}

static const char *code_name(dckpt_code_t c)
{
    return c == DCKPT_CODE_XOR ? "xor" : "rs";
}

void cg_report(FILE *out, const cg_opts_t *o, const cg_app_t *a, const ftiter_t *sk, int nprocs)
{
    const ftiter_stats_t *st = ftiter_stats(sk);
    dckpt_layout_t lay;
    ftiter_layout(sk, &lay);
    kill_ev_t *ev = NULL;
    int nev = report_kills(o->event_log, &ev);
    /* b = 0: residual 0; a NaN or Inf anywhere: no number (null in JSON) */
    double resid = !isfinite(a->s.bb) || !isfinite(a->s.rr) ? NAN
                   : a->s.bb > 0                            ? sqrt(a->s.rr / a->s.bb)
                                                            : 0.0;
    double tpi = a->max_iter_run > 0 ? a->max_iterate_s / (double)a->max_iter_run : 0.0;
    double ff = tpi * (double)st->iterations; /* the failure-free run without checkpoints */
    double ovh = ff > 0 ? 100.0 * a->max_ckpt_s / ff : 0.0;
    int nrec = st->nrecoveries < FTITER_MAX_RECOVERIES ? st->nrecoveries : FTITER_MAX_RECOVERIES;
    int converged = st->converged && !a->breakdown; /* a NaN never converges */
    char problem[512];
    if (o->matrix)
        snprintf(problem, sizeof problem, "%s", o->matrix);
    else
        snprintf(problem, sizeof problem, "poisson3d n=%d", o->n);

    if (o->json) {
        fprintf(out, "{\"problem\": \"%s\", \"unknowns\": %lld, \"ranks\": %d, ", problem,
                (long long)a->A.n, nprocs);
        fprintf(out, "\"data_ranks\": %d, \"checksum_ranks\": %d, \"groups\": %d, ", lay.ndata,
                nprocs - lay.ndata, lay.ngroups);
        fprintf(out, "\"encoding\": \"%s\", \"checksums_per_group\": %d, ", code_name(o->code),
                o->m);
        fprintf(out, "\"preconditioner\": \"%s\", \"converged\": %s, \"breakdown\": %s, ",
                o->jacobi ? "jacobi" : "none", converged ? "true" : "false",
                a->breakdown ? "true" : "false");
        fprintf(out, "\"iterations\": %lld, \"iterations_run\": %lld, ",
                (long long)st->iterations, (long long)a->max_iter_run);
        json_dbl(out, "residual", resid, 1);
        json_dbl(out, "true_residual", a->true_resid, 1);
        fprintf(out, "\"solution_checksum\": \"%016llx\", ", (unsigned long long)a->checksum);
        json_dbl(out, "solve_time_s", st->solve_s, 1);
        json_dbl(out, "time_per_iteration_s", tpi, 1);
        fprintf(out, "\"ckpt_interval\": %lld, \"checkpoints\": %lld, ",
                (long long)o->ckpt_interval, (long long)st->checkpoints);
        fprintf(out, "\"checkpoint_bytes_per_rank\": %zu, ", st->ckpt_bytes);
        json_dbl(out, "checkpoint_time_s", a->max_ckpt_s, 1);
        json_dbl(out, "checkpoint_overhead_pct", ovh, 1);
        fprintf(out, "\"recoveries\": [");
        for (int i = 0; i < nrec; i++) {
            const ftiter_recovery_t *r = &st->rec[i];
            rec_view_t v = report_view(r, nev > 0 ? report_kill_time(st, i, ev, nev) : NAN);
            fprintf(out, "%s{\"failed_ranks\": [", i ? ", " : "");
            for (int k = 0; k < r->nfailed && k < FTITER_MAX_FAILED_LIST; k++)
                fprintf(out, "%s%d", k ? ", " : "", r->failed[k]);
            fprintf(out, "], ");
            json_dbl(out, "detection_s", v.detect, 1);
            json_dbl(out, "detection_first_s", v.detect_first, 1);
            json_dbl(out, "mpi_recovery_s", v.mpi, 1);
            json_dbl(out, "restore_s", v.restore, 1);
            json_dbl(out, "restore_call_s", r->restore_call_s, 1);
            fprintf(out, "\"iterations_recomputed\": %lld, \"detected_at_iteration\": %lld, ",
                    (long long)v.recomputed, (long long)r->iter_detect);
            fprintf(out, "\"resumed_from_iteration\": %lld, \"epoch\": %lld, \"rounds\": %d}",
                    (long long)r->iter_resume, (long long)r->epoch, r->rounds);
        }
        fprintf(out, "], \"recoveries_total\": %d, \"failed_after_end\": %s}\n", st->nrecoveries,
                st->failed_after_end ? "true" : "false");
        fflush(out);
        free(ev);
        return;
    }

    fprintf(out, "cg: %s, %lld unknowns, %d ranks: %d data + %d checksum (%s, %d per group, "
                 "%d group%s), %s preconditioner\n",
            problem, (long long)a->A.n, nprocs, lay.ndata, nprocs - lay.ndata, code_name(o->code),
            o->m, lay.ngroups, lay.ngroups > 1 ? "s" : "", o->jacobi ? "Jacobi" : "no");
    fprintf(out, "cg: %s after %lld iterations (%lld run), relative residual %.3e (true %.3e)\n",
            converged ? "converged" : a->breakdown ? "BROKE DOWN (NaN or Inf)" : "NOT converged",
            (long long)st->iterations,
            (long long)a->max_iter_run, resid, a->true_resid);
    fprintf(out, "cg: solution checksum %016llx\n", (unsigned long long)a->checksum);
    fprintf(out, "cg: solve %.3f s, %.3f ms per iteration\n", st->solve_s, 1e3 * tpi);
    fprintf(out,
            "cg: checkpoints: %lld every %lld iterations, %.2f MiB per data rank, %.3f s "
            "(%.1f%% of the failure-free run)\n",
            (long long)st->checkpoints, (long long)o->ckpt_interval,
            (double)st->ckpt_bytes / 1048576.0, a->max_ckpt_s, ovh);
    for (int i = 0; i < nrec; i++) {
        const ftiter_recovery_t *r = &st->rec[i];
        double tk = nev > 0 ? report_kill_time(st, i, ev, nev) : NAN;
        rec_view_t v = report_view(r, tk);
        fprintf(out, "cg: recovery %d: failed rank%s", i + 1, r->nfailed > 1 ? "s" : "");
        for (int k = 0; k < r->nfailed && k < FTITER_MAX_FAILED_LIST; k++)
            fprintf(out, " %d", r->failed[k]);
        if (isfinite(v.detect))
            fprintf(out, "; detection %.2f ms", 1e3 * v.detect);
        else
            fprintf(out, "; detection n/a (give --event-log)");
        fprintf(out, ", MPI recovery %.2f ms, data restore %.2f ms; %lld iteration%s "
                     "recomputed (failure seen at %lld, resumed from %lld, epoch %lld)%s\n",
                1e3 * v.mpi, 1e3 * v.restore, (long long)v.recomputed,
                v.recomputed == 1 ? "" : "s", (long long)r->iter_detect,
                (long long)r->iter_resume, (long long)r->epoch,
                r->rounds > 1 ? " [failure during recovery]" : "");
    }
    if (st->nrecoveries > nrec)
        fprintf(out, "cg: ... %d recoveries in all\n", st->nrecoveries);
    if (st->failed_after_end)
        fprintf(out, "cg: a process failed after the solve ended (too late to recover); the "
                     "answer above is complete\n");
    fflush(out);
    free(ev);
}
