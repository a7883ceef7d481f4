/*
 * The reliability layer's receiving side. A fragment is used only when its
 * header CRC and its payload CRC hold: a bad header is answered with a
 * NACK of the next expected fragment (its own number cannot be trusted), a
 * bad payload with a NACK of its number. In order: delivered (a packet to
 * p2p, a stream's data into p2p's sink), then any kept fragments that now
 * follow. Ahead of order: kept (a copy, within REL_WINDOW) and the gap
 * NACKed once. Behind: a duplicate, dropped and answered with an ACK.
 * ACKs are cumulative, ride on every data fragment, and go alone when a
 * fragment asks (RF_ACKNOW), after 16 fragments, or after ack_delay.
 */
#include "rel_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/crc32c.h"
#include "util/timer.h"

void rel_hdr_seal(rel_hdr_t *h)
{
    h->hcrc = 0;
    h->hcrc = crc32c(0, h, sizeof(*h));
}

/* The fragment-specific part of an ACK: bit i set when fragment
 * expect + 1 + i is kept here (the sender need not send it again). */
static uint64_t sack_map(const rel_peer_t *p)
{
    uint64_t m = 0;
    if (!p->nkept)
        return 0;
    for (int i = 0; i < 64; i++) {
        const rel_frag_t *f = p->ooo[(p->expect + 1 + (uint64_t)i) % REL_WINDOW];
        if (f && f->seq == p->expect + 1 + (uint64_t)i)
            m |= 1ull << i;
    }
    return m;
}

static int ready(int world, int r)
{
    if (R.low->route_ready)
        return R.low->route_ready(world, r);
    return !R.low->connected || R.low->connected(world);
}

/* The route for an ACK: the one the peer's data came by, if it is in use
 * here, else the first one in use with a connection; -1: none. */
static int ctl_route(int world)
{
    rel_peer_t *p = &R.peers[world];
    int r = p->ack_route;
    if ((!p->nrt || (r < p->nrt && p->rt[r].up)) && ready(world, r))
        return r;
    for (r = 0; r < p->nrt; r++)
        if (p->rt[r].up && ready(world, r))
            return r;
    return -1;
}

/* A frame without payload (ACK, NACK, PROBE*, ROUTE) on route r (-1: the
 * best one); 0 when the lower layer took it. Never on a connection made
 * for it (the peer may be dead: asking for a connection would make it
 * suspect), except a PROBE, whose point is to make one. */
int rel_ctl_send(int world, int r, int kind, uint64_t seq, uint32_t route, uint32_t rstate)
{
    rel_peer_t *p = &R.peers[world];
    if (r < 0 && (r = ctl_route(world)) < 0)
        return -ENOTCONN;
    if (kind != RK_PROBE && !ready(world, r))
        return -ENOTCONN;
    if (kind == RK_ROUTE && R.route_eagain > 0) {
        R.route_eagain--;
        return -EAGAIN;
    }
    rel_hdr_t h = {.magic = REL_MAGIC, .kind = (uint8_t)kind, .src_inc = R.up->my_inc,
                   .dst_inc = p->inc, .src = R.up->my_world, .seq = seq,
                   .ack = p->expect - 1, .off = sack_map(p), .route = route, .rstate = rstate};
    rel_route_fill(p, &h);
    rel_hdr_seal(&h);
    int rc;
    if (kind == RK_ACK && R.drop_acks > 0) /* test knob: as if lost on the way */
        rc = 0, R.drop_acks--;
    else
        rc = R.low->send_on ? R.low->send_on(world, r, &h, NULL, 0)
                            : R.low->send(world, world, &h, NULL, 0);
    if (rc == 0) {
        p->ack_sent = h.ack;
        p->since_ack = 0;
        p->ack_due = 0;
        p->ack_now = 0;
        p->sack_dirty = 0;
    }
    return rc;
}

static void want_ack(int world, int now)
{
    rel_peer_t *p = &R.peers[world];
    if (now)
        p->ack_now = 1;
    else if (!p->ack_due) {
        p->ack_due = timer_ns() + R.ack_delay;
        rel_timer_want(p->ack_due);
    }
    if (!p->on_acklist) {
        p->on_acklist = 1;
        list_add_tail(&R.acklist, &p->acklink);
    }
}

static void nack(int world, uint64_t seq)
{
    R.n_nack++;
    /* if it does not go, the sender's timer does the work */
    rel_ctl_send(world, -1, RK_NACK, seq, 0, 0);
}

/* An in-order fragment: to p2p (placed: its data is in the sink already). */
static void use(int src, rel_peer_t *p, const rel_hdr_t *h, char *payload, int placed)
{
    if (!(h->flags & RF_STREAM)) {
        R.up->deliver(src, payload, h->len);
        return;
    }
    char *data = payload;
    size_t dl = h->len;
    if (h->flags & RF_FIRST) {
        tp_io_t *io = NULL;
        p->in_stream = 1;
        p->stream_len = h->msg_len;
        p->stream_got = 0;
        p->sink = R.up->sink(src, payload, h->msg_len, &io) == 0 ? io : NULL;
        data += h->uhl;
        dl -= h->uhl;
    }
    if (!p->in_stream)
        return; /* cannot happen in order; a stray is ignored */
    if (p->sink && dl && !placed)
        tp_io_put(p->sink, h->off, data, dl);
    p->stream_got += dl;
    if (h->flags & RF_LAST) {
        tp_io_t *io = p->sink;
        p->sink = NULL;
        p->in_stream = 0;
        if (io)
            io->done(io, 0);
    }
}

static int kept(const rel_peer_t *p, uint64_t seq)
{
    const rel_frag_t *f = p->ooo ? p->ooo[seq % REL_WINDOW] : NULL;
    return f && f->seq == seq;
}

/* Keep a copy of a fragment ahead of order, its CRC checked while
 * copying: 0 kept (or no room), -1 bad CRC. */
static int keep(rel_peer_t *p, const rel_hdr_t *h, const char *payload)
{
    if (!p->ooo && !(p->ooo = calloc(REL_WINDOW, sizeof(*p->ooo))))
        return 0;
    rel_frag_t **slot = &p->ooo[h->seq % REL_WINDOW];
    if (*slot)
        return 0; /* a slot still holds one a window behind: the sender sends it again */
    rel_frag_t *f = rel_pool_alloc(sizeof(*f) + sizeof(*h) + h->len);
    if (!f)
        return 0;
    if (crc32c_copy(0, f->buf + sizeof(*h), payload, h->len) != h->dcrc) {
        rel_pool_free(f);
        return -1;
    }
    f->seq = h->seq;
    memcpy(f->buf, h, sizeof(*h));
    *slot = f;
    p->nkept++;
    p->sack_dirty = 1;
    R.n_ooo++;
    return 0;
}

/* An in-order stream fragment straight into the receive buffer, its CRC
 * computed while copying (one pass, as LA-MPI): 1 placed, 0 not placeable
 * in one piece (the caller checks and copies), -1 bad CRC (what it wrote
 * is not reported to the sink and is overwritten by the retransmission). */
static int place(rel_peer_t *p, const rel_hdr_t *h, const char *data)
{
    if (!(h->flags & RF_STREAM) || (h->flags & RF_FIRST) || !p->in_stream || !p->sink ||
        !h->len)
        return 0;
    struct iovec v[16];
    size_t b = 0;
    int k = p->sink->iov(p->sink, h->off, h->len, v, 16, &b);
    if (b != h->len)
        return 0;
    uint32_t c = 0;
    size_t at = 0;
    for (int i = 0; i < k; i++) {
        c = crc32c_copy(c, v[i].iov_base, data + at, v[i].iov_len);
        at += v[i].iov_len;
    }
    if (c != h->dcrc)
        return -1;
    if (p->sink->moved)
        p->sink->moved(p->sink, h->off, h->len);
    return 1;
}

int rel_rx_head(int src, const void *pkt, size_t len, rel_hdr_t *hp)
{
    rel_hdr_t h;
    if (src < 0 || src >= R.up->world_size || len < sizeof(h))
        return 0;
    memcpy(&h, pkt, sizeof(h));
    uint32_t hc = h.hcrc;
    h.hcrc = 0;
    rel_peer_check(src);
    rel_peer_t *p = &R.peers[src];
    if (h.magic != REL_MAGIC || crc32c(0, &h, sizeof(h)) != hc || h.src != src) {
        R.n_badcrc++;
        nack(src, p->expect);
        return 0;
    }
    if (h.src_inc != p->inc || h.dst_inc != R.up->my_inc)
        return 0; /* for or from another incarnation: stale */
    rel_tx_acked(src, h.ack);
    if (h.kind != RK_DATA)
        rel_route_feedback(src, &h);
    if (h.kind == RK_ACK || h.kind == RK_NACK)
        rel_tx_sacked(src, h.ack, h.off);
    if (h.kind == RK_NACK) {
        rel_tx_nacked(src, h.seq);
        return 0;
    }
    if (h.kind != RK_DATA) {
        rel_route_ctl(src, &h);
        return 0;
    }
    h.hcrc = hc;
    *hp = h;
    return 1;
}

void rel_rx_deliver(int src, void *pkt, size_t len)
{
    rel_hdr_t h;
    if (rel_rx_head(src, pkt, len, &h))
        rel_rx_data(src, &h, (char *)pkt + sizeof(h), len - sizeof(h), 0);
}

void rel_rx_data(int src, const rel_hdr_t *hp, char *payload, size_t plen, int placed)
{
    rel_peer_t *p = &R.peers[src];
    rel_hdr_t h = *hp;
    int rr = R.low->rx_route ? R.low->rx_route() : 0;
    if (rr >= 0 && rr < TP_MAX_ROUTES) {
        p->ack_route = rr;
        p->rt[rr].rx_bytes += plen + sizeof(h);
        rel_route_arrived(p, rr, &h);
    }
    if (h.len != plen || h.uhl > h.len) {
        R.n_badcrc++;
        nack(src, h.seq);
        return;
    }
    /* a copy of the fragment being placed, sent again on another route
     * (the placed one may be stuck on a route that was cut): this one is
     * used, the placed one's bytes go to the discard buffer from now */
    if (!placed && p->placing == 1 && h.seq == p->ph.seq)
        p->placing = 2;
    if (h.seq < p->expect || kept(p, h.seq)) {
        R.n_dup++;
        want_ack(src, 1);
        return;
    }
    /* Each route is in order: the fragment sent before this one on its
     * route is missing only when it was lost (or corrupted). */
    if (h.rprev >= p->expect && h.rprev - p->expect < REL_WINDOW && h.rprev != h.seq &&
        !kept(p, h.rprev))
        nack(src, h.rprev);
    if (h.seq > p->expect && !placed) {
        if (h.seq - p->expect >= REL_WINDOW || keep(p, &h, payload) == 0) {
            want_ack(src, 0); /* the map of kept ones: the sender knows its routes work */
            return;
        }
        R.n_badcrc++;
        nack(src, h.seq);
        return;
    }
    if (!placed)
        placed = place(p, &h, payload);
    else if (placed > 0 && p->sink && p->sink->moved)
        p->sink->moved(p->sink, h.off, h.len);
    if (placed < 0 || (!placed && crc32c(0, payload, h.len) != h.dcrc)) {
        R.n_badcrc++;
        nack(src, h.seq);
        return;
    }
    int now = (h.flags & RF_ACKNOW) != 0;
    use(src, p, &h, payload, placed);
    p->expect++;
    while (p->ooo) {
        rel_frag_t **slot = &p->ooo[p->expect % REL_WINDOW];
        rel_frag_t *f = *slot;
        if (!f || f->seq != p->expect)
            break;
        *slot = NULL;
        p->nkept--;
        rel_hdr_t kh;
        memcpy(&kh, f->buf, sizeof(kh));
        now |= (kh.flags & RF_ACKNOW) != 0;
        use(src, p, &kh, f->buf + sizeof(kh), 0);
        rel_pool_free(f);
        p->expect++;
    }
    if (++p->since_ack >= 16)
        now = 1;
    want_ack(src, now);
}

/* Send the ACKs that are due; returns how many went. */
int rel_rx_acks(uint64_t now)
{
    int n = 0;
    list_node_t *it, *t;
    list_for_each_safe(it, t, &R.acklist) {
        rel_peer_t *p = list_entry(it, rel_peer_t, acklink);
        int w = (int)(p - R.peers);
        int due = p->ack_now || (p->ack_due && now >= p->ack_due);
        if (!p->ack_now && p->ack_sent >= p->expect - 1 && !p->sack_dirty)
            due = 0, p->ack_due = 0; /* it rode on data meanwhile */
        int rc = due ? rel_ctl_send(w, -1, RK_ACK, 0, 0, 0) : 1;
        if (rc == 0)
            n++;
        else if (rc == -EAGAIN) /* the connection's queue is full: at the next
                                 * progress (its draining wakes a sleeper) */
            p->ack_now = 1, p->ack_due = 0;
        else if (due) /* no connection now: not worth making one (for a peer that
                       * may be dead); the peer's retransmission, on a connection
                       * it makes, is answered with a new ACK */
            p->ack_now = 0, p->ack_due = 0;
        if (!p->ack_now && !p->ack_due) {
            list_del(&p->acklink);
            p->on_acklist = 0;
        } else if (p->ack_due) {
            rel_timer_want(p->ack_due);
        }
    }
    return n;
}

void rel_rx_drop(int world)
{
    rel_peer_t *p = &R.peers[world];
    rel_place_drop(p);
    if (p->ooo)
        for (int i = 0; i < REL_WINDOW; i++) {
            rel_pool_free(p->ooo[i]);
            p->ooo[i] = NULL;
        }
    if (p->sink)
        p->sink->done(p->sink, -ECONNRESET);
    p->sink = NULL;
    p->in_stream = p->nkept = p->since_ack = p->ack_now = p->sack_dirty = p->ack_route = 0;
    p->ack_sent = p->ack_due = 0;
    p->expect = 1;
    if (p->on_acklist) {
        list_del(&p->acklink);
        p->on_acklist = 0;
    }
}
