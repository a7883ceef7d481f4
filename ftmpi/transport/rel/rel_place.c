/*
 * Zero-copy receive with the reliability layer on (docs/network.md,
 * "Reliability"): the lower transport asks, once a large packet's header
 * has arrived and before its payload is read, where the payload should go
 * (tp_env_t place). When the header holds and the fragment is the next one
 * in order of the stream being received, the answer is the receive buffer
 * itself, at the fragment's offset (the stream sink's iovecs, fixed now, as
 * rel_rx.c's place() fixes them for a copy): TCP then readv's the payload
 * straight there. Once all of it landed, its CRC-32C is computed over it
 * where it lies; only then does the sink hear that the bytes moved. A bad
 * CRC is NACKed like any other, and what it wrote is overwritten by the
 * fragment sent again (nothing of that range was reported to the sink).
 * Any other fragment (out of order, the first of a stream, a packet) is
 * declined and arrives as a packet, copied as before.
 */
#include "rel_int.h"

#include <string.h>

#include "util/crc32c.h"

/* Where an orphaned placement's bytes go (the peer was reset meanwhile,
 * or a copy of the fragment came first by another route: the receive
 * buffer is no longer this placement's to write). */
static char discard[1 << 16];

static rel_peer_t *peer_of(tp_io_t *io)
{
    return (rel_peer_t *)((char *)io - offsetof(rel_peer_t, pio));
}

static int pl_iov(tp_io_t *io, size_t off, size_t max, struct iovec *iov, int n, size_t *bytes)
{
    rel_peer_t *p = peer_of(io);
    size_t at = 0;
    int k = 0;
    *bytes = 0;
    if (p->placing != 1) {
        iov[0].iov_base = discard;
        iov[0].iov_len = *bytes = max < sizeof(discard) ? max : sizeof(discard);
        return 1;
    }
    for (int i = 0; i < p->npv && k < n && *bytes < max; i++) {
        size_t l = p->pv[i].iov_len;
        if (off >= at + l) {
            at += l;
            continue;
        }
        size_t skip = off > at ? off - at : 0, take = l - skip;
        if (take > max - *bytes)
            take = max - *bytes;
        iov[k].iov_base = (char *)p->pv[i].iov_base + skip;
        iov[k++].iov_len = take;
        *bytes += take;
        at += l;
        off = at;
    }
    return k;
}

static void pl_moved(tp_io_t *io, size_t off, size_t n)
{
    (void)io, (void)off, (void)n; /* reported to the sink once the CRC holds */
}

static void pl_done(tp_io_t *io, int err)
{
    rel_peer_t *p = peer_of(io);
    int src = (int)(p - R.peers), was = p->placing;
    p->placing = 0;
    if (was != 1 || err < 0 || p->ph.seq != p->expect)
        return; /* lost with its connection (sent again), or the peer was reset */
    uint32_t c = 0;
    for (int i = 0; i < p->npv; i++)
        c = crc32c(c, p->pv[i].iov_base, p->pv[i].iov_len);
    R.n_placed++;
    R.n_placed_bad += c != p->ph.dcrc;
    rel_rx_data(src, &p->ph, NULL, p->ph.len, c == p->ph.dcrc ? 1 : -1);
}

/* The header holds and is for this incarnation (no side effects: a
 * declined packet is delivered whole, and looked at then). */
static int sound(int src, const void *hdr, rel_hdr_t *h)
{
    memcpy(h, hdr, sizeof(*h));
    rel_hdr_t t = *h;
    t.hcrc = 0;
    return h->magic == REL_MAGIC && h->kind == RK_DATA && h->src == src &&
           crc32c(0, &t, sizeof(t)) == h->hcrc && h->src_inc == R.peers[src].inc &&
           h->dst_inc == R.up->my_inc;
}

int rel_place(int src, const void *hdr, size_t len, tp_io_t **io)
{
    rel_hdr_t h;
    if (src < 0 || src >= R.up->world_size)
        return 1;
    rel_peer_check(src);
    rel_peer_t *p = &R.peers[src];
    if (!sound(src, hdr, &h) || h.len != len || !(h.flags & RF_STREAM) ||
        (h.flags & RF_FIRST) || h.uhl || h.seq != p->expect || p->placing || !p->in_stream ||
        !p->sink || h.msg_len != p->stream_len || h.off + len > p->stream_len)
        return 1; /* delivered whole, as a packet */
    size_t b = 0;
    int k = p->sink->iov(p->sink, h.off, len, p->pv, REL_PLACE_IOV, &b);
    if (b != len)
        return 1;
    if (!rel_rx_head(src, hdr, sizeof(h) + len, &h)) /* its ACK, now */
        return 1;
    p->npv = k;
    p->ph = h;
    p->placing = 1;
    p->pio.len = len;
    p->pio.iov = pl_iov;
    p->pio.moved = pl_moved;
    p->pio.done = pl_done;
    *io = &p->pio;
    return 0;
}

/* The peer was reset while a fragment was being placed: the lower
 * transport still reads it, into the discard buffer. */
void rel_place_drop(rel_peer_t *p)
{
    if (p->placing)
        p->placing = 2;
}
