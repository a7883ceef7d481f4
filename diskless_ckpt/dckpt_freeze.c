/*
 * dckpt_freeze.c - incremental checkpoints: the application declares that
 * the first bytes of its state no longer change (dckpt_freeze), and a
 * checkpoint written into a half that already holds an older epoch of the
 * same history encodes only what follows them.
 *
 * Why it is safe. Epoch e goes into the half that holds epoch e - 1 (the
 * other half holds e - 1's successor, the committed one). The bytes
 * [0, F) that were frozen when e - 1 was written have kept their values
 * since, on this rank; if every member of the group can say the same for
 * its own F, the group's checksums over [0, min F) in that half are those
 * of epoch e too. Each member computes what it may skip (dckpt_freeze_skip),
 * the checkpoint's record exchange carries it, and the group skips the
 * smallest. A half that is not DONE, holds a newer epoch than the committed
 * one, or was written with another layout skips nothing; a restore clears
 * the other half and the frozen mark, so the first checkpoints after a
 * rollback (and every one on a replacement) encode everything. The CRC of
 * the half still covers all of it (the skipped bytes are read, not sent).
 */
#include "dckpt_internal.h"

#include <stdint.h>

int dckpt_freeze(dckpt_ctx_t *ctx, size_t bytes)
{
    if (ctx == NULL)
        return DCKPT_ERR_ARG;
    if (ctx->lay.is_checksum)
        return DCKPT_ERR_STATE;
    ctx->frozen = bytes;
    return DCKPT_SUCCESS;
}

size_t dckpt_freeze_skip(const dckpt_ctx_t *ctx, int w, size_t data_bytes)
{
    const dckpt_slot_t *s = &ctx->slot[w];
    if (ctx->active < 0 || w == ctx->active || s->state != DCKPT_SLOT_DONE ||
        s->epoch >= ctx->epoch || s->recs == NULL)
        return 0;
    if (ctx->lay.is_checksum)
        return SIZE_MAX; /* it stores what the data ranks send: they decide */
    const dckpt_rec_t *mine = &s->recs[ctx->lay.group_rank];
    if (s->len != data_bytes || mine->layout_crc != dckpt_store_layout_crc(ctx))
        return 0;
    size_t skip = s->frozen < ctx->frozen ? s->frozen : ctx->frozen;
    return skip < data_bytes ? skip : data_bytes;
}
