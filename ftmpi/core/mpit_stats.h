/*
 * What the library counts for the MPI tool information interface (MPI_T
 * performance variables and events, api/mpit_*.c, docs/mpit.md).
 *
 * The layers that see the events bump these counters (p2p: messages sent
 * and received, rendezvous sends, unexpected messages held; ft: failures
 * learned, recoveries and their time). Writers run under the library lock
 * (one at a time); readers (MPI_T, any thread, before or after MPI_Init)
 * only load. Every store is a relaxed atomic store, so that a read never
 * sees a torn value; the counters never decrease except unexp_now.
 *
 * An event (a failure, a finished recovery) also goes to mpit_event_hook
 * when the tool interface installed one (api/mpit_event.c); NULL: nobody
 * listens. The hook runs in the thread that noticed the event, with the
 * library lock held.
 */
#ifndef FTMPI_CORE_MPIT_STATS_H
#define FTMPI_CORE_MPIT_STATS_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

/* High-watermark slots: one per MPI_T handle of a HIGHWATERMARK variable
 * (each has its own maximum since its start or reset). */
#define MPIT_HWM_SLOTS 16

typedef struct {
    uint64_t sent_msgs, sent_bytes;   /* messages handed to p2p (eager or RTS) */
    uint64_t recv_msgs, recv_bytes;   /* messages matched by a receive */
    uint64_t rndv_sends;              /* of the sent: by the rendezvous protocol */
    uint64_t unexp_now;               /* unexpected messages held right now */
    int64_t unexp_hwm[MPIT_HWM_SLOTS];/* per slot: max of unexp_now; -1: slot free */
    int hwm_used;                     /* slots in use (0: nothing to update) */
    uint64_t failures;                /* process failures this process learned of */
    uint64_t recoveries;              /* recoveries finished (successfully) */
    uint64_t recovery_ns;             /* time spent in them, in nanoseconds */
    uint64_t recovery_start_ns;       /* the one under way (0: none) */
    uint64_t atomic_head;             /* ATOMIC collectives: agreements through the head */
    uint64_t atomic_local;            /* ATOMIC collectives decided in shared slots */
} mpit_stats_t;

extern mpit_stats_t mpit_stats;

/* Events for the hook (api/mpit_event.c numbers its event types the same). */
enum { MPIT_EV_FAILURE = 0, MPIT_EV_RECOVERED = 1 };
/* vals: FAILURE: world rank, incarnation; RECOVERED: generation, failed
 * processes, duration in ns, 0. */
extern void (*mpit_event_hook)(int kind, const int64_t vals[4]);

#define MPIT_ADD(field, v) \
    __atomic_store_n(&(field), __atomic_load_n(&(field), __ATOMIC_RELAXED) + (v), __ATOMIC_RELAXED)

static inline void mpit_count_send(size_t bytes, int rndv)
{
    MPIT_ADD(mpit_stats.sent_msgs, 1);
    MPIT_ADD(mpit_stats.sent_bytes, bytes);
    if (rndv)
        MPIT_ADD(mpit_stats.rndv_sends, 1);
}

static inline void mpit_count_recv(size_t bytes)
{
    MPIT_ADD(mpit_stats.recv_msgs, 1);
    MPIT_ADD(mpit_stats.recv_bytes, bytes);
}

/* An unexpected message is stored (delta 1) or let go (delta -1). */
void mpit_count_unexp_slow(void);
static inline void mpit_count_unexp(int delta)
{
    MPIT_ADD(mpit_stats.unexp_now, (uint64_t)(int64_t)delta);
    if (delta > 0 && mpit_stats.hwm_used)
        mpit_count_unexp_slow();
}

/* ft: a failure of world rank w (incarnation inc) is learned. */
void mpit_note_failure(int w, uint32_t inc);
/* ft: a recovery starts; it ends with rc (MPI_SUCCESS: a new generation). */
void mpit_note_recovery_begin(void);
void mpit_note_recovery_end(int rc, uint32_t generation, int nfailed);

/* A free high-watermark slot, started at the current level; -1: none. */
int mpit_hwm_alloc(void);
void mpit_hwm_free(int slot);

#pragma GCC visibility pop

#endif
