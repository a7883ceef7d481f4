/*
 * dckpt_overlap.c - overlapped checkpoints (params.overlap; issue 15).
 *
 * The blocking checkpoint streams the fragments along a chain of the data
 * ranks (dckpt_pipe.c): every data rank works until the last chunk has
 * passed. Here the data ranks only copy their bytes into their half (the
 * snapshot, dckpt_checkpoint.c) and post one nonblocking send per message
 * per checksum rank, straight from the half (a datatype over the runs to
 * encode: the receiver reads them with one single-copy rendezvous each, so
 * the sender need not be inside MPI while they move); then they return and
 * compute. Each checksum rank receives the k data ranks' messages (two in
 * flight) and folds them into its own parity row, piece by piece, into its
 * half (and CRCs it in order).
 *
 * The stream: the bytes of the runs the group encodes
 * (dckpt_ckpt_next_run), in order, cut into messages of OVL_MSG bytes. A
 * data rank shorter than the fragment sends only its own bytes: runs at or
 * past its length are padding (zeros), so its message is a prefix of the
 * message's bytes; the checksum rank knows every member's length from the
 * records and zero-fills the rest.
 *
 * Cost against the chain: a checksum rank receives k fragments' worth and
 * does all k multiply-adds of its row (the chain spreads them over the data
 * ranks); the data ranks do nothing after the copy. On machines where the
 * checksum ranks have cores of their own, that work is hidden.
 */
#include "dckpt_internal.h"
#include "dckpt_xor.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* bytes of the stream per message: 4 chunks (1 MiB by default) */
static size_t ovl_msg(const dckpt_ctx_t *ctx)
{
    return 4 * ctx->params.chunk_bytes;
}

/* A walk over the runs, in order, piece by piece. */
typedef struct ovl_walk {
    dckpt_ctx_t *ctx;
    size_t off, len; /* what is left of the current run */
    int more;
} ovl_walk_t;

static void walk_init(ovl_walk_t *w, dckpt_ctx_t *ctx)
{
    w->ctx = ctx;
    w->more = dckpt_ckpt_next_run(ctx, 0, &w->off, &w->len) && w->len > 0;
}

/* the next piece, at most `room` bytes: 1, or 0 when the runs are done */
static int walk_next(ovl_walk_t *w, size_t room, size_t *off, size_t *n)
{
    if (!w->more || room == 0)
        return 0;
    *off = w->off;
    *n = w->len < room ? w->len : room;
    w->off += *n;
    w->len -= *n;
    if (w->len == 0)
        w->more = dckpt_ckpt_next_run(w->ctx, w->off, &w->off, &w->len) && w->len > 0;
    return 1;
}

static size_t ovl_nmsg(const dckpt_ctx_t *ctx)
{
    size_t m = ovl_msg(ctx);
    return (ctx->encoded + m - 1) / m;
}

static int ovl_reserve(dckpt_ctx_t *ctx, int nreq, int ntype)
{
    int need = nreq > ntype ? nreq : ntype;
    if (need <= ctx->ovl_cap)
        return DCKPT_SUCCESS;
    MPI_Request *r = realloc(ctx->ovl_req, (size_t)need * sizeof(*r));
    if (r == NULL)
        return DCKPT_ERR_NOMEM;
    ctx->ovl_req = r;
    MPI_Datatype *t = realloc(ctx->ovl_type, (size_t)need * sizeof(*t));
    if (t == NULL)
        return DCKPT_ERR_NOMEM;
    ctx->ovl_type = t;
    ctx->ovl_cap = need;
    return DCKPT_SUCCESS;
}

static void ovl_free_types(dckpt_ctx_t *ctx)
{
    for (int i = 0; i < ctx->ovl_ntype; i++)
        MPI_Type_free(&ctx->ovl_type[i]);
    ctx->ovl_ntype = 0;
}

int dckpt_overlap_post(dckpt_ctx_t *ctx, const dckpt_slot_t *slot, size_t valid)
{
    const dckpt_layout_t *lay = &ctx->lay;
    size_t msg = ovl_msg(ctx), nmsg = ovl_nmsg(ctx);
    if (nmsg * (size_t)lay->m > (size_t)INT_MAX / 2)
        return DCKPT_ERR_NOMEM;
    int rc = ovl_reserve(ctx, (int)nmsg * lay->m, (int)nmsg);
    if (rc != DCKPT_SUCCESS)
        return rc;
    size_t cap = 64, np;
    int *lens = malloc(cap * sizeof(*lens));
    MPI_Aint *disp = malloc(cap * sizeof(*disp));
    ovl_walk_t w;
    walk_init(&w, ctx);
    for (size_t c = 0; c < nmsg && lens && disp; c++) {
        size_t left = msg, off, n;
        np = 0;
        while (left > 0 && walk_next(&w, left, &off, &n)) {
            left -= n;
            if (off >= valid)
                continue; /* padding: the checksum ranks know */
            if (off + n > valid)
                n = valid - off;
            if (np == cap) {
                cap *= 2;
                int *nl = realloc(lens, cap * sizeof(*lens));
                MPI_Aint *nd = nl ? realloc(disp, cap * sizeof(*disp)) : NULL;
                if (nl)
                    lens = nl;
                if (nd == NULL) {
                    free(lens);
                    lens = NULL;
                    break;
                }
                disp = nd;
            }
            lens[np] = (int)n;
            disp[np] = (MPI_Aint)off;
            np++;
        }
        if (lens == NULL || np == 0)
            continue;
        MPI_Datatype *t = &ctx->ovl_type[ctx->ovl_ntype];
        if (MPI_Type_create_hindexed((int)np, lens, disp, MPI_BYTE, t) != MPI_SUCCESS ||
            MPI_Type_commit(t) != MPI_SUCCESS) {
            rc = DCKPT_ERR_MPI;
            break;
        }
        ctx->ovl_ntype++;
        for (int j = 0; j < lay->m; j++)
            if (MPI_Isend(slot->buf, 1, *t, lay->k + j, DCKPT_TAG_OVERLAP, ctx->group,
                          &ctx->ovl_req[ctx->ovl_nreq++]) != MPI_SUCCESS) {
                ctx->ovl_req[--ctx->ovl_nreq] = MPI_REQUEST_NULL;
                rc = DCKPT_ERR_MPI;
                break;
            }
        if (rc != DCKPT_SUCCESS)
            break;
    }
    if ((lens == NULL || disp == NULL) && rc == DCKPT_SUCCESS)
        rc = DCKPT_ERR_NOMEM;
    free(lens);
    free(disp);
    return rc;
}

int dckpt_overlap_wait(dckpt_ctx_t *ctx)
{
    int rc = ctx->ovl_nreq > 0 ? MPI_Waitall(ctx->ovl_nreq, ctx->ovl_req, MPI_STATUSES_IGNORE)
                               : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        dckpt_overlap_drop(ctx);
        return DCKPT_ERR_MPI;
    }
    ctx->ovl_nreq = 0;
    ovl_free_types(ctx);
    return DCKPT_SUCCESS;
}

void dckpt_overlap_drop(dckpt_ctx_t *ctx)
{
    for (int i = 0; i < ctx->ovl_nreq; i++)
        if (ctx->ovl_req[i] != MPI_REQUEST_NULL)
            MPI_Request_free(&ctx->ovl_req[i]);
    ctx->ovl_nreq = 0;
    ovl_free_types(ctx);
}

/* ------------------------------------------------------------------ checksum rank */

typedef struct ovl_rx {
    dckpt_ctx_t *ctx;
    int k;
    size_t msg, nmsg;
    size_t *bytes; /* nmsg x k: what data rank s sends of message c */
    MPI_Request req[2][DCKPT_RS_MAX_FRAGS];
} ovl_rx_t;

static uint8_t *rx_buf(const ovl_rx_t *x, size_t c, int s)
{
    return x->ctx->pool + ((c % 2) * (size_t)x->k + (size_t)s) * x->msg;
}

/* every data rank's share of every message, from the records' lengths */
static void rx_sizes(ovl_rx_t *x, const dckpt_slot_t *slot)
{
    ovl_walk_t w;
    walk_init(&w, x->ctx);
    for (size_t c = 0; c < x->nmsg; c++) {
        size_t left = x->msg, off, n;
        size_t *b = x->bytes + c * (size_t)x->k;
        for (int s = 0; s < x->k; s++)
            b[s] = 0;
        while (left > 0 && walk_next(&w, left, &off, &n)) {
            left -= n;
            for (int s = 0; s < x->k; s++) {
                size_t valid = (size_t)slot->recs[s].bytes;
                if (off < valid)
                    b[s] += off + n > valid ? valid - off : n;
            }
        }
    }
}

static int rx_post(ovl_rx_t *x, size_t c)
{
    for (int s = 0; s < x->k; s++) {
        size_t b = x->bytes[c * (size_t)x->k + (size_t)s];
        x->req[c % 2][s] = MPI_REQUEST_NULL;
        if (b > 0 && MPI_Irecv(rx_buf(x, c, s), (int)b, MPI_BYTE, s, DCKPT_TAG_OVERLAP,
                               x->ctx->group, &x->req[c % 2][s]) != MPI_SUCCESS)
            return DCKPT_ERR_MPI;
    }
    return DCKPT_SUCCESS;
}

static void rx_abandon(ovl_rx_t *x)
{
    for (int i = 0; i < 2; i++)
        for (int s = 0; s < x->k; s++)
            if (x->req[i][s] != MPI_REQUEST_NULL) {
                MPI_Cancel(&x->req[i][s]);
                MPI_Request_free(&x->req[i][s]);
            }
}

/* dst = sum_s coef[s] * src_s[v, v + n) */
static void rx_fold(const ovl_rx_t *x, size_t c, size_t v, size_t n, const uint8_t *tbls,
                    uint8_t *dst)
{
    int use_xor = x->ctx->params.code == DCKPT_CODE_XOR;
    for (int s = 0; s < x->k; s++) {
        const uint8_t *src = rx_buf(x, c, s) + v;
        if (use_xor) {
            if (s == 0)
                memcpy(dst, src, n);
            else
                dckpt_xor_into(dst, src, n);
        } else {
            uint8_t *row[1] = {dst};
            dckpt_rs_col_apply(n, 1, tbls + 32 * (size_t)s, src, row, s > 0);
        }
    }
}

static int rx_run(ovl_rx_t *x, dckpt_slot_t *slot, int have_buf, const uint8_t *tbls,
                  void (*done)(void *, const uint8_t *, size_t, size_t), void *arg)
{
    ovl_walk_t w;
    walk_init(&w, x->ctx);
    int rc = x->nmsg > 0 ? rx_post(x, 0) : DCKPT_SUCCESS;
    for (size_t c = 0; c < x->nmsg && rc == DCKPT_SUCCESS; c++) {
        if (c + 1 < x->nmsg && (rc = rx_post(x, c + 1)) != DCKPT_SUCCESS)
            break;
        if (MPI_Waitall(x->k, x->req[c % 2], MPI_STATUSES_IGNORE) != MPI_SUCCESS)
            return DCKPT_ERR_MPI;
        size_t len = x->ctx->encoded - c * x->msg < x->msg ? x->ctx->encoded - c * x->msg
                                                             : x->msg;
        for (int s = 0; s < x->k; s++) { /* a short data rank's padding */
            size_t b = x->bytes[c * (size_t)x->k + (size_t)s];
            if (b < len)
                memset(rx_buf(x, c, s) + b, 0, len - b);
        }
        size_t v = 0, off, n;
        while (v < len && walk_next(&w, len - v, &off, &n)) {
            if (have_buf) {
                rx_fold(x, c, v, n, tbls, slot->buf + off);
                done(arg, slot->buf + off, off, n);
            }
            v += n;
        }
    }
    return rc;
}

int dckpt_overlap_encode(dckpt_ctx_t *ctx, dckpt_slot_t *slot, int have_buf,
                         void (*done)(void *arg, const uint8_t *p, size_t off, size_t n),
                         void *arg)
{
    const dckpt_layout_t *lay = &ctx->lay;
    ovl_rx_t x;
    memset(&x, 0, sizeof(x));
    x.ctx = ctx;
    x.k = lay->k;
    x.msg = ovl_msg(ctx);
    x.nmsg = ovl_nmsg(ctx);
    for (int i = 0; i < 2; i++)
        for (int s = 0; s < x.k; s++)
            x.req[i][s] = MPI_REQUEST_NULL;
    /* the local failures are reported as an MPI error: the data ranks'
       sends then fail or are dropped by the restore, as after a failure */
    if (x.k > DCKPT_RS_MAX_FRAGS || dckpt_store_pool_reserve(ctx, 2 * (size_t)x.k * x.msg) !=
                                        DCKPT_SUCCESS)
        return DCKPT_ERR_MPI;
    x.bytes = malloc((x.nmsg ? x.nmsg : 1) * (size_t)x.k * sizeof(*x.bytes));
    uint8_t *tbls = malloc(32 * (size_t)x.k);
    if (x.bytes == NULL || tbls == NULL) {
        free(x.bytes);
        free(tbls);
        return DCKPT_ERR_MPI;
    }
    if (ctx->params.code != DCKPT_CODE_XOR) {
        int j = lay->group_rank - lay->k;
        for (int s = 0; s < x.k; s++)
            dckpt_rs_col_tables(1, &ctx->parity_coef[(size_t)j * (size_t)x.k + (size_t)s],
                                tbls + 32 * (size_t)s);
    }
    rx_sizes(&x, slot);
    int rc = rx_run(&x, slot, have_buf, tbls, done, arg);
    if (rc != DCKPT_SUCCESS)
        rx_abandon(&x);
    free(x.bytes);
    free(tbls);
    return rc;
}
