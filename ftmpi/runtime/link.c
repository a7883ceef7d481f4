/* Head <-> daemon links: in-process (posted) or stream socket. */
#include "link.h"
#include "../util/ft_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* Longest message accepted before authentication (a nonce or a proof). */
#define AUTH_MSG_MAX 64u

void rt_link_local_init(rt_link_t *l, evloop_t *loop, rt_link_recv_cb recv,
                        void *recv_arg)
{
    *l = (rt_link_t){0};
    l->loop = loop;
    l->recv = recv;
    l->recv_arg = recv_arg;
    l->conn.fd = -1;
}

static void auth_timer_cancel(rt_link_t *l)
{
    if (l->auth_timer)
        evloop_timer_cancel(l->loop, l->auth_timer);
    l->auth_timer = 0;
}

static void link_fail(rt_link_t *l, int err)
{
    if (l->closed)
        return;
    if (!l->reason[0]) {
        size_t left = l->conn.in.len - l->conn.in_off;
        if (err == -ECONNRESET)
            err = -EPIPE; /* a reset is the peer's close too (which one comes is timing) */
        if (err == -EPIPE && left)
            snprintf(l->reason, sizeof l->reason, "closed in the middle of "
                     "a message (%zu bytes of it received)", left);
        else if (err == -EPIPE)
            snprintf(l->reason, sizeof l->reason, "connection closed%s",
                     l->auth_state ? " before authenticating" : "");
        else if (err == -EPROTO)
            snprintf(l->reason, sizeof l->reason, "malformed message "
                     "(impossible length)");
        else
            snprintf(l->reason, sizeof l->reason, "%s", strerror(-err));
    }
    auth_timer_cancel(l);
    l->closed = 1;
    evloop_del_fd(l->loop, l->conn.fd);
    if (l->on_close)
        l->on_close(l->on_msg_arg, err);
}

static void link_fail_why(rt_link_t *l, int err, const char *why)
{
    if (!l->closed)
        snprintf(l->reason, sizeof l->reason, "%s", why);
    link_fail(l, err);
}

/* ---------------------------------------------------------- authentication */

static void auth_done(rt_link_t *l)
{
    l->auth_state = 0;
    auth_timer_cancel(l);
    if (l->held.len) {
        int had = proto_conn_pending(&l->conn);
        proto_put_raw(&l->conn.out, l->held.data, l->held.len);
        if (l->conn.out.err) {
            link_fail(l, -ENOMEM);
            return;
        }
        if (!had)
            evloop_mod_fd(l->loop, l->conn.fd, EPOLLIN | EPOLLOUT);
    }
    proto_buf_free(&l->held);
    proto_buf_init(&l->held);
}

/* A handshake message; state 1: waiting for the peer's nonce, 2: for its
 * proof. */
static void auth_msg(rt_link_t *l, uint32_t type, const void *p, uint32_t len)
{
    char why[96];
    int want = l->auth_state == 1 ? AUTH_NONCE : AUTH_PROOF;
    if (type != (uint32_t)want || len != 32) {
        snprintf(why, sizeof why, "unexpected message (type %u, %u bytes) "
                 "instead of %s", type, len,
                 want == AUTH_NONCE ? "a nonce" : "a proof");
        link_fail_why(l, -EPROTO, why);
        return;
    }
    int peer = l->auth_role == FT_AUTH_ACCEPTOR ? FT_AUTH_CONNECTOR
                                                : FT_AUTH_ACCEPTOR;
    if (l->auth_state == 1) {
        uint8_t proof[FT_AUTH_PROOF_BYTES];
        memcpy(l->peer_nonce, p, 32);
        ft_auth_proof(l->secret, l->auth_role, l->peer_nonce, l->nonce, proof);
        if (proto_conn_send(&l->conn, AUTH_PROOF, proof, sizeof proof) < 0) {
            link_fail(l, -EPIPE);
            return;
        }
        if (proto_conn_pending(&l->conn))
            evloop_mod_fd(l->loop, l->conn.fd, EPOLLIN | EPOLLOUT);
        l->auth_state = 2;
        return;
    }
    if (!ft_auth_check(l->secret, peer, l->nonce, l->peer_nonce, p)) {
        link_fail_why(l, -EACCES, "authentication failed (wrong proof of "
                      "the job's secret)");
        return;
    }
    auth_done(l);
}

static void auth_timeout(evloop_t *loop, void *arg)
{
    rt_link_t *l = arg;
    l->auth_timer = 0;
    link_fail_why(l, -ETIMEDOUT, "did not authenticate in time");
}

/* Before authentication, refuse a long message as soon as its header is
 * in (rather than buffering up to PROTO_MAX_PAYLOAD of it). */
static int auth_header_ok(rt_link_t *l)
{
    size_t avail = l->conn.in.len - l->conn.in_off;
    if (!l->auth_state || avail < PROTO_HDR_BYTES)
        return 1;
    const uint8_t *h = l->conn.in.data + l->conn.in_off;
    uint32_t len = (uint32_t)h[4] | (uint32_t)h[5] << 8 |
                   (uint32_t)h[6] << 16 | (uint32_t)h[7] << 24;
    if (len <= AUTH_MSG_MAX)
        return 1;
    char why[96];
    snprintf(why, sizeof why, "message of %u bytes before authenticating", len);
    link_fail_why(l, -EPROTO, why);
    return 0;
}

int rt_link_require_auth(rt_link_t *l, const char *secret, int role,
                         double timeout_s)
{
    l->secret = secret;
    l->auth_role = role;
    l->auth_state = 1;
    proto_buf_init(&l->held);
    int rc = ft_auth_nonce(l->nonce);
    if (rc)
        return rc;
    rc = proto_conn_send(&l->conn, AUTH_NONCE, l->nonce, sizeof l->nonce);
    if (rc < 0)
        return rc;
    if (proto_conn_pending(&l->conn))
        evloop_mod_fd(l->loop, l->conn.fd, EPOLLIN | EPOLLOUT);
    l->auth_timer = evloop_timer_add(l->loop, timeout_s, auth_timeout, l);
    return 0;
}

const char *rt_link_reason(const rt_link_t *l) { return l->reason; }

/* ------------------------------------------------------------------ I/O */

static void link_on_fd(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    rt_link_t *l = arg;
    if (ev & EPOLLOUT) {
        int rc = proto_conn_flush(&l->conn);
        if (rc < 0) {
            link_fail(l, rc);
            return;
        }
        if (rc == 1)
            evloop_mod_fd(loop, fd, EPOLLIN);
    }
    if (ev & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
        long n = proto_conn_fill(&l->conn);
        uint32_t type, len;
        const void *p;
        int rc = 0;
        while (!l->closed && auth_header_ok(l) &&
               (rc = proto_conn_next(&l->conn, &type, &p, &len)) == 1) {
            if (l->auth_state)
                auth_msg(l, type, p, len);
            else
                l->on_msg(l->on_msg_arg, type, p, len);
        }
        if (l->closed)
            return;
        if (rc < 0)
            link_fail(l, rc);
        else if (n < 0)
            link_fail(l, (int)n);
    }
}

int rt_link_stream_init(rt_link_t *l, evloop_t *loop, int fd,
                        rt_link_recv_cb on_msg, void *arg,
                        rt_link_close_cb on_close)
{
    *l = (rt_link_t){0};
    l->loop = loop;
    l->is_stream = 1;
    proto_conn_init(&l->conn, fd);
    l->on_msg = on_msg;
    l->on_msg_arg = arg;
    l->on_close = on_close;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    return evloop_add_fd(loop, fd, EPOLLIN, link_on_fd, l);
}

void rt_link_close(rt_link_t *l)
{
    if (!l->is_stream)
        return;
    if (!l->closed)
        evloop_del_fd(l->loop, l->conn.fd);
    auth_timer_cancel(l);
    proto_buf_free(&l->held);
    l->closed = 1;
    if (l->conn.fd >= 0)
        close(l->conn.fd);
    l->conn.fd = -1;
    proto_conn_free(&l->conn);
}

int rt_link_send(rt_link_t *l, uint32_t type, const void *data, size_t len)
{
    if (!l->is_stream)
        return evloop_post(l->loop, l->recv, l->recv_arg, type, data, len);
    if (l->closed)
        return -EPIPE;
    if (l->auth_state) {
        proto_frame(&l->held, type, data, len);
        return l->held.err;
    }
    int had = proto_conn_pending(&l->conn);
    int rc = proto_conn_send(&l->conn, type, data, len);
    if (rc < 0)
        return rc;
    if (!had && proto_conn_pending(&l->conn))
        evloop_mod_fd(l->loop, l->conn.fd, EPOLLIN | EPOLLOUT);
    return 0;
}

void rt_link_drain(rt_link_t *l, double timeout_s)
{
    if (!l->is_stream || l->closed)
        return;
    double end = evloop_now() + timeout_s;
    while (proto_conn_pending(&l->conn)) {
        int rc = proto_conn_flush(&l->conn);
        if (rc != 0)
            return;
        double left = end - evloop_now();
        if (left <= 0)
            return;
        struct pollfd pf = {.fd = l->conn.fd, .events = POLLOUT};
        poll(&pf, 1, (int)(left * 1000) + 1);
    }
}
