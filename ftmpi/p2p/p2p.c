/*
 * Matching and the eager/rendezvous protocols.
 *
 * Sends of up to ftg.eager_limit bytes go out in one packet with their
 * data (eager). Larger sends post an RTS carrying the address of the
 * (contiguous, or packed) data; the receiver, once matched, reads it with a
 * single process_vm_readv and answers FIN. Where the kernel refuses single
 * copy, or the sender is on another host, the receiver answers CTS and the
 * sender streams the data (stream.c). To a peer on the network the RTS
 * carries the message's first bytes (PKT_F_HEAD, the TCP eager limit by
 * default): they cross while the CTS makes its round trip, and the stream
 * sends only the rest. Up to route_push_limit a message to such a peer is
 * not a rendezvous at all: its EAGER header and then its whole payload as
 * one stream (stream_io.c), matched when the header arrives and read
 * straight into the posted receive (p2p_push_match), else into the
 * unexpected record it is queued as once complete (p2p_push_landed).
 *
 * Ordering: packets from one sender arrive in order (one transport per
 * pair, each FIFO: a ring, a TCP connection), posted receives are matched in posting order and unexpected
 * messages in arrival order: the non-overtaking rule follows.
 */
#include "p2p/p2p_int.h"
#include "p2p/progress.h"
#include "core/mpit_stats.h"
#include "runtime/monrank/monrank.h"

#include <errno.h>
#include <stdio.h>
#include <sys/uio.h>
#include <stdlib.h>
#include <string.h>

p2p_ft_hooks_t p2p_ft_hooks;

static list_node_t orphans = LIST_INIT(orphans); /* messages for unknown contexts */
static list_node_t waiting_sends = LIST_INIT(waiting_sends); /* sends awaiting FIN/ACK */
static list_node_t recv_streams = LIST_INIT(recv_streams);   /* receives being streamed to */

/* A communicator is destroyed: the messages still queued on it (sent,
 * never received) go with it. */
static void comm_freed(comm_t *c)
{
    for (int k = 0; k < 2; k++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &c->unexpected[k]) {
            list_del(n);
            umsg_free(list_entry(n, umsg_t, link));
        }
    }
}

int p2p_init(void)
{
    comm_free_hook_p2p = comm_freed;
    if (progress_policy_init() < 0)
        return -1;
    return xmit_init();
}

void p2p_fini(void)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &orphans) {
        umsg_t *m = list_entry(n, umsg_t, link);
        list_del(n);
        umsg_free(m);
    }
    umsg_pool_fini();
    xmit_fini();
}

static inline int tag_match(int want, int got) { return want == MPI_ANY_TAG || want == got; }
static inline int src_match(int want, int got) { return want == MPI_ANY_SOURCE || want == got; }

static size_t recv_capacity(const req_t *r)
{
    return (size_t)r->count * r->dt->size;
}

/* A packet from an earlier incarnation of its sender (a process that has
 * since failed and been replaced) means nothing any more. */
static int from_dead_incarnation(const pkt_t *p)
{
    uint16_t known = ftstate_incarnation_of(p->src_world);
    return (int16_t)(p->src_inc - known) < 0;
}

/* The sender has failed: it is dead, or replaced by a newer incarnation. */
static int from_failed_sender(const pkt_t *p)
{
    int w = p->src_world;
    return w >= 0 && w < ftg.world_size && (ftstate_peer_dead(w) || from_dead_incarnation(p));
}

/* Does a message (EAGER or RTS) sent before the recovery to generation gen
 * mean nothing any more? The one rule for messages arriving late, messages
 * queued at the recovery and orphans adopted after it: all of them
 * (P2P_ALL: message mode RESET), or (P2P_COLL_ONLY: CONT) collective
 * traffic (the collective it belonged to failed everywhere) and whatever a
 * failed process sent (CONT keeps messages between survivors only). */
static int old_msg_dead(const pkt_t *p, uint32_t gen, int which)
{
    return p->gen < gen && (which == P2P_ALL || (p->ctx & 1) || from_failed_sender(p));
}

/* Move messages that arrived before their communicator existed here.
 * Context ids are reused after a recovery, so an orphan may be older
 * than c: the rule of p2p_drop_old applies to it (normally it has already
 * been dropped there). */
static void adopt_orphans(comm_t *c)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &orphans) {
        umsg_t *m = list_entry(n, umsg_t, link);
        if ((m->pkt.ctx & ~1u) == c->ctx) {
            list_del(n);
            if (old_msg_dead(&m->pkt, c->generation, ftstate_drop_which())) {
                umsg_free(m);
                continue;
            }
            /* Sent before a recovery that renumbered the group (SHRINK):
             * match by the sender's current rank. */
            if (m->pkt.gen < c->generation && !c->is_inter)
                m->pkt.src = group_rank_of_world(c->group, m->pkt.src_world);
            list_add_tail(&c->unexpected[m->pkt.ctx & 1], n);
        }
    }
}

static void ctl_send(int world, uint8_t type, uint8_t flags, uint64_t sreq, uint64_t rreq)
{
    pkt_t p;
    pkt_init(&p, type, NULL, 0);
    p.flags = flags;
    p.sreq = sreq;
    p.rreq = rreq;
    xmit(world, &p, NULL);
}

/* The status of a receive with room for cap bytes that matched p (all
 * but MPI_ERROR). */
static void status_of_match(MPI_Status *st, const pkt_t *p, size_t cap)
{
    st->MPI_SOURCE = p->src;
    st->MPI_TAG = p->tag;
    st->ftmpi_count = (long long)(p->len < cap ? p->len : cap);
    st->ftmpi_cancelled = 0;
}

static void set_recv_status(req_t *r, const pkt_t *p)
{
    size_t cap = recv_capacity(r);
    status_of_match(&r->status, p, cap);
    if (p->len > cap)
        r->status.MPI_ERROR = MPI_ERR_TRUNCATE;
}

/* An eager message's n bytes into the receive buffer; a synchronous
 * send's acknowledgement. */
static void eager_out(const pkt_t *p, const void *data, void *buf, int count, const dt_t *dt,
                      size_t n)
{
    if (n)
        dt_unpack_small(dt, (size_t)count, buf, data, n);
    if (p->flags & PKT_F_SYNC)
        ctl_send(p->src_world, PKT_SYNC_ACK, 0, p->sreq, 0);
}

/* A matched message (eager data in `data`, or an RTS) goes into r. */
static void deliver_into(req_t *r, const pkt_t *p, const void *data)
{
    mpit_count_recv(p->len);
    set_recv_status(r, p);
    if (p->type == PKT_EAGER) {
        eager_out(p, data, r->buf, r->count, r->dt, (size_t)r->status.ftmpi_count);
        req_complete(r);
        return;
    }
    /* PKT_RTS. A network RTS carries the message's head (PKT_F_HEAD, its
     * first p->rreq bytes): into the buffer now, the rest streams. One to
     * self always points at contiguous data (the sender packed a
     * non-contiguous buffer: p2p_start_send) that rndv_read unpacks into any
     * receive datatype; a stream to self would never move (no transport
     * carries DATA packets to their own sender). */
    size_t head = (p->flags & PKT_F_HEAD) ? (size_t)p->rreq : 0;
    if (head && r->status.ftmpi_count)
        dt_unpack_small(r->dt, (size_t)r->count, r->buf, data,
                        head < (size_t)r->status.ftmpi_count ? head
                                                             : (size_t)r->status.ftmpi_count);
    int rc;
    if (p->src_world != ftg.world_rank &&
        (head || (p->flags & PKT_F_STREAM) ||
         (!dt_is_contig(r->dt, (size_t)r->count) && !dt_iov_worthwhile(r->dt, (size_t)r->count))))
        rc = -EAGAIN; /* pack into fragments / unpack as they arrive */
    else
        rc = rndv_read(r, p);
    if (rc == 0) {
        ctl_send(p->src_world, PKT_FIN, 0, p->sreq, 0);
        req_complete(r);
        return;
    }
    if (rc == -ESRCH)
        /* The sender's process is gone (or is not the pid we know yet: a
         * replacement whose round we have not seen). Never report this as
         * an error of our own: make the peer a suspect and wait on a stream
         * like any other; a dead sender's failure is announced and fails
         * this request (p2p_peer_failed), a live one streams the data. The
         * failure is then always known before its error is seen (FT
         * contract, docs/ft.md "Who is told to recover"). */
        rtc_suspect(p->src_world);
    if (rc == -EPERM || rc == -ENOSYS || rc == -EFAULT || rc == -EAGAIN || rc == -ESRCH) {
        /* No single copy for this message: ask for a stream. Only a refusal
         * by the kernel turns single copy off for good. */
        if (rc == -EPERM || rc == -ENOSYS)
            route_no_cma();
        r->streaming = 1;
        r->received = head;
        r->remote_token = p->sreq;
        r->bytes = p->len;
        r->peer_world = p->src_world;
        list_add_tail(&recv_streams, &r->link);
        ctl_send(p->src_world, PKT_CTS, 0, p->sreq, req_token(r));
        return;
    }
    r->status.MPI_ERROR = MPI_ERR_OTHER;
    ctl_send(p->src_world, PKT_FIN, 0, p->sreq, 0);
    req_complete(r);
}

/* The posted receive that message pin matches, taken off its queue (NULL:
 * none). *pp: the message as it is matched (pin, or a copy in *renum with
 * the sender's current rank: sent before a recovery that may have
 * renumbered the group, SHRINK); *cp: its communicator (NULL: unknown yet). */
static inline __attribute__((always_inline)) req_t *
take_posted(const pkt_t *pin, pkt_t *renum, const pkt_t **pp, comm_t **cp)
{
    comm_t *c = comm_by_ctx(pin->ctx);
    *pp = pin;
    *cp = c;
    if (!c)
        return NULL;
    if (pin->gen < c->generation && !c->is_inter) {
        *renum = *pin;
        renum->src = group_rank_of_world(c->group, pin->src_world);
        *pp = renum;
    }
    list_node_t *n;
    list_for_each(n, &c->posted[pin->ctx & 1]) {
        req_t *r = list_entry(n, req_t, link);
        if (src_match(r->peer, (*pp)->src) && tag_match(r->tag, (*pp)->tag)) {
            list_del(n);
            return r;
        }
    }
    return NULL;
}

/* A message (its payload in data, or already in m when m is given) goes to
 * its posted receive, else to the unexpected queue. Inlined: the eager
 * path of every message received (about 30 instructions a message when it
 * was a call, callgrind of bench/pp_count.c queued). */
static inline __attribute__((always_inline)) void on_message(const pkt_t *pin, const void *data, size_t len, umsg_t *m)
{
    pkt_t renum;
    const pkt_t *p;
    comm_t *c;
    req_t *r = take_posted(pin, &renum, &p, &c);
    if (r) {
        deliver_into(r, p, m ? m->data : data);
        if (m)
            umsg_free(m);
        return;
    }
    if (m && p != &m->pkt)
        m->pkt = *p;
    if (!m && !(m = umsg_new(p, data, len)))
        /* Out of memory: the message cannot be kept. Say so loudly. */
        rtc_abort(1, "ftmpi: out of memory storing an unexpected message");
    list_add_tail(c ? &c->unexpected[p->ctx & 1] : &orphans, &m->link);
}

/* A message that is still live: not from a replaced process nor sent
 * before a recovery that made it meaningless. */
static int msg_live(const pkt_t *p)
{
    if (p->src_world >= 0 && p->src_world < ftg.world_size && from_dead_incarnation(p))
        return 0;
    return !old_msg_dead(p, ftstate_generation(), ftstate_drop_which());
}

int p2p_push_match(const pkt_t *p, req_t **rp)
{
    *rp = NULL;
    if (!msg_live(p))
        return -1;
    pkt_t renum;
    const pkt_t *q;
    comm_t *c;
    req_t *r = take_posted(p, &renum, &q, &c);
    if (r) {
        mpit_count_recv(q->len);
        set_recv_status(r, q);
        r->streaming = 1;
        r->received = 0;
        r->bytes = q->len;
        r->peer_world = q->src_world;
        list_add_tail(&recv_streams, &r->link);
        *rp = r;
    }
    return r != NULL;
}

void p2p_push_landed(umsg_t *m)
{
    if (!msg_live(&m->pkt)) {
        umsg_free(m);
        return;
    }
    on_message(&m->pkt, NULL, 0, m);
}

static void on_cancel_req(const pkt_t *p)
{
    comm_t *c = comm_by_ctx(p->ctx);
    list_node_t *lists[2] = {c ? &c->unexpected[p->ctx & 1] : NULL, &orphans};
    for (int i = 0; i < 2; i++) {
        if (!lists[i])
            continue;
        list_node_t *n;
        list_for_each(n, lists[i]) {
            umsg_t *m = list_entry(n, umsg_t, link);
            if (m->pkt.src_world == p->src_world && m->pkt.sreq == p->sreq) {
                list_del(n);
                umsg_free(m);
                ctl_send(p->src_world, PKT_CANCEL_REP, 1, p->sreq, 0);
                return;
            }
        }
    }
    ctl_send(p->src_world, PKT_CANCEL_REP, 0, p->sreq, 0);
}

/* The send request's data is delivered (FIN / SYNC_ACK / written). */
static void send_data_done(req_t *r)
{
    list_del(&r->link); /* off waiting_sends, if it was there */
    r->data_done = 1;
    if (!r->cancel_pending && !r->complete)
        req_complete(r);
}

void p2p_deliver(const pkt_t *p, const void *data, size_t len)
{
    req_t *r;
    if (p->src_world >= 0 && p->src_world < ftg.world_size && from_dead_incarnation(p))
        return;
    switch (p->type) {
    case PKT_RTS:
        if ((p->flags & PKT_F_HEAD) && (p->rreq != len || p->rreq >= p->len)) {
            fprintf(stderr, "ftmpi: rank %d: dropped an RTS from rank %d whose head (%zu "
                            "bytes) does not match its header\n", ftg.world_rank,
                    (int)p->src_world, len);
            return;
        }
        /* fall through */
    case PKT_EAGER:
        /* Sent before a recovery this process has been through. */
        if (old_msg_dead(p, ftstate_generation(), ftstate_drop_which()))
            return;
        on_message(p, data, len, NULL);
        break;
    case PKT_FIN:
    case PKT_SYNC_ACK:
        if ((r = req_from_token(p->sreq)))
            send_data_done(r);
        break;
    case PKT_CTS:
        if ((r = req_from_token(p->sreq))) {
            list_del(&r->link);
            r->remote_token = p->rreq;
            if (!dt_is_contig(r->dt, (size_t)r->count)) {
                /* Before a stream starts, a non-contiguous send's pack_tmp
                 * can only be its run list (rndv_send_iov): not data. */
                free(r->pack_tmp);
                r->pack_tmp = NULL;
            }
            stream_add(r);
        }
        break;
    case PKT_DATA:
        if ((r = req_from_token(p->rreq))) {
            size_t cap = recv_capacity(r);
            size_t off = (size_t)p->addr;
            if (off < cap)
                dt_unpack(r->dt, (size_t)r->count, r->buf, off, data,
                          len < cap - off ? len : cap - off);
            r->received += len;
            if (r->received >= r->bytes) {
                list_del(&r->link);
                r->streaming = 0;
                req_complete(r);
            }
        }
        break;
    case PKT_CANCEL_REQ:
        on_cancel_req(p);
        break;
    case PKT_CANCEL_REP:
        if ((r = req_from_token(p->sreq))) {
            r->cancel_pending = 0;
            if (p->flags & 1) {
                list_del(&r->link); /* no FIN or ACK will come for it */
                r->status.ftmpi_cancelled = 1;
                if (!r->complete)
                    req_complete(r);
            } else if (r->data_done && !r->complete) {
                req_complete(r);
            }
        }
        break;
    default:
        break;
    }
}

/* The full header of a compact EAGER packet. */
static void pkt_expand(pkt_t *p, const pkt_short_t *sh, size_t dlen)
{
    *p = (pkt_t){.type = PKT_EAGER, .flags = sh->flags, .src_inc = sh->src_inc, .ctx = sh->ctx,
                 .src = sh->src, .tag = sh->tag, .gen = sh->gen, .src_world = sh->src_world,
                 .len = dlen, .sreq = sh->sreq};
}

void p2p_on_packet(int src, void *payload, size_t len)
{
    const pkt_t *p = payload;
    pkt_t full;
    size_t hlen = sizeof(pkt_t);
    if (len >= sizeof(pkt_short_t) && *(const uint8_t *)payload == PKT_EAGER_SHORT) {
        hlen = sizeof(pkt_short_t);
        pkt_expand(&full, payload, len - hlen);
        p = &full;
    }
    if (len < hlen)
        return;
    if (src >= 0 && p->src_world != src) {
        /* Only the network names the sender apart from the header: a
         * packet that claims to come from elsewhere is dropped. */
        fprintf(stderr, "ftmpi: rank %d: dropped a packet from rank %d that claims to come "
                        "from rank %d\n", ftg.world_rank, src, (int)p->src_world);
        return;
    }
    p2p_deliver(p, (const char *)payload + hlen, len - hlen);
}

/* Called when an eager packet with r's data has been written out. */
void p2p_eager_sent(req_t *r)
{
    if (r->mode == SEND_SYNC)
        return; /* completes on SYNC_ACK */
    send_data_done(r);
}

static void coll_started(void)
{
    if (p2p_ft_hooks.coll_started)
        p2p_ft_hooks.coll_started();
}

/* An operation with MPI_PROC_NULL completes at once, with that source. */
static int complete_proc_null(req_t *r)
{
    r->status.MPI_SOURCE = MPI_PROC_NULL;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.ftmpi_count = 0;
    req_complete(r);
    return MPI_SUCCESS;
}

int p2p_send_now(comm_t *c, const void *buf, int count, dt_t *dt, int dest, int tag)
{
    size_t bytes = (size_t)count * dt->size;
    if (dest == MPI_PROC_NULL)
        return 0;
    int w = comm_peer_world(c, dest);
    if (w == ftg.world_rank || ftstate_peer_dead(w) || bytes > route_eager_limit(w))
        return 0;
    /* sreq 0: no request, nothing will refer back to this send */
    pkt_short_t h;
    pkt_short_init(&h, c);
    h.tag = tag;
    int sent = xmit_short_now(w, &h, buf, (size_t)count, dt, bytes);
    if (sent < 0) { /* a transport without records in place (TCP) */
        pkt_t p;
        pkt_init(&p, PKT_EAGER, c, 0);
        p.tag = tag;
        p.len = bytes;
        sent = xmit_eager_now(w, &p, buf, (size_t)count, dt);
    }
    if (sent) {
        monrank_count(w, bytes); /* the monitor's matrix (off: one test) */
        mpit_count_send(bytes, 0);
    }
    return sent;
}

int p2p_start_send(req_t *r)
{
    comm_t *c = r->comm;
    r->complete = 0;
    r->data_done = 0;
    r->cancel_pending = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.ftmpi_cancelled = 0;
    if (c->revoked)
        return MPIX_ERR_REVOKED; /* ULFM: nothing is started on a revoked communicator */
    if (r->peer == MPI_PROC_NULL)
        return complete_proc_null(r);
    if (r->coll) {
        if (c->state == COMM_DETECTED)
            return MPI_ERR_OTHER; /* a member failed: the collective cannot complete */
        coll_started();
    }
    r->peer_world = comm_peer_world(c, r->peer);
    r->bytes = (size_t)r->count * r->dt->size;
    if (ftstate_peer_dead(r->peer_world))
        return MPI_ERR_OTHER; /* the peer failed (FT-MPI) */
    monrank_count(r->peer_world, r->bytes);
    pkt_t p;
    pkt_init(&p, r->bytes <= route_eager_limit(r->peer_world) ? PKT_EAGER : PKT_RTS, c, r->coll);
    p.tag = r->tag;
    p.len = r->bytes;
    p.sreq = req_token(r);
    if (p.type == PKT_RTS && r->mode != SEND_SYNC && r->bytes <= route_push_limit(r->peer_world) &&
        xmit_idle(r->peer_world)) {
        /* Pushed: the whole message streams behind its EAGER header now, no
         * RTS/CTS round trip (stream_io.c) */
        mpit_count_send(r->bytes, 0);
        p.type = PKT_EAGER;
        r->sent = 0;
        return stream_io_push(r, &p);
    }
    mpit_count_send(r->bytes, p.type == PKT_RTS);
    if (p.type == PKT_EAGER) {
        p.flags = r->mode == SEND_SYNC ? PKT_F_SYNC : 0;
        if (r->mode == SEND_SYNC)
            list_add_tail(&waiting_sends, &r->link);
        int rc = xmit(r->peer_world, &p, r);
        if (rc != MPI_SUCCESS)
            list_del(&r->link);
        return rc;
    }
    if (dt_is_contig(r->dt, (size_t)r->count)) {
        p.addr = (uint64_t)(uintptr_t)((char *)r->buf + r->dt->true_lb);
    } else if (r->peer_world != ftg.world_rank) {
        /* Long runs: the receiver reads them in place (rndv.c); else packed
         * into fragments when the receiver asks. */
        int rc = MPI_SUCCESS;
        if (dt_iov_worthwhile(r->dt, (size_t)r->count) && route_can_cma(r->peer_world))
            rc = rndv_send_iov(r, &p);
        else
            p.flags |= PKT_F_STREAM;
        if (rc != MPI_SUCCESS)
            return rc;
    } else {
        free(r->pack_tmp); /* a persistent send's earlier round */
        r->pack_tmp = malloc(r->bytes);
        if (!r->pack_tmp)
            return MPI_ERR_NO_MEM;
        dt_pack(r->dt, (size_t)r->count, r->buf, 0, r->pack_tmp, r->bytes);
        p.addr = (uint64_t)(uintptr_t)r->pack_tmp;
    }
    list_add_tail(&waiting_sends, &r->link);
    r->sent = 0;
    size_t head = route_rts_head(r->peer_world);
    if (head && head < r->bytes) {
        /* The head travels with the RTS when the connection takes it now
         * (else a plain RTS: no queue holds r for its data). */
        pkt_t h = p;
        h.flags |= PKT_F_HEAD;
        h.rreq = head;
        if (xmit_head_now(r->peer_world, &h, r)) {
            r->sent = head;
            return MPI_SUCCESS;
        }
    }
    int rc = xmit(r->peer_world, &p, NULL);
    if (rc != MPI_SUCCESS)
        list_del(&r->link);
    return rc;
}

static int match_unexpected(comm_t *c, int k, int src, int tag, umsg_t **m_p)
{
    adopt_orphans(c);
    list_node_t *n;
    list_for_each(n, &c->unexpected[k]) {
        umsg_t *m = list_entry(n, umsg_t, link);
        if (src_match(src, m->pkt.src) && tag_match(tag, m->pkt.tag)) {
            *m_p = m;
            return 1;
        }
    }
    return 0;
}

int p2p_start_recv(req_t *r)
{
    comm_t *c = r->comm;
    r->complete = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.ftmpi_cancelled = 0;
    if (c->revoked)
        return MPIX_ERR_REVOKED;
    if (r->peer == MPI_PROC_NULL)
        return complete_proc_null(r);
    if (r->coll) {
        if (c->state == COMM_DETECTED)
            return MPI_ERR_OTHER;
        coll_started();
    }
    umsg_t *m;
    if (match_unexpected(c, r->coll, r->peer, r->tag, &m)) {
        list_del(&m->link);
        deliver_into(r, &m->pkt, m->data);
        umsg_free(m);
        return MPI_SUCCESS;
    }
    if (p2p_source_failed(c, r->peer))
        return MPI_ERR_OTHER;
    if (r->peer != MPI_ANY_SOURCE) {
        int rc = xmit_route(comm_peer_world(c, r->peer));
        if (rc != MPI_SUCCESS)
            return rc; /* nothing can come from it */
    }
    list_add_tail(&c->posted[r->coll], &r->link);
    return MPI_SUCCESS;
}

int p2p_recv_now(comm_t *c, void *buf, int count, dt_t *dt, int src, int tag,
                 MPI_Status *st, int *rc)
{
    umsg_t *m;
    /* A revoked communicator, a wildcard or a message that is not there
     * yet, or not eager: the request path, which knows all of those. */
    if (c->revoked || src == MPI_PROC_NULL || !match_unexpected(c, 0, src, tag, &m) ||
        m->pkt.type != PKT_EAGER)
        return 0;
    list_del(&m->link);
    const pkt_t *p = &m->pkt;
    size_t cap = (size_t)count * dt->size;
    mpit_count_recv(p->len);
    eager_out(p, m->data, buf, count, dt, p->len < cap ? p->len : cap);
    if (st != MPI_STATUS_IGNORE && st)
        status_of_match(st, p, cap);
    *rc = p->len > cap ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    umsg_free(m);
    return 1;
}

int p2p_source_failed(const comm_t *c, int src)
{
    if (src == MPI_PROC_NULL)
        return 0;
    if (src != MPI_ANY_SOURCE)
        return ftstate_peer_dead(comm_peer_world(c, src)); /* nothing more will come */
    /* A wildcard receive pending at a member's failure fails; one posted
     * after it fails too (until the recovery), or whether the application
     * learns of the failure would depend on when it reposted its receive.
     * Without recovery (NONE) nothing would ever make it usable again. */
    return c->state == COMM_DETECTED && ftg.recovery_mode != FTMPI_RECOVERY_MODE_NONE;
}

int p2p_probe(comm_t *c, int src, int tag, int take, int *found,
              MPI_Status *st, umsg_t **msg_p)
{
    return p2p_probe_ctx(c, 0, src, tag, take, found, st, msg_p);
}

int p2p_probe_ctx(comm_t *c, int coll, int src, int tag, int take, int *found,
                  MPI_Status *st, umsg_t **msg_p)
{
    umsg_t *m;
    *found = 0;
    if (src == MPI_PROC_NULL) {
        *found = 1;
        if (st) {
            st->MPI_SOURCE = MPI_PROC_NULL;
            st->MPI_TAG = MPI_ANY_TAG;
            st->ftmpi_count = 0;
            st->ftmpi_cancelled = 0;
        }
        if (msg_p)
            *msg_p = NULL;
        return MPI_SUCCESS;
    }
    if (!match_unexpected(c, coll != 0, src, tag, &m))
        return MPI_SUCCESS;
    *found = 1;
    if (st) {
        st->MPI_SOURCE = m->pkt.src;
        st->MPI_TAG = m->pkt.tag;
        st->ftmpi_count = (long long)m->pkt.len;
        st->ftmpi_cancelled = 0;
    }
    if (take) {
        list_del(&m->link);
        *msg_p = m;
    }
    return MPI_SUCCESS;
}

int p2p_start_mrecv(req_t *r, umsg_t *m)
{
    r->complete = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.ftmpi_cancelled = 0;
    deliver_into(r, &m->pkt, m->data);
    umsg_free(m);
    return MPI_SUCCESS;
}

int p2p_cancel(req_t *r)
{
    if (r->kind == REQ_RECV) {
        if (!r->complete && !r->streaming && r->peer != MPI_PROC_NULL) {
            /* Still posted (not matched): take it back. */
            list_node_t *n;
            list_for_each(n, &r->comm->posted[r->coll]) {
                if (n == &r->link) {
                    list_del(&r->link);
                    r->status.ftmpi_cancelled = 1;
                    req_complete(r);
                    break;
                }
            }
        }
        return MPI_SUCCESS;
    }
    if (r->kind != REQ_SEND || r->peer == MPI_PROC_NULL || r->peer_world < 0 || r->cancel_pending ||
        r->status.ftmpi_cancelled)
        return MPI_SUCCESS;
    if (r->mode != SEND_SYNC && r->bytes > route_eager_limit(r->peer_world) && r->data_done)
        return MPI_SUCCESS; /* rendezvous data already read: too late */
    if (r->mode == SEND_SYNC && r->data_done)
        return MPI_SUCCESS; /* matched */
    pkt_t p;
    pkt_init(&p, PKT_CANCEL_REQ, r->comm, r->coll);
    p.sreq = req_token(r);
    r->cancel_pending = 1;
    r->complete = 0;
    return xmit(r->peer_world, &p, NULL);
}

int p2p_flush_pending(void)
{
    int n = 0;
    if (xmit_pending())
        n += xmit_flush();
    if (stream_active())
        n += stream_progress();
    return n;
}

int p2p_has_pending(void)
{
    return xmit_pending();
}

size_t p2p_rndv_bytes(void)
{
    size_t b = 0;
    list_node_t *n;
    list_for_each(n, &waiting_sends) {
        req_t *r = list_entry(n, req_t, link);
        if (!r->data_done && r->bytes > route_eager_limit(r->peer_world))
            b += r->bytes;
    }
    return b;
}

int p2p_outbound_busy(void)
{
    /* Queued packets, sends waiting for their receiver (freed or buffered
     * rendezvous sends must still be delivered before we leave), streams. */
    return xmit_pending() || !list_empty(&waiting_sends) || stream_active() || route_busy();
}

static void fail_req(req_t *r, int err)
{
    list_del(&r->link);
    r->status.MPI_ERROR = err;
    r->cancel_pending = 0;
    req_complete(r);
}

static int comm_has_world(const comm_t *c, int world)
{
    const group_t *g = c->is_inter ? c->rgroup : c->group;
    return group_rank_of_world(g, world) != MPI_UNDEFINED;
}

void p2p_peer_failed(int world, int err)
{
    xmit_drop_peer(world, err);
    stream_drop_peer(world, err);
    list_node_t *n, *t;
    list_for_each_safe(n, t, &recv_streams) {
        req_t *r = list_entry(n, req_t, link);
        if (r->peer_world == world) {
            r->streaming = 0;
            fail_req(r, err);
        }
    }
    list_for_each_safe(n, t, &waiting_sends) {
        req_t *r = list_entry(n, req_t, link);
        if (r->peer_world == world)
            fail_req(r, err);
    }
    /* Receives that could only be satisfied by the failed process, and
     * wildcard receives on communicators that contain it. */
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c)) {
        if (!comm_has_world(c, world))
            continue;
        for (int k = 0; k < 2; k++) {
            list_for_each_safe(n, t, &c->posted[k]) {
                req_t *r = list_entry(n, req_t, link);
                if (r->peer == MPI_ANY_SOURCE || comm_peer_world(c, r->peer) == world)
                    fail_req(r, err);
            }
        }
    }
}

static void drop_from(list_node_t *q, uint32_t gen, int which)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, q) {
        umsg_t *m = list_entry(n, umsg_t, link);
        if (old_msg_dead(&m->pkt, gen, which)) {
            list_del(n);
            umsg_free(m);
        }
    }
}

void p2p_drop_old(uint32_t gen, int which)
{
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c))
        for (int k = 0; k < 2; k++)
            drop_from(&c->unexpected[k], gen, which);
    /* Messages for contexts this process has not created (yet): the
     * context ids are reused after the recovery, so these would reach the
     * communicators created afterwards. */
    drop_from(&orphans, gen, which);
}

void p2p_fail_pending(comm_t *only, int err, int which)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &waiting_sends) {
        req_t *r = list_entry(n, req_t, link);
        if ((!only || r->comm == only) && (which == P2P_ALL || r->coll))
            fail_req(r, err);
    }
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c)) {
        if (only && c != only)
            continue;
        for (int k = which == P2P_COLL_ONLY ? 1 : 0; k < 2; k++) {
            list_for_each_safe(n, t, &c->posted[k]) {
                fail_req(list_entry(n, req_t, link), err);
            }
        }
    }
    if (which == P2P_ALL) {
        list_for_each_safe(n, t, &recv_streams) {
            req_t *r = list_entry(n, req_t, link);
            if (!only || r->comm == only) {
                r->streaming = 0;
                fail_req(r, err);
            }
        }
        xmit_fail_comm(only, err);
        stream_fail_comm(only, err);
    }
}

void p2p_comm_detach(comm_t *c)
{
    for (int k = 0; k < 2; k++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &c->unexpected[k]) {
            list_del(n);
            list_add_tail(&orphans, n);
        }
    }
}

void p2p_renumber(comm_t *c)
{
    for (int k = 0; k < 2; k++) {
        list_node_t *n;
        list_for_each(n, &c->unexpected[k]) {
            umsg_t *m = list_entry(n, umsg_t, link);
            /* Only messages sent before the recovery: later ones were
             * numbered by senders that already knew the new group. */
            if (m->pkt.gen < c->generation)
                m->pkt.src = group_rank_of_world(c->group, m->pkt.src_world);
        }
    }
}

void p2p_drop_incoming(void)
{
    route_drop_incoming();
}

int p2p_routes_changed(void)
{
    return route_update() < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}
