/*
 * ftapp_report.c - report parts shared by the fault-tolerant demos.
 *
 * Times of a recovery (docs/cg.md, "What the times measure, exactly"), from
 * the skeleton's record (CLOCK_MONOTONIC, the same on every rank) and, for
 * the kill time, ftmpirun's event log (t + monotonic_t0 of its launch line):
 *   detection_s     kill -> the last survivor's failing MPI call returned
 *   mpi_recovery_s  that -> MPI recovery complete (the last survivor's callback started)
 *   restore_s       that -> every rank restored (data decoded, communicators rebuilt)
 *   <unit>s_recomputed  steps done when the failure was seen - step resumed from
 */
#include "ftapp_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int ftapp_kills_read(const char *path, ftapp_kill_t **ev_p)
{
    *ev_p = NULL;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return -1;
    char line[4096];
    double t0 = NAN;
    int n = 0, cap = 0;
    ftapp_kill_t *ev = NULL;
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
            ftapp_kill_t *ne = realloc(ev, sizeof(*ne) * (size_t)cap);
            if (!ne)
                break;
            ev = ne;
        }
        ev[n++] = (ftapp_kill_t){(int)r, t + t0};
    }
    fclose(f);
    *ev_p = ev;
    return n;
}

/* Kill time of recovery `i`: the earliest kill of one of its failed ranks
   after the previous recovery ended and before its first detection. */
static double kill_time(const ftiter_stats_t *st, int i, const ftapp_kill_t *ev, int nev)
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

typedef struct rec_view {
    double detect, detect_first, mpi, restore;
    int64_t recomputed;
} rec_view_t;

static rec_view_t rec_view(const ftiter_stats_t *st, int i, const ftapp_kill_t *ev, int nev)
{
    const ftiter_recovery_t *r = &st->rec[i];
    double t_kill = nev > 0 ? kill_time(st, i, ev, nev) : NAN;
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

void ftapp_json_dbl(FILE *out, const char *key, double v, int comma)
{
    if (isfinite(v))
        fprintf(out, "\"%s\": %.9g%s", key, v, comma ? ", " : "");
    else
        fprintf(out, "\"%s\": null%s", key, comma ? ", " : "");
}

static int nrec_kept(const ftiter_stats_t *st)
{
    return st->nrecoveries < FTITER_MAX_RECOVERIES ? st->nrecoveries : FTITER_MAX_RECOVERIES;
}

void ftapp_json_recoveries(FILE *out, const ftiter_stats_t *st, const ftapp_kill_t *ev,
                           int nev, const char *unit)
{
    int nrec = nrec_kept(st);
    fprintf(out, "\"recoveries\": [");
    for (int i = 0; i < nrec; i++) {
        const ftiter_recovery_t *r = &st->rec[i];
        rec_view_t v = rec_view(st, i, ev, nev);
        fprintf(out, "%s{\"failed_ranks\": [", i ? ", " : "");
        for (int k = 0; k < r->nfailed && k < FTITER_MAX_FAILED_LIST; k++)
            fprintf(out, "%s%d", k ? ", " : "", r->failed[k]);
        fprintf(out, "], ");
        ftapp_json_dbl(out, "detection_s", v.detect, 1);
        ftapp_json_dbl(out, "detection_first_s", v.detect_first, 1);
        ftapp_json_dbl(out, "mpi_recovery_s", v.mpi, 1);
        ftapp_json_dbl(out, "restore_s", v.restore, 1);
        ftapp_json_dbl(out, "restore_call_s", r->restore_call_s, 1);
        fprintf(out, "\"%ss_recomputed\": %lld, \"detected_at_%s\": %lld, ", unit,
                (long long)v.recomputed, unit, (long long)r->iter_detect);
        fprintf(out, "\"resumed_from_%s\": %lld, \"epoch\": %lld, \"rounds\": %d}", unit,
                (long long)r->iter_resume, (long long)r->epoch, r->rounds);
    }
    fprintf(out, "], \"recoveries_total\": %d", st->nrecoveries);
}

void ftapp_text_recoveries(FILE *out, const char *prefix, const ftiter_stats_t *st,
                           const ftapp_kill_t *ev, int nev, const char *unit)
{
    int nrec = nrec_kept(st);
    for (int i = 0; i < nrec; i++) {
        const ftiter_recovery_t *r = &st->rec[i];
        rec_view_t v = rec_view(st, i, ev, nev);
        fprintf(out, "%srecovery %d: failed rank%s", prefix, i + 1, r->nfailed > 1 ? "s" : "");
        for (int k = 0; k < r->nfailed && k < FTITER_MAX_FAILED_LIST; k++)
            fprintf(out, " %d", r->failed[k]);
        if (isfinite(v.detect))
            fprintf(out, "; detection %.2f ms", 1e3 * v.detect);
        else
            fprintf(out, "; detection n/a (give --event-log)");
        fprintf(out, ", MPI recovery %.2f ms, data restore %.2f ms; %lld %s%s "
                     "recomputed (failure seen at %lld, resumed from %lld, epoch %lld)%s\n",
                1e3 * v.mpi, 1e3 * v.restore, (long long)v.recomputed, unit,
                v.recomputed == 1 ? "" : "s", (long long)r->iter_detect,
                (long long)r->iter_resume, (long long)r->epoch,
                r->rounds > 1 ? " [failure during recovery]" : "");
    }
    if (st->nrecoveries > nrec)
        fprintf(out, "%s... %d recoveries in all\n", prefix, st->nrecoveries);
}
