/*
 * The transport interface: what point-to-point (p2p/route.c) needs from a
 * way of moving packets between two processes, as a table of operations.
 * p2p picks one transport per peer (shared memory on the same host, TCP
 * otherwise, docs/network.md) and never calls a transport by name.
 *
 * A packet is an upper-layer header of env->hdr_len bytes (p2p's pkt_t,
 * opaque here) and a payload. Packets to one peer arrive in the order they
 * were sent. The upper layer numbers them per peer (the header's sequence
 * number), so that a reliability layer can later sit between p2p and the
 * transports without p2p changing: it would implement this same table on
 * top of another one.
 *
 * Addresses: every operation names the peer by its world rank and by the
 * transport's own address for it (shared memory: the peer's slot in the
 * host segment; TCP: the world rank again), which p2p keeps per peer.
 *
 * Long payloads (rendezvous data) can move without a copy: the sender
 * hands a source, the receiver a sink, both tp_io_t, which describe the
 * user's buffer (or the datatype's runs) as iovecs, piece by piece.
 */
#ifndef FTMPI_TRANSPORT_H
#define FTMPI_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Capabilities. */
#define TP_CAP_CMA 1u      /* peers can read each other's memory (single copy) */

/* Most routes (one connection each) a network transport keeps to one peer:
 * one per network the two hosts share (docs/network.md, "Routes"). */
#define TP_MAX_ROUTES 4

typedef struct tp_io tp_io_t;
struct tp_io {
    size_t len;  /* payload bytes */
    /* iovecs for payload bytes [off, off + at most max_bytes): returns the
     * count, *bytes the bytes they cover (> 0 while off < len) */
    int (*iov)(tp_io_t *io, size_t off, size_t max_bytes, struct iovec *iov, int max,
               size_t *bytes);
    /* bytes [off, off + n) were moved (sink: they landed; source: sent) */
    void (*moved)(tp_io_t *io, size_t off, size_t n);
    /* all of it moved (err 0) or given up (err < 0); io is not used after */
    void (*done)(tp_io_t *io, int err);
};

/* What a transport gets from the layer above (p2p fills it). */
typedef struct {
    int my_world, world_size;
    uint32_t my_inc;          /* incarnation of this process */
    size_t hdr_len;           /* bytes of the upper layer's packet header */
    /* a whole packet (header and payload) from world rank src */
    void (*deliver)(int src, void *pkt, size_t len);
    /* a long payload of len bytes follows header hdr: 0 and *io to receive
     * it into, or nonzero to have it discarded (nobody waits for it) */
    int (*sink)(int src, const void *hdr, size_t len, tp_io_t **io);
    /* Optional: a packet of len payload bytes after header hdr is arriving:
     * 0 and *io to have the payload read straight into io (io->done(io, 0)
     * once all of it landed, err < 0 when it was lost on the way), nonzero
     * to have the packet buffered and given to deliver as usual. */
    int (*place)(int src, const void *hdr, size_t len, tp_io_t **io);
    /* job-wide key-value store (blocking get: waits until the key exists) */
    int (*kv_put)(const char *key, const void *val, size_t len);
    int (*kv_get)(const char *key, void *val, size_t cap, size_t *len_p);
    /* the job's secret (a string; NULL in a singleton): what a network
     * transport's handshake proves that both ends hold (util/ft_auth.h) */
    const char *secret;
    /* the connection to world rank w errored or stalled: ask the runtime */
    void (*suspect)(int w);
    /* incarnation of world rank w's current process, as this process knows it */
    uint32_t (*inc_of)(int w);
    /* Optional (NULL: suspect is called instead): route `route` to world
     * rank w errored or stalled; the layer above decides (a reliability
     * layer moves its traffic to the other routes). */
    void (*route_lost)(int w, int route, const char *why);
    /* Optional: an event for the job's event log (rtc_note's form). */
    int (*note)(const char *name, int n, const char *const *keys, const double *vals);
} tp_env_t;

typedef struct tp_ops {
    const char *name;
    unsigned caps;            /* TP_CAP_* */
    size_t max_inline;        /* largest payload one send() carries */
    /* Optional in-place path: room for a len-byte packet to addr, or NULL
     * when there is none now; commit publishes it. */
    void *(*reserve)(int addr, size_t len);
    void (*commit)(int addr, size_t len);
    /* Send header + payload (gather list, total <= max_inline). 0: taken
     * (the caller's buffers may be reused); -EAGAIN: no room now, try again
     * later in the same order; other negative: the peer cannot be reached
     * (it was suspected; requests fail when the runtime says so). */
    int (*send)(int world, int addr, const void *hdr, const struct iovec *iov, int n);
    /* Send header + the src->len bytes of src without copying them;
     * src->done is called once all are sent. NULL: not supported (p2p then
     * sends fragments with send/reserve). */
    int (*send_stream)(int world, int addr, const void *hdr, tp_io_t *src);
    /* 1 when a connection to the peer is up now (may be NULL: always):
     * a reliability layer's ACK is not worth making one. */
    int (*connected)(int world);
    /* Routes (optional; a transport without them has one, route 0). The
     * number of routes to world rank w (>= 1; fetches the peer's address
     * record like connect does), negative when it has no address. */
    int (*routes)(int world);
    /* send on one route: as send (send is send_on route 0) */
    int (*send_on)(int world, int route, const void *hdr, const struct iovec *iov, int n);
    /* the route of the packet being delivered now (inside env->deliver) */
    int (*rx_route)(void);
    /* 1 when route `route` to the peer has a ready connection */
    int (*route_ready)(int world, int route);
    /* Start connecting to a peer ahead of the first send (may be NULL). */
    int (*connect)(int world, int addr);
    /* Deliver what has arrived, move what is queued; returns work done. */
    int (*progress)(void);
    /* Output this transport still holds (not yet given to the peer). */
    int (*busy)(void);
    /* A descriptor that becomes readable when progress has work, for the
     * progress engine's sleep (-1: none; shared memory rings the doorbell). */
    int (*wait_fd)(void);
    /* Forget a failed peer: its connection and queued output go. */
    void (*drop_peer)(int world, int addr);
    /* A replacement process: what was queued for its predecessor is stale. */
    void (*drop_incoming)(void);
    /* MPI_Finalize: say goodbye to the peers, release everything. */
    void (*close)(void);
} tp_ops_t;

/* Copy n bytes from src into the sink io at payload offset off, reporting
 * each piece with io->moved; returns the bytes copied (transport/tp_io.c). */
size_t tp_io_put(tp_io_t *io, size_t off, const void *src, size_t n);

#endif
