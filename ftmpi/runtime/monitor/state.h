/*
 * The monitor's view of the job as one JSON object (docs/tools.md): hosts,
 * and per rank its process (pid, incarnation, state) with CPU and memory
 * (read from /proc for the processes of this host, from the ranks' own
 * reports for the others), its communicators, and the message matrix
 * (ranks.h).
 */
#ifndef FTMPI_RUNTIME_MON_STATE_H
#define FTMPI_RUNTIME_MON_STATE_H

#include <stdio.h>
#include <sys/types.h>

struct head;

typedef struct {
    pid_t pid;
    unsigned long long ticks; /* utime + stime at t */
    double t;
} mon_cpu_sample_t;

/* Writes the state to f; prev (one per rank) keeps the last CPU samples. */
void mon_state_json(FILE *f, struct head *h, mon_cpu_sample_t *prev);

/* State name of a process ("running", "failed", ...). */
const char *mon_state_name(int state, int finalized);

#endif
