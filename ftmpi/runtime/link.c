/* Head <-> daemon links: in-process (posted) or stream socket. */
#include "link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

void rt_link_local_init(rt_link_t *l, evloop_t *loop, rt_link_recv_cb recv,
                        void *recv_arg)
{
    *l = (rt_link_t){0};
    l->loop = loop;
    l->recv = recv;
    l->recv_arg = recv_arg;
    l->conn.fd = -1;
}

static void link_fail(rt_link_t *l, int err)
{
    if (l->closed)
        return;
    l->closed = 1;
    evloop_del_fd(l->loop, l->conn.fd);
    if (l->on_close)
        l->on_close(l->on_msg_arg, err);
}

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
        int rc;
        while (!l->closed &&
               (rc = proto_conn_next(&l->conn, &type, &p, &len)) == 1)
            l->on_msg(l->on_msg_arg, type, p, len);
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
