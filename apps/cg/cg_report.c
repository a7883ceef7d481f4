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
#include "ftapp_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *code_name(dckpt_code_t c)
{
    return c == DCKPT_CODE_XOR ? "xor" : "rs";
}

void cg_report(FILE *out, const cg_opts_t *o, const cg_app_t *a, const ftiter_t *sk, int nprocs)
{
    const ftiter_stats_t *st = ftiter_stats(sk);
    dckpt_layout_t lay;
    ftiter_layout(sk, &lay);
    ftapp_kill_t *ev = NULL;
    int nev = ftapp_kills_read(o->event_log, &ev);
    /* b = 0: residual 0; a NaN or Inf anywhere: no number (null in JSON) */
    double resid = !isfinite(a->s.bb) || !isfinite(a->s.rr) ? NAN
                   : a->s.bb > 0                            ? sqrt(a->s.rr / a->s.bb)
                                                            : 0.0;
    double tpi = a->max_iter_run > 0 ? a->max_iterate_s / (double)a->max_iter_run : 0.0;
    double ff = tpi * (double)st->iterations; /* the failure-free run without checkpoints */
    double ovh = ff > 0 ? 100.0 * a->max_ckpt_s / ff : 0.0;
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
        ftapp_json_dbl(out, "residual", resid, 1);
        ftapp_json_dbl(out, "true_residual", a->true_resid, 1);
        fprintf(out, "\"solution_checksum\": \"%016llx\", ", (unsigned long long)a->checksum);
        ftapp_json_dbl(out, "solve_time_s", st->solve_s, 1);
        ftapp_json_dbl(out, "time_per_iteration_s", tpi, 1);
        fprintf(out, "\"ckpt_interval\": %lld, \"checkpoints\": %lld, ",
                (long long)o->ckpt_interval, (long long)st->checkpoints);
        fprintf(out, "\"checkpoint_bytes_per_rank\": %zu, ", st->ckpt_bytes);
        ftapp_json_dbl(out, "checkpoint_time_s", a->max_ckpt_s, 1);
        ftapp_json_dbl(out, "checkpoint_overhead_pct", ovh, 1);
        ftapp_json_recoveries(out, st, ev, nev, "iteration");
        fprintf(out, "}\n");
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
    ftapp_text_recoveries(out, "cg: ", st, ev, nev, "iteration");
    fflush(out);
    free(ev);
}
