/*
 * ftapp_report.h - the parts of a fault-tolerant application's report that
 * every demo shares (apps/cg, apps/pstswm): kill times from ftmpirun's
 * event log, the view of one skeleton recovery (detection, MPI recovery,
 * restore, work recomputed), and its text and JSON forms. docs/cg.md,
 * "What the times measure, exactly".
 */
#ifndef FTAPP_REPORT_H
#define FTAPP_REPORT_H

#include <stdio.h>

#include "ft_iterative.h"

typedef struct ftapp_kill {
    int rank;
    double t; /* CLOCK_MONOTONIC */
} ftapp_kill_t;

/* The kill and proc_failed events of an ftmpirun --event-log file (times
   made CLOCK_MONOTONIC with the launch line's monotonic_t0): their number,
   or -1 (no file). *ev is malloc'd (free it). */
int ftapp_kills_read(const char *path, ftapp_kill_t **ev);

/* `"key": value, ` (null when not finite; no comma when !comma) */
void ftapp_json_dbl(FILE *out, const char *key, double v, int comma);

/* The recoveries of a run: `"recoveries": [...], "recoveries_total": N`
   (no braces around), `unit` naming the loop's steps ("iteration", "step":
   keys iterations_recomputed, detected_at_iteration, ...). */
void ftapp_json_recoveries(FILE *out, const ftiter_stats_t *st, const ftapp_kill_t *ev,
                           int nev, const char *unit);

/* One text line per recovery, each starting with `prefix` ("cg: "). */
void ftapp_text_recoveries(FILE *out, const char *prefix, const ftiter_stats_t *st,
                           const ftapp_kill_t *ev, int nev, const char *unit);

#endif /* FTAPP_REPORT_H */
