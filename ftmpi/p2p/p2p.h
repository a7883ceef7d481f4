/*
 * Point-to-point: matching, the eager and rendezvous protocols, and the
 * packets they exchange. Everything here runs under the library lock.
 */
#ifndef FTMPI_P2P_H
#define FTMPI_P2P_H

#include <stdint.h>

#include "core/request.h"

typedef enum {
    PKT_EAGER = 1,   /* header + all the data */
    PKT_RTS,         /* rendezvous: data stays at the sender (addr) */
    PKT_FIN,         /* receiver read the rendezvous data (sreq) */
    PKT_CTS,         /* receiver cannot read: stream it to me (sreq, rreq) */
    PKT_DATA,        /* streamed fragment (rreq, offset in addr) */
    PKT_SYNC_ACK,    /* synchronous eager send matched (sreq) */
    PKT_CANCEL_REQ,  /* please drop unexpected message sreq */
    PKT_CANCEL_REP,  /* flags: 1 = dropped */
    PKT_EAGER_SHORT, /* EAGER with the compact header pkt_short_t (in-place
                        transports only); never seen above p2p_on_packet */
} pkt_type_t;

#define PKT_F_SYNC 1u
#define PKT_F_STREAM 2u  /* RTS: data is not contiguous at the sender: ask for a stream */
#define PKT_F_IOV 4u     /* RTS: addr is the sender's run list, rreq its length (p2p/rndv.c) */
#define PKT_F_HEAD 8u    /* RTS: its payload is the message's first rreq bytes (network) */

typedef struct {
    uint8_t type;
    uint8_t flags;
    uint16_t src_inc;   /* sender's incarnation (low 16 bits) */
    uint32_t ctx;       /* context id */
    int32_t src;        /* sender's rank in its group of the communicator */
    int32_t tag;
    uint32_t gen;       /* sender's generation */
    int32_t src_world;  /* sender's world rank */
    uint64_t len;       /* message bytes (DATA: fragment bytes) */
    uint64_t sreq;      /* sender request token */
    uint64_t rreq;      /* receiver request token */
    uint64_t addr;      /* RTS: sender address; DATA: offset */
    uint64_t seq;       /* per-peer number: 1, 2, ... per incarnation of the
                           receiver, in the order handed to the transport */
} pkt_t;

/* The header of an EAGER packet written in place into a transport that
 * has reserve/commit (shared memory): the fields an eager message needs,
 * 32 bytes instead of pkt_t's, so that a message of up to 24 bytes and its
 * ring record fit one cache line. The payload length is the packet's
 * length less the header. */
typedef struct {
    uint8_t type;       /* PKT_EAGER_SHORT */
    uint8_t flags;
    uint16_t src_inc;
    uint32_t ctx;
    int32_t src;
    int32_t tag;
    uint32_t gen;
    int32_t src_world;
    uint64_t sreq;
} pkt_short_t;

/* An unexpected message (also what an MPI_Message handle holds). */
typedef struct umsg {
    list_node_t link;
    pkt_t pkt;
    char *data;         /* eager payload copy (an RTS: its head, PKT_F_HEAD, or NULL) */
    int handle;         /* MPI_Message handle while mprobed */
    comm_t *comm;       /* while mprobed */
    int pooled;         /* umsg.c: a pool record (payload room UMSG_INLINE) */
    char inl[];         /* the payload copy, in the same allocation */
} umsg_t;

/* What p2p_fail_pending ends: everything; collective traffic only; or
 * collective traffic and the receives not matched yet (nothing whose data
 * is already on its way: CONT keeps those). */
enum { P2P_ALL = 0, P2P_COLL_ONLY = 1, P2P_UNMATCHED = 2 };

int p2p_init(void);
void p2p_fini(void);

/* Start a send or receive described by r (fields buf,count,dt,peer,tag,
 * comm,mode). Returns an MPI error class for immediate errors. */
int p2p_start_send(req_t *r);
/* Blocking standard-mode fast path: send an eager message now, with no
 * request, if that is possible. 1: sent (complete); 0: use p2p_start_send. */
int p2p_send_now(comm_t *c, const void *buf, int count, dt_t *dt, int dest, int tag);
int p2p_start_recv(req_t *r);
/* A blocking receive whose eager message has arrived already: matched,
 * copied out and its status written here, with no request. Returns 1 when
 * done (*rc: MPI_SUCCESS or MPI_ERR_TRUNCATE), 0 when the caller must post
 * a request (nothing matched yet, an RTS, a revoked communicator). */
int p2p_recv_now(comm_t *c, void *buf, int count, dt_t *dt, int src, int tag,
                 MPI_Status *st, int *rc);

/* A receive or probe from src on c cannot be satisfied by a message yet to
 * come: src failed, or src is MPI_ANY_SOURCE and a member of c failed and c
 * is not recovered yet (not under recovery NONE). docs/ft.md. */
int p2p_source_failed(const comm_t *c, int src);
/* Probe: find a matching unexpected message; fills status. *found=0/1.
 * With `take`, removes it and returns it in *msg_p (Mprobe). */
int p2p_probe(comm_t *c, int src, int tag, int take, int *found,
              MPI_Status *st, umsg_t **msg_p);
/* The same on the collective context when `coll` (api/part.c's traffic). */
int p2p_probe_ctx(comm_t *c, int coll, int src, int tag, int take, int *found,
                  MPI_Status *st, umsg_t **msg_p);
/* Receive a message taken by Mprobe into r (already filled with buf...). */
int p2p_start_mrecv(req_t *r, umsg_t *m);
/* Cancel a pending request (receive: at once; send: asks the receiver). */
int p2p_cancel(req_t *r);

/* Packet entry point (from transports): src is the sender's world rank
 * when the transport knows it (a TCP connection), -1 when the header
 * alone says (shared memory). */
void p2p_on_packet(int src, void *payload, size_t len);
/* A replacement process starts: what is queued for its predecessor goes. */
void p2p_drop_incoming(void);
/* A recovery changed where peers are: open the transports now needed. */
int p2p_routes_changed(void);
/* Retry sends that found a ring full. Returns work done. */
int p2p_flush_pending(void);
int p2p_has_pending(void);
/* Bytes of this rank's rendezvous sends that await their FIN (the peer has
 * them to read, or is reading them). */
size_t p2p_rndv_bytes(void);
/* Anything of ours not yet delivered (MPI_Finalize waits for it)? */
int p2p_outbound_busy(void);

/* What p2p tells the fault-tolerance layer, which sets these (p2p does not
 * call upward); NULL: nobody listens. */
typedef struct {
    void (*coll_started)(void); /* a collective operation starts a send or receive */
} p2p_ft_hooks_t;
extern p2p_ft_hooks_t p2p_ft_hooks;

/* Fault tolerance hooks: fail every request that waits on world rank w. */
void p2p_peer_failed(int world, int err);
/* Drop unexpected messages of generations older than gen: all of them
 * (RESET) or only collective traffic (CONT). */
void p2p_drop_old(uint32_t gen, int which);
/* Fail every pending request on c (or on every communicator if c is NULL)
 * with err: posted receives, sends waiting for their peer. */
void p2p_fail_pending(comm_t *c, int err, int which);
/* c is being destroyed by a recovery: its unexpected messages go back to
 * the orphan list, to be adopted by the communicator that reuses the
 * context id (FT-MPI CONT mode). */
void p2p_comm_detach(comm_t *c);
/* c's group was renumbered (SHRINK): queued messages follow their senders. */
void p2p_renumber(comm_t *c);

#endif
