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
    char pad0[56];
    /* producer line */
    _Atomic uint64_t tail;
    _Atomic uint32_t waiting; /* producer wants to be woken when space frees */
    char pad1[52];
    char data[];
};

_Static_assert(sizeof(struct shm_ring) == SHMSEG_RING_CTL, "ring control size");

#define REC_HDR 8u
#define REC_SKIP 1u

typedef struct {
    uint32_t len;
    uint32_t flags;
} rec_hdr_t;

static inline size_t rec_size(size_t len) { return (REC_HDR + len + 7u) & ~(size_t)7u; }

int shm_init(shm_t *shm, void *base, uint32_t my_slot)
{
    shmseg_hdr_t *h = base;
    memset(shm, 0, sizeof(*shm));
    if (h->magic != SHMSEG_MAGIC || my_slot >= h->nslots)
        return -EINVAL;
    shm->base = base;
    shm->nslots = h->nslots;
    shm->my_slot = my_slot;
    shm->ring_bytes = h->ring_bytes;
    shm->max_record = h->ring_bytes / 4 - REC_HDR;
    shm->out = calloc(h->nslots, sizeof(*shm->out));
    shm->in = calloc(h->nslots, sizeof(*shm->in));
    shm->out_head = calloc(h->nslots, sizeof(uint64_t));
    shm->in_tail = calloc(h->nslots, sizeof(uint64_t));
    shm->active = calloc(h->nslots, sizeof(uint32_t));
    if (!shm->out || !shm->in || !shm->out_head || !shm->in_tail || !shm->active) {
        shm_fini(shm);
        return -ENOMEM;
    }
    for (uint32_t s = 0; s < h->nslots; s++) {
        shm->out[s] = shmseg_ring(base, my_slot, s);
        shm->in[s] = shmseg_ring(base, s, my_slot);
        shm->out_head[s] = atomic_load(&shm->out[s]->head);
        shm->in_tail[s] = atomic_load(&shm->in[s]->tail);
        shm->active[shm->nactive++] = s;
    }
    return 0;
}

void shm_fini(shm_t *shm)
{
    free(shm->out);
    free(shm->in);
    free(shm->out_head);
    free(shm->in_tail);
    free(shm->active);
    memset(shm, 0, sizeof(*shm));
}

void shm_drop_incoming(shm_t *shm)
{
    for (uint32_t s = 0; s < shm->nslots; s++) {
        shm_ring_t *in = shm->in[s];
        uint64_t t = atomic_load(&in->tail);
        atomic_store(&in->head, t);
        shm->in_tail[s] = t;
    }
}

static shmseg_slot_t *slot_of(shm_t *shm, uint32_t s) { return shmseg_slot(shm->base, s); }

void *shm_send_reserve(shm_t *shm, uint32_t dst, size_t len)
{
    shm_ring_t *r = shm->out[dst];
    const uint64_t size = shm->ring_bytes;
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    size_t need = rec_size(len);
    uint64_t pos = tail & (size - 1);
    size_t to_end = (size_t)(size - pos);
    size_t total = need <= to_end ? need : to_end + need;
    if (tail + total - shm->out_head[dst] > size) {
        shm->out_head[dst] = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail + total - shm->out_head[dst] > size) {
            atomic_store(&r->waiting, 1);
            /* Re-check after announcing, so a concurrent drain is not missed. */
            shm->out_head[dst] = atomic_load(&r->head);
            if (tail + total - shm->out_head[dst] > size)
                return NULL;
            atomic_store(&r->waiting, 0);
        }
    }
    if (need > to_end) {
        /* Skip to the start of the ring; published together with the record. */
        rec_hdr_t *skip = (rec_hdr_t *)(r->data + pos);
        skip->len = (uint32_t)(to_end - REC_HDR);
        skip->flags = REC_SKIP;
        atomic_store_explicit(&r->tail, tail + to_end, memory_order_release);
        pos = 0;
    }
    rec_hdr_t *h = (rec_hdr_t *)(r->data + pos);
    h->len = (uint32_t)len;
    h->flags = 0;
    return r->data + pos + REC_HDR;
}

void shm_send_commit(shm_t *shm, uint32_t dst, size_t len)
{
    shm_ring_t *r = shm->out[dst];
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    atomic_store_explicit(&r->tail, tail + rec_size(len), memory_order_release);
    atomic_thread_fence(memory_order_seq_cst);
    shmseg_slot_t *s = slot_of(shm, dst);
    if (atomic_load_explicit(&s->sleepers, memory_order_relaxed) != 0) {
        atomic_fetch_add(&s->doorbell, 1);
        ft_futex_wake(&s->doorbell);
    }
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

static int ring_drain(shm_t *shm, uint32_t src, shm_recv_fn *fn, void *ctx)
{
    shm_ring_t *r = shm->in[src];
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = shm->in_tail[src];
    if (head == tail) {
        tail = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (head == tail)
            return 0;
        shm->in_tail[src] = tail;
    }
    const uint64_t mask = shm->ring_bytes - 1;
    int n = 0;
    while (head != tail) {
        rec_hdr_t *h = (rec_hdr_t *)(r->data + (head & mask));
        size_t sz = rec_size(h->len);
        if (!(h->flags & REC_SKIP)) {
            fn(ctx, src, (char *)h + REC_HDR, h->len);
            n++;
        }
        head += sz;
        /* Release each record at once: the callback may have sent to src,
         * which may be waiting for room in this very ring. */
        atomic_store_explicit(&r->head, head, memory_order_release);
    }
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&r->waiting, memory_order_relaxed)) {
        atomic_store(&r->waiting, 0);
        shmseg_wake(slot_of(shm, src));
    }
    return n;
}

int shm_poll(shm_t *shm, shm_recv_fn *fn, void *ctx)
{
    int n = 0;
    for (uint32_t i = 0; i < shm->nactive; i++)
        n += ring_drain(shm, shm->active[i], fn, ctx);
    return n;
}

int shm_pending(shm_t *shm)
{
    for (uint32_t i = 0; i < shm->nactive; i++) {
        shm_ring_t *r = shm->in[shm->active[i]];
        if (atomic_load_explicit(&r->head, memory_order_relaxed) !=
            atomic_load_explicit(&r->tail, memory_order_acquire))
            return 1;
    }
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
