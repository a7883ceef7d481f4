/* Internal interfaces between the point-to-point files. */
#ifndef FTMPI_P2P_INT_H
#define FTMPI_P2P_INT_H

#include "p2p/p2p.h"
#include "core/proc.h"
#include "transport/shm/shm.h"
#include "transport/transport.h"

#include <string.h>

/* The fault-tolerance state, as p2p sees it: read only, and only through
 * these (the runtime and the FT layer keep it; p2p reports what FT needs to
 * know through p2p_ft_hooks). */
static inline int ftstate_peer_dead(int world) { return ftg.peer_dead[world]; }
static inline uint32_t ftstate_generation(void) { return ftg.generation; }
static inline uint16_t ftstate_incarnation_of(int world)
{
    return (uint16_t)ftg.inc_of_world[world];
}
static inline uint16_t ftstate_my_incarnation(void) { return (uint16_t)ftg.rt.incarnation; }
/* What a recovery discards: P2P_ALL (message mode RESET) or P2P_COLL_ONLY (CONT). */
static inline int ftstate_drop_which(void)
{
    return ftg.msg_mode == FTMPI_MSG_MODE_RESET ? P2P_ALL : P2P_COLL_ONLY;
}

/* The payload of an eager message, between the user's buffer and a ring
 * record: a contiguous one is one memcpy here, without dt_pack's call and
 * bounds arithmetic (about 40 instructions a side of a 1-byte message,
 * docs/progress.md); the others are packed by the datatype engine. len is
 * at most the bytes of (count, dt). */
static inline void dt_pack_small(const dt_t *dt, size_t count, const void *buf, void *out,
                                 size_t len)
{
    if (dt_is_contig(dt, count))
        memcpy(out, (const char *)buf + dt->true_lb, len);
    else
        dt_pack(dt, count, buf, 0, out, len);
}

static inline void dt_unpack_small(const dt_t *dt, size_t count, void *buf, const void *in,
                                   size_t len)
{
    if (dt_is_contig(dt, count))
        memcpy((char *)buf + dt->true_lb, in, len);
    else
        dt_unpack(dt, count, buf, 0, in, len);
}

/* pkt.c: the one packet constructor. Fills every header field: type,
 * sender (world rank, incarnation), generation, and, when c is given, the
 * context (c's point-to-point one, or its collective one with coll) and
 * the sender's rank in c; the rest is zero for the caller to set. */
void pkt_init(pkt_t *p, pkt_type_t type, const comm_t *c, int coll);
/* The same fields for the compact EAGER header of a point-to-point send on
 * c (flags, tag and sreq zero, for the caller to set). */
void pkt_short_init(pkt_short_t *h, const comm_t *c);

/* umsg.c: unexpected messages (EAGER with a copy of its len payload bytes,
 * or RTS), one allocation each; small ones come from a bounded pool, so a
 * message that arrives before its receive costs no malloc/free. umsg_new
 * returns NULL when out of memory. */
umsg_t *umsg_new(const pkt_t *p, const void *data, size_t len);
/* The same with room for len payload bytes, not filled (m->data). */
umsg_t *umsg_alloc(const pkt_t *p, size_t len);
void umsg_free(umsg_t *m);
void umsg_pool_fini(void);

/* route.c: the transport of each peer (shared memory on this host, TCP
 * otherwise or with FTMPI_TRANSPORT=tcp). addr: the transport's address. */
extern const tp_ops_t *route_shm, *route_tcp;
extern int route_force_tcp;
static inline const tp_ops_t *route_of(int world, int *addr)
{
    int slot = ftg.slot_of_world[world];
    if (slot >= 0 && !route_force_tcp) {
        *addr = slot;
        return route_shm;
    }
    *addr = world;
    return route_tcp;
}
int route_open(void);
int route_update(void);   /* after a recovery: open TCP if a peer moved away */
void route_close(void);
size_t route_eager_limit(int world);
/* Bytes of a rendezvous message sent with its RTS to world rank `world`
 * (PKT_F_HEAD; 0: none, the peer reads or streams it all). */
size_t route_rts_head(int world);
/* Largest message pushed to world rank `world` without a rendezvous: its
 * EAGER header and then its whole payload as one stream, read straight
 * into a posted receive (0: none; a network peer only). */
size_t route_push_limit(int world);
int route_can_cma(int world);
void route_no_cma(void);
int route_poll(void);
int route_busy(void);
void route_drop_peer(int world);
void route_drop_incoming(void);

/* waker.c: rings the doorbell of a sleeping rank for network traffic */
int waker_start(int fd);
void waker_arm(void);
void waker_disarm(void);
void waker_stop(void);

/* xmit.c */
int xmit_init(void);
void xmit_fini(void);
int xmit(int world, const pkt_t *p, req_t *req_with_data);
/* Number a packet to world rank `world` (pkt_t.seq) as it is handed to a
 * transport: consecutive per peer and per incarnation of the peer. */
void xmit_stamp(int world, pkt_t *p);
/* MPI_SUCCESS if packets can reach world rank `world`; else the error for
 * "no route" (a process on another host: no transport between hosts yet),
 * of class MPI_ERR_UNSUPPORTED_OPERATION: not MPI_ERR_OTHER, which means a
 * process failure and sends a fault-tolerant program into a recovery. */
int xmit_route(int world);
int xmit_flush(void);
int xmit_eager_now(int world, const pkt_t *p, const void *buf, size_t count, const dt_t *dt);
/* The same with the compact header h, written as it is (no pkt_t built and
 * converted): 1 sent, 0 not now (queued packets first, or no room), -1 the
 * peer's transport has no reserve/commit (use xmit_eager_now). */
/* An RTS carrying the first p->rreq bytes of r's data (PKT_F_HEAD), now:
 * 1 sent; 0 not now (queued packets first, or no room: send a plain RTS,
 * no queue ever holds r for its data). */
int xmit_head_now(int world, const pkt_t *p, const req_t *r);
int xmit_short_now(int world, const pkt_short_t *h, const void *buf, size_t count,
                   const dt_t *dt, size_t dlen);
int xmit_pending(void);
/* Nothing of ours queued for world rank `world` (a stream handed to the
 * transport now keeps its place in the order). */
int xmit_idle(int world);
void xmit_drop_peer(int world, int err);
void xmit_fail_comm(comm_t *c, int err); /* NULL: every comm */

/* p2p.c */
void p2p_deliver(const pkt_t *p, const void *data, size_t len);
void p2p_eager_sent(req_t *r);
/* A pushed message's header p (an EAGER header whose payload streams,
 * route_push_limit): -1 it means nothing any more (discard the payload);
 * 1 it matched the posted receive *rp (taken off its queue, status set);
 * 0 none matched yet. */
int p2p_push_match(const pkt_t *p, req_t **rp);
/* A pushed message that matched no receive has all landed in m: to a
 * receive posted meanwhile, else to the unexpected queue (m is taken). */
void p2p_push_landed(umsg_t *m);

/* rndv.c: single copy. rndv_send_iov: the run list of r's data for an RTS
 * (p's flags, addr and rreq; the list in r->pack_tmp); rndv_read: the
 * data of RTS p into r, 0 or -errno (-EAGAIN: no single copy: stream). */
int rndv_send_iov(req_t *r, pkt_t *p);
int rndv_read(req_t *r, const pkt_t *p);

/* stream.c: rendezvous fallback when single copy is not possible. The
 * stream starts at r->sent (the head the RTS carried, or 0). */
void stream_add(req_t *r);
int stream_progress(void);
void stream_drop_peer(int world, int err);
void stream_fail_comm(comm_t *c, int err);
int stream_active(void);
extern list_node_t stream_list, stream_io_list;
extern int xmit_npending; /* packets queued in xmit.c */
/* Anything for p2p_flush_pending to do? (inline: checked at every poll) */
static inline int p2p_flush_needed(void)
{
    return xmit_npending || !list_empty(&stream_list) || !list_empty(&stream_io_list);
}
/* stream_io.c: long payloads without a copy (tp_io_t sources and sinks) */
int stream_io_start(req_t *r, const tp_ops_t *tp, int addr);
/* Push r (route_push_limit): header p, then the whole message as a stream. */
int stream_io_push(req_t *r, pkt_t *p);
int stream_sink(int src, const void *hdr, size_t len, tp_io_t **io);

#endif
