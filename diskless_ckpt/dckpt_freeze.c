/*
 * dckpt_freeze.c - incremental checkpoints: the application declares that
 * parts of its state no longer change (dckpt_freeze: the first bytes;
 * dckpt_freeze_strided: also the head of each column of a column-major
 * matrix), and a checkpoint written into a half that already holds an older
 * epoch of the same history encodes only the rest.
 *
 * Why it is safe. Epoch e goes into the half that holds epoch e - 2 (the
 * other half holds e - 1, the committed one). The bytes F that were frozen
 * when e - 1 was written have kept their values since, on this rank; a byte
 * offset that every member of the group can say the same for (or that lies
 * in its zero padding) holds in the committed half the group's checksum of
 * epoch e too. Each member computes what it may skip (dckpt_freeze_skip on
 * the committed half: rec.skip) and, of that, what the half being written
 * holds already (frozen when e - 2 was written, if that half is DONE:
 * rec.have); the checkpoint's record exchange carries both, and every
 * member computes the same runs of offsets (dckpt_freeze_next_run): the
 * pipe streams those that some member cannot skip, and every member copies
 * locally, from its committed half into the other, those that all skip but
 * some member's half does not hold (dckpt_checkpoint.c). A half that is not
 * DONE, holds a newer epoch than the committed
 * one, or was written with another layout skips nothing; a restore clears
 * the other half and the frozen mark, and a half decoded by a restore has
 * nothing frozen (dckpt_store_slot_clear), so the first checkpoint after a
 * rollback skips only what the restored half had frozen when it was
 * written and the application has frozen again, and nothing in a group with
 * a decoded member. The CRC of
 * the half still covers all of it (the skipped bytes are read, not sent).
 */
#include "dckpt_internal.h"

#include <stdint.h>

int dckpt_freeze_strided(dckpt_ctx_t *ctx, size_t bytes, size_t base, size_t stride,
                         size_t count, size_t head)
{
    if (ctx == NULL || (count > 0 && head > stride))
        return DCKPT_ERR_ARG;
    if (ctx->lay.is_checksum)
        return DCKPT_ERR_STATE;
    dckpt_frz_t f = {bytes, base, stride, count, head, 1};
    if (count == 0 || head == 0)
        f.base = f.stride = f.count = f.head = 0;
    ctx->frozen = f;
    return DCKPT_SUCCESS;
}

int dckpt_freeze(dckpt_ctx_t *ctx, size_t bytes)
{
    return dckpt_freeze_strided(ctx, bytes, 0, 0, 0, 0);
}

size_t dckpt_encoded_bytes(const dckpt_ctx_t *ctx)
{
    return ctx ? ctx->encoded : 0;
}

dckpt_frz_t dckpt_freeze_skip(const dckpt_ctx_t *ctx, int w, size_t data_bytes)
{
    const dckpt_slot_t *s = &ctx->slot[w];
    dckpt_frz_t none = {0, 0, 0, 0, 0, 0};
    if (ctx->active < 0 || s->state != DCKPT_SLOT_DONE || s->recs == NULL ||
        (w == ctx->active ? s->epoch != ctx->epoch : s->epoch >= ctx->epoch))
        return none;
    if (ctx->lay.is_checksum) {
        none.ok = 1; /* it stores what the data ranks send: they decide */
        return none;
    }
    const dckpt_rec_t *mine = &s->recs[ctx->lay.group_rank];
    if (s->len != data_bytes || mine->layout_crc != dckpt_store_layout_crc(ctx))
        return none;
    /* what was frozen then and is still frozen now (both only grow between
       restores; the smaller of each part) */
    const dckpt_frz_t *a = &s->frozen, *b = &ctx->frozen;
    dckpt_frz_t f = {a->prefix < b->prefix ? a->prefix : b->prefix, 0, 0, 0, 0, 1};
    if (a->count > 0 && b->count > 0 && a->base == b->base && a->stride == b->stride) {
        f.base = a->base;
        f.stride = a->stride;
        f.count = a->count < b->count ? a->count : b->count;
        f.head = a->head < b->head ? a->head : b->head;
    }
    return f;
}

/* Whether member (skip f, `bytes` of data) may skip offset x; *end gets the
   first offset after x where that may change. */
static int frz_at(const dckpt_frz_t *f, uint64_t bytes, uint64_t x, uint64_t *end)
{
    if (x >= bytes) { /* zero padding, the same in both epochs */
        *end = UINT64_MAX;
        return 1;
    }
    if (x < f->prefix) {
        *end = f->prefix;
        return 1;
    }
    *end = bytes;
    if (f->count == 0 || f->head == 0)
        return 0;
    if (x < f->base) {
        *end = f->base < bytes ? f->base : bytes;
        return 0;
    }
    uint64_t c = (x - f->base) / f->stride, o = (x - f->base) % f->stride;
    if (c >= f->count)
        return 0;
    uint64_t col = f->base + c * f->stride;
    if (o < f->head) {
        *end = col + f->head;
        return 1;
    }
    if (col + f->stride < bytes)
        *end = col + f->stride;
    return 0;
}

/* recs[i].skip or recs[i].have */
static const dckpt_frz_t *frz_of(const dckpt_rec_t *r, int have)
{
    return have ? &r->have : &r->skip;
}

int dckpt_freeze_next_run(const dckpt_rec_t *recs, int have, int k, int gsz, size_t frag_len,
                          size_t from, size_t *off, size_t *len)
{
    int all = 0;
    for (int i = 0; i < gsz; i++)
        if (!frz_of(&recs[i], have)->ok)
            all = 1; /* a member's half does not hold the older epoch */
    uint64_t x = from, end;
    while (x < frag_len) {
        /* skipped by all: up to where the first member stops skipping */
        uint64_t stop = UINT64_MAX;
        int skip = !all;
        for (int i = 0; i < k && skip; i++)
            if (!frz_at(frz_of(&recs[i], have), recs[i].bytes, x, &end))
                skip = 0;
            else if (end < stop)
                stop = end;
        if (!skip)
            break;
        x = stop;
    }
    if (x >= frag_len)
        return 0;
    /* dirty: while some member does not skip (the longest such stretch) */
    uint64_t go = all ? frag_len : x;
    while (go < frag_len) {
        uint64_t far = go;
        for (int i = 0; i < k; i++)
            if (!frz_at(frz_of(&recs[i], have), recs[i].bytes, go, &end) && end > far)
                far = end;
        if (far == go)
            break; /* every member skips go */
        go = far;
    }
    *off = x;
    *len = (go < frag_len ? go : frag_len) - x;
    return 1;
}
