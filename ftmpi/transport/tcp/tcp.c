/*
 * The TCP transport's operations: opening (listen, publish), sending
 * (straight to the socket when nothing is queued, else queued in order),
 * progress (one epoll_wait without blocking), failure of a peer, closing.
 */
#include "tcp_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/timer.h"

tcp_t T;

/* A header (frame + packet header) to queue, without its payload yet. */
static tcp_out_t *out_new(int kind, const void *hdr, size_t dlen)
{
    size_t hl = hdr ? T.env->hdr_len : 0;
    tcp_out_t *o = malloc(sizeof(*o) + sizeof(tcp_frame_t) + hl);
    if (!o)
        return NULL;
    tcp_frame_t f = {TCP_FRAME_MAGIC, (uint16_t)kind, (uint16_t)hl, dlen};
    memcpy(o->head, &f, sizeof(f));
    if (hl)
        memcpy(o->head + sizeof(f), hdr, hl);
    o->hlen = sizeof(f) + hl;
    o->dlen = dlen;
    o->done = 0;
    o->src = NULL;
    o->data = NULL;
    return o;
}

void tcp_route_fail(int world, int r, const char *why)
{
    tcp_route_t *p = &T.peers[world].rt[r];
    if (p->suspected)
        return;
    p->suspected = 1;
    if (T.env->route_lost)
        T.env->route_lost(world, r, why);
    else
        T.env->suspect(world);
}

static int t_send_on(int world, int r, const void *hdr, const struct iovec *iov, int n)
{
    if (r < 0 || r >= TCP_MAX_ROUTES)
        return -EINVAL;
    tcp_route_t *p = &T.peers[world].rt[r];
    if ((!p->c && tcp_peer_gone(world)) || T.closing)
        return 0; /* it said goodbye, or we did: nothing sent now is read */
    if (!p->c || p->c->state != C_READY || p->nout) {
        /* Like a full ring: the packet waits in p2p's queue, and its send
         * is not complete until the connection takes it. */
        if (!p->c && timer_ns() >= p->retry_ns && tcp_conn_start(world, r) < 0) {
            p->retry_ns = timer_ns() + 200000000ull;
            tcp_route_fail(world, r, "cannot connect");
        }
        return -EAGAIN;
    }
    size_t dlen = 0;
    for (int i = 0; i < n; i++)
        dlen += iov[i].iov_len;
    tcp_out_t *o = out_new(FR_PKT, hdr, dlen);
    if (!o)
        return -ENOMEM;
    size_t skip = 0;
    {
        /* Nothing queued: straight to the socket. */
        struct iovec v[67];
        v[0].iov_base = o->head;
        v[0].iov_len = o->hlen;
        int k = 1;
        for (int i = 0; i < n && k < 65; i++)
            v[k++] = iov[i];
        size_t pad = tcp_pad(dlen);
        v[k].iov_base = (void *)tcp_zeros;
        v[k++].iov_len = pad;
        ssize_t w = n < 64 ? tcp_io_sendv(p->c->fd, v, k) : 0;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            tcp_conn_close(p->c, strerror(errno), 1);
            w = 0;
        }
        if (w > 0 && (size_t)w == o->hlen + dlen + pad) {
            free(o);
            return 0;
        }
        if (w > 0)
            skip = (size_t)w;
    }
    /* Keep what the socket did not take (an eager payload: copy it). */
    size_t off = skip > o->hlen ? skip - o->hlen : 0;
    o->done = skip;
    if (dlen > off) {
        o->data = malloc(dlen);
        if (!o->data) {
            free(o);
            return -ENOMEM;
        }
        char *d = o->data;
        for (int i = 0; i < n; i++) {
            memcpy(d, iov[i].iov_base, iov[i].iov_len);
            d += iov[i].iov_len;
        }
    }
    return tcp_io_queue(world, r, o);
}

static int t_send(int world, int addr, const void *hdr, const struct iovec *iov, int n)
{
    (void)addr;
    return t_send_on(world, 0, hdr, iov, n);
}

static int t_send_stream(int world, int addr, const void *hdr, tp_io_t *src)
{
    (void)addr;
    tcp_out_t *o = out_new(FR_STREAM, hdr, src->len);
    if (!o)
        return -ENOMEM;
    o->src = src;
    return tcp_io_queue(world, 0, o);
}

static int t_route_ready(int world, int r)
{
    const tcp_conn_t *c = r >= 0 && r < TCP_MAX_ROUTES ? T.peers[world].rt[r].c : NULL;
    return c && c->state == C_READY;
}

static int t_connected(int world)
{
    for (int r = 0; r < TCP_MAX_ROUTES; r++)
        if (t_route_ready(world, r))
            return 1;
    return 0;
}

static int t_connect(int world, int addr)
{
    (void)addr;
    return T.peers[world].rt[0].c ? 0 : tcp_conn_start(world, 0);
}

static int t_rx_route(void) { return T.rx_route; }

/* Connections that take too long to be made are given up. */
static void check_conns(void)
{
    uint64_t now = timer_ns();
    list_node_t *n, *t;
    list_for_each_safe(n, t, &T.conns) {
        tcp_conn_t *c = list_entry(n, tcp_conn_t, link);
        if (c->state != C_READY && now - c->started_ns > T.stall_ns)
            tcp_conn_close(c, "the handshake did not finish in time", c->outgoing);
    }
}

/* Routes whose output stalls are lost (tcp_route_fail); lost connections
 * with output waiting are made again (after a pause). */
static void check_peers(void)
{
    uint64_t now = timer_ns();
    for (int w = 0; w < T.env->world_size; w++)
        for (int r = 0; r < TCP_MAX_ROUTES; r++) {
            tcp_route_t *p = &T.peers[w].rt[r];
            if (!p->nout)
                continue;
            if (!p->c && tcp_peer_gone(w)) {
                tcp_io_drop(w, -ESHUTDOWN);
                continue;
            }
            if (!p->c && now >= p->retry_ns && !T.closing)
                tcp_conn_start(w, r);
            if (!p->suspected && now - p->progress_ns > T.stall_ns) {
                fprintf(stderr, "ftmpi: tcp: output to rank %d (route %d) has not moved for "
                                "%.1f s\n", w, r, (double)(now - p->progress_ns) * 1e-9);
                tcp_route_fail(w, r, "output stalled");
            }
        }
}

static int t_progress(void)
{
    struct epoll_event ev[64];
    int n = epoll_wait(T.epfd, ev, 64, 0);
    int work = 0;
    T.in_batch++;
    for (int i = 0; i < n; i++) {
        if (!ev[i].data.ptr)
            tcp_conn_accept();
        else
            tcp_conn_event(ev[i].data.ptr, ev[i].events);
        work++;
    }
    if (--T.in_batch == 0)
        tcp_conn_reap();
    if (T.nbusy)
        check_peers();
    uint64_t now = timer_ns();
    if (now >= T.next_check_ns) {
        T.next_check_ns = now + 100000000ull;
        check_conns();
    }
    return work;
}

static int t_busy(void) { return T.nbusy; }
static int t_wait_fd(void) { return T.epfd; }

static void t_drop_peer(int world, int addr)
{
    (void)addr;
    tcp_peer_t *p = &T.peers[world];
    for (int r = 0; r < TCP_MAX_ROUTES; r++) {
        if (p->rt[r].c)
            tcp_conn_close(p->rt[r].c, NULL, 0);
        p->rt[r].suspected = 0;
        p->rt[r].retry_ns = 0;
    }
    tcp_io_drop(world, -ECONNRESET);
    p->bye_inc = 0;
    p->have_rec = 0;
    p->nrt = 0;
}

static void t_drop_incoming(void) {}

/* Shut our side of each ready connection whose output (its BYE last)
 * has left; 1 while one is still open (the peer's side not closed). */
static int shut_drained(void)
{
    int open = 0;
    list_node_t *n;
    list_for_each(n, &T.conns) {
        tcp_conn_t *c = list_entry(n, tcp_conn_t, link);
        if (c->state != C_READY)
            continue;
        open = 1;
        if (!c->shut && !T.peers[c->peer].rt[c->route].nout) {
            shutdown(c->fd, SHUT_WR);
            c->shut = 1;
        }
    }
    return open;
}

/* Say goodbye on every ready connection, then close gracefully: shut our
 * side once the BYE has left and read until the peer's side closes too
 * (its BYE, then end of file), up to two seconds in all. A socket closed
 * with bytes unread is reset, and a reset throws away what the kernel
 * still held for the peer: our BYE, when the peer was not reading (it
 * then saw the reset without the goodbye, took it for a failure and
 * connected again and again, "Connection refused", while it finalized). */
static void t_close(void)
{
    for (int w = 0; w < T.env->world_size; w++)
        for (int r = 0; r < TCP_MAX_ROUTES; r++)
            if (t_route_ready(w, r)) {
                tcp_out_t *o = out_new(FR_BYE, NULL, 0);
                if (o)
                    tcp_io_queue(w, r, o);
            }
    T.closing = 1;
    uint64_t end = timer_ns() + 2000000000ull;
    while ((T.nbusy || shut_drained()) && timer_ns() < end) {
        t_progress();
        if (T.nbusy || shut_drained())
            usleep(1000);
    }
    list_node_t *n, *t;
    list_for_each_safe(n, t, &T.conns) {
        tcp_conn_t *c = list_entry(n, tcp_conn_t, link);
        c->bye = 1;
        tcp_conn_close(c, NULL, 0);
    }
    for (int w = 0; w < T.env->world_size; w++)
        tcp_io_drop(w, -ESHUTDOWN);
    tcp_fault_report();
    close(T.lfd);
    close(T.epfd);
    free(T.peers);
    memset(&T, 0, sizeof(T));
}

static tp_ops_t tcp_ops = {
    .name = "tcp",
    .send = t_send,
    .send_stream = t_send_stream,
    .connected = t_connected,
    .routes = tcp_routes,
    .send_on = t_send_on,
    .rx_route = t_rx_route,
    .route_ready = t_route_ready,
    .connect = t_connect,
    .progress = t_progress,
    .busy = t_busy,
    .wait_fd = t_wait_fd,
    .drop_peer = t_drop_peer,
    .drop_incoming = t_drop_incoming,
    .close = t_close,
};

static long env_ms(const char *name, long dflt)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return dflt;
    long v = strtol(s, &end, 10);
    if (*end || v <= 0) {
        fprintf(stderr, "ftmpi: %s='%s' is not a positive number of milliseconds; using %ld\n",
                name, s, dflt);
        return dflt;
    }
    return v;
}

static int listen_any(void)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t sl = sizeof(sa);
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 256) < 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &sl) < 0) {
        int e = -errno;
        close(fd);
        return e;
    }
    T.me.port = ntohs(sa.sin_port);
    return fd;
}

const tp_ops_t *tcp_tp_open(const tp_env_t *env)
{
    memset(&T, 0, sizeof(T));
    T.env = env;
    T.lfd = T.epfd = -1;
    list_init(&T.conns);
    T.stall_ns = (uint64_t)env_ms("FTMPI_TCP_STALL_MS", 10000) * 1000000ull;
    T.max_inline = 1u << 20;
    const char *what = "selecting interfaces";
    int rc = tcp_if_select(&T);
    if (rc < 0)
        goto fail;
    what = "reading FTMPI_NET_FAULTS";
    if ((rc = tcp_fault_parse(getenv("FTMPI_NET_FAULTS"), env->my_world)) < 0) {
        rc = -EINVAL;
        goto fail;
    }
    what = "reading the job's secret";
    /* the handshake proves it (util/ft_auth.h); it never crosses the
     * network (docs/network.md, "Security") */
    if (!env->secret || !*env->secret || strlen(env->secret) > FT_AUTH_SECRET_MAX) {
        rc = -EACCES;
        goto fail;
    }
    what = "allocating";
    rc = -ENOMEM;
    T.peers = calloc((size_t)env->world_size, sizeof(*T.peers));
    if (!T.peers)
        goto fail;
    for (int w = 0; w < env->world_size; w++)
        for (int r = 0; r < TCP_MAX_ROUTES; r++)
            list_init(&T.peers[w].rt[r].out);
    what = "listening";
    if ((rc = T.lfd = listen_any()) < 0)
        goto fail;
    what = "creating the epoll set";
    if ((T.epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
        rc = -errno;
        goto fail;
    }
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(T.epfd, EPOLL_CTL_ADD, T.lfd, &ev);
    what = "publishing the address";
    char key[64];
    snprintf(key, sizeof(key), "tcp.%d.%u", env->my_world, env->my_inc);
    if ((rc = env->kv_put(key, &T.me, sizeof(T.me))) < 0)
        goto fail;
    tcp_ops.max_inline = T.max_inline;
    return &tcp_ops;
fail:
    fprintf(stderr, "ftmpi: the TCP transport cannot start (%s): %s\n", what, strerror(-rc));
    if (T.lfd >= 0)
        close(T.lfd);
    if (T.epfd >= 0)
        close(T.epfd);
    free(T.peers);
    memset(&T, 0, sizeof(T));
    return NULL;
}
