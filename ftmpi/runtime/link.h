/*
 * A message link between the head and a daemon. The same head and daemon
 * code runs over either kind:
 *   local: both ends in one process (ftmpirun's own host); a send posts the
 *          message to the event loop, which delivers it before it sleeps;
 *   stream: a TCP (or any stream) socket with proto.h framing (ftmpid).
 */
#ifndef FTMPI_RUNTIME_LINK_H
#define FTMPI_RUNTIME_LINK_H

#include "evloop.h"
#include "proto.h"

typedef void (*rt_link_recv_cb)(void *arg, uint32_t type, const void *data,
                                size_t len);
typedef void (*rt_link_close_cb)(void *arg, int err);

typedef struct rt_link {
    evloop_t *loop;
    rt_link_recv_cb recv;  /* where the messages sent on this link go */
    void *recv_arg;
    /* stream links only */
    int is_stream;
    proto_conn_t conn;
    rt_link_recv_cb on_msg;      /* messages received from the peer */
    void *on_msg_arg;
    rt_link_close_cb on_close;
    int closed;
    /* authentication (rt_link_require_auth) */
    const char *secret;
    int auth_role, auth_state;   /* auth_state 0: done or not asked */
    uint8_t nonce[32], peer_nonce[32];
    proto_buf_t held;            /* messages sent before it finished */
    long auth_timer;
    char reason[96];             /* why the link closed (rt_link_reason) */
} rt_link_t;

/* Local: messages sent on l are delivered to recv(recv_arg, ...). */
void rt_link_local_init(rt_link_t *l, evloop_t *loop, rt_link_recv_cb recv,
                        void *recv_arg);

/* Stream over fd (made non-blocking here): messages read from the peer go to
 * on_msg; on_close is called once at end of stream or error. */
int rt_link_stream_init(rt_link_t *l, evloop_t *loop, int fd,
                        rt_link_recv_cb on_msg, void *arg,
                        rt_link_close_cb on_close);
void rt_link_close(rt_link_t *l);

/* Stream links: the peer must prove it holds `secret` (util/ft_auth.h:
 * nonces both ways, then HMAC proofs both ways) before any of its messages
 * is delivered; what this side sends meanwhile is held and goes out after.
 * role: FT_AUTH_ACCEPTOR or FT_AUTH_CONNECTOR (this side); `secret` must
 * outlive the link. A wrong proof, any other message first, a message
 * longer than a handshake message, or no proof within timeout_s closes the
 * link: on_close gets -EACCES, -EPROTO or -ETIMEDOUT. */
int rt_link_require_auth(rt_link_t *l, const char *secret, int role,
                         double timeout_s);
/* Why a stream link closed, in words ("" while open). */
const char *rt_link_reason(const rt_link_t *l);

/* Send one message. 0 or -errno. */
int rt_link_send(rt_link_t *l, uint32_t type, const void *data, size_t len);
static inline int rt_link_send_buf(rt_link_t *l, uint32_t type,
                                   const proto_buf_t *b)
{
    return b->err ? b->err : rt_link_send(l, type, b->data, b->len);
}

/* Stream links: block (up to timeout_s) until queued output is written. */
void rt_link_drain(rt_link_t *l, double timeout_s);

#endif
