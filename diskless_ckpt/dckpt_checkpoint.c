/*
 * dckpt_checkpoint.c - the checkpoint protocol.
 *
 * Epoch e is written into the half of the double buffer that does not hold
 * the committed epoch:
 *   1. group allgather of the members' records (sizes, layout, metadata,
 *      local status): every member learns the fragment length L = the longest
 *      data rank's bytes, and whether every member is ready;
 *   2. streamed encode (dckpt_pipe.c): each data rank copies its registered
 *      bytes into its half chunk by chunk (computing their CRC) and folds them
 *      into the running checksums on their way along the chain to the
 *      checksum ranks, which receive straight into their half (and CRC it);
 *      incremental (dckpt_freeze.c): only the bytes some member changed since
 *      the committed epoch; those frozen since then that the half does not
 *      hold yet are copied locally from the committed half first;
 *   3. group allgather of the CRCs and statuses: when it returns with every
 *      status 0, every member of the group has its part of epoch e: the half
 *      is DONE on this rank;
 *   4. commit: MIN-allreduce of the group verdicts over the whole
 *      communicator; on success the DONE half becomes the active one.
 * A failure anywhere before 4 returns leaves the committed half untouched;
 * dckpt_restore then picks the newest epoch every survivor holds DONE.
 *
 * Overlapped (params.overlap): stage 2 is the local copy and posted sends on
 * the data ranks, the receive and encode on the checksum ranks
 * (dckpt_overlap.c); stages 3 and 4 run at the start of the next call
 * (ckpt_settle), after the data ranks' sends completed. Until then the half
 * is PENDING: a failure falls back to the committed epoch before it.
 */
#include "dckpt_internal.h"
#include "dckpt_testing.h"

#include <string.h>

typedef struct ckpt_crc_arg {
    const dckpt_ctx_t *ctx;
    const uint8_t *half; /* the half being written */
    uint32_t crc;
    size_t pos; /* the CRC covers half[0, pos); the bytes the pipe skips are there already */
    double copy_s; /* time in ckpt_fill */
    size_t copied;
} ckpt_crc_arg_t;

/* the CRC up to `off` (the unchanged bytes before it), then of [off, off + n) */
static void ckpt_crc_to(ckpt_crc_arg_t *a, const uint8_t *p, size_t off, size_t n)
{
    if (off > a->pos)
        a->crc = dckpt_crc(a->crc, a->half + a->pos, off - a->pos);
    a->crc = dckpt_crc(a->crc, p, n);
    a->pos = off + n;
}

/* data rank: registered bytes -> its half, piece by piece, and their CRC */
static void ckpt_fill(void *arg, uint8_t *dst, size_t off, size_t n)
{
    ckpt_crc_arg_t *a = arg;
    double t0 = MPI_Wtime();
    dckpt_store_gather(a->ctx, off, dst, n);
    ckpt_crc_to(a, dst, off, n);
    a->copy_s += MPI_Wtime() - t0;
    a->copied += n;
}

/* checksum rank: CRC of the checksum as it arrives, in order */
static void ckpt_done(void *arg, const uint8_t *p, size_t off, size_t n)
{
    ckpt_crc_to(arg, p, off, n);
}

void dckpt_test_set_fault(dckpt_ctx_t *ctx, int kind, long arg)
{
    if (ctx == NULL)
        return;
    ctx->fault.kind = kind;
    ctx->fault.arg = arg;
}

/* the runs the group encodes (the same on every member: from the records) */
int dckpt_ckpt_next_run(void *arg, size_t from, size_t *off, size_t *len)
{
    dckpt_ctx_t *ctx = arg;
    const dckpt_slot_t *slot = &ctx->slot[ctx->active < 0 ? 0 : 1 - ctx->active];
    return dckpt_freeze_next_run(slot->recs, 0, ctx->lay.k, ctx->lay.group_size, slot->frag_len,
                                 from, off, len);
}

/* The bytes that no member encodes but some member's half being written does
   not hold (frozen since the committed epoch, not since the older one in
   this half): copied from the committed half, [0, len) of mine. 0, or -1
   when the committed half is too short (cannot happen: the same layout). */
static int ckpt_copy_frozen(dckpt_ctx_t *ctx, dckpt_slot_t *slot, size_t len)
{
    if (ctx->active < 0)
        return 0;
    const dckpt_slot_t *from = &ctx->slot[ctx->active];
    const dckpt_layout_t *lay = &ctx->lay;
    size_t at = 0, o, l, eo, el;
    while (at < len && dckpt_freeze_next_run(slot->recs, 1, lay->k, lay->group_size,
                                             slot->frag_len, at, &o, &l) && l > 0) {
        size_t end = o + l < len ? o + l : len, x = o;
        while (x < end) { /* [x, end) minus the runs the pipe encodes */
            int more = dckpt_ckpt_next_run(ctx, x, &eo, &el);
            size_t stop = more && eo < end ? eo : end;
            if (stop > x) {
                if (stop > from->len)
                    return -1;
                memcpy(slot->buf + x, from->buf + x, stop - x);
                ctx->stats.copied_frozen += stop - x;
            }
            x = more && eo < end ? eo + el : end;
        }
        at = o + l;
    }
    return 0;
}

/* their total length */
static size_t ckpt_dirty(dckpt_ctx_t *ctx, const dckpt_slot_t *slot)
{
    size_t at = 0, off, len, sum = 0;
    while (at < slot->frag_len && dckpt_ckpt_next_run(ctx, at, &off, &len) && len > 0) {
        sum += len;
        at = off + len;
    }
    return sum;
}

/* Stage 2 on this rank: the runs of [0, frag_len) the group encodes (the
   bytes between them are in the half already, dckpt_freeze.c; they count in
   the CRC). overlap: the data rank copies them and posts its sends
   (dckpt_overlap.c), the checksum rank receives and encodes them. */
static int ckpt_encode(dckpt_ctx_t *ctx, dckpt_slot_t *slot, int have_buf, size_t data_bytes,
                       long stop_after, int overlap, uint32_t *crc_p)
{
    const dckpt_layout_t *lay = &ctx->lay;
    ckpt_crc_arg_t arg = {ctx, slot->buf, 0, 0, 0.0, 0};
    size_t len = lay->is_checksum ? slot->frag_len : data_bytes;
    int rc = DCKPT_SUCCESS;
    ctx->encoded = ckpt_dirty(ctx, slot);

    if (overlap && ctx->encoded > 0 && lay->is_checksum) {
        rc = dckpt_overlap_encode(ctx, slot, have_buf, ckpt_done, &arg);
    } else if (overlap && ctx->encoded > 0) {
        size_t at = 0, off, n;
        while (at < data_bytes && dckpt_ckpt_next_run(ctx, at, &off, &n) && n > 0 &&
               off < data_bytes) {
            size_t end = off + n < data_bytes ? off + n : data_bytes;
            for (size_t x = off; x < end; x += DCKPT_PIPE_PIECE) /* in cache: copy, CRC */
                ckpt_fill(&arg, slot->buf + x, x,
                          end - x < DCKPT_PIPE_PIECE ? end - x : DCKPT_PIPE_PIECE);
            at = off + n;
        }
        rc = dckpt_overlap_post(ctx, slot, data_bytes);
    } else if (ctx->encoded > 0) {
        dckpt_pipe_t p;
        memset(&p, 0, sizeof(p));
        p.comm = ctx->group;
        p.tag = DCKPT_TAG_ENCODE;
        p.nsrc = lay->k;
        p.src = ctx->iota; /* group ranks 0..k-1 */
        p.ntgt = lay->m;
        p.tgt = ctx->iota + lay->k; /* group ranks k..k+m-1 */
        p.coef = ctx->parity_coef;
        p.use_xor = ctx->params.code == DCKPT_CODE_XOR;
        p.len = ctx->encoded;
        p.next_run = dckpt_ckpt_next_run;
        p.run_arg = ctx;
        p.chunk = ctx->params.chunk_bytes;
        p.stop_after = stop_after;
        p.me = lay->group_rank;
        p.pool = ctx->pool;
        p.arg = &arg;
        if (lay->is_checksum) {
            p.buf = have_buf ? slot->buf : NULL;
            p.valid = slot->frag_len;
            p.done = ckpt_done;
        } else {
            p.buf = slot->buf;
            p.valid = data_bytes;
            p.fill = ckpt_fill;
        }
        rc = dckpt_pipe_run(&p);
    }
    if (have_buf && len > arg.pos) /* the unchanged bytes after the last run */
        arg.crc = dckpt_crc(arg.crc, slot->buf + arg.pos, len - arg.pos);
    *crc_p = arg.crc;
    ctx->stats.copy_s += arg.copy_s;
    ctx->stats.copied = arg.copied;
    ctx->stats.encoded = ctx->encoded;
    return rc;
}

/* Stages 3 and 4 of the epoch in half w (both kinds of checkpoint). */
static int ckpt_commit(dckpt_ctx_t *ctx, int w, int verdict, uint32_t crc, int local,
                       dckpt_fault_t fault, int64_t *epoch_p)
{
    dckpt_slot_t *slot = &ctx->slot[w];
    int gsz = ctx->lay.group_size;
    int64_t epoch = slot->epoch;
    double t0 = MPI_Wtime();

    /* 3. CRCs and statuses */
    int32_t mine[2] = {(int32_t)crc, local}, *all = ctx->crc_scratch;
    if (MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, ctx->group) != MPI_SUCCESS) {
        ctx->needs_restore = 1;
        return DCKPT_ERR_MPI;
    }
    for (int i = 0; i < gsz; i++) {
        slot->recs[i].crc = (uint32_t)all[2 * i];
        slot->recs[i].status = all[2 * i + 1];
        if (all[2 * i + 1] < verdict)
            verdict = all[2 * i + 1];
    }
    if (verdict == DCKPT_SUCCESS && fault.kind != DCKPT_FAULT_LOSE_DONE)
        slot->state = DCKPT_SLOT_DONE;
    double t1 = MPI_Wtime();
    ctx->stats.crc_s = t1 - t0;

    /* 4. commit */
    int agreed;
    if (fault.kind == DCKPT_FAULT_SKIP_COMMIT)
        agreed = fault.arg ? DCKPT_SUCCESS : DCKPT_ERR_MPI;
    else if (fault.kind == DCKPT_FAULT_LOSE_DONE)
        agreed = DCKPT_ERR_MPI;
    else
        agreed = dckpt_ctx_agree(ctx, verdict);
    ctx->stats.commit_s = MPI_Wtime() - t1;
    if (agreed == DCKPT_ERR_MPI) {
        ctx->needs_restore = 1; /* states may differ between ranks: restore decides */
        return DCKPT_ERR_MPI;
    }
    if (agreed != DCKPT_SUCCESS) {
        /* every rank knows the checkpoint failed: drop it, the committed epoch stands */
        dckpt_store_slot_clear(slot);
        return agreed;
    }
    ctx->active = w;
    ctx->epoch = epoch;
    ctx->next_epoch = epoch + 1;
    if (epoch_p)
        *epoch_p = epoch;
    return DCKPT_SUCCESS;
}

/* Overlap: the started epoch's transfers done, stages 3 and 4. */
static int ckpt_settle(dckpt_ctx_t *ctx)
{
    if (!ctx->pend.active)
        return DCKPT_SUCCESS;
    ctx->pend.active = 0;
    double t0 = MPI_Wtime();
    if (dckpt_overlap_wait(ctx) != DCKPT_SUCCESS) {
        ctx->needs_restore = 1;
        return DCKPT_ERR_MPI;
    }
    ctx->stats.wait_s = MPI_Wtime() - t0;
    dckpt_fault_t none = {DCKPT_FAULT_NONE, 0};
    return ckpt_commit(ctx, ctx->pend.w, ctx->pend.verdict, ctx->pend.crc, ctx->pend.local,
                       none, NULL);
}

int dckpt_last_stats(const dckpt_ctx_t *ctx, dckpt_stats_t *st)
{
    if (ctx == NULL || st == NULL)
        return DCKPT_ERR_ARG;
    *st = ctx->stats;
    return DCKPT_SUCCESS;
}

int dckpt_checkpoint(dckpt_ctx_t *ctx, const void *meta, size_t meta_len, int64_t *epoch_p)
{
    if (ctx == NULL || meta_len > DCKPT_META_MAX || (meta == NULL && meta_len > 0))
        return DCKPT_ERR_ARG;
    if (ctx->needs_restore)
        return DCKPT_ERR_STATE;

    dckpt_fault_t fault = ctx->fault;
    ctx->fault.kind = DCKPT_FAULT_NONE;
    ctx->fresh = 0;
    memset(&ctx->stats, 0, sizeof(ctx->stats));
    int rc0 = ckpt_settle(ctx);
    if (rc0 != DCKPT_SUCCESS)
        return rc0;
    double t0 = MPI_Wtime();

    const dckpt_layout_t *lay = &ctx->lay;
    int gsz = lay->group_size;
    int w = ctx->active < 0 ? 0 : 1 - ctx->active;
    dckpt_slot_t *slot = &ctx->slot[w];
    int64_t epoch = ctx->next_epoch;
    size_t data_bytes = lay->is_checksum ? 0 : dckpt_store_registered_bytes(ctx);
    /* before the half is cleared: what need not be encoded (frozen since the
       committed epoch) and, of it, what the half holds already */
    dckpt_frz_t skip = ctx->active < 0 ? dckpt_freeze_skip(ctx, w, data_bytes)
                                       : dckpt_freeze_skip(ctx, ctx->active, data_bytes);
    dckpt_frz_t have = dckpt_freeze_skip(ctx, w, data_bytes);

    dckpt_store_slot_clear(slot);
    slot->state = DCKPT_SLOT_PENDING;
    slot->epoch = epoch;
    slot->frozen = ctx->frozen;

    /* 1. records */
    int local = dckpt_store_slot_reserve(slot, data_bytes, gsz);
    if (local == DCKPT_SUCCESS)
        local = dckpt_store_pool_reserve(ctx,
                                         dckpt_pipe_pool_bytes(lay->m, ctx->params.chunk_bytes));
    dckpt_rec_t rec;
    memset(&rec, 0, sizeof(rec));
    rec.epoch = epoch;
    rec.bytes = data_bytes;
    rec.nbufs = (uint32_t)ctx->nbufs;
    rec.layout_crc = dckpt_store_layout_crc(ctx);
    rec.status = local;
    rec.meta_len = (uint32_t)meta_len;
    rec.skip = skip;
    rec.have = have;
    if (meta_len > 0)
        memcpy(rec.meta, meta, meta_len);
    if (slot->recs == NULL)
        goto mpi_failed; /* cannot happen: records are allocated by dckpt_create */
    if (MPI_Allgather(&rec, (int)sizeof(rec), MPI_BYTE, slot->recs, (int)sizeof(rec), MPI_BYTE,
                      ctx->group) != MPI_SUCCESS)
        goto mpi_failed;

    int verdict = DCKPT_SUCCESS;
    size_t frag_len = 0;
    for (int i = 0; i < gsz; i++) {
        if (slot->recs[i].status < verdict)
            verdict = slot->recs[i].status;
        if (slot->recs[i].epoch != epoch)
            verdict = DCKPT_ERR_STATE; /* ranks disagree on the epoch number */
        if (i < lay->k && slot->recs[i].bytes > frag_len)
            frag_len = (size_t)slot->recs[i].bytes;
    }
    for (int i = lay->k; i < gsz; i++)
        slot->recs[i].bytes = frag_len;
    slot->frag_len = frag_len;
    slot->len = lay->is_checksum ? frag_len : data_bytes;
    ctx->stats.registered = lay->is_checksum ? frag_len : data_bytes;
    double t1 = MPI_Wtime();
    ctx->stats.records_s = t1 - t0;

    /* 2. encode. overlap: every rank of the communicator defers (the
       parameter is the same everywhere), whatever its group's verdict, so
       that the commit's agreement runs on every rank at the same call; a
       failed verdict is agreed there and returned by the next call. The
       fault-injection hooks (tests) force the blocking path on the rank
       they are set on: set them on every rank with overlap. */
    uint32_t crc = 0;
    int overlap = ctx->params.overlap && fault.kind == DCKPT_FAULT_NONE;
    if (verdict == DCKPT_SUCCESS) {
        int have_buf = 1;
        if (lay->is_checksum) {
            local = dckpt_store_slot_reserve(slot, frag_len, gsz);
            have_buf = local == DCKPT_SUCCESS; /* without storage, receive and drop */
        }
        double tc = MPI_Wtime();
        if (have_buf && frag_len > 0 &&
            ckpt_copy_frozen(ctx, slot, lay->is_checksum ? frag_len : data_bytes) != 0)
            local = DCKPT_ERR_STATE; /* the others learn it in stage 3 */
        ctx->stats.copy_s = MPI_Wtime() - tc;
        long stop = fault.kind == DCKPT_FAULT_ENCODE_STOP ? fault.arg : -1;
        if (frag_len > 0 && ckpt_encode(ctx, slot, have_buf, data_bytes, stop, overlap, &crc) !=
                                DCKPT_SUCCESS)
            goto mpi_failed;
    }
    ctx->stats.encode_s = MPI_Wtime() - t1 - ctx->stats.copy_s;
    if (fault.kind == DCKPT_FAULT_ENCODE_STOP)
        goto mpi_failed; /* injected: a failure during (or right at the end of) encoding */
    if (overlap) {
        ctx->pend.active = 1;
        ctx->pend.w = w;
        ctx->pend.verdict = verdict;
        ctx->pend.local = local;
        ctx->pend.crc = crc;
        ctx->stats.overlapped = 1;
        if (epoch_p)
            *epoch_p = epoch;
        return DCKPT_SUCCESS;
    }
    return ckpt_commit(ctx, w, verdict, crc, local, fault, epoch_p);

mpi_failed:
    ctx->needs_restore = 1;
    return DCKPT_ERR_MPI;
}
