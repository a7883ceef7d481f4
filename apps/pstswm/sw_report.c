/*
 * sw_report.c - pstswm's report: one line per output interval, and at the
 * end the text or JSON report (the keys of cg's report where they apply,
 * steps instead of iterations; docs/pstswm.md, "The report").
 */
#include "pstswm.h"

#include <math.h>

void sw_report_line(FILE *out, const sw_diag_t *d, double mass0, double energy0)
{
    fprintf(out, "pstswm: day %7.3f  height %8.2f .. %8.2f m", d->t_days, d->hmin, d->hmax);
    if (isfinite(d->l2))
        fprintf(out, "  l1 %.3e l2 %.3e linf %.3e", d->l1, d->l2, d->linf);
    fprintf(out, "  mass %+.3e energy %+.3e\n", (d->mass - mass0) / mass0,
            (d->energy - energy0) / energy0);
    fflush(out);
}

void sw_report(FILE *out, const sw_opts_t *o, const sw_result_t *r, int nprocs)
{
    const ftiter_stats_t *st = r->sk ? ftiter_stats(r->sk) : NULL;
    dckpt_layout_t lay = {0};
    if (r->sk)
        ftiter_layout(r->sk, &lay);
    else
        lay.ndata = nprocs;
    double ff = r->step_s * (double)r->steps; /* the failure-free run without checkpoints */
    double ovh = ff > 0 ? 100.0 * r->ckpt_s / ff : 0.0;
    double fovh = ff > 0 ? 100.0 * r->file_s / ff : 0.0;
    const char *enc = !st ? "none" : app_code_name(o->code);
    int64_t ckpts = st ? st->checkpoints : 0;
    if (o->json) {
        fprintf(out, "{\"case\": %d, \"trunc\": %d, \"nlon\": %d, \"nlat\": %d, ", o->test_case,
                o->trunc, r->nlon, r->nlat);
        fprintf(out, "\"dt\": %g, \"days\": %g, \"steps\": %lld, \"steps_run\": %lld, ", r->dt,
                o->days, (long long)r->steps, (long long)r->steps_run);
        fprintf(out, "\"ranks\": %d, \"data_ranks\": %d, \"checksum_ranks\": %d, ", nprocs,
                lay.ndata, nprocs - lay.ndata);
        fprintf(out, "\"groups\": %d, \"encoding\": \"%s\", \"checksums_per_group\": %d, ",
                lay.ngroups, enc, st ? o->m : 0);
        fprintf(out, "\"state_checksum\": \"%016llx\", \"unstable\": %s, ",
                (unsigned long long)r->checksum, r->unstable ? "true" : "false");
        app_json_dbl(out, "l1", r->d.l1, 1);
        app_json_dbl(out, "l2", r->d.l2, 1);
        app_json_dbl(out, "linf", r->d.linf, 1);
        app_json_dbl(out, "mass_rel_change", r->mass_rel, 1);
        app_json_dbl(out, "energy_rel_change", r->energy_rel, 1);
        app_json_dbl(out, "hmin", r->d.hmin, 1);
        app_json_dbl(out, "hmax", r->d.hmax, 1);
        app_json_dbl(out, "run_time_s", r->run_s, 1);
        app_json_dbl(out, "time_per_step_s", r->step_s, 1);
        fprintf(out, "\"ckpt_interval\": %lld, \"checkpoints\": %lld, ",
                (long long)(st ? o->ckpt_interval : 0), (long long)ckpts);
        fprintf(out, "\"checkpoint_bytes_per_rank\": %zu, ", st ? st->ckpt_bytes : 0);
        app_json_dbl(out, "checkpoint_time_s", r->ckpt_s, 1);
        app_json_dbl(out, "checkpoint_overhead_pct", ovh, 1);
        fprintf(out, "\"restart_bytes_per_rank\": %zu, \"restart_file_writes\": %lld, ",
                r->restart_bytes, (long long)r->file_writes);
        app_json_dbl(out, "restart_file_time_s", r->file_s, 1);
        app_json_dbl(out, "restart_file_overhead_pct", fovh, 1);
        sw_prof_report(out, &r->prof, 1);
        if (st)
            app_report_recoveries_json(out, st, o->event_log, "step");
        else /* the plain model: no skeleton */
            fprintf(out, "\"recoveries\": [], \"recoveries_total\": 0, "
                         "\"failed_after_end\": false");
        fprintf(out, "}\n");
        fflush(out);
        return;
    }
    fprintf(out, "pstswm: case %d, T%d (%d x %d Gaussian grid), dt %g s, %g days; %d ranks: %d "
                 "computing",
            o->test_case, o->trunc, r->nlon, r->nlat, r->dt, o->days, nprocs, lay.ndata);
    if (st)
        fprintf(out, " + %d checksum (%s, %d per group, %d group%s)", nprocs - lay.ndata, enc,
                o->m, lay.ngroups, lay.ngroups > 1 ? "s" : "");
    fprintf(out, "\n");
    fprintf(out, "pstswm: %s after %lld steps (%lld run)\n",
            r->unstable ? "UNSTABLE (NaN or Inf in the height)" : "done", (long long)r->steps,
            (long long)r->steps_run);
    if (isfinite(r->d.l2))
        fprintf(out, "pstswm: height errors: l1 %.4e  l2 %.4e  linf %.4e\n", r->d.l1, r->d.l2,
                r->d.linf);
    else
        fprintf(out, "pstswm: height errors: no reference for case %d%s\n", o->test_case,
                o->test_case == 5 ? " (give --ref-trunc R)" : "");
    fprintf(out, "pstswm: mass change %+.3e, energy change %+.3e (relative)\n", r->mass_rel,
            r->energy_rel);
    fprintf(out, "pstswm: state checksum %016llx\n", (unsigned long long)r->checksum);
    fprintf(out, "pstswm: run %.3f s, %.3f ms per step\n", r->run_s, 1e3 * r->step_s);
    if (st)
        fprintf(out,
                "pstswm: checkpoints: %lld every %lld steps, %.2f MiB per computing rank, "
                "%.3f s (%.1f%% of the failure-free run)\n",
                (long long)ckpts, (long long)o->ckpt_interval,
                (double)st->ckpt_bytes / 1048576.0, r->ckpt_s, ovh);
    if (r->file_writes)
        fprintf(out, "pstswm: restart files: %lld writes every %lld steps, %.3f s (%.1f%%)\n",
                (long long)r->file_writes, (long long)o->restart_every, r->file_s, fovh);
    if (st)
        app_report_recoveries_text(out, "pstswm", st, o->event_log, "step");
    sw_prof_report(out, &r->prof, 0);
    fflush(out);
}
