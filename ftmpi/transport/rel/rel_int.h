/* Internals shared by the reliability layer's files (transport/rel/). */
#ifndef FTMPI_TRANSPORT_REL_INT_H
#define FTMPI_TRANSPORT_REL_INT_H

#include <stdint.h>
#include <sys/uio.h>

#include "rel.h"
#include "util/list.h"

/*
 * A fragment's header: what the lower transport carries as its packet
 * header (lower env hdr_len). The payload that follows is, for the first
 * fragment of a message, the upper layer's header and then data; for the
 * others, data only. hcrc covers the header (with hcrc 0), and so through
 * dcrc the payload too; the ack field changes at each transmission.
 */
#define REL_MAGIC 0x524d5446u /* "FTMR" */
/* PROBE: is this route back? (answered by PROBE_ACK on the same route);
 * ROUTE: the sender took a route out of use (rstate 0) or back (1). */
enum { RK_DATA = 1, RK_ACK = 2, RK_NACK = 3, RK_PROBE = 4, RK_PROBE_ACK = 5, RK_ROUTE = 6 };
enum { RF_FIRST = 1, RF_LAST = 2, RF_STREAM = 4, RF_ACKNOW = 8 };
typedef struct {
    uint32_t magic;
    uint8_t kind, flags;
    uint16_t uhl;             /* upper header bytes at the start of the payload */
    uint32_t src_inc, dst_inc;
    int32_t src;
    uint32_t len;             /* payload bytes of this fragment */
    uint64_t seq;             /* DATA: this fragment; NACK: the one wanted again */
    uint64_t ack;             /* cumulative: every seq <= ack arrived and was delivered */
    uint64_t msg_len;         /* data bytes of the whole message */
    uint64_t off;             /* data offset of this fragment in the message;
                               * ACK/NACK: bit i, fragment ack + 2 + i is kept */
    uint64_t rprev;           /* DATA: the fragment sent just before it on the
                               * same route (0: none): missing, it was lost */
    uint32_t route;           /* the route it was sent on (PROBE*, ROUTE: the one meant) */
    uint32_t rstate;          /* ROUTE: 0 out of use, 1 in use again; DATA: its
                               * number among the DATA frames sent on its route */
    uint32_t dcrc, hcrc;      /* CRC-32C of the payload; of this header */
} rel_hdr_t;
/* Every frame without payload (ACK, NACK, PROBE*, ROUTE) also carries the
 * per-route feedback: for route r, the highest DATA frame number (rstate)
 * that arrived here on it, in msg_len (routes 0, 1) and rprev (2, 3), 32
 * bits each. The sender learns from it which routes deliver (rel_route.c). */
static inline uint32_t rel_hdr_rxc(const rel_hdr_t *h, int r)
{
    uint64_t w = r < 2 ? h->msg_len : h->rprev;
    return (uint32_t)(w >> (32 * (r & 1)));
}

/* A stream being sent: its source is kept until every fragment is ACKed. */
typedef struct rel_stream {
    tp_io_t *src;
    int frags;                /* fragments not yet ACKed (nor copied, below) */
    int unsent;               /* fragments not yet sent once */
    char uhdr[];              /* the upper layer's header */
} rel_stream_t;

typedef struct rel_frag {
    list_node_t link;         /* the peer's pend list, then its unacked list */
    list_node_t rlink;        /* the peer's resend list */
    int in_resend, sent;
    int sacked;               /* the receiver has it (kept out of order) */
    int overdue;              /* its timer ran out behind an older one */
    int route;                /* the route of its last transmission (-1: none) */
    int infl;                 /* counted in that route's inflight bytes */
    uint64_t sent_ns;         /* time of its last transmission */
    uint64_t seq, off, msg_len;
    uint32_t len, dcrc;       /* payload bytes; eager: its CRC */
    uint8_t flags;
    uint16_t uhl;
    uint64_t deadline, rto;   /* retransmission timer */
    rel_stream_t *st;         /* NULL: eager, payload in buf (or own) */
    char *own;                /* a stream fragment's payload copied when its
                               * timer ran out after all of the stream was
                               * sent: the stream's send then completes */
    char buf[];
} rel_frag_t;

#define REL_PLACE_IOV 64      /* pieces a placed fragment may land in */
#define REL_WINDOW 4096       /* out-of-order fragments a receiver keeps */
#define REL_ROUTE_NACKS 16    /* NACKs in a row that do */

/* One route to a peer (a connection of the lower transport). */
typedef struct {
    int up;                   /* in use */
    int nnack;                /* NACKs of its fragments since one was ACKed */
    uint64_t last_seq;        /* the last DATA fragment sent on it (the rprev chain) */
    uint64_t inflight;        /* bytes sent on it and not ACKed: its load */
    uint64_t probe_ns;        /* out of use: time of the next PROBE */
    uint64_t tx_bytes, rx_bytes;
    /* per-route feedback: DATA frames sent on it (numbered 1, 2, ...), the
     * highest number the peer says arrived, and since when the route has
     * had frames out that the peer's feedback does not show arrived */
    uint32_t tx_cnt, fb_cnt;
    uint64_t fb_wait_ns;      /* 0: nothing outstanding */
    uint32_t rx_cnt;          /* receiving: the highest number arrived on it */
    int tell;                 /* a ROUTE frame to send the peer until the lower
                               * transport takes it: 1 out of use, 2 back */
} rel_route_t;

typedef struct {
    /* sending */
    uint64_t next_seq;        /* the next fragment's sequence number */
    list_node_t pend;         /* not yet sent, in sequence order */
    list_node_t unacked;      /* sent, waiting for an ACK, in sequence order */
    list_node_t resend;       /* unacked ones to send again first */
    int nfrag;                /* on pend or unacked */
    uint32_t inc;             /* incarnation these numbers belong to */
    /* receiving */
    uint64_t expect;          /* the next in-order sequence number */
    rel_frag_t **ooo;         /* REL_WINDOW slots: seq % REL_WINDOW, copies */
    int nkept;                /* fragments in ooo */
    tp_io_t *sink;            /* stream being received (NULL: none or discarded) */
    int in_stream;
    uint64_t stream_len, stream_got;
    uint64_t ack_sent;        /* highest cumulative ACK sent */
    uint64_t ack_due;         /* delayed ACK deadline (0: none) */
    int ack_now;              /* send an ACK at the end of this progress */
    int since_ack;            /* in-order fragments since the last ACK */
    int on_acklist;
    list_node_t acklink;
    int sack_dirty;           /* kept a fragment since the last ACK */
    int ack_route;            /* route the last DATA fragment came by */
    /* an in-order stream fragment being read by the lower transport
     * straight into the receive buffer (rel_place.c) */
    int placing;              /* 0: none; 1: in progress; 2: orphaned (peer reset) */
    rel_hdr_t ph;             /* its header */
    tp_io_t pio;              /* what the lower transport reads into */
    struct iovec pv[REL_PLACE_IOV]; /* where its bytes go, fixed at its header */
    int npv;
    /* routes (rel_route.c) and the retransmission timeout (RFC 6298) */
    rel_route_t rt[TP_MAX_ROUTES];
    int nrt;                  /* routes (0: not asked yet) */
    unsigned rr;              /* round robin among equally loaded routes */
    uint64_t srtt, rttvar, rto;
    uint64_t progress_ns;     /* last time an ACK covered something new */
} rel_peer_t;

typedef struct {
    const tp_env_t *up;       /* p2p's environment */
    tp_env_t low_env;         /* ours, given to the lower transport */
    const tp_ops_t *low;
    rel_peer_t *peers;
    list_node_t acklist;      /* peers with an ACK to send */
    int epfd, tfd;            /* wait_fd: lower's descriptor + the timer */
    uint64_t armed;           /* the timer's deadline (0: disarmed) */
    uint64_t next_timer;      /* earliest deadline known (0: none) */
    uint64_t rto_floor, rto_init, rto_max, ack_delay, probe_every;
    uint64_t route_wait;      /* a route whose frames the answering peer has
                               * not seen for this long is out of use */
    size_t frag;              /* stream fragment data bytes */
    long drop_acks;           /* test knob FTMPI_REL_DROP_ACKS: ACK frames
                               * still to drop instead of sending */
    long route_eagain;        /* test knob FTMPI_REL_ROUTE_EAGAIN: ROUTE sends
                               * still to fail as if the queue were full */
    int nbusy;                /* fragments not yet ACKed, all peers */
    /* counters, reported at close when FTMPI_REL_STATS or FTMPI_VERBOSE is set */
    uint64_t n_rexmit, n_badcrc, n_dup, n_nack, n_ooo, n_frags;
    uint64_t n_by_timer, n_by_nack, n_by_route, n_route_down, n_route_up;
    uint64_t n_told, n_tell_retry; /* ROUTE frames taken; tries that were not */
    uint64_t n_placed, n_placed_bad; /* read straight into the receive buffer (rel_place.c) */
    uint64_t n_detached;      /* stream fragments copied to complete their send (rel_tx.c) */
    uint64_t n_before_close;  /* sent again before MPI_Finalize (the rest: waiting for the last ACKs) */
} rel_t;

extern rel_t R;

/* rel_pool.c: fragment memory kept for reuse (not given back to the
 * kernel between bursts); rel_pool_free(NULL) does nothing */
void *rel_pool_alloc(size_t bytes);
void rel_pool_free(void *p);
void rel_pool_drain(void);

/* rel_tx.c: sending, ACKs, timers */
int rel_tx_send(int world, const void *hdr, const struct iovec *iov, int n);
int rel_tx_stream(int world, const void *hdr, tp_io_t *src);
int rel_tx_push(int world);
void rel_tx_acked(int world, uint64_t ack);
void rel_tx_nacked(int world, uint64_t seq);
void rel_tx_sacked(int world, uint64_t ack, uint64_t map);
void rel_tx_timers(uint64_t now);
void rel_tx_drop(int world, int err);
int rel_tx_busy(void);
void rel_timer_want(uint64_t deadline);
void rel_peer_check(int world);
/* send fragment f on the best up route (avoid: a route to try last); 0 taken */
int rel_tx_xmit(int world, rel_frag_t *f, int avoid);
void rel_tx_resend(rel_peer_t *p, rel_frag_t *f);

/* rel_rx.c: receiving */
void rel_rx_deliver(int src, void *pkt, size_t len);
/* the header checks and what any frame's header carries (ACKs, route
 * feedback, control frames): 1 when h is a DATA fragment to go on with */
int rel_rx_head(int src, const void *pkt, size_t len, rel_hdr_t *h);
/* a DATA fragment whose header holds; placed: 0 its payload is at payload,
 * 1 it was read into the receive buffer and its CRC holds, -1 it does not */
void rel_rx_data(int src, const rel_hdr_t *h, char *payload, size_t plen, int placed);
/* rel_place.c: tp_env_t place for the lower transport (zero-copy receive) */
int rel_place(int src, const void *hdr, size_t len, tp_io_t **io);
void rel_place_drop(rel_peer_t *p);
int rel_rx_acks(uint64_t now);
void rel_rx_drop(int world);
void rel_hdr_seal(rel_hdr_t *h);
/* a frame without payload on route r (-1: the best ready one); 0 taken */
int rel_ctl_send(int world, int r, int kind, uint64_t seq, uint32_t route, uint32_t rstate);

/* rel_route.c: routes, their failure and return, the timeout estimate */
int rel_routes(int world);
int rel_route_order(int world, int avoid, int *ord);
void rel_route_lost(int world, int r, const char *why);
void rel_route_acked(rel_peer_t *p, rel_frag_t *f);
void rel_route_nacked(int world, rel_frag_t *f);
void rel_route_ctl(int world, const rel_hdr_t *h);
void rel_route_sent(rel_peer_t *p, int r, uint64_t now);
void rel_route_arrived(rel_peer_t *p, int r, const rel_hdr_t *h);
void rel_route_fill(const rel_peer_t *p, rel_hdr_t *h);
void rel_route_feedback(int world, const rel_hdr_t *h);
void rel_route_timers(uint64_t now);
void rel_route_reset(rel_peer_t *p);
void rel_rtt_sample(rel_peer_t *p, uint64_t ns);
void rel_route_stats(void);

#endif
