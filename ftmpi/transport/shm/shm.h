/*
 * Shared-memory transport: one single-producer single-consumer byte ring
 * per ordered pair of local slots, inside the host segment (shm_seg.h).
 *
 * A record is an 8-byte header (payload length, flags) followed by the
 * payload; records start on a cache line (64 bytes) and never wrap around
 * the end of the ring (the producer writes a skip record instead).
 *
 * Publication is the header itself: the producer writes the payload, then
 * the header with its VALID bit (one 8-byte store), and the consumer polls
 * the header word at its head. A small message is thus one cache line
 * moving from producer to consumer, with no separate counter line to
 * fetch (the way Open MPI's vader "fast boxes" work). The header word the
 * consumer polls must read 0 until the record is published: the producer
 * keeps every line start between its tail and a "clean" frontier zeroed
 * (zeroing a few lines ahead after each publication, off the critical
 * path), so stale bytes of earlier laps are never taken for a header.
 * `tail` is still published (for a replacement process: shm_drop_incoming
 * and shm_init's reconciliation), `head` is published by the consumer for
 * the producer's free-space check, which reads it only when its cached
 * copy says the ring is full.
 *
 * Wake-ups: after publishing (an atomic exchange: a full barrier), the
 * producer wakes the consumer's slot only if it has sleepers (one load in
 * the fast path). A producer that finds the ring full raises the ring's
 * `waiting` flag (on the consumer's line); the consumer wakes the
 * producer's slot after freeing space.
 */
#ifndef FTMPI_TRANSPORT_SHM_H
#define FTMPI_TRANSPORT_SHM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "shm_seg.h"

typedef struct shm_ring shm_ring_t;

/* This process's side of one ring (private memory: the fast path reads
 * only these and the ring's data). */
typedef struct {
    shm_ring_t *r;
    char *data;          /* r's data area */
    uint64_t pos;        /* producer: tail; consumer: head */
    uint64_t other;      /* producer: cached consumer head */
    uint64_t clean;      /* producer: line starts in [pos, clean) read 0 */
} shm_end_t;

typedef struct {
    void *base;          /* mapped segment */
    uint32_t nslots;
    uint32_t my_slot;
    uint32_t ring_bytes;
    uint32_t max_record; /* largest payload one record can carry */
    shm_end_t *out;      /* [nslots] rings I produce into */
    shm_end_t *in;       /* [nslots] rings I consume from */
    uint32_t *active;    /* peer slots polled in order (not my own) */
    uint32_t nactive;
    int cma;             /* 1: process_vm_readv works between ranks */
} shm_t;

/* This process's attachment to its host segment (base NULL when it has
 * none: a singleton). The transport owns it; runtime/init.c sets it up. */
extern shm_t shm_self;

/* Called for each record; the payload is valid only during the call. */
typedef void shm_recv_fn(void *ctx, uint32_t src_slot, void *payload, size_t len);

int shm_init(shm_t *shm, void *base, uint32_t my_slot);
void shm_fini(shm_t *shm);
/* Discard everything queued for this slot (a replacement process starts
 * with empty incoming rings). */
void shm_drop_incoming(shm_t *shm);

/* Reserve room for a `len`-byte payload to dst; NULL if the ring is full
 * (the ring is then marked so that the consumer wakes us when it drains). */
void *shm_send_reserve(shm_t *shm, uint32_t dst, size_t len);
/* Publish the record reserved last for dst and wake dst if it sleeps. */
void shm_send_commit(shm_t *shm, uint32_t dst, size_t len);
/* Copy-in convenience: header + payload as one record; 0 or -EAGAIN. */
int shm_send(shm_t *shm, uint32_t dst, const void *hdr, size_t hlen,
             const void *data, size_t dlen);

/* Deliver every available record from every peer; returns how many. */
int shm_poll(shm_t *shm, shm_recv_fn *fn, void *ctx);
/* Would shm_poll find something? (cheap, no side effects) */
int shm_pending(shm_t *shm);

/* Single copy from another process's memory; bytes copied or -errno. */
ssize_t shm_cma_read(pid_t pid, void *local, const void *remote, size_t len);
ssize_t shm_cma_write(pid_t pid, void *remote, const void *local, size_t len);

#endif
