/*
 * Connections: made on first use to the address the peer published, with
 * a challenge both ways before any frame flows (util/ft_auth.h):
 *
 *   connector                          acceptor
 *   HELLO (ranks, incarnations, nonce_c) ->
 *                                      <- CHAL (nonce_a, proof(ACCEPTOR, nonce_c, nonce_a))
 *   AUTH (proof(CONNECTOR, nonce_a, nonce_c)) ->
 *                                      <- VERDICT (use it / duplicate / refused)
 *
 * proof is ft_auth_proof: HMAC-SHA256 keyed with the job's secret, which
 * every process of the job has from its daemon and which never crosses
 * the network, over the prover's role and both nonces. A correct AUTH
 * proves membership of the job, a correct CHAL that the acceptor is a
 * member too (the roles differ, so a proof cannot be reflected; the nonces
 * are fresh, so it cannot be replayed). Anything else is refused, logged
 * and closed. The runtime's control links prove the secret the same way.
 *
 * Two processes that connect to each other at once keep one connection:
 * the one made by the lower world rank (the higher one accepts it and drops
 * its own attempt, the lower one answers the other with VERDICT_DUP).
 */
#include "tcp_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/timer.h"

#define RETRY_NS 200000000ull /* a lost connection is made again after this */

void tcp_conn_watch(tcp_conn_t *c, int want_out)
{
    if (c->want_out == want_out)
        return;
    c->want_out = want_out;
    struct epoll_event ev = {.events = EPOLLIN | (want_out ? EPOLLOUT : 0), .data.ptr = c};
    epoll_ctl(T.epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static tcp_conn_t *conn_new(int fd, int outgoing)
{
    tcp_conn_t *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->fd = fd;
    c->outgoing = outgoing;
    c->peer = -1;
    c->want_out = outgoing;
    c->started_ns = timer_ns();
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    struct epoll_event ev = {.events = EPOLLIN | (outgoing ? EPOLLOUT : 0), .data.ptr = c};
    if (epoll_ctl(T.epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        free(c);
        return NULL;
    }
    list_add_tail(&T.conns, &c->link);
    return c;
}

static void conn_free(tcp_conn_t *c)
{
    if (T.in_batch) {
        /* a later event of this batch may name it: it is C_CLOSED until then */
        c->next_dead = T.dead;
        T.dead = c;
        return;
    }
    free(c->rbuf);
    free(c->held);
    free(c);
}

void tcp_conn_reap(void)
{
    while (T.dead) {
        tcp_conn_t *c = T.dead;
        T.dead = c->next_dead;
        free(c->rbuf);
        free(c->held);
        free(c);
    }
}

void tcp_conn_close(tcp_conn_t *c, const char *why, int suspect)
{
    if (c->state == C_CLOSED)
        return;
    int peer = c->peer, ready = c->state == C_READY, r = c->route;
    if (why)
        fprintf(stderr, "ftmpi: tcp: rank %d: closing the connection %s rank %d (%s): %s\n",
                T.env->my_world, c->outgoing ? "to" : "from", peer, c->where, why);
    epoll_ctl(T.epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
    c->state = C_CLOSED;
    if (c->sink) {
        c->sink->done(c->sink, -ECONNRESET);
        c->sink = NULL;
    }
    list_del(&c->link);
    if (peer >= 0 && T.peers[peer].rt[r].c == c) {
        tcp_route_t *p = &T.peers[peer].rt[r];
        p->c = NULL;
        p->retry_ns = timer_ns() + RETRY_NS;
        /* A stream that was half sent cannot be finished on another
         * connection (the peer lost its beginning): it is given up. */
        if (p->nout) {
            tcp_out_t *o = list_entry(p->out.next, tcp_out_t, link);
            if (o->done > 0 && o->src) {
                list_del(&o->link);
                p->nout--;
                if (!p->nout)
                    T.nbusy--;
                o->src->done(o->src, -ECONNRESET);
                free(o);
            } else {
                o->done = 0;
            }
        }
        if (suspect && (ready || c->outgoing) && !c->bye)
            tcp_route_fail(peer, r, why ? why : "connection lost");
    }
    if (!c->in_use)
        conn_free(c);
}

/* Connect route r to the peer, from the route's own local address (so
 * that it leaves through that network's interface). */
int tcp_conn_start(int world, int r)
{
    int rc = tcp_routes(world);
    if (rc < 0)
        return rc;
    if (r >= rc)
        return -EINVAL;
    tcp_peer_t *pp = &T.peers[world];
    tcp_route_t *p = &pp->rt[r];
    uint32_t inc = pp->rec_inc;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(pp->rec.port)};
    sa.sin_addr.s_addr = p->raddr;
    struct sockaddr_in la = {.sin_family = AF_INET};
    la.sin_addr.s_addr = p->laddr;
    if ((p->laddr && bind(fd, (struct sockaddr *)&la, sizeof(la)) < 0) ||
        (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 && errno != EINPROGRESS)) {
        int e = -errno;
        close(fd);
        return e;
    }
    tcp_conn_t *c = conn_new(fd, 1);
    if (!c) {
        close(fd);
        return -ENOMEM;
    }
    c->peer = world;
    c->peer_inc = inc;
    c->route = r;
    c->state = C_CONNECTING;
    snprintf(c->where, sizeof(c->where), "%s:%u", inet_ntoa(sa.sin_addr), pp->rec.port);
    p->c = c;
    return 0;
}

void tcp_conn_accept(void)
{
    for (;;) {
        struct sockaddr_in sa;
        socklen_t sl = sizeof(sa);
        int fd = accept4(T.lfd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        tcp_conn_t *c = conn_new(fd, 0);
        if (!c) {
            close(fd);
            continue;
        }
        c->state = C_WAIT_HELLO;
        snprintf(c->where, sizeof(c->where), "%s:%u", inet_ntoa(sa.sin_addr),
                 ntohs(sa.sin_port));
    }
}

/* Handshake messages are small: written whole or the connection is bad. */
static int hs_send(tcp_conn_t *c, tcp_hs_t *h)
{
    return send(c->fd, h, sizeof(*h), MSG_NOSIGNAL) == (ssize_t)sizeof(*h) ? 0 : -1;
}

static void hs_fill(tcp_hs_t *h, int kind, tcp_conn_t *c)
{
    memset(h, 0, sizeof(*h));
    h->magic = TCP_HS_MAGIC;
    h->kind = (uint32_t)kind;
    h->from = T.env->my_world;
    h->to = c->peer;
    h->from_inc = T.env->my_inc;
    h->to_inc = c->peer_inc;
    h->route = (uint32_t)c->route;
}

static void send_hello(tcp_conn_t *c)
{
    tcp_hs_t h;
    hs_fill(&h, HS_HELLO, c);
    if (ft_auth_nonce(c->nonce) < 0) {
        tcp_conn_close(c, "no random nonce for HELLO", 1);
        return;
    }
    memcpy(h.nonce, c->nonce, sizeof(h.nonce));
    if (hs_send(c, &h) < 0) {
        tcp_conn_close(c, "cannot send HELLO", 1);
        return;
    }
    c->state = C_WAIT_CHAL;
    tcp_conn_watch(c, 0);
}

/* Acceptor: the connector proved itself; keep this connection or not. */
static void decide(tcp_conn_t *c)
{
    tcp_hs_t v;
    hs_fill(&v, HS_VERDICT, c);
    tcp_route_t *p = &T.peers[c->peer].rt[c->route];
    tcp_conn_t *old = p->c;
    if (old && old != c && old->peer_inc == c->peer_inc && old->outgoing &&
        T.env->my_world < c->peer) {
        v.status = VERDICT_DUP; /* ours, made by the lower rank, wins */
        hs_send(c, &v);
        tcp_conn_close(c, NULL, 0);
        return;
    }
    if (hs_send(c, &v) < 0) {
        tcp_conn_close(c, "cannot send VERDICT", 0);
        return;
    }
    if (old && old != c) {
        old->bye = 1;
        tcp_conn_close(old, NULL, 0); /* superseded: queued output moves here */
    }
    p->c = c;
    p->suspected = 0;
    c->state = C_READY;
    tcp_conn_watch(c, p->nout > 0);
}

static const char *check_hello(const tcp_hs_t *h)
{
    if (h->kind != HS_HELLO)
        return "expected HELLO";
    if (h->to != T.env->my_world || h->to_inc != T.env->my_inc)
        return "HELLO for another process";
    if (h->from < 0 || h->from >= T.env->world_size || h->from == T.env->my_world)
        return "HELLO from an invalid rank";
    if ((int32_t)(h->from_inc - T.env->inc_of(h->from)) < 0)
        return "HELLO from a failed incarnation";
    if (h->route >= TCP_MAX_ROUTES)
        return "HELLO for a route out of range";
    return NULL;
}

/* One complete handshake message in c->hs. */
static void on_hs(tcp_conn_t *c)
{
    tcp_hs_t h, r;
    memcpy(&h, c->hs, sizeof(h));
    c->hs_have = 0;
    const char *bad = NULL;
    if (h.magic != TCP_HS_MAGIC)
        bad = "not an ftmpi connection (bad magic)";
    else if (c->state == C_WAIT_HELLO) {
        if (!(bad = check_hello(&h))) {
            c->peer = h.from;
            c->peer_inc = h.from_inc;
            c->route = (int)h.route;
            memcpy(c->peer_nonce, h.nonce, sizeof(c->peer_nonce));
            hs_fill(&r, HS_CHAL, c);
            if (ft_auth_nonce(c->nonce) < 0) {
                bad = "no random nonce for CHAL";
            } else {
                memcpy(r.nonce, c->nonce, sizeof(r.nonce));
                ft_auth_proof(T.env->secret, FT_AUTH_ACCEPTOR, c->peer_nonce, c->nonce,
                              r.proof);
                if (hs_send(c, &r) < 0)
                    bad = "cannot send CHAL";
            }
            c->state = C_WAIT_AUTH;
        }
    } else if (c->state == C_WAIT_CHAL) {
        if (h.kind != HS_CHAL || h.from != c->peer || h.from_inc != c->peer_inc ||
            h.route != (uint32_t)c->route)
            bad = "expected CHAL from the peer";
        else if (!ft_auth_check(T.env->secret, FT_AUTH_ACCEPTOR, c->nonce, h.nonce, h.proof))
            bad = "the peer failed the challenge (wrong key)";
        else {
            hs_fill(&r, HS_AUTH, c);
            ft_auth_proof(T.env->secret, FT_AUTH_CONNECTOR, h.nonce, c->nonce, r.proof);
            if (hs_send(c, &r) < 0)
                bad = "cannot send AUTH";
            c->state = C_WAIT_VERDICT;
        }
    } else if (c->state == C_WAIT_AUTH) {
        if (h.kind != HS_AUTH || h.from != c->peer || h.route != (uint32_t)c->route ||
            !ft_auth_check(T.env->secret, FT_AUTH_CONNECTOR, c->nonce, c->peer_nonce,
                           h.proof)) {
            fprintf(stderr, "ftmpi: tcp: rank %d: refused a connection from %s: "
                            "authentication failed\n", T.env->my_world, c->where);
            tcp_conn_close(c, NULL, 0);
            return;
        }
        decide(c);
        return;
    } else if (c->state == C_WAIT_VERDICT) {
        if (h.kind != HS_VERDICT)
            bad = "expected VERDICT";
        else if (h.status == VERDICT_DUP) {
            tcp_conn_close(c, NULL, 0); /* the peer's connection to us will be used */
            return;
        } else if (h.status != VERDICT_OK)
            bad = "refused by the peer";
        else {
            c->state = C_READY;
            T.peers[c->peer].rt[c->route].suspected = 0;
            tcp_conn_watch(c, T.peers[c->peer].rt[c->route].nout > 0);
            tcp_io_write(c->peer, c->route);
            return;
        }
    }
    if (bad)
        tcp_conn_close(c, bad, c->outgoing);
}

static void hs_read(tcp_conn_t *c)
{
    while (c->state != C_CLOSED && c->state != C_READY) {
        ssize_t n = recv(c->fd, c->hs + c->hs_have, sizeof(tcp_hs_t) - c->hs_have, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            /* An acceptor's half-made connection going away is no failure
             * (a duplicate, or someone who was refused). */
            tcp_conn_close(c, c->outgoing ? (n == 0 ? "closed during the handshake"
                                                    : strerror(errno))
                                          : NULL,
                           c->outgoing);
            return;
        }
        if (n < 0)
            return;
        c->hs_have += (size_t)n;
        if (c->hs_have < sizeof(tcp_hs_t))
            return;
        on_hs(c);
    }
}

void tcp_conn_event(tcp_conn_t *c, uint32_t events)
{
    if (c->state == C_CLOSED)
        return;
    c->in_use = 1; /* freed below, not by a close on the way */
    int peer = c->peer;
    if (c->state == C_CONNECTING) {
        int err = 0;
        socklen_t sl = sizeof(err);
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &sl);
        if (err)
            tcp_conn_close(c, strerror(err), 1);
        else if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP))
            send_hello(c);
    } else if (c->state != C_READY) {
        hs_read(c);
        if (c->state == C_READY && (events & EPOLLIN))
            tcp_io_read(c); /* frames right behind the handshake */
    } else {
        if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
            tcp_io_read(c);
        if (c->state == C_READY && (events & EPOLLOUT))
            tcp_io_write(peer, c->route);
    }
    c->in_use = 0;
    if (c->state == C_CLOSED)
        conn_free(c);
}
