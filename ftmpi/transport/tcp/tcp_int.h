/* Internals shared by the TCP transport's files. */
#ifndef FTMPI_TRANSPORT_TCP_INT_H
#define FTMPI_TRANSPORT_TCP_INT_H

#include <stdint.h>
#include <netinet/in.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "tcp.h"
#include "util/ft_auth.h"
#include "util/list.h"

#define TCP_MAX_ADDRS 8
#define TCP_MAX_ROUTES TP_MAX_ROUTES

/* What each process publishes under "tcp.<world>.<incarnation>". */
typedef struct {
    uint16_t port;
    uint16_t naddr;
    uint32_t addr[TCP_MAX_ADDRS];  /* IPv4, network order */
} tcp_rec_t;

/* Frames after the handshake: 16 bytes, then hlen + dlen bytes, then
 * zeros up to a multiple of 8 (the next frame's header stays aligned). */
#define TCP_FRAME_MAGIC 0x464d5446u /* "FTMF" */
enum { FR_PKT = 1, FR_STREAM = 2, FR_BYE = 3 };
typedef struct {
    uint32_t magic;
    uint16_t kind;
    uint16_t hlen;
    uint64_t dlen;
} tcp_frame_t;

/* Handshake messages (fixed size, 96 bytes): HELLO (connector, its
 * nonce), CHAL (acceptor: its nonce and its proof of the job's secret),
 * AUTH (connector: its proof), VERDICT (acceptor: 0 use it, 1 duplicate,
 * 2 refused). Nonces and proofs are util/ft_auth's (tcp_conn.c). */
#define TCP_HS_MAGIC 0x48544d46u /* "FTMH" */
enum { HS_HELLO = 1, HS_CHAL, HS_AUTH, HS_VERDICT };
enum { VERDICT_OK = 0, VERDICT_DUP = 1, VERDICT_REFUSED = 2 };
typedef struct {
    uint32_t magic, kind;
    int32_t from, to;
    uint32_t from_inc, to_inc;
    uint32_t status, route;  /* HELLO: the route (network) the connection is for */
    uint8_t nonce[FT_AUTH_NONCE_BYTES];
    uint8_t proof[FT_AUTH_PROOF_BYTES];
} tcp_hs_t;

enum { C_CONNECTING = 1, C_WAIT_HELLO, C_WAIT_CHAL, C_WAIT_AUTH, C_WAIT_VERDICT, C_READY,
       C_CLOSED };

typedef struct tcp_conn {
    list_node_t link;         /* all connections */
    int fd;
    int peer;                 /* world rank; -1 until HELLO (acceptor) */
    int route;                /* which of the peer's routes it serves */
    uint32_t peer_inc;
    int outgoing;
    int state;
    int bye;                  /* the peer said goodbye: its EOF is no failure */
    int in_use;               /* delivering from it: close later */
    int want_out;             /* EPOLLOUT is on */
    int shut;                 /* MPI_Finalize: BYE sent, our side shut down */
    uint8_t nonce[FT_AUTH_NONCE_BYTES];  /* ours */
    uint8_t peer_nonce[FT_AUTH_NONCE_BYTES];
    uint8_t hs[sizeof(tcp_hs_t)];
    size_t hs_have;
    struct tcp_conn *next_dead; /* closed while an epoll batch was handled */
    char *rbuf;               /* bytes read, [rpos, rlen) not parsed yet */
    size_t rcap, rlen, rpos;
    size_t rmiss;             /* bytes still missing of the frame at rpos (0: unknown) */
    tp_io_t *sink;            /* payload being received into */
    size_t sink_off, skip;    /* skip: payload bytes to discard */
    uint64_t started_ns;
    char *held;               /* fault injection: a frame held back (reorder) */
    size_t held_len;
    unsigned froll;           /* fault injection: the next frame's faults, rolled ahead */
    int flip;                 /* fault injection: corrupt the placed payload */
    char where[64];           /* peer address, for messages */
} tcp_conn_t;

typedef struct tcp_out {
    list_node_t link;
    size_t hlen, dlen;        /* frame+packet header bytes in head[]; payload */
    size_t done;              /* bytes of head + payload written */
    tp_io_t *src;             /* streamed payload, or NULL: copied in data */
    char *data;
    char head[];
} tcp_out_t;

/* A route to a peer: one connection between a pair of addresses on a
 * network both hosts have (tcp_if.c numbers them the same on both ends). */
typedef struct {
    tcp_conn_t *c;            /* the connection to use (ready or being made) */
    list_node_t out;          /* queued output, in order */
    int nout;
    uint64_t progress_ns;     /* last time output moved (or was queued) */
    int suspected;            /* reported lost in this episode */
    uint64_t retry_ns;        /* no connection before this time */
    uint32_t laddr, raddr;    /* local (0: any) and remote IPv4, network order */
} tcp_route_t;

typedef struct {
    tcp_route_t rt[TCP_MAX_ROUTES];
    int nrt;                  /* routes known from the record (0: not fetched) */
    int have_rec;
    uint32_t rec_inc;
    uint32_t bye_inc;         /* incarnation + 1 of the peer once it said goodbye */
    tcp_rec_t rec;
} tcp_peer_t;

typedef struct {
    const tp_env_t *env;
    int epfd;
    int lfd;
    tcp_peer_t *peers;
    list_node_t conns;
    tcp_rec_t me;
    uint32_t ifaddr[TCP_MAX_ADDRS], ifmask[TCP_MAX_ADDRS];
    int nif;
    uint64_t stall_ns;
    size_t max_inline;
    int nbusy;                /* routes with queued output */
    int rx_route;             /* route of the connection being read */
    uint64_t next_check_ns;   /* next look for handshakes that take too long */
    int in_batch;             /* handling epoll events: frees wait (tcp_conn_reap) */
    int closing;              /* MPI_Finalize: no new output, no new connections */
    struct tcp_conn *dead;    /* connections closed meanwhile */
} tcp_t;

extern tcp_t T;

/* tcp_if.c: interfaces (FTMPI_NET) and the address record */
int tcp_if_select(tcp_t *t);
int tcp_rec_get(int world, uint32_t inc, tcp_rec_t *rec);
/* The routes to world rank w (its record fetched once per incarnation):
 * their count, or negative with the reason on stderr. */
int tcp_routes(int world);

/* tcp_fault.c: FTMPI_NET_FAULTS (rates as fractions of 2^32 - 1) */
typedef struct {
    int on;
    uint32_t drop, corrupt, dup, reorder;
    int route;                /* 0: every route; r + 1: route r only */
    uint64_t rng;
    uint64_t n_drop, n_corrupt, n_dup, n_reorder;
} tcp_faults_t;
extern tcp_faults_t tcp_faults;
int tcp_fault_parse(const char *spec, int my_world);
void tcp_fault_deliver(tcp_conn_t *c, char *pkt, size_t hlen, size_t dlen);
/* The faults for a frame about to be placed (env->place), rolled once
 * (TF_*); a frame that is not placed after all keeps them in c->froll. */
enum { TF_DROP = 1, TF_CORRUPT = 2, TF_REORDER = 4, TF_DUP = 8, TF_ROLLED = 16 };
unsigned tcp_fault_roll(tcp_conn_t *c);
/* Flip a bit of the payload placed into io (TF_CORRUPT). */
void tcp_fault_flip(tcp_conn_t *c, tp_io_t *io);
void tcp_fault_flush(tcp_conn_t *c);
void tcp_fault_report(void);

/* The peer's current process said goodbye (MPI_Finalize): it reads no
 * more, so no connection is made to it again and output to it is dropped
 * (not a failure: no reconnect attempts, no "connection refused"). */
static inline int tcp_peer_gone(int w)
{
    return T.peers[w].bye_inc && T.peers[w].bye_inc == T.env->inc_of(w) + 1;
}

/* tcp_conn.c: connections and their handshake */
int tcp_conn_start(int world, int route);
void tcp_conn_accept(void);
void tcp_conn_event(tcp_conn_t *c, uint32_t events);
void tcp_conn_close(tcp_conn_t *c, const char *why, int suspect);
void tcp_conn_watch(tcp_conn_t *c, int want_out);

/* tcp_io.c: frames */
int tcp_io_read(tcp_conn_t *c);
int tcp_io_write(int world, int route);
void tcp_io_drop(int world, int err);
int tcp_io_queue(int world, int route, tcp_out_t *o);
/* The route errored or stalled: once per episode, tell the layer above
 * (env->route_lost) or, without one, suspect the peer (tcp.c). */
void tcp_route_fail(int world, int route, const char *why);
ssize_t tcp_io_sendv(int fd, struct iovec *v, int n);
static inline size_t tcp_pad(size_t dlen) { return (8 - (dlen & 7)) & 7; }
extern const char tcp_zeros[8];
/* Free the connections closed while an epoll batch was handled (one
 * batch may hold events for a connection that an earlier event closed). */
void tcp_conn_reap(void);

#endif
