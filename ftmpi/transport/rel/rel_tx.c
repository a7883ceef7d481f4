/*
 * The reliability layer's sending side: fragments get their sequence
 * numbers when the upper layer hands a packet (a copy, CRC computed while
 * copying) or a stream (fragments that refer to its source); they go to the
 * lower transport in order, as it takes them, and stay on the peer's
 * unacked list until a cumulative ACK covers them (or an ACK's map says
 * the receiver keeps them). A NACK or an expired timer puts one on the
 * resend list, which goes first; each timeout doubles that fragment's timer
 * up to rto_max (truncated exponential backoff).
 */
#include "rel_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/crc32c.h"
#include "util/timer.h"

#define MAX_IOV 128
#define REL_FIRST_DATA 4096

void rel_timer_want(uint64_t deadline)
{
    if (!R.next_timer || deadline < R.next_timer)
        R.next_timer = deadline;
}

static void frag_free(rel_peer_t *p, rel_frag_t *f, int err)
{
    if (f->infl)
        p->rt[f->route].inflight -= f->len;
    list_del(&f->link);
    if (f->in_resend)
        list_del(&f->rlink);
    p->nfrag--;
    R.nbusy--;
    rel_stream_t *st = f->st;
    free(f->own);
    rel_pool_free(f);
    if (st && --st->frags == 0) {
        st->src->done(st->src, err);
        free(st);
    }
}

static rel_frag_t *frag_new(rel_peer_t *p, size_t bytes)
{
    rel_frag_t *f = rel_pool_alloc(sizeof(*f) + bytes); /* the payload is written over whole */
    if (!f)
        return NULL;
    memset(f, 0, sizeof(*f));
    list_init(&f->rlink);
    f->seq = ++p->next_seq;
    f->rto = p->rto ? p->rto : R.rto_init;
    f->route = -1;
    list_add_tail(&p->pend, &f->link);
    p->nfrag++;
    R.nbusy++;
    R.n_frags++;
    return f;
}

/* An eager packet is taken only when it goes to the lower transport now
 * (else -EAGAIN: it waits in p2p's queue and its send is not complete, as
 * without this layer: a rank that then blocks in a runtime call has not
 * left its data behind in its own memory). Once taken it is kept until
 * ACKed, and sent again from here if it is lost. */
int rel_tx_send(int world, const void *hdr, const struct iovec *iov, int n)
{
    rel_peer_check(world);
    rel_peer_t *p = &R.peers[world];
    if (!list_empty(&p->pend))
        return -EAGAIN;
    size_t uhl = R.up->hdr_len, dlen = 0;
    for (int i = 0; i < n; i++)
        dlen += iov[i].iov_len;
    rel_frag_t *f = frag_new(p, uhl + dlen);
    if (!f)
        return -ENOMEM;
    /* the copy the sender keeps, summed while it is made */
    uint32_t c = crc32c_copy(0, f->buf, hdr, uhl);
    size_t at = uhl;
    for (int i = 0; i < n; i++) {
        c = crc32c_copy(c, f->buf + at, iov[i].iov_base, iov[i].iov_len);
        at += iov[i].iov_len;
    }
    f->dcrc = c;
    f->len = (uint32_t)(uhl + dlen);
    f->msg_len = dlen;
    f->uhl = (uint16_t)uhl;
    f->flags = RF_FIRST | RF_LAST;
    int rc = rel_tx_xmit(world, f, -1);
    if (rc < 0) { /* not taken: as if never made */
        list_del(&f->link);
        rel_pool_free(f);
        p->next_seq--;
        p->nfrag--;
        R.nbusy--;
        R.n_frags--;
        return rc;
    }
    list_del(&f->link);
    list_add_tail(&p->unacked, &f->link);
    f->sent = 1;
    f->deadline = timer_ns() + f->rto;
    rel_timer_want(f->deadline);
    return 0;
}

int rel_tx_stream(int world, const void *hdr, tp_io_t *src)
{
    rel_peer_check(world);
    rel_peer_t *p = &R.peers[world];
    size_t uhl = R.up->hdr_len;
    rel_stream_t *st = malloc(sizeof(*st) + uhl);
    if (!st)
        return -ENOMEM;
    memcpy(st->uhdr, hdr, uhl);
    st->src = src;
    st->frags = st->unsent = 0;
    size_t off = 0;
    do {
        /* the first fragment, which carries the upper header, is copied at
         * the receiver (the stream's sink is not known before it): small.
         * The others are R.frag bytes (512 KiB): each fragment costs a
         * sendmsg, a recv of its head and a readv at the least, so fewer
         * and larger ones cost less CPU per byte (docs/network.md). */
        size_t most = off ? R.frag : REL_FIRST_DATA;
        size_t k = src->len - off < most ? src->len - off : most;
        if (off && src->len - off - k < R.frag / 2)
            k = src->len - off; /* no short tail fragment of its own */
        rel_frag_t *f = frag_new(p, 0);
        if (!f) {
            if (!st->frags)
                free(st);
            return -ENOMEM; /* the fragments made so far go; the rest waits for the runtime */
        }
        f->st = st;
        st->frags++;
        st->unsent++;
        f->off = off;
        f->msg_len = src->len;
        f->uhl = off ? 0 : (uint16_t)uhl;
        f->len = (uint32_t)(f->uhl + k);
        f->flags = RF_STREAM | (off ? 0 : RF_FIRST);
        if (st->frags % 16 == 0)
            f->flags |= RF_ACKNOW; /* let the sender's timers go as it streams */
        off += k;
        if (off == src->len)
            f->flags |= RF_LAST | RF_ACKNOW; /* the send completes on this ACK */
    } while (off < src->len);
    rel_tx_push(world);
    return 0;
}

/* The payload of f as iovecs; a stream's CRC is computed at each
 * transmission (its source reads zeros once its request is gone). */
static int frag_iov(rel_frag_t *f, struct iovec *v, char **tmp)
{
    if (!f->st) {
        v[0].iov_base = f->own ? f->own : f->buf;
        v[0].iov_len = f->len;
        return 1;
    }
    int k = 0;
    if (f->uhl) {
        v[k].iov_base = f->st->uhdr;
        v[k++].iov_len = f->uhl;
    }
    size_t need = f->len - f->uhl, got = 0;
    tp_io_t *src = f->st->src;
    while (got < need && k < MAX_IOV) {
        size_t b = 0;
        k += src->iov(src, f->off + got, need - got, v + k, MAX_IOV - k, &b);
        got += b;
    }
    if (got < need) { /* too many short runs: one copy */
        char *t = *tmp = malloc(need);
        if (!t)
            return -1;
        size_t at = 0;
        while (at < need) {
            size_t b = 0;
            int m = src->iov(src, f->off + at, need - at, v + 1, MAX_IOV - 1, &b);
            for (int i = 0; i < m; i++) {
                memcpy(t + at, v[1 + i].iov_base, v[1 + i].iov_len);
                at += v[1 + i].iov_len;
            }
        }
        k = f->uhl ? 1 : 0;
        v[k].iov_base = t;
        v[k++].iov_len = need;
    }
    uint32_t c = 0;
    for (int i = 0; i < k; i++)
        c = crc32c(c, v[i].iov_base, v[i].iov_len);
    f->dcrc = c;
    return k;
}

/* Hand f to the lower transport, with the current cumulative ACK, on the
 * first route of rel_route_order that takes it. */
int rel_tx_xmit(int world, rel_frag_t *f, int avoid)
{
    rel_peer_t *p = &R.peers[world];
    struct iovec v[MAX_IOV + 1];
    char *tmp = NULL;
    int k = frag_iov(f, v, &tmp);
    if (k < 0)
        return -ENOMEM;
    int ord[TP_MAX_ROUTES], n = rel_route_order(world, avoid, ord), rc = -EAGAIN, r = 0;
    rel_hdr_t h = {.magic = REL_MAGIC, .kind = RK_DATA, .flags = f->flags, .uhl = f->uhl,
                   .src_inc = R.up->my_inc, .dst_inc = p->inc, .src = R.up->my_world,
                   .len = f->len, .seq = f->seq, .ack = p->expect - 1, .msg_len = f->msg_len,
                   .off = f->off, .dcrc = f->dcrc};
    for (int i = 0; i < n && rc < 0; i++) {
        r = ord[i];
        h.route = (uint32_t)r;
        h.rprev = p->rt[r].last_seq;
        h.rstate = p->rt[r].tx_cnt + 1;
        rel_hdr_seal(&h);
        rc = R.low->send_on ? R.low->send_on(world, r, &h, v, k)
                            : R.low->send(world, world, &h, v, k);
    }
    free(tmp);
    if (rc < 0)
        return rc;
    if (h.ack > p->ack_sent) { /* the ACK went along */
        p->ack_sent = h.ack;
        p->since_ack = 0;
        p->ack_due = 0;
    }
    if (f->infl)
        p->rt[f->route].inflight -= f->len;
    rel_route_t *rt = &p->rt[r];
    rt->last_seq = f->seq;
    rt->inflight += f->len;
    rt->tx_bytes += f->len;
    f->route = r;
    f->infl = 1;
    f->sent_ns = timer_ns();
    rel_route_sent(p, r, f->sent_ns);
    return 0;
}

int rel_tx_push(int world)
{
    rel_peer_t *p = &R.peers[world];
    int work = 0;
    for (;;) {
        rel_frag_t *f;
        int again = !list_empty(&p->resend);
        if (again)
            f = list_entry(p->resend.next, rel_frag_t, rlink);
        else if (!list_empty(&p->pend))
            f = list_entry(p->pend.next, rel_frag_t, link);
        else
            break;
        if (rel_tx_xmit(world, f, again ? f->route : -1) < 0)
            break; /* -EAGAIN: later; unreachable: kept for the connection made again */
        uint64_t now = timer_ns();
        if (again) {
            list_del(&f->rlink);
            f->in_resend = 0;
            R.n_rexmit++;
        } else {
            list_del(&f->link);
            list_add_tail(&p->unacked, &f->link);
            if (f->st && f->st->src->moved)
                f->st->src->moved(f->st->src, f->off, f->len - f->uhl);
            if (f->st)
                f->st->unsent--;
        }
        f->sent++;
        f->deadline = now + f->rto;
        rel_timer_want(f->deadline);
        work++;
    }
    return work;
}


/* The cumulative ACK moved: the peer is answering, so fragments whose
 * timers ran out meanwhile were lost, not waiting: they go again now. */
#define OVERDUE_BURST 64
static void resend_overdue(rel_peer_t *p)
{
    int k = 0;
    list_node_t *n;
    list_for_each(n, &p->unacked) {
        rel_frag_t *f = list_entry(n, rel_frag_t, link);
        if (f->overdue && !f->sacked && !f->in_resend) {
            f->overdue = 0;
            rel_tx_resend(p, f);
            R.n_by_timer++;
            if (++k == OVERDUE_BURST)
                break;
        }
    }
}

void rel_tx_acked(int world, uint64_t ack)
{
    rel_peer_t *p = &R.peers[world];
    int moved = 0;
    uint64_t now = 0, rtt = 0;
    while (!list_empty(&p->unacked)) {
        rel_frag_t *f = list_entry(p->unacked.next, rel_frag_t, link);
        if (f->seq > ack)
            break;
        if (!now)
            now = timer_ns();
        if (f->sent == 1 && !f->sacked) /* Karn: never from a fragment sent again */
            rtt = now - f->sent_ns;
        rel_route_acked(p, f);
        frag_free(p, f, 0);
        moved = 1;
    }
    if (rtt)
        rel_rtt_sample(p, rtt);
    if (moved)
        p->progress_ns = now;
    if (moved && !list_empty(&p->unacked))
        resend_overdue(p);
}

void rel_tx_resend(rel_peer_t *p, rel_frag_t *f)
{
    if (!f->in_resend) {
        f->in_resend = 1;
        list_add_tail(&p->resend, &f->rlink);
    }
}

void rel_tx_nacked(int world, uint64_t seq)
{
    rel_peer_t *p = &R.peers[world];
    list_node_t *n;
    list_for_each(n, &p->unacked) {
        rel_frag_t *f = list_entry(n, rel_frag_t, link);
        if (f->seq == seq) {
            if (!f->in_resend)
                R.n_by_nack++;
            rel_tx_resend(p, f);
            rel_route_nacked(world, f);
            rel_tx_push(world);
            return;
        }
        if (f->seq > seq)
            return;
    }
}

void rel_tx_sacked(int world, uint64_t ack, uint64_t map)
{
    if (!map)
        return;
    rel_peer_t *p = &R.peers[world];
    list_node_t *n;
    list_for_each(n, &p->unacked) {
        rel_frag_t *f = list_entry(n, rel_frag_t, link);
        if (f->seq > ack + 65)
            break;
        if (f->seq >= ack + 2 && (map >> (f->seq - ack - 2)) & 1 && !f->sacked) {
            f->sacked = 1;
            p->progress_ns = timer_ns();
            rel_route_acked(p, f);
        }
    }
}

/* A timer of a stream that was sent whole ran out: the receiver may have
 * it all and be gone into MPI_Finalize (only the last ACK lost), so the
 * stream's send must not wait for that ACK. Its unACKed fragments are
 * copied into the layer's memory (the rule eager packets follow) and the
 * send completes; they are sent again from the copies. */
static void detach(rel_peer_t *p, rel_stream_t *st)
{
    list_node_t *n;
    list_for_each(n, &p->unacked) {
        rel_frag_t *f = list_entry(n, rel_frag_t, link);
        struct iovec v[MAX_IOV + 1];
        char *tmp = NULL, *own;
        if (f->st != st || !(own = malloc(f->len)))
            continue;
        int k = frag_iov(f, v, &tmp);
        size_t at = 0;
        for (int i = 0; i < k; i++) {
            memcpy(own + at, v[i].iov_base, v[i].iov_len);
            at += v[i].iov_len;
        }
        free(tmp);
        if (k < 0 || at != f->len) {
            free(own);
            continue;
        }
        f->own = own;
        f->st = NULL;
        R.n_detached++;
        if (--st->frags == 0) {
            st->src->done(st->src, 0);
            free(st);
            return;
        }
    }
}

void rel_tx_timers(uint64_t now)
{
    for (int w = 0; w < R.up->world_size; w++) {
        rel_peer_t *p = &R.peers[w];
        if (list_empty(&p->unacked))
            continue;
        /* Only the oldest expired fragment goes again (the receiver keeps
         * what came after a hole and NACKs the next hole itself); the other
         * expired ones back off too, so a receiver that is merely busy
         * does not get the whole window again. */
        int first = 1;
        list_node_t *n;
        list_for_each(n, &p->unacked) {
            rel_frag_t *f = list_entry(n, rel_frag_t, link);
            if (f->in_resend || f->sacked)
                continue;
            /* as TCP restarts its timer on every new ACK: while the peer's
             * ACKs move, a fragment still queued behind others is not lost */
            if (f->deadline <= now && p->progress_ns + f->rto > now)
                f->deadline = p->progress_ns + f->rto;
            if (f->deadline <= now) {
                if (f->st && !f->st->unsent)
                    detach(p, f->st); /* f's payload is its own from now */
                f->rto = f->rto * 2 < R.rto_max ? f->rto * 2 : R.rto_max;
                if (first) {
                    if (!f->in_resend)
                        R.n_by_timer++;
                    rel_tx_resend(p, f);
                } else {
                    f->overdue = 1; /* sent again when the peer answers */
                    f->deadline = now + f->rto;
                }
                first = 0;
            }
            if (!f->in_resend)
                rel_timer_want(f->deadline);
        }
        rel_tx_push(w);
    }
}

void rel_tx_drop(int world, int err)
{
    rel_peer_t *p = &R.peers[world];
    while (!list_empty(&p->unacked))
        frag_free(p, list_entry(p->unacked.next, rel_frag_t, link), err);
    while (!list_empty(&p->pend))
        frag_free(p, list_entry(p->pend.next, rel_frag_t, link), err);
    p->next_seq = 0;
}

/* Fragments that still hold up MPI_Finalize: the unsent, and the unacked
 * ones while the oldest was sent fewer than REL_BUSY_TRIES times (a peer
 * that has left no longer answers, and it has what it needed; its lost ACK
 * must not keep us waiting for ever). */
#define REL_BUSY_TRIES 4
int rel_tx_busy(void)
{
    if (!R.nbusy)
        return 0;
    for (int w = 0; w < R.up->world_size; w++) {
        rel_peer_t *p = &R.peers[w];
        if (!list_empty(&p->pend) || !list_empty(&p->resend))
            return 1;
        /* only the oldest is sent again while the ACKs do not move (the
         * others wait, overdue): when it went REL_BUSY_TRIES times, the
         * peer does not answer and none of them is waited for */
        list_node_t *n;
        list_for_each(n, &p->unacked) {
            const rel_frag_t *f = list_entry(n, rel_frag_t, link);
            if (f->sacked)
                continue;
            if (f->sent < REL_BUSY_TRIES)
                return 1;
            break;
        }
    }
    return 0;
}
