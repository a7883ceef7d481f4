/*
 * dckpt_restore.c - the restore protocol (after an MPI-level recovery, or a
 * simulated failure).
 *
 *   0. rebuild the internal communicators from `comm` (a replacement's fresh
 *      context built them in dckpt_create: the same collective calls);
 *   1. agree on the ranks named as failed: BOR of a bitmap (named by any caller);
 *   2. allgather every rank's DONE epochs (none for a named rank) and
 *      committed epoch; from that table every rank picks the same epoch E,
 *      the newest one that no group lacks on more than m members. The lost
 *      ranks are the ranks that lack E: named ranks, fresh replacements
 *      (they hold nothing), and survivors whose part of E was never written
 *      (a checkpoint interrupted in their group). Where no epoch can be
 *      rebuilt: DCKPT_ERR_UNRECOVERABLE if any rank committed one, else a
 *      clean start (nothing was ever committed). Every verdict is computed
 *      from agreed values, so every rank returns the same error without more
 *      communication, and nothing is touched;
 *   3. in each group, the lowest surviving member broadcasts the group's
 *      records of E; replacements take theirs (sizes, CRC, metadata), every
 *      data rank checks its registered buffers against them; agreement;
 *   4. decode (dckpt_pipe.c): k survivors stream their fragments of E along
 *      a chain to the lost ranks of the group (data or checksum ranks in one
 *      pass: lost checksums are re-encoded from the same sources); each lost
 *      rank checks the CRC of what it received;
 *   5. data ranks copy E into their registered buffers, checking the CRC;
 *      agreement; E becomes the committed epoch everywhere.
 */
#include "dckpt_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct restore_crc_arg {
    uint32_t crc;
} restore_crc_arg_t;

static void restore_done(void *arg, const uint8_t *p, size_t off, size_t n)
{
    restore_crc_arg_t *a = arg;
    a->crc = dckpt_crc(a->crc, p, n);
}

static int bit_get(const uint8_t *map, int i)
{
    return (map[i / 8] >> (i % 8)) & 1;
}

/* Drop this rank's stored state, as its death would have. */
static void restore_forget(dckpt_ctx_t *ctx)
{
    for (int s = 0; s < 2; s++) {
        dckpt_slot_t *slot = &ctx->slot[s];
        free(slot->buf);
        slot->buf = NULL;
        slot->cap = 0;
        dckpt_store_slot_clear(slot);
    }
    ctx->active = -1;
    ctx->epoch = 0;
}

/* Stage 1: the agreed bitmap of the ranks named as failed into ctx->lost_map. */
static int restore_lost_set(dckpt_ctx_t *ctx, int nfailed, const int *failed)
{
    size_t nbytes = ((size_t)ctx->nprocs + 7) / 8;
    uint8_t *mine = ctx->lost_map + nbytes;

    memset(mine, 0, nbytes);
    for (int i = 0; i < nfailed; i++)
        mine[failed[i] / 8] |= (uint8_t)(1u << (failed[i] % 8));
    if (MPI_Allreduce(mine, ctx->lost_map, (int)nbytes, MPI_BYTE, MPI_BOR, ctx->world) !=
        MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    return DCKPT_SUCCESS;
}

/*
 * The ranks that do not hold epoch e DONE (from the agreed table) into
 * ctx->lost_map; *nlost_p their number. Returns the first group where they
 * outnumber the checksum ranks (*bad_lost_p: how many there), or -1.
 */
static int restore_missing(dckpt_ctx_t *ctx, long long e, int *nlost_p, int *bad_lost_p)
{
    const long long *tab = ctx->epoch_tab;
    int *per_group = ctx->group_lost;
    int bad = -1;

    memset(ctx->lost_map, 0, ((size_t)ctx->nprocs + 7) / 8);
    memset(per_group, 0, sizeof(int) * (size_t)ctx->lay.ngroups);
    *nlost_p = 0;
    for (int i = 0; i < ctx->nprocs; i++) {
        if (tab[3 * i] == e || tab[3 * i + 1] == e)
            continue;
        ctx->lost_map[i / 8] |= (uint8_t)(1u << (i % 8));
        (*nlost_p)++;
        int g = ctx->group_of[i];
        if (g >= 0 && ++per_group[g] > ctx->lay.m && bad < 0)
            bad = g;
    }
    if (bad >= 0)
        *bad_lost_p = per_group[bad];
    return bad;
}

/*
 * Stage 2: which epoch E. Every rank contributes the epochs it holds DONE
 * (none when it was named as failed) and its committed epoch; from the same
 * gathered table every rank picks the same E: the newest epoch that every
 * group can rebuild, i.e. that no more than m members of any group lack. The
 * ranks that lack E - fresh replacements, and survivors whose part of E was
 * never written (a checkpoint interrupted in their group) - become the lost
 * ranks of ctx->lost_map: their state is decoded. Where no epoch can be
 * rebuilt: if some rank committed one, data are lost
 * (DCKPT_ERR_UNRECOVERABLE); if none did, the failure came before the first
 * checkpoint completed: a clean start (DCKPT_ERR_NO_CHECKPOINT, *epoch_p 0).
 */
static int restore_epoch(dckpt_ctx_t *ctx, int64_t *epoch_p, dckpt_restore_info_t *info)
{
    int64_t newest, oldest;
    long long mine[3] = {0, 0, 0}, committed = 0, cand = LLONG_MAX, best = 0;
    const long long *tab = ctx->epoch_tab;
    int n = ctx->nprocs, nlost = 0, bad_lost = 0;

    dckpt_store_done_range(ctx, &newest, &oldest);
    if (!bit_get(ctx->lost_map, ctx->rank)) {
        mine[0] = newest;
        mine[1] = oldest;
        mine[2] = ctx->epoch;
    }
    if (MPI_Allgather(mine, 3, MPI_LONG_LONG_INT, ctx->epoch_tab, 3, MPI_LONG_LONG_INT,
                      ctx->world) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;

    for (int i = 0; i < n; i++)
        if (tab[3 * i + 2] > committed)
            committed = tab[3 * i + 2];
    for (;;) {
        /* the next candidate: the newest epoch held anywhere, below the last one */
        long long e = 0;
        for (int i = 0; i < 2 * n; i++) {
            long long v = tab[3 * (i / 2) + i % 2];
            if (v > 0 && v < cand && v > e)
                e = v;
        }
        if (e == 0)
            break;
        cand = e;
        if (restore_missing(ctx, e, &nlost, &bad_lost) < 0) {
            best = e;
            break;
        }
    }
    if (best > 0) {
        info->nlost = nlost;
        *epoch_p = best;
        return DCKPT_SUCCESS;
    }
    if (committed == 0) {
        memset(ctx->lost_map, 0, ((size_t)n + 7) / 8);
        info->nlost = n; /* every rank starts over */
        *epoch_p = 0;
        return DCKPT_ERR_NO_CHECKPOINT;
    }
    info->bad_group = restore_missing(ctx, committed, &info->nlost, &info->bad_lost);
    if (info->bad_group < 0)
        info->bad_group = 0; /* not reached: the committed epoch was a candidate */
    (void)bad_lost;
    return DCKPT_ERR_UNRECOVERABLE;
}

/* Registered buffers against a data rank's record of E. */
static int restore_check_layout(const dckpt_ctx_t *ctx, const dckpt_rec_t *rec)
{
    if (ctx->lay.is_checksum)
        return DCKPT_SUCCESS;
    if (dckpt_store_registered_bytes(ctx) != rec->bytes || (uint32_t)ctx->nbufs != rec->nbufs ||
        dckpt_store_layout_crc(ctx) != rec->layout_crc)
        return DCKPT_ERR_MISMATCH;
    return DCKPT_SUCCESS;
}

/*
 * Stage 3 on this rank: learn the group's records of E; prepare the slot a
 * lost rank decodes into. Returns the local status; *slot_p is the slot of E.
 */
static int restore_records(dckpt_ctx_t *ctx, int64_t epoch, int lost_self, int *lost_in_group,
                           int *slot_p)
{
    const dckpt_layout_t *lay = &ctx->lay;
    int gsz = lay->group_size, root = -1, s = -1, status = DCKPT_SUCCESS;

    for (int i = 0; i < gsz; i++) {
        lost_in_group[i] = bit_get(ctx->lost_map, ctx->members[i]);
        if (!lost_in_group[i] && root < 0)
            root = i;
    }
    dckpt_rec_t *tmp = ctx->recs_tmp;
    size_t bytes = (size_t)gsz * sizeof(dckpt_rec_t);
    if (!lost_self) {
        s = dckpt_store_slot_of(ctx, epoch);
        if (s < 0)
            status = DCKPT_ERR_NO_CHECKPOINT;
    }
    if (lay->group_rank == root) {
        if (s >= 0)
            memcpy(tmp, ctx->slot[s].recs, bytes);
        else
            memset(tmp, 0, bytes);
    }
    if (MPI_Bcast(tmp, (int)bytes, MPI_BYTE, root, ctx->group) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    if (status != DCKPT_SUCCESS)
        return status;

    const dckpt_rec_t *rec = &tmp[lay->group_rank];
    if (rec->epoch != epoch)
        return DCKPT_ERR_CORRUPT;
    if (!lost_self) {
        if (memcmp(tmp, ctx->slot[s].recs, bytes) != 0)
            return DCKPT_ERR_CORRUPT; /* survivors disagree about the checkpoint */
        *slot_p = s;
        return restore_check_layout(ctx, rec);
    }

    /* a lost rank: storage for the decoded fragment, in slot 0 */
    status = restore_check_layout(ctx, rec);
    if (status != DCKPT_SUCCESS)
        return status;
    dckpt_slot_t *slot = &ctx->slot[0];
    dckpt_store_slot_clear(slot);
    status = dckpt_store_slot_reserve(slot, (size_t)rec->bytes, gsz);
    if (status != DCKPT_SUCCESS)
        return status;
    memcpy(slot->recs, tmp, bytes);
    slot->state = DCKPT_SLOT_PENDING;
    slot->epoch = epoch;
    slot->len = (size_t)rec->bytes;
    slot->frag_len = (size_t)tmp[gsz - 1].bytes; /* a checksum record holds L */
    *slot_p = 0;
    return DCKPT_SUCCESS;
}

/* Stage 4: decode onto this group's lost ranks. Returns 0, a local error, or DCKPT_ERR_MPI. */
static int restore_decode(dckpt_ctx_t *ctx, int slot_idx, int lost_self, const int *lost)
{
    const dckpt_layout_t *lay = &ctx->lay;
    dckpt_slot_t *slot = &ctx->slot[slot_idx];
    int nl = 0;
    for (int i = 0; i < lay->group_size; i++)
        if (lost[i])
            ctx->plan_tgt[nl++] = i;
    if (nl == 0 || slot->frag_len == 0) {
        if (lost_self)
            slot->state = DCKPT_SLOT_DONE; /* nothing to decode: empty fragment */
        return DCKPT_SUCCESS;
    }

    /* the same plan on every member: sources are the lowest k survivors */
    int use_xor = ctx->params.code == DCKPT_CODE_XOR;
    if (use_xor) {
        for (int i = 0, s = 0; i < lay->group_size; i++)
            if (!lost[i])
                ctx->plan_src[s++] = i;
        memset(ctx->plan_rows, 1, (size_t)lay->k);
    } else if (dckpt_rs_decode_plan(&ctx->rs, nl, ctx->plan_tgt, ctx->plan_src,
                                    ctx->plan_rows) != 0) {
        return DCKPT_ERR_UNRECOVERABLE; /* not reached: losses were counted before */
    }

    restore_crc_arg_t arg = {0};
    dckpt_pipe_t p;
    memset(&p, 0, sizeof(p));
    p.comm = ctx->group;
    p.tag = DCKPT_TAG_DECODE;
    p.nsrc = lay->k;
    p.src = ctx->plan_src;
    p.ntgt = nl;
    p.tgt = ctx->plan_tgt;
    p.coef = ctx->plan_rows;
    p.use_xor = use_xor;
    p.len = slot->frag_len;
    p.chunk = ctx->params.chunk_bytes;
    p.stop_after = -1;
    p.me = lay->group_rank;
    p.buf = slot->buf;
    p.valid = slot->len;
    p.done = lost_self ? restore_done : NULL;
    p.arg = &arg;
    p.pool = ctx->pool;
    int rc = dckpt_pipe_run(&p);
    if (rc != DCKPT_SUCCESS)
        return rc;
    if (lost_self) {
        if (arg.crc != slot->recs[lay->group_rank].crc)
            return DCKPT_ERR_CORRUPT;
        slot->state = DCKPT_SLOT_DONE;
    }
    return DCKPT_SUCCESS;
}

/* FT-MPI: local calls on a communicator destroyed by a recovery return MPI_ERR_COMM */
static int restore_comms_dead(const dckpt_ctx_t *ctx)
{
    int n;
    if (ctx->world == MPI_COMM_NULL || ctx->group == MPI_COMM_NULL)
        return 1;
    return MPI_Comm_size(ctx->world, &n) != MPI_SUCCESS ||
           MPI_Comm_size(ctx->group, &n) != MPI_SUCCESS;
}

static int restore_args(const dckpt_ctx_t *ctx, MPI_Comm comm, int nfailed, const int *failed)
{
    int size, rank;
    if (ctx == NULL || comm == MPI_COMM_NULL || nfailed < 0 || (nfailed > 0 && failed == NULL))
        return DCKPT_ERR_ARG;
    for (int i = 0; i < nfailed; i++)
        if (failed[i] < 0 || failed[i] >= ctx->nprocs)
            return DCKPT_ERR_ARG;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return DCKPT_ERR_ARG;
    if (size != ctx->nprocs || rank != ctx->rank)
        return DCKPT_ERR_MISMATCH;
    return DCKPT_SUCCESS;
}

int dckpt_restore(dckpt_ctx_t *ctx, MPI_Comm comm, int nfailed, const int *failed,
                  dckpt_restore_info_t *info)
{
    dckpt_restore_info_t dummy;
    if (info == NULL)
        info = &dummy;
    memset(info, 0, sizeof(*info));
    info->bad_group = -1;
    int rc = restore_args(ctx, comm, nfailed, failed);
    if (rc != DCKPT_SUCCESS)
        return rc;
    ctx->fault.kind = 0;
    /* an overlapped epoch not committed is abandoned (its half stays PENDING) */
    dckpt_overlap_drop(ctx);
    ctx->pend.active = 0;
    /* a rollback may undo what was frozen (dckpt_freeze.c) */
    memset(&ctx->frozen, 0, sizeof(ctx->frozen));

    /* 0. communicators: rebuilt unless dckpt_create just made them (a
       replacement) and they are alive; a survivor whose context never ran an
       operation has communicators that the recovery destroyed */
    if (!ctx->fresh || restore_comms_dead(ctx)) {
        dckpt_ctx_comms_free(ctx);
        if ((rc = dckpt_ctx_comms_build(ctx, comm, DCKPT_SUCCESS)) != DCKPT_SUCCESS)
            return rc;
    }
    ctx->fresh = 0;

    /* 1. the ranks named as failed */
    if ((rc = restore_lost_set(ctx, nfailed, failed)) != DCKPT_SUCCESS)
        return rc;

    /* 2. which epoch, and who lacks it (the lost ranks); too many losses */
    int64_t epoch = -1;
    rc = restore_epoch(ctx, &epoch, info);
    if (rc == DCKPT_ERR_NO_CHECKPOINT && epoch == 0) {
        /* No epoch can be rebuilt and no surviving rank committed one (a
           failure before the first checkpoint committed), so every rank's
           next epoch is 1. Drop half-written halves and accept checkpoints
           again, so that the application can start over (agreed values:
           the same on every rank). */
        for (int s = 0; s < 2; s++)
            dckpt_store_slot_clear(&ctx->slot[s]);
        ctx->active = -1;
        ctx->epoch = 0;
        ctx->next_epoch = 1;
        ctx->needs_restore = 0;
        return rc;
    }
    if (rc != DCKPT_SUCCESS)
        return rc; /* agreed values (or DCKPT_ERR_MPI): the same on every rank */
    int lost_self = bit_get(ctx->lost_map, ctx->rank);
    info->lost_self = lost_self;
    if (lost_self)
        restore_forget(ctx);

    /* 3. records of E; local checks; agreement. From here on state changes. */
    ctx->needs_restore = 1; /* until this restore succeeds */
    int slot_idx = -1;
    if (rc == DCKPT_SUCCESS) {
        rc = restore_records(ctx, epoch, lost_self, ctx->lost_flags, &slot_idx);
        if (rc == DCKPT_ERR_MPI)
            return rc;
    }
    if (rc == DCKPT_SUCCESS)
        rc = dckpt_store_pool_reserve(ctx, dckpt_pipe_pool_bytes(ctx->lay.m,
                                                                 ctx->params.chunk_bytes));
    if ((rc = dckpt_ctx_agree(ctx, rc)) != DCKPT_SUCCESS)
        return rc;

    /* 4. decode onto the lost ranks of each group */
    int local = restore_decode(ctx, slot_idx, lost_self, ctx->lost_flags);
    if (local == DCKPT_ERR_MPI)
        return local;

    /* 5. data ranks: E back into the registered buffers, checked */
    dckpt_slot_t *slot = &ctx->slot[slot_idx];
    const dckpt_rec_t *rec = &slot->recs[ctx->lay.group_rank];
    if (local == DCKPT_SUCCESS && !ctx->lay.is_checksum &&
        dckpt_store_scatter(ctx, slot->buf, slot->len) != rec->crc)
        local = DCKPT_ERR_CORRUPT;
    if ((rc = dckpt_ctx_agree(ctx, local)) != DCKPT_SUCCESS)
        return rc;

    /* E is the committed epoch everywhere; the other half is stale */
    dckpt_store_slot_clear(&ctx->slot[1 - slot_idx]);
    ctx->active = slot_idx;
    ctx->epoch = epoch;
    ctx->next_epoch = epoch + 1;
    ctx->needs_restore = 0;
    info->epoch = epoch;
    info->meta_len = rec->meta_len <= DCKPT_META_MAX ? rec->meta_len : DCKPT_META_MAX;
    memcpy(info->meta, rec->meta, info->meta_len);
    return DCKPT_SUCCESS;
}
