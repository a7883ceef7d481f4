/*
 * Futex wait/wake on 32-bit words that live in SHARED memory (the per-host
 * segment), so the non-private futex operations are used: a waker in
 * another process (a peer rank or the daemon) must be able to wake us.
 *
 * Sleeper pattern (slot = my shmseg_slot_t):
 *     atomic_fetch_add(&slot->sleepers, 1);
 *     uint32_t v = atomic_load(&slot->doorbell);
 *     if (!work_available()) ft_futex_wait(&slot->doorbell, v, timeout_ns);
 *     atomic_fetch_sub(&slot->sleepers, 1);
 * Waker pattern: shmseg_wake(slot) (transport/shm/shm_seg.h) after making
 * the work visible.
 * Both sides use sequentially consistent atomics, so either the waker sees
 * the sleeper count or the sleeper sees the new doorbell value.
 */
#ifndef FTMPI_UTIL_FUTEX_H
#define FTMPI_UTIL_FUTEX_H

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

/* Sleep while *addr == expected, at most timeout_ns (< 0: no limit).
 * Returns 0 when woken (or spuriously), -EAGAIN when *addr != expected at
 * the call, -ETIMEDOUT, -EINTR. */
static inline int ft_futex_wait(_Atomic uint32_t *addr, uint32_t expected,
                                long timeout_ns)
{
    struct timespec ts, *tsp = NULL;
    if (timeout_ns >= 0) {
        ts.tv_sec = timeout_ns / 1000000000L;
        ts.tv_nsec = timeout_ns % 1000000000L;
        tsp = &ts;
    }
    long rc = syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expected, tsp,
                      NULL, 0);
    if (rc == 0)
        return 0;
    return -errno;
}

/* Wake every thread (of any process) sleeping on addr. */
static inline void ft_futex_wake(_Atomic uint32_t *addr)
{
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

#endif
