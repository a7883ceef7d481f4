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
