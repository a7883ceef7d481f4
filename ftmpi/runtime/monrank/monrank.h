/*
 * The rank's side of the live monitor (ftmpirun --monitor, docs/tools.md):
 * what a process tells the head about itself, through the job's key-value
 * store (rtc_kv_put, no reply):
 *
 *   ftmpi.mon.R        every second: incarnation, resident memory, CPU
 *                      share, and the messages and bytes this process sent
 *                      to each world rank (the matrix's row R);
 *   ftmpi.mon.R.comms  on change: this process's communicators (size,
 *                      rank, generation, state, failed members).
 *
 * CPU and memory are not the rank's business: its daemon samples them
 * (runtime/daemon/daemon_usage.c), also while the rank is stopped or busy.
 *
 * Off unless ftmpirun sets FTMPI_MONITOR (or FTMPI_TRACE_DIR: counting
 * only, for the trace library) in the environment: then nothing is
 * counted (monrank_counts is NULL), no thread runs, nothing is sent. On,
 * a thread wakes once a second (or when the communicators change) to
 * send; the counting is two relaxed stores per send, made under the
 * library lock by p2p (monrank_count).
 */
#ifndef FTMPI_RUNTIME_MONRANK_H
#define FTMPI_RUNTIME_MONRANK_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* [2 * monrank_nranks]: messages and bytes sent to each world rank; NULL
 * while the monitor is off. */
extern uint64_t *monrank_counts;
extern int monrank_nranks;

/* One message of `bytes` bytes handed to p2p for world rank w. */
static inline void monrank_count(int w, size_t bytes)
{
#ifdef FTMPI_NO_MON_HOOKS /* compiled out (cmake -DFTMPI_MON_HOOKS=OFF) */
    (void)w, (void)bytes;
    return;
#endif
    uint64_t *c = monrank_counts;
    if (__builtin_expect(c != NULL, 0) && w >= 0 && w < monrank_nranks) {
        /* one writer at a time (the library lock); the reporting thread
         * only loads */
        __atomic_store_n(&c[2 * w], __atomic_load_n(&c[2 * w], __ATOMIC_RELAXED) + 1,
                         __ATOMIC_RELAXED);
        __atomic_store_n(&c[2 * w + 1],
                         __atomic_load_n(&c[2 * w + 1], __ATOMIC_RELAXED) + bytes,
                         __ATOMIC_RELAXED);
    }
}

/* End of MPI_Init: with FTMPI_MONITOR set, start counting and the
 * reporting thread, and publish the communicators; with FTMPI_TRACE_DIR
 * set, start counting. */
void monrank_init(void);
/* MPI_Finalize, before the runtime connection closes: a last report, the
 * thread joined, counting off. */
void monrank_fini(void);

/* The counters of this process: msgs[i], bytes[i] for world ranks
 * 0..n-1; the job's size, or -1 when counting is off. */
int monrank_counts_read(uint64_t *msgs, uint64_t *bytes, int n);

/* An observer of what happens inside this process (the trace library,
 * through FTMPI_Observe): failures detected, recovery rounds, the
 * recovery and its callbacks (the restore), the program's notes. `what`
 * is a word; keys and values as FTMPI_Note's. NULL: none. */
typedef void monrank_observer_fn(const char *what, int n, const char *const keys[],
                                 const double values[]);
extern monrank_observer_fn *monrank_observer;
static inline void monrank_event(const char *what, int n, const char *const keys[],
                                 const double values[])
{
#ifdef FTMPI_NO_MON_HOOKS
    return;
#endif
    monrank_observer_fn *f = monrank_observer;
    if (__builtin_expect(f != NULL, 0))
        f(what, n, keys, values);
}
static inline void monrank_event1(const char *what, const char *key, double value)
{
    monrank_event(what, 1, &key, &value);
}

/* cominfo.c: the communicators changed (core/comm.c's comm_change_hook):
 * describe them again and wake the thread. */
void monrank_comms_changed(void);
/* The description of this process's communicators (payload of
 * ftmpi.mon.R.comms, read by runtime/monitor/ranks.c), malloc'd; NULL when
 * out of memory. */
void *monrank_comms_build(size_t *len);
/* monrank.c: hand a new description to the thread (takes buf). */
void monrank_comms_publish(void *buf, size_t len);

/* clock.c: microseconds to add to this process's CLOCK_MONOTONIC to get
 * the head's, and the bound of the error; 0 or a negative errno. */
int monrank_clock_offset(double *offset_us, double *error_us);

#pragma GCC visibility pop

#endif
