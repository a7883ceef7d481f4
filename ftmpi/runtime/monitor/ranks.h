/*
 * What the daemons report about the ranks' processes (CPU and memory,
 * runtime/daemon/daemon_usage.c) and what the ranks report about
 * themselves (runtime/monrank/: communicators, counters), with
 * FTMPI_MONITOR set by ftmpirun --monitor, read from the job's key-value
 * store and written as JSON for the monitor's state. A report about an
 * earlier incarnation than the rank's process is ignored.
 */
#ifndef FTMPI_RUNTIME_MON_RANKS_H
#define FTMPI_RUNTIME_MON_RANKS_H

#include <stdio.h>

struct head;

/* ,"rss_kib":..,"proc_state":"R","usage_samples":N,"cpu_pct":.. from the
 * daemon's last sample of rank r's process (nothing without one, or when
 * the rank is not live; no cpu_pct after the first sample). */
void mon_ranks_usage_json(FILE *f, struct head *h, int r);
/* ,"comm_mode":..,"ncomms":N,"comms":[...] from rank r's report (nothing
 * without one or when the rank is not live). */
void mon_ranks_comms_json(FILE *f, struct head *h, int r);
/* ,"matrix":{"msgs":[row|null,...],"bytes":[...]}: row i is what rank i's
 * current process sent to each rank (null: no report). */
void mon_ranks_matrix_json(FILE *f, struct head *h);

#endif
