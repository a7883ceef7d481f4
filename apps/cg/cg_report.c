/*
 * cg_report.c - the end-of-run report, as text or as one JSON object. The
 * recoveries' part (times, kill times from ftmpirun's event log) is
 * apps/common/app_report.c.
 */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cg_report(FILE *out, const cg_opts_t *o, const cg_app_t *a, const ftiter_t *sk, int nprocs)
{
    const ftiter_stats_t *st = ftiter_stats(sk);
    dckpt_layout_t lay;
    ftiter_layout(sk, &lay);
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
        fprintf(out, "\"encoding\": \"%s\", \"checksums_per_group\": %d, ", app_code_name(o->code),
                o->m);
        fprintf(out, "\"preconditioner\": \"%s\", \"converged\": %s, \"breakdown\": %s, ",
                o->jacobi ? "jacobi" : "none", converged ? "true" : "false",
                a->breakdown ? "true" : "false");
        fprintf(out, "\"iterations\": %lld, \"iterations_run\": %lld, ",
                (long long)st->iterations, (long long)a->max_iter_run);
        app_json_dbl(out, "residual", resid, 1);
        app_json_dbl(out, "true_residual", a->true_resid, 1);
        fprintf(out, "\"solution_checksum\": \"%016llx\", ", (unsigned long long)a->checksum);
        app_json_dbl(out, "solve_time_s", st->solve_s, 1);
        app_json_dbl(out, "time_per_iteration_s", tpi, 1);
        app_report_ckpt_json_end(out, o->ckpt_interval, st, a->max_ckpt_s, ovh, o->event_log,
                                 "iteration");
        fflush(out);
        return;
    }

    fprintf(out, "cg: %s, %lld unknowns, %d ranks: %d data + %d checksum (%s, %d per group, "
                 "%d group%s), %s preconditioner\n",
            problem, (long long)a->A.n, nprocs, lay.ndata, nprocs - lay.ndata, app_code_name(o->code),
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
    app_report_recoveries_text(out, "cg", st, o->event_log, "iteration");
    fflush(out);
}
