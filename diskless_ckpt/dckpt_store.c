/*
 * dckpt_store.c - local storage: the two halves of the double buffer, the
 * copy between the registered buffers and a half, and CRC-32.
 */
#include "dckpt_internal.h"

#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <sys/mman.h>

/* From this size on, memory is asked for in transparent huge pages: its
   first touch (the first checkpoint into each half, a replacement's restore)
   takes 512 times fewer page faults, which dominate it on virtual machines. */
#define STORE_HUGE ((size_t)2 << 20)

void *dckpt_alloc_state(size_t bytes)
{
    if (bytes < 2 * STORE_HUGE)
        return calloc(1, bytes > 0 ? bytes : 1);
    size_t round = (bytes + STORE_HUGE - 1) / STORE_HUGE * STORE_HUGE;
    void *p = aligned_alloc(STORE_HUGE, round);
    if (p == NULL)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, round, MADV_HUGEPAGE); /* advice only: fine if refused */
#endif
    memset(p, 0, bytes);
    return p;
}

/* Copy-and-check granularity for scatter: keeps the bytes in cache for the CRC. */
#define STORE_PIECE ((size_t)128 * 1024)

uint32_t dckpt_crc(uint32_t crc, const void *p, size_t n)
{
    /* standard CRC-32 (zlib/gzip), chainable; ISA-L takes 64-bit lengths */
    uint32_t r = crc32_gzip_refl(crc, (const unsigned char *)p, (uint64_t)n);
    dckpt_simd_clean(); /* see dckpt_rs.h */
    return r;
}

size_t dckpt_store_registered_bytes(const dckpt_ctx_t *ctx)
{
    size_t total = 0;
    for (int i = 0; i < ctx->nbufs; i++)
        total += ctx->bufs[i].bytes;
    return total;
}

uint32_t dckpt_store_layout_crc(const dckpt_ctx_t *ctx)
{
    uint32_t crc = 0;
    for (int i = 0; i < ctx->nbufs; i++) {
        uint64_t b = ctx->bufs[i].bytes;
        crc = dckpt_crc(crc, &b, sizeof(b));
    }
    return crc;
}

int dckpt_store_slot_reserve(dckpt_slot_t *slot, size_t len, int group_size)
{
    if (slot->recs == NULL) {
        slot->recs = calloc((size_t)group_size, sizeof(dckpt_rec_t));
        if (slot->recs == NULL)
            return DCKPT_ERR_NOMEM;
    }
    if (len > slot->cap) {
        /* the old contents are not needed: this half is being rewritten */
        free(slot->buf);
        slot->buf = dckpt_alloc_state(len);
        slot->cap = slot->buf ? len : 0;
        if (slot->buf == NULL)
            return DCKPT_ERR_NOMEM;
    }
    return DCKPT_SUCCESS;
}

int dckpt_prefault(dckpt_ctx_t *ctx)
{
    if (ctx == NULL)
        return DCKPT_ERR_ARG;
    if (ctx->needs_restore)
        return DCKPT_ERR_STATE;
    ctx->fresh = 0; /* the communicators are in use now (dckpt_restore.c) */
    const dckpt_layout_t *lay = &ctx->lay;
    /* a checksum rank's half holds the group's fragment: its longest data
       rank's state, as dckpt_checkpoint computes it from the records */
    unsigned long long mine = lay->is_checksum ? 0 : dckpt_store_registered_bytes(ctx);
    unsigned long long frag = 0;
    if (MPI_Allreduce(&mine, &frag, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, ctx->group) !=
        MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    size_t len = (size_t)(lay->is_checksum ? frag : mine);
    int rc = DCKPT_SUCCESS;
    for (int s = 0; s < 2 && rc == DCKPT_SUCCESS; s++)
        if (ctx->slot[s].state == DCKPT_SLOT_EMPTY) /* never a half that holds an epoch */
            rc = dckpt_store_slot_reserve(&ctx->slot[s], len, lay->group_size);
    if (rc == DCKPT_SUCCESS)
        rc = dckpt_store_pool_reserve(ctx, dckpt_pipe_pool_bytes(lay->m, ctx->params.chunk_bytes));
    return rc;
}

void dckpt_store_slot_clear(dckpt_slot_t *slot)
{
    slot->state = DCKPT_SLOT_EMPTY;
    slot->epoch = 0;
    slot->len = 0;
    slot->frag_len = 0;
    /* nothing of what it will hold is known to be frozen: a checkpoint sets
       it, a decoded (restored) half keeps it empty (dckpt_freeze.c) */
    memset(&slot->frozen, 0, sizeof(slot->frozen));
}

void dckpt_store_slot_release(dckpt_slot_t *slot)
{
    free(slot->buf);
    free(slot->recs);
    memset(slot, 0, sizeof(*slot));
}

void dckpt_store_gather(const dckpt_ctx_t *ctx, size_t off, uint8_t *dst, size_t n)
{
    size_t base = 0;
    for (int i = 0; i < ctx->nbufs && n > 0; i++) {
        size_t b = ctx->bufs[i].bytes;
        if (off < base + b) {
            size_t in = off - base;
            size_t take = b - in < n ? b - in : n;
            memcpy(dst, (const uint8_t *)ctx->bufs[i].ptr + in, take);
            dst += take;
            off += take;
            n -= take;
        }
        base += b;
    }
}

uint32_t dckpt_store_scatter(const dckpt_ctx_t *ctx, const uint8_t *src, size_t n)
{
    uint32_t crc = 0;
    for (int i = 0; i < ctx->nbufs && n > 0; i++) {
        uint8_t *dst = ctx->bufs[i].ptr;
        size_t b = ctx->bufs[i].bytes < n ? ctx->bufs[i].bytes : n;
        for (size_t o = 0; o < b; o += STORE_PIECE) {
            size_t piece = b - o < STORE_PIECE ? b - o : STORE_PIECE;
            memcpy(dst + o, src + o, piece);
            crc = dckpt_crc(crc, dst + o, piece);
        }
        src += b;
        n -= b;
    }
    return crc;
}

int dckpt_store_slot_of(const dckpt_ctx_t *ctx, int64_t epoch)
{
    for (int s = 0; s < 2; s++)
        if (ctx->slot[s].state == DCKPT_SLOT_DONE && ctx->slot[s].epoch == epoch)
            return s;
    return -1;
}

void dckpt_store_done_range(const dckpt_ctx_t *ctx, int64_t *newest, int64_t *oldest)
{
    *newest = 0;
    *oldest = 0;
    for (int s = 0; s < 2; s++) {
        if (ctx->slot[s].state != DCKPT_SLOT_DONE)
            continue;
        int64_t e = ctx->slot[s].epoch;
        if (*newest == 0 || e > *newest)
            *newest = e;
        if (*oldest == 0 || e < *oldest)
            *oldest = e;
    }
}

int dckpt_store_pool_reserve(dckpt_ctx_t *ctx, size_t bytes)
{
    if (bytes <= ctx->pool_cap)
        return DCKPT_SUCCESS;
    free(ctx->pool);
    ctx->pool = malloc(bytes);
    ctx->pool_cap = ctx->pool ? bytes : 0;
    return ctx->pool ? DCKPT_SUCCESS : DCKPT_ERR_NOMEM;
}
