/*
 * libftmpi_trace: MPI calls as Chrome trace events (docs/tools.md,
 * "Traces"). ftmpirun --trace DIR preloads it into every rank with
 * FTMPI_TRACE_DIR=DIR; its MPI_* wrappers (generated from mpi.api by
 * gen_trace.py) call the PMPI_* functions and record one complete event
 * ("ph":"X") per call in DIR/rank<R>.pid<P>.json, written with write(2)
 * as each call returns, so a killed process's file holds every call it
 * finished. Times: CLOCK_MONOTONIC in microseconds.
 */
#ifndef FTMPI_TRACE_H
#define FTMPI_TRACE_H

#include <mpi.h>

/* kind: 0 a call, 1 MPI_Init/_thread (the file opens after it), 2
 * MPI_Finalize. Returns the start time. */
double ftrace_begin(int kind);
void ftrace_end(const char *name, double t0, int rc, MPI_Comm comm, int kind);

#endif
