#include "shm.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "util/futex.h"

shm_t shm_self;

struct shm_ring {
    /* consumer line */
    _Atomic uint64_t head;
    _Atomic uint32_t waiting; /* producer wants to be woken when space frees */
    char pad0[52];
    /* producer line */
    _Atomic uint64_t tail;
    char pad1[56];
    char data[];
};

_Static_assert(sizeof(struct shm_ring) == SHMSEG_RING_CTL, "ring control size");

#define LINE 64u
#define REC_HDR 8u
#define REC_VALID 1u     /* flags: the record is published */
#define REC_SKIP 2u      /* flags: padding up to the end of the ring */
#define AHEAD (4u * LINE) /* lines zeroed ahead of the tail after a publication */

static inline size_t rec_size(size_t len) { return (REC_HDR + len + LINE - 1) & ~(size_t)(LINE - 1); }

static inline _Atomic uint64_t *hdr_at(const shm_end_t *e, uint64_t pos, uint64_t mask)
{
    return (_Atomic uint64_t *)(e->data + (pos & mask));
}

static inline uint64_t hdr_word(size_t len, uint32_t flags)
{
    return (uint64_t)(uint32_t)len | (uint64_t)(flags | REC_VALID) << 32;
}

/* Bytes a published record occupies, from its header word. */
static inline uint64_t hdr_span(uint64_t h)
{
    uint32_t len = (uint32_t)h;
    return (h >> 32) & REC_SKIP ? len : rec_size(len);
}

/* A producer taking over a ring (a replacement process, or the first one):
 * a predecessor may have published records without moving `tail` (it died
 * between the two stores); step over them. The line at the result reads
 * 0, as every publication made sure first. */
static void out_attach(shm_t *shm, shm_end_t *e)
{
    const uint64_t mask = shm->ring_bytes - 1;
    uint64_t tail = atomic_load(&e->r->tail);
    uint64_t h;
    while ((h = atomic_load(hdr_at(e, tail, mask))) & ((uint64_t)REC_VALID << 32))
        tail += hdr_span(h);
    atomic_store(&e->r->tail, tail);
    e->pos = tail;
    e->other = atomic_load(&e->r->head);
    e->clean = tail + LINE;
}

int shm_init(shm_t *shm, void *base, uint32_t my_slot)
{
    shmseg_hdr_t *h = base;
    memset(shm, 0, sizeof(*shm));
    if (h->magic != SHMSEG_MAGIC || my_slot >= h->nslots || h->ring_bytes < 4 * LINE ||
        (h->ring_bytes & (h->ring_bytes - 1)))
        return -EINVAL;
    shm->base = base;
    shm->nslots = h->nslots;
    shm->my_slot = my_slot;
    shm->ring_bytes = h->ring_bytes;
    shm->max_record = h->ring_bytes / 4 - REC_HDR;
    shm->out = calloc(h->nslots, sizeof(*shm->out));
    shm->in = calloc(h->nslots, sizeof(*shm->in));
    shm->active = calloc(h->nslots, sizeof(uint32_t));
    if (!shm->out || !shm->in || !shm->active) {
        shm_fini(shm);
        return -ENOMEM;
    }
    for (uint32_t s = 0; s < h->nslots; s++) {
        shm_end_t *o = &shm->out[s], *i = &shm->in[s];
        o->r = shmseg_ring(base, my_slot, s);
        o->data = o->r->data;
        out_attach(shm, o);
        i->r = shmseg_ring(base, s, my_slot);
        i->data = i->r->data;
        i->pos = atomic_load(&i->r->head);
        if (s != my_slot) /* packets to myself never go through a ring */
            shm->active[shm->nactive++] = s;
    }
    return 0;
}

void shm_fini(shm_t *shm)
{
    free(shm->out);
    free(shm->in);
    free(shm->active);
    memset(shm, 0, sizeof(*shm));
}

void shm_drop_incoming(shm_t *shm)
{
    for (uint32_t s = 0; s < shm->nslots; s++) {
        shm_end_t *i = &shm->in[s];
        /* Past everything published (a predecessor may have read beyond
         * a tail that its producer had not moved yet). */
        uint64_t t = atomic_load(&i->r->tail), hd = atomic_load(&i->r->head);
        uint64_t p = (int64_t)(t - hd) > 0 ? t : hd;
        atomic_store(&i->r->head, p);
        i->pos = p;
    }
}

static shmseg_slot_t *slot_of(shm_t *shm, uint32_t s) { return shmseg_slot(shm->base, s); }

/* Make the line start at `end` (the header the consumer reads after the
 * record ending there) read 0 before that record is published. */
static inline void clean_next(shm_end_t *o, uint64_t end, uint64_t mask)
{
    if (o->clean <= end) {
        atomic_store_explicit(hdr_at(o, end, mask), 0, memory_order_relaxed);
        o->clean = end + LINE;
    }
}

void *shm_send_reserve(shm_t *shm, uint32_t dst, size_t len)
{
    shm_end_t *o = &shm->out[dst];
    const uint64_t size = shm->ring_bytes, mask = size - 1;
    uint64_t tail = o->pos;
    size_t need = rec_size(len);
    uint64_t pos = tail & mask;
    size_t to_end = (size_t)(size - pos);
    /* the record (after a skip to the start, if it does not fit before the
     * end) and the line after it, which is zeroed */
    size_t total = (need <= to_end ? need : to_end + need) + LINE;
    if (tail + total - o->other > size) {
        o->other = atomic_load_explicit(&o->r->head, memory_order_acquire);
        if (tail + total - o->other > size) {
            atomic_store(&o->r->waiting, 1);
            /* Re-check after announcing, so a concurrent drain is not missed. */
            o->other = atomic_load(&o->r->head);
            if (tail + total - o->other > size)
                return NULL;
            atomic_store(&o->r->waiting, 0);
        }
    }
    if (need > to_end) {
        /* Skip to the start of the ring, published at once. */
        clean_next(o, tail + to_end, mask);
        atomic_store_explicit(hdr_at(o, tail, mask), hdr_word(to_end, REC_SKIP),
                              memory_order_release);
        tail += to_end;
        o->pos = tail;
        atomic_store_explicit(&o->r->tail, tail, memory_order_relaxed);
        pos = 0;
    }
    return o->data + pos + REC_HDR;
}

void shm_send_commit(shm_t *shm, uint32_t dst, size_t len)
{
    shm_end_t *o = &shm->out[dst];
    const uint64_t size = shm->ring_bytes, mask = size - 1;
    uint64_t tail = o->pos, end = tail + rec_size(len);
    clean_next(o, end, mask);
    /* Publish; the exchange is also the barrier between the publication
     * and the read of the consumer's sleepers (a sleeper announces itself,
     * then polls). */
    atomic_exchange(hdr_at(o, tail, mask), hdr_word(len, 0));
    o->pos = end;
    atomic_store_explicit(&o->r->tail, end, memory_order_relaxed);
    shmseg_slot_t *s = slot_of(shm, dst);
    if (atomic_load_explicit(&s->sleepers, memory_order_relaxed) != 0) {
        atomic_fetch_add(&s->doorbell, 1);
        ft_futex_wake(&s->doorbell);
    }
    /* Zero a few line starts ahead, within the space the consumer freed,
     * so that the next publication finds its following line clean. */
    uint64_t upto = end + AHEAD, lim = o->other + size;
    if (upto > lim)
        upto = lim;
    for (uint64_t p = o->clean; p < upto; p += LINE)
        atomic_store_explicit(hdr_at(o, p, mask), 0, memory_order_relaxed);
    if (o->clean < upto)
        o->clean = upto;
}

int shm_send(shm_t *shm, uint32_t dst, const void *hdr, size_t hlen,
             const void *data, size_t dlen)
{
    char *p = shm_send_reserve(shm, dst, hlen + dlen);
    if (!p)
        return -EAGAIN;
    memcpy(p, hdr, hlen);
    if (dlen)
        memcpy(p + hlen, data, dlen);
    shm_send_commit(shm, dst, hlen + dlen);
    return 0;
}

/* Deliver what src has published (the caller saw a published header). */
__attribute__((noinline)) static int ring_drain(shm_t *shm, uint32_t src, shm_recv_fn *fn,
                                                void *ctx)
{
    shm_end_t *i = &shm->in[src];
    const uint64_t mask = shm->ring_bytes - 1;
    uint64_t head = i->pos;
    uint64_t h = atomic_load_explicit(hdr_at(i, head, mask), memory_order_acquire);
    int n = 0;
    do {
        if (!(h >> 32 & REC_SKIP)) {
            fn(ctx, src, i->data + (head & mask) + REC_HDR, (uint32_t)h);
            n++;
        }
        head += hdr_span(h);
        i->pos = head;
        /* Release each record at once: the callback may have sent to src,
         * which may be waiting for room in this very ring. */
        atomic_store_explicit(&i->r->head, head, memory_order_release);
        h = atomic_load_explicit(hdr_at(i, head, mask), memory_order_acquire);
    } while (h >> 32 & REC_VALID);
    /* The barrier between the last release and the read of `waiting`: a
     * seq_cst read-modify-write of `head` (it adds 0), against the
     * producer's seq_cst store of `waiting` and load of `head`. On x86 a
     * locked add, which costs less than the mfence of a seq_cst fence. */
    atomic_fetch_add_explicit(&i->r->head, 0, memory_order_seq_cst);
    if (atomic_load_explicit(&i->r->waiting, memory_order_seq_cst)) {
        atomic_store(&i->r->waiting, 0);
        shmseg_wake(slot_of(shm, src));
    }
    return n;
}

/* Has src published a record I have not read? */
static inline int ring_ready(const shm_t *shm, uint32_t src)
{
    const shm_end_t *i = &shm->in[src];
    uint64_t h = atomic_load_explicit(hdr_at(i, i->pos, shm->ring_bytes - 1u),
                                      memory_order_acquire);
    return (h >> 32 & REC_VALID) != 0;
}

/* shm_poll from the k-th active ring on, which has something. */
__attribute__((noinline)) static int poll_from(shm_t *shm, uint32_t k, shm_recv_fn *fn,
                                               void *ctx)
{
    int n = ring_drain(shm, shm->active[k], fn, ctx);
    for (k++; k < shm->nactive; k++)
        if (ring_ready(shm, shm->active[k]))
            n += ring_drain(shm, shm->active[k], fn, ctx);
    return n;
}

int shm_poll(shm_t *shm, shm_recv_fn *fn, void *ctx)
{
    /* An empty poll is a few loads per peer and no call (a leaf function:
     * nothing to save): drain only where a header is published. */
    for (uint32_t k = 0; k < shm->nactive; k++)
        if (ring_ready(shm, shm->active[k]))
            return poll_from(shm, k, fn, ctx);
    return 0;
}

int shm_pending(shm_t *shm)
{
    for (uint32_t k = 0; k < shm->nactive; k++)
        if (ring_ready(shm, shm->active[k]))
            return 1;
    return 0;
}

/* Copy len bytes between our memory and another process's, all of it. */
static ssize_t cma_copy(pid_t pid, void *local, void *remote, size_t len, int write)
{
    size_t done = 0;
    while (done < len) {
        struct iovec l = {(char *)local + done, len - done};
        struct iovec r = {(char *)remote + done, len - done};
        ssize_t n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        if (n == 0)
            return -EIO;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

ssize_t shm_cma_read(pid_t pid, void *local, const void *remote, size_t len)
{
    return cma_copy(pid, local, (void *)remote, len, 0);
}

ssize_t shm_cma_write(pid_t pid, void *remote, const void *local, size_t len)
{
    return cma_copy(pid, (void *)local, remote, len, 1);
}
