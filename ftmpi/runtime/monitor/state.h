/*
 * The monitor's view of the job as one JSON object (docs/tools.md): hosts,
 * and per rank its process (pid, incarnation, state) with CPU and memory
 * (sampled by the rank's daemon), its communicators, and the message
 * matrix (ranks.h).
 */
#ifndef FTMPI_RUNTIME_MON_STATE_H
#define FTMPI_RUNTIME_MON_STATE_H

#include <stdio.h>

struct head;

/* Writes the state to f. */
void mon_state_json(FILE *f, struct head *h);

/* State name of a process ("running", "failed", ...). */
const char *mon_state_name(int state, int finalized);

#endif
