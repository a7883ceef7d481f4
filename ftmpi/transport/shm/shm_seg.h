/*
 * The per-host shared-memory segment: the contract between the daemon, which
 * creates it, and the shared-memory transport inside the ranks, which uses it.
 *
 * The daemon creates one anonymous memfd per host (no file name, so nothing
 * can ever be left behind in /dev/shm), sizes it with shmseg_size() and hands
 * the descriptor to every rank it starts (environment FTMPI_SHM_FD). A zeroed
 * segment is valid: every ring is empty and every doorbell is at 0, so the
 * daemon only writes the header and each slot's identity.
 *
 * Layout:
 *   [0, 4096)                      shmseg_hdr_t
 *   [4096, 4096 + nslots*256)      shmseg_slot_t, one per local rank slot
 *   rings, page aligned            nslots*nslots rings, ring (src, dst) at
 *                                  shmseg_ring(base, src, dst)
 * A ring is SHMSEG_RING_CTL bytes of control (consumer line, producer line)
 * followed by ring_bytes of data; its format belongs to the transport.
 *
 * Waking a rank: anyone (peer rank or daemon) who makes work for slot s bumps
 * s's doorbell and futex-wakes it if s has sleepers. The daemon additionally
 * bumps ctl_pending when it has written a control message to the rank's
 * control socket, so that the rank reads its socket only when there is
 * something on it.
 */
#ifndef FTMPI_SHM_SEG_H
#define FTMPI_SHM_SEG_H

#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>

#include "util/futex.h"

#define SHMSEG_MAGIC 0x46544d5049534d31ull /* "FTMPISM1" */
#define SHMSEG_HDR_BYTES 4096u
#define SHMSEG_SLOT_BYTES 256u
#define SHMSEG_RING_CTL 128u
#define SHMSEG_DEFAULT_RING 65536u

typedef struct {
    uint64_t magic;
    uint32_t nslots;      /* local rank slots */
    uint32_t ring_bytes;  /* data bytes of one ring (power of two) */
    uint64_t total_bytes; /* size of the whole segment */
    uint64_t rings_off;   /* offset of the first ring */
} shmseg_hdr_t;

typedef struct {
    /* line 0: wake-up */
    _Atomic uint32_t doorbell;  /* bumped by whoever has work for this slot */
    _Atomic uint32_t sleepers;  /* threads of this slot asleep on doorbell */
    char pad0[56];
    /* line 1: control messages waiting on the control socket */
    _Atomic uint32_t ctl_pending;
    char pad1[60];
    /* line 2: identity, written by the daemon before the rank starts */
    _Atomic int32_t pid;        /* 0 while the slot is empty */
    _Atomic uint32_t incarnation;
    int32_t world_rank;
    _Atomic int32_t state;      /* SHMSEG_SLOT_* */
    char pad2[48];
    char pad3[64];
} shmseg_slot_t;

enum { SHMSEG_SLOT_EMPTY = 0, SHMSEG_SLOT_LIVE = 1, SHMSEG_SLOT_DEAD = 2 };

_Static_assert(sizeof(shmseg_slot_t) == SHMSEG_SLOT_BYTES, "slot size");

static inline size_t shmseg_ring_stride(uint32_t ring_bytes)
{
    return SHMSEG_RING_CTL + (size_t)ring_bytes;
}

static inline size_t shmseg_rings_off(uint32_t nslots)
{
    size_t off = SHMSEG_HDR_BYTES + (size_t)nslots * SHMSEG_SLOT_BYTES;
    return (off + 4095u) & ~(size_t)4095u;
}

static inline size_t shmseg_size(uint32_t nslots, uint32_t ring_bytes)
{
    return shmseg_rings_off(nslots) +
           (size_t)nslots * nslots * shmseg_ring_stride(ring_bytes);
}

static inline shmseg_slot_t *shmseg_slot(void *base, uint32_t s)
{
    return (shmseg_slot_t *)((char *)base + SHMSEG_HDR_BYTES +
                             (size_t)s * SHMSEG_SLOT_BYTES);
}

static inline void *shmseg_ring(void *base, uint32_t src, uint32_t dst)
{
    shmseg_hdr_t *h = (shmseg_hdr_t *)base;
    return (char *)base + h->rings_off +
           ((size_t)src * h->nslots + dst) * shmseg_ring_stride(h->ring_bytes);
}

/* Initialise a zeroed segment (daemon side). */
static inline void shmseg_init(void *base, uint32_t nslots, uint32_t ring_bytes)
{
    shmseg_hdr_t *h = (shmseg_hdr_t *)base;
    h->nslots = nslots;
    h->ring_bytes = ring_bytes;
    h->total_bytes = shmseg_size(nslots, ring_bytes);
    h->rings_off = shmseg_rings_off(nslots);
    h->magic = SHMSEG_MAGIC;
}

/* Make slot s notice new work: bump its doorbell, wake it if it sleeps
 * (rank or daemon side). */
static inline void shmseg_wake(shmseg_slot_t *slot)
{
    atomic_fetch_add(&slot->doorbell, 1);
    if (atomic_load(&slot->sleepers) != 0)
        ft_futex_wake(&slot->doorbell);
}

/* Daemon side: a control message was written to the slot's socket. */
static inline void shmseg_ctl_notify(shmseg_slot_t *slot)
{
    atomic_fetch_add(&slot->ctl_pending, 1);
    shmseg_wake(slot);
}

#endif
