/*
 * mpi_ckpt_test.c - checkpoint and restore over MPI, with failures simulated
 * on a failure-free MPI: a "lost" rank wipes its registered buffers and its
 * stored checkpoint (the library discards the state of every rank named in
 * the failed list), or drops its whole context and comes back as a
 * replacement would (dckpt_free, dckpt_create, register fresh buffers,
 * dckpt_restore with no list).
 *
 * Usage: mpi_ckpt_test --code xor|rs --m M --k K [--chunk BYTES]
 *
 * Scenarios, in order (each prints "ok <name>" on rank 0):
 *   args          bad arguments give DCKPT_ERR_ARG / DCKPT_ERR_STATE
 *   no_ckpt       restore before any checkpoint: DCKPT_ERR_NO_CHECKPOINT
 *   patterns      EVERY loss pattern of 1..m members of group 0 (applied by
 *                 group position to every group at once): data and checksum
 *                 ranks, any mix; epoch, metadata and every byte checked
 *   reencode      lose all checksum ranks, restore (re-encode), then lose m
 *                 data ranks and restore from the re-encoded checksums
 *   rollback      restore with no loss: everyone back to the epoch
 *   replacement   lost ranks re-create their context like a restarted process
 *                 and survivors pass no list (the FT-MPI flow)
 *   ckpt_fail     a failure during encoding: the previous epoch is restored
 *   commit_fail   a failure in the commit step after every rank finished:
 *                 the new epoch is restored; and one where a rank had not
 *                 finished: the previous epoch is restored
 *   too_many      m + 1 losses in one group: DCKPT_ERR_UNRECOVERABLE on every
 *                 rank, buffers untouched
 */
#include "diskless_ckpt.h"
#include "../dckpt_testing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUF 3
#define MAXN 1024

static int g_rank, g_size;
static dckpt_params_t g_par;
static dckpt_layout_t g_all[MAXN]; /* every rank's layout */

typedef struct app {
    uint8_t *buf[NBUF];
    size_t len[NBUF];
    int tag; /* content generation currently in the buffers */
} app_t;

static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[rank %d] FAIL: ", g_rank);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond))                                                                           \
            fail(__VA_ARGS__);                                                                 \
    } while (0)

static void expect_rc(int rc, int want, const char *what)
{
    if (rc != want)
        fail("%s: got %d (%s), want %d (%s)", what, rc, dckpt_strerror(rc), want,
             dckpt_strerror(want));
}

static void ok(const char *name)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_rank == 0) {
        printf("ok %s\n", name);
        fflush(stdout);
    }
}

static uint8_t content(int tag, int rank, int b, size_t i)
{
    uint64_t x = (uint64_t)tag * 1315423911u ^ (uint64_t)rank * 2654435761u ^ (uint64_t)b * 97u ^
                 (uint64_t)i * 0x9E3779B1u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return (uint8_t)x;
}

static void app_fill(app_t *a, int tag)
{
    for (int b = 0; b < NBUF; b++)
        for (size_t i = 0; i < a->len[b]; i++)
            a->buf[b][i] = content(tag, g_rank, b, i);
    a->tag = tag;
}

static void app_check(const app_t *a, int tag, const char *what)
{
    for (int b = 0; b < NBUF; b++)
        for (size_t i = 0; i < a->len[b]; i++)
            if (a->buf[b][i] != content(tag, g_rank, b, i))
                fail("%s: buffer %d byte %zu: %u, want %u (tag %d)", what, b, i, a->buf[b][i],
                     content(tag, g_rank, b, i), tag);
}

/* sizes differ per rank and per buffer, some are empty; data rank d */
static void app_alloc(app_t *a, int d)
{
    a->len[0] = 1000 + 37 * (size_t)d;
    a->len[1] = d % 3 == 0 ? 0 : 5000 * (size_t)d + 13;
    a->len[2] = d == 1 ? 0 : 150001 + 4099 * (size_t)d;
    for (int b = 0; b < NBUF; b++) {
        a->buf[b] = malloc(a->len[b] ? a->len[b] : 1);
        CHECK(a->buf[b] != NULL, "malloc");
        memset(a->buf[b], 0xEE, a->len[b]);
    }
}

static void app_free(app_t *a)
{
    for (int b = 0; b < NBUF; b++)
        free(a->buf[b]);
    memset(a, 0, sizeof(*a));
}

static void app_register(dckpt_ctx_t *ctx, app_t *a)
{
    if (dckpt_is_checksum_rank(ctx))
        return;
    for (int b = 0; b < NBUF; b++)
        expect_rc(dckpt_register(ctx, a->buf[b], a->len[b]), DCKPT_SUCCESS, "register");
}

static void meta_for(int tag, char *meta, size_t *len)
{
    *len = (size_t)snprintf(meta, 64, "iteration=%d", tag * 10) + 1;
}

static int64_t checkpoint(dckpt_ctx_t *ctx, app_t *a, int tag)
{
    char meta[64];
    size_t mlen;
    int64_t epoch = -1;
    app_fill(a, tag);
    meta_for(tag, meta, &mlen);
    expect_rc(dckpt_checkpoint(ctx, meta, mlen, &epoch), DCKPT_SUCCESS, "checkpoint");
    CHECK(epoch == dckpt_epoch(ctx), "epoch %lld vs %lld", (long long)epoch,
          (long long)dckpt_epoch(ctx));
    return epoch;
}

/* Check a successful restore: epoch, metadata, bytes, data communicator. */
static void check_restored(dckpt_ctx_t *ctx, app_t *a, const dckpt_restore_info_t *info,
                           int64_t epoch, int tag, int nlost, int lost_self, const char *what)
{
    char meta[64];
    size_t mlen;
    meta_for(tag, meta, &mlen);
    CHECK(info->epoch == epoch, "%s: epoch %lld, want %lld", what, (long long)info->epoch,
          (long long)epoch);
    CHECK(info->nlost == nlost, "%s: nlost %d, want %d", what, info->nlost, nlost);
    CHECK(info->lost_self == lost_self, "%s: lost_self %d", what, info->lost_self);
    CHECK(info->bad_group == -1, "%s: bad_group", what);
    CHECK(info->meta_len == mlen && memcmp(info->meta, meta, mlen) == 0, "%s: metadata", what);
    CHECK(dckpt_epoch(ctx) == epoch, "%s: dckpt_epoch", what);
    if (!dckpt_is_checksum_rank(ctx)) {
        app_check(a, tag, what);
        a->tag = tag;
        int dr, ds;
        MPI_Comm dc = dckpt_data_comm(ctx);
        CHECK(dc != MPI_COMM_NULL, "%s: data comm", what);
        MPI_Comm_rank(dc, &dr);
        MPI_Comm_size(dc, &ds);
        CHECK(dr == g_all[g_rank].data_rank && ds == g_all[g_rank].ndata, "%s: data comm shape",
              what);
        /* the data communicator works */
        int one = 1, sum = 0;
        CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dc) == MPI_SUCCESS && sum == ds,
              "%s: data comm allreduce", what);
    } else {
        CHECK(dckpt_data_comm(ctx) == MPI_COMM_NULL, "%s: checksum rank has a data comm", what);
    }
}

/* Lost ranks: those whose group position is in pos[0..npos-1], in every group. */
static int lost_list(const int *pos, int npos, int *list)
{
    int n = 0;
    for (int r = 0; r < g_size; r++)
        for (int i = 0; i < npos; i++)
            if (g_all[r].group_rank == pos[i])
                list[n++] = r;
    return n;
}

static int in_list(const int *list, int n, int r)
{
    for (int i = 0; i < n; i++)
        if (list[i] == r)
            return 1;
    return 0;
}

/* Simulated loss: the lost ranks' buffers are wiped; the library forgets their state.
 * The restore must return `epoch` with `nlost` ranks rebuilt: the listed ones, and
 * `also_lost` (a survivor that lacks the epoch; -1: none). */
static void lose_and_restore_as(dckpt_ctx_t *ctx, app_t *a, const int *list, int n,
                                int64_t epoch, int tag, int nlost, int also_lost,
                                const char *what)
{
    dckpt_restore_info_t info;
    int me_lost = in_list(list, n, g_rank);
    if (me_lost)
        for (int b = 0; b < NBUF; b++)
            if (a->len[b] > 0)
                memset(a->buf[b], 0, a->len[b]);
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, n, list, &info), DCKPT_SUCCESS, what);
    check_restored(ctx, a, &info, epoch, tag, nlost, me_lost || g_rank == also_lost, what);
}

static void lose_and_restore(dckpt_ctx_t *ctx, app_t *a, const int *list, int n, int64_t epoch,
                             int tag, const char *what)
{
    lose_and_restore_as(ctx, a, list, n, epoch, tag, n, -1, what);
}

static void dirty(app_t *a, int tag)
{
    app_fill(a, tag);
}

/* ------------------------------------------------------------------ scenarios */

static void scenario_args(void)
{
    dckpt_params_t p = g_par;
    dckpt_ctx_t *ctx = NULL;
    p.m = 0;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "m = 0");
    p = g_par;
    p.code = DCKPT_CODE_XOR;
    p.m = 2;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "xor with m = 2");
    p = g_par;
    p.m = g_size;
    p.code = DCKPT_CODE_RS;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "m >= size");
    p = g_par;
    p.k = -1;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "k < 0");
    p = g_par;
    p.chunk_bytes = 100;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "chunk too small");
    p = g_par;
    p.code = (dckpt_code_t)7;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "bad code");
    p = g_par;
    if (g_rank == 0)
        p.chunk_bytes = 2 * g_par.chunk_bytes; /* valid, but not what the others pass */
    expect_rc(dckpt_create(MPI_COMM_WORLD, &p, &ctx), DCKPT_ERR_ARG, "parameters differ");
    CHECK(ctx == NULL, "ctx set on error");
    expect_rc(dckpt_create(MPI_COMM_WORLD, NULL, &ctx), DCKPT_ERR_ARG, "NULL params");
    expect_rc(dckpt_create(MPI_COMM_WORLD, &g_par, NULL), DCKPT_ERR_ARG, "NULL ctx_p");
    expect_rc(dckpt_create(MPI_COMM_NULL, &g_par, &ctx), DCKPT_ERR_ARG, "MPI_COMM_NULL");
    CHECK(ctx == NULL, "ctx set on error");
    expect_rc(dckpt_register(NULL, NULL, 0), DCKPT_ERR_ARG, "register NULL ctx");
    expect_rc(dckpt_checkpoint(NULL, NULL, 0, NULL), DCKPT_ERR_ARG, "checkpoint NULL ctx");
    expect_rc(dckpt_restore(NULL, MPI_COMM_WORLD, 0, NULL, NULL), DCKPT_ERR_ARG, "restore NULL");
    expect_rc(dckpt_free(NULL), DCKPT_ERR_ARG, "free NULL");
    CHECK(dckpt_is_checksum_rank(NULL) < 0, "is_checksum NULL");
    CHECK(dckpt_data_comm(NULL) == MPI_COMM_NULL, "data_comm NULL");

    /* layout arithmetic */
    dckpt_params_t q = {DCKPT_CODE_RS, 1, 4, 0};
    int ng, nd;
    expect_rc(dckpt_plan(10, &q, &ng, &nd), DCKPT_SUCCESS, "plan 10");
    CHECK(ng == 2 && nd == 8, "plan 10: %d groups %d data", ng, nd);
    expect_rc(dckpt_plan(11, &q, &ng, &nd), DCKPT_SUCCESS, "plan 11");
    CHECK(ng == 3 && nd == 8, "plan 11: %d groups %d data", ng, nd);
    q.k = 2;
    q.m = 3;
    expect_rc(dckpt_plan(7, &q, &ng, &nd), DCKPT_SUCCESS, "plan 7");
    CHECK(ng == 1 && nd == 4, "plan 7: %d groups %d data", ng, nd);
    expect_rc(dckpt_plan(3, &q, &ng, &nd), DCKPT_ERR_ARG, "plan: m >= n");
    q.k = 0;
    q.m = 1;
    expect_rc(dckpt_plan(300, &q, &ng, &nd), DCKPT_ERR_ARG, "RS group of 300 > 256");
    q.code = DCKPT_CODE_XOR;
    expect_rc(dckpt_plan(300, &q, &ng, &nd), DCKPT_SUCCESS, "XOR group of 300");
    CHECK(ng == 1 && nd == 299, "xor plan 300");

    /* on a real context */
    expect_rc(dckpt_create(MPI_COMM_WORLD, &g_par, &ctx), DCKPT_SUCCESS, "create");
    if (dckpt_is_checksum_rank(ctx)) {
        char c;
        expect_rc(dckpt_register(ctx, &c, 1), DCKPT_ERR_STATE, "register on checksum rank");
    } else {
        expect_rc(dckpt_register(ctx, NULL, 10), DCKPT_ERR_ARG, "register NULL with bytes");
        expect_rc(dckpt_register(ctx, NULL, 0), DCKPT_SUCCESS, "register empty");
        expect_rc(dckpt_clear(ctx), DCKPT_SUCCESS, "clear");
    }
    char big[DCKPT_META_MAX + 1];
    expect_rc(dckpt_checkpoint(ctx, big, sizeof(big), NULL), DCKPT_ERR_ARG, "meta too long");
    expect_rc(dckpt_checkpoint(ctx, NULL, 3, NULL), DCKPT_ERR_ARG, "meta NULL");
    int bad = g_size;
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, 1, &bad, NULL), DCKPT_ERR_ARG, "failed rank range");
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, 1, NULL, NULL), DCKPT_ERR_ARG, "failed NULL");
    expect_rc(dckpt_restore(ctx, MPI_COMM_SELF, 0, NULL, NULL),
              g_size == 1 ? DCKPT_SUCCESS : DCKPT_ERR_MISMATCH, "restore on another comm");
    expect_rc(dckpt_free(&ctx), DCKPT_SUCCESS, "free");
    CHECK(ctx == NULL, "free clears the pointer");
    ok("args");
}

static void scenario_no_ckpt(dckpt_ctx_t *ctx)
{
    dckpt_restore_info_t info;
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, 0, NULL, &info), DCKPT_ERR_NO_CHECKPOINT,
              "restore before any checkpoint");
    CHECK(info.nlost == g_size, "every rank counts as lost");
    ok("no_ckpt");
}

static void scenario_patterns(dckpt_ctx_t *ctx, app_t *a, int64_t epoch, int tag)
{
    int m = g_par.m, gs = g_all[0].group_size, npat = 0;
    int pos[64], list[MAXN];
    for (int r = 1; r <= m; r++) {
        for (int i = 0; i < r; i++)
            pos[i] = i;
        for (;;) {
            int n = lost_list(pos, r, list);
            char what[128];
            int off = snprintf(what, sizeof(what), "pattern {");
            for (int i = 0; i < r; i++)
                off += snprintf(what + off, sizeof(what) - (size_t)off, "%s%d", i ? "," : "", pos[i]);
            snprintf(what + off, sizeof(what) - (size_t)off, "}");
            lose_and_restore(ctx, a, list, n, epoch, tag, what);
            dirty(a, 1000 + npat);
            npat++;
            /* next combination of r positions out of gs */
            int i = r - 1;
            while (i >= 0 && pos[i] == gs - r + i)
                i--;
            if (i < 0)
                break;
            pos[i]++;
            for (int j = i + 1; j < r; j++)
                pos[j] = pos[j - 1] + 1;
        }
    }
    if (g_rank == 0)
        printf("   %d loss patterns restored\n", npat);
    ok("patterns");
}

static void scenario_reencode(dckpt_ctx_t *ctx, app_t *a)
{
    int m = g_par.m, k0 = g_all[0].k, pos[64], list[MAXN], n;
    int64_t e = checkpoint(ctx, a, 3);
    dirty(a, 33);
    for (int j = 0; j < m; j++)
        pos[j] = k0 + j; /* every checksum rank of group 0 (and same positions elsewhere) */
    n = lost_list(pos, m, list);
    lose_and_restore(ctx, a, list, n, e, 3, "lose all checksum ranks");
    dirty(a, 34);
    int nd = m < k0 ? m : k0;
    for (int j = 0; j < nd; j++)
        pos[j] = j;
    n = lost_list(pos, nd, list);
    lose_and_restore(ctx, a, list, n, e, 3, "lose data ranks after re-encoding");
    dirty(a, 35);
    ok("reencode");
}

static void scenario_rollback(dckpt_ctx_t *ctx, app_t *a, int64_t epoch, int tag)
{
    lose_and_restore(ctx, a, NULL, 0, epoch, tag, "rollback");
    dirty(a, 36);
    ok("rollback");
}

/* Lost ranks come back like restarted processes; survivors pass no list. */
static void scenario_replacement(dckpt_ctx_t **ctxp, app_t *a)
{
    int m = g_par.m, gs = g_all[0].group_size, pos[64], list[MAXN];
    int64_t e = checkpoint(*ctxp, a, 4);
    dirty(a, 44);
    /* first pattern: the last data rank and (m >= 2) the first checksum rank, per group */
    int npos = 0;
    pos[npos++] = g_all[0].k - 1;
    for (int j = 0; npos < m && j < g_par.m; j++)
        pos[npos++] = g_all[0].k + j;
    for (int round = 0; round < 2; round++) {
        if (round == 1) { /* second pattern: the m highest positions (all checksum ranks) */
            npos = 0;
            for (int j = 0; j < m; j++)
                pos[npos++] = gs - 1 - j;
        }
        int n = lost_list(pos, npos, list);
        int me_lost = in_list(list, n, g_rank);
        if (me_lost) {
            /* the process died: its memory is gone; a new one starts */
            app_free(a);
            expect_rc(dckpt_free(ctxp), DCKPT_SUCCESS, "free (dying rank)");
            expect_rc(dckpt_create(MPI_COMM_WORLD, &g_par, ctxp), DCKPT_SUCCESS,
                      "create (replacement)");
            if (!dckpt_is_checksum_rank(*ctxp))
                app_alloc(a, g_all[g_rank].data_rank);
            app_register(*ctxp, a);
        }
        dckpt_restore_info_t info;
        expect_rc(dckpt_restore(*ctxp, MPI_COMM_WORLD, 0, NULL, &info), DCKPT_SUCCESS,
                  "restore (replacement flow)");
        check_restored(*ctxp, a, &info, e, 4, n, me_lost, "replacement");
        dirty(a, 45 + round);
    }
    ok("replacement");
}

static void scenario_ckpt_fail(dckpt_ctx_t *ctx, app_t *a, int64_t good_epoch, int good_tag)
{
    int list[MAXN], pos[1] = {0};
    for (long stop = 0; stop <= 2; stop += 2) {
        dckpt_test_set_fault(ctx, DCKPT_FAULT_ENCODE_STOP, stop);
        app_fill(a, 50);
        expect_rc(dckpt_checkpoint(ctx, "x", 1, NULL), DCKPT_ERR_MPI, "interrupted checkpoint");
        expect_rc(dckpt_checkpoint(ctx, "x", 1, NULL), DCKPT_ERR_STATE,
                  "checkpoint after a failed one");
        int n = lost_list(pos, 1, list);
        lose_and_restore(ctx, a, list, n, good_epoch, good_tag, "restore after interrupted checkpoint");
        dirty(a, 51);
    }
    ok("ckpt_fail");
}

static void scenario_commit_fail(dckpt_ctx_t *ctx, app_t *a)
{
    int list[MAXN], pos[1] = {g_all[0].group_size - 1}; /* a checksum rank */
    char meta[64];
    size_t mlen;
    int64_t before = dckpt_epoch(ctx);

    /* every rank finished; the commit agreement returned on even ranks only */
    dckpt_test_set_fault(ctx, DCKPT_FAULT_SKIP_COMMIT, g_rank % 2 == 0);
    app_fill(a, 6);
    meta_for(6, meta, &mlen);
    int64_t e = -1;
    int rc = dckpt_checkpoint(ctx, meta, mlen, &e);
    expect_rc(rc, g_rank % 2 == 0 ? DCKPT_SUCCESS : DCKPT_ERR_MPI, "commit interrupted");
    dirty(a, 61);
    int n = lost_list(pos, 1, list);
    lose_and_restore(ctx, a, list, n, before + 1, 6, "restore: new epoch complete everywhere");
    dirty(a, 62);

    /* rank 0 had not finished its part: the previous epoch is the one */
    int64_t prev = dckpt_epoch(ctx);
    dckpt_test_set_fault(ctx, g_rank == 0 ? DCKPT_FAULT_LOSE_DONE : DCKPT_FAULT_SKIP_COMMIT, 0);
    app_fill(a, 7);
    meta_for(7, meta, &mlen);
    expect_rc(dckpt_checkpoint(ctx, meta, mlen, NULL), DCKPT_ERR_MPI, "commit failed");
    dirty(a, 71);
    pos[0] = 1; /* not rank 0 */
    n = lost_list(pos, 1, list);
    if (g_par.m == 1) {
        /* group 0 lacks the new epoch on 2 > m members: the previous one */
        lose_and_restore(ctx, a, list, n, prev, 6, "restore: new epoch incomplete on one rank");
    } else {
        /* 2 <= m members of group 0 lack the new epoch: it is rebuilt, and
           rank 0 (a survivor) counts as lost: its part is decoded */
        lose_and_restore_as(ctx, a, list, n, prev + 1, 7, n + 1, 0,
                            "restore: new epoch incomplete on one rank, rebuilt");
    }
    dirty(a, 72);
    ok("commit_fail");
}

/* Incremental checkpoints (dckpt_freeze): bytes from global offset `from`
   of the registered concatenation get tag `tag` (the first `from` keep theirs). */
static void fill_from(app_t *a, size_t from, int tag)
{
    size_t base = 0;
    for (int b = 0; b < NBUF; b++, base += a->len[b - 1])
        for (size_t i = 0; i < a->len[b]; i++)
            if (base + i >= from)
                a->buf[b][i] = content(tag, g_rank, b, i);
}

/* segment s = [from[s], from[s + 1]) holds tag[s] */
static void check_segments(const app_t *a, const size_t *from, const int *tag, int nseg)
{
    size_t base = 0;
    for (int b = 0; b < NBUF; b++, base += a->len[b - 1])
        for (size_t i = 0; i < a->len[b]; i++) {
            int s = nseg - 1;
            while (s > 0 && base + i < from[s])
                s--;
            if (a->buf[b][i] != content(tag[s], g_rank, b, i))
                fail("freeze: buffer %d byte %zu (offset %zu): want tag %d", b, i, base + i,
                     tag[s]);
        }
}

/* After incremental checkpoints: every data rank's state overwritten, the
   member at group position `pos` of every group (and the first checksum rank
   when m >= 2) lost, then a restore that must return `epoch`. */
static void freeze_restore(dckpt_ctx_t *ctx, app_t *a, int data, int pos0, int64_t epoch,
                           const char *what)
{
    if (data)
        fill_from(a, 0, 99);
    int pos[2] = {pos0, g_all[0].k}, list[MAXN];
    int n = lost_list(pos, g_par.m >= 2 ? 2 : 1, list);
    if (in_list(list, n, g_rank) && data)
        fill_from(a, 0, 98);
    dckpt_restore_info_t info;
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, n, list, &info), DCKPT_SUCCESS, what);
    CHECK(info.epoch == epoch, "%s: epoch %lld, want %lld", what, (long long)info.epoch,
          (long long)epoch);
}

/* Checkpoints whose frozen prefix grows, only the rest rewritten each time;
   the last one (its half first written with a quarter frozen) restored onto a
   lost data rank (and a lost checksum rank when m >= 2) and the survivors. */
static void scenario_freeze(dckpt_ctx_t *ctx, app_t *a)
{
    int data = !dckpt_is_checksum_rank(ctx);
    size_t total = a->len[0] + a->len[1] + a->len[2];
    size_t from[4] = {0, total / 4, total / 2, 3 * total / 4};
    int tags[4] = {50, 51, 52, 54};
    char meta[64];
    size_t mlen;
    int64_t epoch = 0;
    if (data)
        expect_rc(dckpt_freeze(ctx, 0), DCKPT_SUCCESS, "freeze");
    else
        expect_rc(dckpt_freeze(ctx, 0), DCKPT_ERR_STATE, "freeze on a checksum rank");
    checkpoint(ctx, a, 50);
    for (int t = 1; t <= 4; t++) { /* tags 51, 52, 53, 54: from quarter 1, 2, 3, 3 on */
        size_t f = from[t < 3 ? t : 3];
        if (data) {
            fill_from(a, f, 50 + t);
            expect_rc(dckpt_freeze(ctx, f), DCKPT_SUCCESS, "freeze");
        }
        meta_for(50 + t, meta, &mlen);
        expect_rc(dckpt_checkpoint(ctx, meta, mlen, &epoch), DCKPT_SUCCESS, "freeze checkpoint");
    }
    freeze_restore(ctx, a, data, 0, epoch, "freeze");
    if (data)
        check_segments(a, from, tags, 4);
    checkpoint(ctx, a, 55); /* one whole state again for the scenarios after */
    ok("freeze");
}

/* dckpt_freeze_strided: the state from byte a->len[0] on read as columns of
   S bytes (S differs between ranks); step t freezes the columns before
   t - 1 whole and the first t S / 5 bytes of every column */
typedef struct strided {
    size_t base, stride, count, total;
} strided_t;

static int strided_frozen(const strided_t *g, int t, size_t x)
{
    if (t <= 0)
        return 0;
    size_t prefix = g->base + (size_t)(t - 1) * g->stride, head = (size_t)t * g->stride / 5;
    if (x < prefix)
        return 1;
    return x >= g->base && (x - g->base) / g->stride < g->count &&
           (x - g->base) % g->stride < head;
}

/* step t freezes as step min(t, 4) (step 5 writes again what step 4 left) */
static int strided_step(int t)
{
    return t < 4 ? t : 4;
}

/* the byte at offset x holds the tag of the last step that did not freeze it */
static int strided_tag(const strided_t *g, int steps, size_t x)
{
    int t = steps;
    while (t > 0 && strided_frozen(g, strided_step(t), x))
        t--;
    return 70 + t;
}

static void strided_walk(app_t *a, const strided_t *g, int t, int check)
{
    size_t x = 0;
    for (int b = 0; b < NBUF; b++)
        for (size_t i = 0; i < a->len[b]; i++, x++) {
            if (check) {
                int tag = strided_tag(g, t, x);
                if (a->buf[b][i] != content(tag, g_rank, b, i))
                    fail("freeze_strided: buffer %d byte %zu (offset %zu): want tag %d", b, i, x,
                         tag);
            } else if (!strided_frozen(g, strided_step(t), x)) {
                a->buf[b][i] = content(70 + t, g_rank, b, i);
            }
        }
}

/* Incremental checkpoints with frozen column heads (different layouts on
   the members of a group), the last restored onto lost ranks: every byte
   holds what it held at the last checkpoint. */
static void scenario_freeze_strided(dckpt_ctx_t *ctx, app_t *a)
{
    int data = !dckpt_is_checksum_rank(ctx), steps = 5;
    strided_t g = {a->len[0], 0, 0, a->len[0] + a->len[1] + a->len[2]};
    if (data) {
        g.stride = 700 + 111 * (size_t)g_rank;
        g.count = (g.total - g.base) / g.stride;
        expect_rc(dckpt_freeze_strided(ctx, 0, 0, 10, 3, 11), DCKPT_ERR_ARG,
                  "freeze_strided: head > stride");
        expect_rc(dckpt_freeze(ctx, 0), DCKPT_SUCCESS, "freeze");
    } else {
        expect_rc(dckpt_freeze_strided(ctx, 0, 0, 10, 3, 5), DCKPT_ERR_STATE,
                  "freeze_strided on a checksum rank");
    }
    char meta[64];
    size_t mlen, full = 0;
    int64_t epoch = 0;
    for (int t = 0; t <= steps; t++) {
        int f = strided_step(t);
        if (data) {
            strided_walk(a, &g, t, 0);
            if (f > 0)
                expect_rc(dckpt_freeze_strided(ctx, g.base + (size_t)(f - 1) * g.stride, g.base,
                                               g.stride, g.count, (size_t)f * g.stride / 5),
                          DCKPT_SUCCESS, "freeze_strided");
        }
        meta_for(70 + t, meta, &mlen);
        expect_rc(dckpt_checkpoint(ctx, meta, mlen, &epoch), DCKPT_SUCCESS,
                  "freeze_strided checkpoint");
        /* step 0 encodes the whole fragment; from step 3 on the half holds
           step t - 2, which froze at least the first 1000 bytes everywhere */
        if (t == 0)
            full = dckpt_encoded_bytes(ctx);
        CHECK(t < 3 || dckpt_encoded_bytes(ctx) + 1000 <= full,
              "freeze_strided: step %d encoded %zu bytes of %zu", t, dckpt_encoded_bytes(ctx),
              full);
    }
    freeze_restore(ctx, a, data, 1, epoch, "freeze_strided");
    if (data)
        strided_walk(a, &g, steps, 1);
    checkpoint(ctx, a, 56); /* one whole state again for the scenarios after */
    ok("freeze_strided");
}

static void scenario_too_many(dckpt_ctx_t *ctx, app_t *a)
{
    int m = g_par.m, list[MAXN], n = 0;
    if (g_all[0].group_size < m + 1)
        return;
    /* m + 1 members of group 0 only */
    for (int r = 0; r < g_size && n < m + 1; r++)
        if (g_all[r].group == 0)
            list[n++] = r;
    dirty(a, 80);
    dckpt_restore_info_t info;
    expect_rc(dckpt_restore(ctx, MPI_COMM_WORLD, n, list, &info), DCKPT_ERR_UNRECOVERABLE,
              "more than m losses");
    CHECK(info.bad_group == 0, "bad_group %d", info.bad_group);
    if (!dckpt_is_checksum_rank(ctx))
        app_check(a, 80, "buffers untouched after an unrecoverable loss");
    ok("too_many");
}

/* ------------------------------------------------------------------ main */

static void parse(int argc, char **argv)
{
    g_par.code = DCKPT_CODE_RS;
    g_par.m = 1;
    g_par.k = 0;
    g_par.chunk_bytes = 16384;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--code"))
            g_par.code = !strcmp(argv[i + 1], "xor") ? DCKPT_CODE_XOR : DCKPT_CODE_RS;
        else if (!strcmp(argv[i], "--m"))
            g_par.m = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--k"))
            g_par.k = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--chunk"))
            g_par.chunk_bytes = (size_t)atol(argv[i + 1]);
        else
            fail("unknown option %s", argv[i]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    CHECK(g_size <= MAXN, "too many ranks");
    parse(argc, argv);

    scenario_args();

    dckpt_ctx_t *ctx = NULL;
    expect_rc(dckpt_create(MPI_COMM_WORLD, &g_par, &ctx), DCKPT_SUCCESS, "create");
    dckpt_layout_t lay;
    expect_rc(dckpt_layout(ctx, &lay), DCKPT_SUCCESS, "layout");
    MPI_Allgather(&lay, (int)sizeof(lay), MPI_BYTE, g_all, (int)sizeof(lay), MPI_BYTE,
                  MPI_COMM_WORLD);
    if (g_rank == 0) {
        printf("   %s m=%d k=%d np=%d: %d groups, %d data ranks, group 0 has k=%d\n",
               g_par.code == DCKPT_CODE_XOR ? "xor" : "rs", g_par.m, g_par.k, g_size, lay.ngroups,
               lay.ndata, g_all[0].k);
        fflush(stdout);
    }

    app_t a;
    memset(&a, 0, sizeof(a));
    if (!lay.is_checksum)
        app_alloc(&a, lay.data_rank);
    app_register(ctx, &a);

    scenario_no_ckpt(ctx);

    int64_t e1 = checkpoint(ctx, &a, 1);
    CHECK(e1 == 1, "first epoch is 1");
    int64_t e2 = checkpoint(ctx, &a, 2);
    CHECK(e2 == 2, "second epoch is 2");
    dirty(&a, 99);

    scenario_patterns(ctx, &a, e2, 2);
    scenario_reencode(ctx, &a);
    scenario_rollback(ctx, &a, dckpt_epoch(ctx), 3);
    scenario_replacement(&ctx, &a);
    scenario_ckpt_fail(ctx, &a, dckpt_epoch(ctx), 4);
    scenario_commit_fail(ctx, &a);
    scenario_freeze(ctx, &a);
    scenario_freeze_strided(ctx, &a);
    scenario_too_many(ctx, &a);

    if (g_rank == 0)
        printf("   memory held by the context on rank 0: %zu bytes\n", dckpt_memory_bytes(ctx));
    dckpt_free(&ctx);
    app_free(&a);
    ok("all");
    MPI_Finalize();
    return 0;
}
