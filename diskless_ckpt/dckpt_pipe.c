/*
 * dckpt_pipe.c - streamed chain reduction of fragments.
 *
 * Encoding (sources: the k data ranks, targets: the m checksum ranks) and
 * decoding (sources: k surviving ranks, targets: the lost ranks) are the same
 * operation: every target t needs  sum_s coef[t][s] * F_s  over GF(2^8)
 * (XOR when every coefficient is 1). The sources form a chain
 *
 *     src[0] -> src[1] -> ... -> src[nsrc-1] -> each target
 *
 * and the fragments are cut into chunks. For chunk c, src[0] computes the
 * ntgt partial rows coef[.][0] * F_0[c], every next source receives them,
 * folds in coef[.][s] * F_s[c] in place (ISA-L ec_encode_data_update with a
 * one-column table, or XOR) and passes them on; the last source sends row t
 * to target t, which receives it straight into its storage.
 *
 * Cost per rank and chunk: a source receives and sends ntgt * chunk bytes and
 * does ntgt multiply-adds of one chunk; a target receives one chunk. So the
 * load is the same on every rank whatever k is (unlike gathering k fragments
 * on the checksum rank), and chunks overlap along the chain: source s works
 * on chunk c while source s+1 works on chunk c-1. Time for a fragment of L
 * bytes: about (L / chunk + nsrc) chunk steps.
 *
 * Memory: DCKPT_PIPE_DEPTH buffers of ntgt * chunk bytes (chunks in flight,
 * so that receiving the next chunks overlaps work on this one).
 *
 * Runs (an incremental checkpoint, dckpt_freeze.c): the pipe's offsets then
 * stand for the bytes of the given runs of the fragment, in order; sources
 * read and fill them in place, targets receive each chunk into the ring and
 * copy its pieces to their places.
 *
 * Ordering: MPI keeps messages between two ranks on one communicator and tag
 * in order, so chunk numbers need not travel; receives are posted in order.
 */
#include "dckpt_internal.h"
#include "dckpt_xor.h"

#include <string.h>

size_t dckpt_pipe_pool_bytes(int ntgt, size_t chunk)
{
    return (size_t)DCKPT_PIPE_DEPTH * (size_t)(ntgt > 0 ? ntgt : 1) * chunk;
}

typedef struct pipe_state {
    const dckpt_pipe_t *p;
    size_t nchunks;
    /* p->next_run: the run holding the last offset mapped, and its pipe offset */
    size_t run_off, run_len, run_v;
    MPI_Request recv[DCKPT_PIPE_DEPTH];
    MPI_Request send[DCKPT_PIPE_DEPTH * DCKPT_RS_MAX_FRAGS]; /* DEPTH x ntgt used */
} pipe_state_t;

static size_t pipe_clen(const dckpt_pipe_t *p, size_t c)
{
    size_t off = c * p->chunk;
    return p->len - off < p->chunk ? p->len - off : p->chunk;
}

/* Pipe offset v (mapped in increasing order) -> *real, the byte of buf it
   stands for; returns how many of the n bytes from v are contiguous there. */
static size_t pipe_map(pipe_state_t *st, size_t v, size_t n, size_t *real)
{
    const dckpt_pipe_t *p = st->p;
    if (p->next_run == NULL) {
        *real = v;
        return n;
    }
    while (v >= st->run_v + st->run_len) { /* the next run (p->len says there is one) */
        size_t from = st->run_off + st->run_len;
        st->run_v += st->run_len;
        if (!p->next_run(p->run_arg, from, &st->run_off, &st->run_len) || st->run_len == 0) {
            st->run_off = from; /* cannot happen: p->len is the runs' sum */
            st->run_len = n;
        }
    }
    size_t in = v - st->run_v, left = st->run_len - in;
    *real = st->run_off + in;
    return n < left ? n : left;
}

/* Drop everything in flight after an error (cancel receives, free all). */
static void pipe_abandon(pipe_state_t *st)
{
    int ntgt = st->p->ntgt;
    for (int s = 0; s < DCKPT_PIPE_DEPTH; s++) {
        if (st->recv[s] != MPI_REQUEST_NULL) {
            MPI_Cancel(&st->recv[s]);
            MPI_Request_free(&st->recv[s]);
        }
        for (int t = 0; t < ntgt; t++)
            if (st->send[s * ntgt + t] != MPI_REQUEST_NULL)
                MPI_Request_free(&st->send[s * ntgt + t]);
    }
}

static int pipe_wait_sends(pipe_state_t *st, int slot)
{
    int ntgt = st->p->ntgt;
    for (int t = 0; t < ntgt; t++) {
        MPI_Request *r = &st->send[slot * ntgt + t];
        if (*r != MPI_REQUEST_NULL && MPI_Wait(r, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return DCKPT_ERR_MPI;
    }
    return DCKPT_SUCCESS;
}

/* rows[t][off, off + n) (=|^=) coef[t][pos] * data[0, n), for the ntgt rows
 * (each clen bytes) of one chunk */
static void pipe_apply(const dckpt_pipe_t *p, const uint8_t *tbls, const uint8_t *data,
                       uint8_t *rowbuf, size_t clen, size_t off, size_t n, int accumulate)
{
    uint8_t *rows[DCKPT_RS_MAX_FRAGS];
    for (int t = 0; t < p->ntgt; t++)
        rows[t] = rowbuf + (size_t)t * clen + off;
    if (data == NULL) { /* padding: contributes nothing */
        for (int t = 0; t < p->ntgt && !accumulate; t++)
            memset(rows[t], 0, n);
        return;
    }
    if (p->use_xor) {
        for (int t = 0; t < p->ntgt; t++) {
            if (accumulate)
                dckpt_xor_into(rows[t], data, n);
            else
                memcpy(rows[t], data, n);
        }
        return;
    }
    dckpt_rs_col_apply(n, p->ntgt, tbls, data, rows, accumulate);
}

/*
 * Fold this source's bytes of chunk c into the chunk's rows. One pass over
 * the data: the chunk goes in cache-sized pieces (cut where its runs or the
 * fragment end), each filled (copied into the fragment and checksummed,
 * p->fill) and encoded while it is still in cache; a piece past the
 * fragment adds nothing.
 */
static void pipe_source_apply(pipe_state_t *st, size_t c, const uint8_t *tbls, uint8_t *rowbuf,
                              int accumulate)
{
    const dckpt_pipe_t *p = st->p;
    size_t off = c * p->chunk, clen = pipe_clen(p, c);
    for (size_t s = 0; s < clen;) {
        size_t real, n = pipe_map(st, off + s, clen - s < DCKPT_PIPE_PIECE ? clen - s
                                                                          : DCKPT_PIPE_PIECE,
                                  &real);
        if (real >= p->valid) {
            pipe_apply(p, tbls, NULL, rowbuf, clen, s, n, accumulate);
        } else {
            if (real + n > p->valid)
                n = p->valid - real;
            if (p->fill)
                p->fill(p->arg, p->buf + real, real, n);
            pipe_apply(p, tbls, p->buf + real, rowbuf, clen, s, n, accumulate);
        }
        s += n;
    }
}

static int pipe_post_recv(pipe_state_t *st, int from, size_t c, uint8_t *dst, size_t bytes)
{
    const dckpt_pipe_t *p = st->p;
    int s = (int)(c % DCKPT_PIPE_DEPTH);
    if (MPI_Irecv(dst, (int)bytes, MPI_BYTE, from, p->tag, p->comm, &st->recv[s]) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    return DCKPT_SUCCESS;
}

static int pipe_run_source(pipe_state_t *st, int pos)
{
    const dckpt_pipe_t *p = st->p;
    int ntgt = p->ntgt, first = pos == 0, last = pos == p->nsrc - 1;
    size_t slot_bytes = (size_t)ntgt * p->chunk;
    uint8_t tbls[32 * DCKPT_RS_MAX_FRAGS];
    uint8_t col[DCKPT_RS_MAX_FRAGS];
    int rc;

    if (!p->use_xor) {
        for (int t = 0; t < ntgt; t++)
            col[t] = p->coef[(size_t)t * p->nsrc + pos];
        dckpt_rs_col_tables(ntgt, col, tbls);
    }
    if (!first)
        for (size_t c = 0; c < st->nchunks && c < DCKPT_PIPE_DEPTH; c++)
            if ((rc = pipe_post_recv(st, p->src[pos - 1], c, p->pool + c * slot_bytes,
                                     (size_t)ntgt * pipe_clen(p, c))) != DCKPT_SUCCESS)
                return rc;

    for (size_t c = 0; c < st->nchunks; c++) {
        int s = (int)(c % DCKPT_PIPE_DEPTH);
        uint8_t *rowbuf = p->pool + (size_t)s * slot_bytes;
        size_t clen = pipe_clen(p, c);

        if (first) {
            if ((rc = pipe_wait_sends(st, s)) != DCKPT_SUCCESS) /* chunk c - DEPTH */
                return rc;
        } else if (MPI_Wait(&st->recv[s], MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            return DCKPT_ERR_MPI;
        }
        pipe_source_apply(st, c, tbls, rowbuf, !first);

        MPI_Request *sr = &st->send[s * ntgt];
        if (last) {
            for (int t = 0; t < ntgt; t++)
                if (MPI_Isend(rowbuf + (size_t)t * clen, (int)clen, MPI_BYTE, p->tgt[t], p->tag,
                              p->comm, &sr[t]) != MPI_SUCCESS)
                    return DCKPT_ERR_MPI;
        } else if (MPI_Isend(rowbuf, (int)((size_t)ntgt * clen), MPI_BYTE, p->src[pos + 1],
                             p->tag, p->comm, &sr[0]) != MPI_SUCCESS) {
            return DCKPT_ERR_MPI;
        }

        /* recycle the previous chunk's buffer for chunk c - 1 + DEPTH */
        if (!first && c >= 1 && c - 1 + DCKPT_PIPE_DEPTH < st->nchunks) {
            size_t nc = c - 1 + DCKPT_PIPE_DEPTH;
            int ps = (int)((c - 1) % DCKPT_PIPE_DEPTH);
            if ((rc = pipe_wait_sends(st, ps)) != DCKPT_SUCCESS)
                return rc;
            if ((rc = pipe_post_recv(st, p->src[pos - 1], nc, p->pool + (size_t)ps * slot_bytes,
                                     (size_t)ntgt * pipe_clen(p, nc))) != DCKPT_SUCCESS)
                return rc;
        }
    }
    for (int s = 0; s < DCKPT_PIPE_DEPTH; s++)
        if ((rc = pipe_wait_sends(st, s)) != DCKPT_SUCCESS)
            return rc;
    return DCKPT_SUCCESS;
}

/* Where chunk c lands on a target: straight into buf, or a ring buffer. */
static uint8_t *pipe_target_dst(const dckpt_pipe_t *p, size_t c)
{
    size_t off = c * p->chunk;
    if (p->next_run == NULL && p->buf != NULL && off + pipe_clen(p, c) <= p->valid)
        return p->buf + off;
    return p->pool + (c % DCKPT_PIPE_DEPTH) * p->chunk;
}

/* chunk c has arrived at got: its bytes to their places in buf, in order */
static void pipe_target_place(pipe_state_t *st, size_t c, const uint8_t *got)
{
    const dckpt_pipe_t *p = st->p;
    size_t off = c * p->chunk, clen = pipe_clen(p, c);
    for (size_t s = 0; s < clen && p->buf != NULL;) {
        size_t real, n = pipe_map(st, off + s, clen - s, &real);
        if (real < p->valid) {
            size_t keep = p->valid - real < n ? p->valid - real : n;
            if (got + s != p->buf + real)
                memcpy(p->buf + real, got + s, keep);
            if (p->done)
                p->done(p->arg, p->buf + real, real, keep);
        }
        s += n;
    }
}

static int pipe_run_target(pipe_state_t *st)
{
    const dckpt_pipe_t *p = st->p;
    int from = p->src[p->nsrc - 1], rc;

    for (size_t c = 0; c < st->nchunks && c < DCKPT_PIPE_DEPTH; c++)
        if ((rc = pipe_post_recv(st, from, c, pipe_target_dst(p, c), pipe_clen(p, c))) !=
            DCKPT_SUCCESS)
            return rc;
    for (size_t c = 0; c < st->nchunks; c++) {
        int s = (int)(c % DCKPT_PIPE_DEPTH);
        if (MPI_Wait(&st->recv[s], MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return DCKPT_ERR_MPI;
        pipe_target_place(st, c, pipe_target_dst(p, c));
        size_t nc = c + DCKPT_PIPE_DEPTH;
        if (nc < st->nchunks &&
            (rc = pipe_post_recv(st, from, nc, pipe_target_dst(p, nc), pipe_clen(p, nc))) !=
                DCKPT_SUCCESS)
            return rc;
    }
    return DCKPT_SUCCESS;
}

int dckpt_pipe_run(const dckpt_pipe_t *p)
{
    int pos = -1, tpos = -1;
    for (int s = 0; s < p->nsrc; s++)
        if (p->src[s] == p->me)
            pos = s;
    for (int t = 0; t < p->ntgt; t++)
        if (p->tgt[t] == p->me)
            tpos = t;
    if ((pos < 0 && tpos < 0) || p->len == 0 || p->nsrc < 1 || p->ntgt < 1)
        return DCKPT_SUCCESS;
    if (p->ntgt > DCKPT_RS_MAX_FRAGS)
        return DCKPT_ERR_ARG;

    pipe_state_t st;
    st.p = p;
    st.run_off = st.run_len = st.run_v = 0;
    st.nchunks = (p->len + p->chunk - 1) / p->chunk;
    int stopped = p->stop_after >= 0 && (size_t)p->stop_after < st.nchunks;
    if (stopped)
        st.nchunks = (size_t)p->stop_after;
    for (int i = 0; i < DCKPT_PIPE_DEPTH; i++)
        st.recv[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < DCKPT_PIPE_DEPTH * p->ntgt; i++)
        st.send[i] = MPI_REQUEST_NULL;

    int rc = pos >= 0 ? pipe_run_source(&st, pos) : pipe_run_target(&st);
    if (rc != DCKPT_SUCCESS)
        pipe_abandon(&st);
    if (rc == DCKPT_SUCCESS && stopped)
        rc = DCKPT_ERR_MPI; /* injected: as if a process had failed here */
    return rc;
}
