/*
 * dense_report.c - the end-of-run report of a dense app, as text or as one
 * JSON object (dense.h; keys in docs/dense.md): cg's keys where they apply,
 * iterations become panels, plus the check and GFLOP/s. The recoveries are
 * apps/common/app_report.c.
 */
#include "dense.h"

#include <math.h>

/*
 * Young/Daly: with checkpoints costing C seconds and failures every M
 * seconds on average, the work lost plus the checkpoint time is least with a
 * checkpoint every tau = sqrt(2 C M) - C seconds of computation (Daly's
 * first-order form, for C < 2 M; C itself when not). In panels: tau over the
 * failure-free time of one panel, at least 1. 0 when not measurable.
 */
static double daly_interval(double ckpt_s, double mtbf_s, double panel_s)
{
    if (ckpt_s <= 0 || mtbf_s <= 0 || panel_s <= 0)
        return 0;
    double tau = ckpt_s < 2 * mtbf_s ? sqrt(2 * ckpt_s * mtbf_s) - ckpt_s : mtbf_s;
    double k = floor(tau / panel_s + 0.5);
    return k < 1 ? 1 : k;
}

static const char *ft_name(dense_ft_t ft)
{
    return ft == DENSE_FT_CKPT ? "ckpt" : ft == DENSE_FT_ABFT ? "abft" : "none";
}

void dense_report(FILE *out, const dense_ctx_t *d)
{
    const dense_opts_t *o = d->o;
    const ftiter_stats_t *st = d->sk ? ftiter_stats(d->sk) : &d->plain;
    int data = o->P * o->Q, cks = d->world_size - data;
    double tpp = d->max_panels_run > 0 ? d->max_panel_s / (double)d->max_panels_run : 0.0;
    double ff = tpp * (double)st->iterations; /* failure-free, without checkpoints */
    double ovh = ff > 0 ? 100.0 * d->max_ckpt_s / ff : 0.0;
    double run_s = st->solve_s - d->check_s; /* the computation, without the checks */
    double ckpt1 = st->checkpoints > 0 ? d->max_ckpt_s / (double)st->checkpoints : 0.0;
    double k_daly = o->ft == DENSE_FT_CKPT ? daly_interval(ckpt1, o->mtbf_s, tpp) : 0.0;
    double gflops = run_s > 0 ? d->flops / run_s / 1e9 : 0.0;
    /* the panels alone (slowest rank), comparable with ScaLAPACK's timed routine */
    double pflops = d->panel_flops > 0 ? d->panel_flops : d->flops;
    double panel_gflops = d->max_panel_s > 0 ? pflops / d->max_panel_s / 1e9 : 0.0;
    char problem[600];
    if (o->matrix)
        snprintf(problem, sizeof problem, "%s", o->matrix);
    else if (d->rows)
        snprintf(problem, sizeof problem, "random m=%lld n=%lld seed=%llu", (long long)d->rows,
                 (long long)o->n, (unsigned long long)o->seed);
    else
        snprintf(problem, sizeof problem, "random n=%lld seed=%llu", (long long)o->n,
                 (unsigned long long)o->seed);

    if (o->json) {
        fprintf(out, "{\"app\": \"%s\", \"problem\": \"%s\", \"n\": %lld, \"nb\": %d, ", o->prog,
                problem, (long long)o->n, o->nb);
        fprintf(out, "\"grid\": \"%dx%d\", \"ranks\": %d, \"data_ranks\": %d, ", o->P, o->Q,
                d->world_size, data);
        fprintf(out, "\"checksum_ranks\": %d, \"ft\": \"%s\", \"encoding\": \"%s\", ", cks,
                ft_name(o->ft), app_code_name(o->code));
        fprintf(out, "\"checksums_per_group\": %d, \"panels\": %lld, \"panels_run\": %lld, ",
                o->ft == DENSE_FT_CKPT ? o->m : 0, (long long)st->iterations,
                (long long)d->max_panels_run);
        app_json_dbl(out, d->check_name, d->check, 1);
        for (int i = 0; i < d->nextra; i++)
            app_json_dbl(out, d->extra[i].name, d->extra[i].value < 0 ? NAN : d->extra[i].value, 1);
        fprintf(out, "\"check_passed\": %s, ", d->check_passed ? "true" : "false");
        fprintf(out, "\"solution_checksum\": \"%016llx\", ", (unsigned long long)d->checksum);
        app_json_dbl(out, "solve_time_s", st->solve_s, 1);
        app_json_dbl(out, "check_time_s", d->check_s, 1);
        app_json_dbl(out, "gflops", gflops, 1);
        app_json_dbl(out, "panel_time_s", d->max_panel_s, 1);
        app_json_dbl(out, "panel_gflops", panel_gflops, 1);
        if (o->mtbf_s > 0) {
            app_json_dbl(out, "mtbf_s", o->mtbf_s, 1);
            app_json_dbl(out, "daly_interval_panels", k_daly > 0 ? k_daly : NAN, 1);
        }
        app_json_dbl(out, "time_per_panel_s", tpp, 1);
        if (o->ft == DENSE_FT_CKPT)
            app_json_dbl(out, "ckpt_prefault_s", d->max_prefault_s, 1);
        app_report_ckpt_json_end(out, o->ft == DENSE_FT_CKPT ? o->ckpt_interval : 0, st,
                                 d->max_ckpt_s, ovh, o->event_log, "panel");
        fflush(out);
        return;
    }
    fprintf(out, "%s: %s, nb %d, grid %dx%d, %d ranks: %d compute + %d checksum, --ft %s",
            o->prog, problem, o->nb, o->P, o->Q, d->world_size, data, cks, ft_name(o->ft));
    if (o->ft == DENSE_FT_CKPT)
        fprintf(out, " (%s, every %lld panels)", app_code_name(o->code),
                (long long)o->ckpt_interval);
    fprintf(out, "\n%s: %lld panels (%lld run); %s %.3e (%s), limit %g: %s\n", o->prog,
            (long long)st->iterations, (long long)d->max_panels_run, d->check_name, d->check,
            d->check_text, d->check_limit, d->check_passed ? "PASSED" : "FAILED");
    for (int i = 0; i < d->nextra; i++) {
        const struct dense_extra_check *e = &d->extra[i];
        if (e->value < 0)
            fprintf(out, "%s: %s not checked (%s)\n", o->prog, e->name, e->text);
        else
            fprintf(out, "%s: %s %.3e (%s): %s\n", o->prog, e->name, e->value, e->text,
                    e->value < d->check_limit ? "PASSED" : "FAILED");
    }
    fprintf(out, "%s: solution checksum %016llx\n", o->prog, (unsigned long long)d->checksum);
    fprintf(out, "%s: time %.3f s (check %.3f s), %.2f GFLOP/s, %.3f ms per panel\n", o->prog,
            st->solve_s, d->check_s, gflops, 1e3 * tpp);
    fprintf(out, "%s: panels %.3f s (slowest rank), %.2f GFLOP/s\n", o->prog, d->max_panel_s,
            panel_gflops);
    if (o->ft == DENSE_FT_CKPT)
        fprintf(out,
                "%s: checkpoints: %lld every %lld panels, %.2f MiB per data rank, %.3f s "
                "(%.1f%% of the failure-free run)\n",
                o->prog, (long long)st->checkpoints, (long long)o->ckpt_interval,
                (double)st->ckpt_bytes / 1048576.0, d->max_ckpt_s, ovh);
    if (o->ft == DENSE_FT_CKPT)
        fprintf(out, "%s: checkpoint halves touched before the first panel: %.3f s (not in the "
                "checkpoint time)\n", o->prog, d->max_prefault_s);
    if (k_daly > 0)
        fprintf(out,
                "%s: Young/Daly: with %.3f s per checkpoint, %.3f s per panel and an MTBF of "
                "%g s, checkpoint every %.0f panels\n",
                o->prog, ckpt1, tpp, o->mtbf_s, k_daly);
    app_report_recoveries_text(out, o->prog, st, o->event_log, "panel");
    fflush(out);
}
