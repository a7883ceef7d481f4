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
 * Off unless ftmpirun sets FTMPI_MONITOR in the environment: then nothing
 * is counted (monrank_counts is NULL), no thread runs, nothing is sent.
 * On, a thread wakes once a second (or when the communicators change) to
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
 * reporting thread, and publish the communicators. */
void monrank_init(void);
/* MPI_Finalize, before the runtime connection closes: a last report, the
 * thread joined, counting off. */
void monrank_fini(void);

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
