/*
 * Frames on a ready connection. Output: each peer's queue, written with as
 * few sendmsg calls as the socket allows (many small packets in one call;
 * a streamed payload straight from the user's buffer). Input: read into a
 * per-connection buffer and parsed in place, packets delivered from there;
 * a streamed payload is read with readv straight into the sink the upper
 * layer gives. A frame that breaks the format closes the connection with
 * the reason on stderr: the rank goes on.
 */
#include "tcp_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "util/timer.h"

#define RBUF_MIN (256u << 10)
#define MAX_IOV 64
/* Bytes one recv asks for when the frame at the buffer's start is not
 * known yet: a few eager frames at once, but a rendezvous payload that
 * follows its header lands mostly in the user's buffer (readv), not here:
 * what the recv takes of it is copied once more (tp_io_put). */
#define RECV_HEAD (16u << 10)
/* Smallest packet payload offered to env->place. */
#define PLACE_MIN (16u << 10)

const char tcp_zeros[8];

ssize_t tcp_io_sendv(int fd, struct iovec *v, int n)
{
    struct msghdr m = {.msg_iov = v, .msg_iovlen = (size_t)n};
    return sendmsg(fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static size_t out_total(const tcp_out_t *o) { return o->hlen + o->dlen + tcp_pad(o->dlen); }

static void out_free(tcp_out_t *o)
{
    free(o->data);
    free(o);
}

int tcp_io_queue(int world, int r, tcp_out_t *o)
{
    tcp_route_t *p = &T.peers[world].rt[r];
    if (tcp_peer_gone(world) && !p->c) {
        if (o->src)
            o->src->done(o->src, -ESHUTDOWN);
        out_free(o);
        return 0;
    }
    if (!p->nout) {
        T.nbusy++;
        p->progress_ns = timer_ns();
    }
    list_add_tail(&p->out, &o->link);
    p->nout++;
    if (!p->c) {
        if (tcp_conn_start(world, r) < 0)
            tcp_route_fail(world, r, "cannot connect");
        return 0;
    }
    return p->c->state == C_READY ? (tcp_io_write(world, r), 0) : 0;
}

/* The iovecs of the queued output, from the first unwritten byte. */
static int gather(tcp_route_t *p, struct iovec *v)
{
    int k = 0;
    list_node_t *n;
    list_for_each(n, &p->out) {
        tcp_out_t *o = list_entry(n, tcp_out_t, link);
        if (k > MAX_IOV - 3)
            break;
        size_t d = o->done;
        if (d < o->hlen) {
            v[k].iov_base = o->head + d;
            v[k++].iov_len = o->hlen - d;
            d = o->hlen;
        }
        size_t off = d - o->hlen;
        if (off < o->dlen) {
            if (o->src) {
                size_t b = 0;
                k += o->src->iov(o->src, off, o->dlen - off, v + k, MAX_IOV - 1 - k, &b);
                if (off + b < o->dlen)
                    break; /* the rest of the stream next time */
            } else {
                v[k].iov_base = o->data + off;
                v[k++].iov_len = o->dlen - off;
            }
            off = o->dlen;
        }
        size_t pad = tcp_pad(o->dlen);
        if (off < o->dlen + pad) {
            v[k].iov_base = (void *)(tcp_zeros + (off - o->dlen));
            v[k++].iov_len = o->dlen + pad - off;
        }
    }
    return k;
}

/* w bytes left: finish the entries they cover. */
static void consume(tcp_route_t *p, size_t w)
{
    while (w > 0 && p->nout) {
        tcp_out_t *o = list_entry(p->out.next, tcp_out_t, link);
        size_t left = out_total(o) - o->done;
        size_t t = w < left ? w : left;
        if (o->src && o->done + t > o->hlen) {
            size_t a = o->done > o->hlen ? o->done - o->hlen : 0;
            size_t b = o->done + t - o->hlen;
            if (b > o->dlen)
                b = o->dlen;
            if (b > a)
                o->src->moved(o->src, a, b - a);
        }
        o->done += t;
        w -= t;
        if (o->done < out_total(o))
            break;
        list_del(&o->link);
        if (--p->nout == 0)
            T.nbusy--;
        if (o->src)
            o->src->done(o->src, 0);
        out_free(o);
    }
}

int tcp_io_write(int world, int r)
{
    tcp_route_t *p = &T.peers[world].rt[r];
    int work = 0;
    while (p->nout && p->c && p->c->state == C_READY) {
        struct iovec v[MAX_IOV];
        int k = gather(p, v);
        ssize_t w = tcp_io_sendv(p->c->fd, v, k);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                tcp_conn_watch(p->c, 1);
                return work;
            }
            if (errno != EINTR) { /* after a BYE either way: no failure */
                int quiet = p->c->bye || T.closing;
                tcp_conn_close(p->c, quiet ? NULL : strerror(errno), !quiet);
            }
            continue;
        }
        p->progress_ns = timer_ns();
        p->suspected = 0;
        consume(p, (size_t)w);
        work++;
    }
    if (p->c && p->c->state == C_READY && !p->nout)
        tcp_conn_watch(p->c, 0);
    return work;
}

void tcp_io_drop(int world, int err)
{
    for (int r = 0; r < TCP_MAX_ROUTES; r++) {
        tcp_route_t *p = &T.peers[world].rt[r];
        list_node_t *n, *t;
        list_for_each_safe(n, t, &p->out) {
            tcp_out_t *o = list_entry(n, tcp_out_t, link);
            list_del(n);
            if (o->src)
                o->src->done(o->src, err);
            out_free(o);
        }
        if (p->nout)
            T.nbusy--;
        p->nout = 0;
    }
}

static void bad_frame(tcp_conn_t *c, const char *why)
{
    char msg[128];
    snprintf(msg, sizeof(msg), "malformed frame (%s)", why);
    tcp_conn_close(c, msg, 1);
}

/* Payload bytes already in the buffer go into the sink. */
static void sink_from_buffer(tcp_conn_t *c)
{
    while (c->sink && c->rpos < c->rlen) {
        size_t avail = c->rlen - c->rpos, left = c->sink->len - c->sink_off;
        size_t got = tp_io_put(c->sink, c->sink_off, c->rbuf + c->rpos,
                               avail < left ? avail : left);
        c->rpos += got;
        c->sink_off += got;
        if (c->sink_off == c->sink->len) {
            tp_io_t *s = c->sink;
            c->sink = NULL;
            c->skip = tcp_pad(s->len);
            if (c->flip)
                tcp_fault_flip(c, s);
            s->done(s, 0);
        }
    }
}

/* A large packet whose payload the layer above wants read straight into
 * its buffer (env->place: the reliability layer's zero-copy receive): 1
 * when the payload goes there (or, injected, is dropped), 0 to buffer the
 * packet as usual. */
static int place(tcp_conn_t *c, const tcp_frame_t *f)
{
    unsigned fl = tcp_faults.on ? tcp_fault_roll(c) : 0;
    tp_io_t *io = NULL;
    if (fl & TF_DROP) {
        tcp_faults.n_drop++;
        c->rpos += sizeof(*f) + f->hlen;
        c->skip = f->dlen + tcp_pad(f->dlen);
        return 1;
    }
    if ((fl & (TF_REORDER | TF_DUP)) ||
        T.env->place(c->peer, c->rbuf + c->rpos + sizeof(*f), f->dlen, &io) != 0 || !io) {
        c->froll = fl;
        return 0;
    }
    c->rpos += sizeof(*f) + f->hlen;
    c->sink = io;
    c->sink_off = 0;
    c->flip = (fl & TF_CORRUPT) != 0;
    return 1;
}

/* Parse the frames in the buffer. */
static void parse(tcp_conn_t *c)
{
    const size_t fh = sizeof(tcp_frame_t);
    c->rmiss = 0;
    while (c->state == C_READY) {
        if (c->skip) {
            size_t t = c->rlen - c->rpos < c->skip ? c->rlen - c->rpos : c->skip;
            c->rpos += t;
            c->skip -= t;
            if (c->skip) {
                c->rmiss = c->skip;
                break;
            }
        }
        if (c->sink) {
            sink_from_buffer(c);
            if (c->sink)
                break;
            continue;
        }
        if (c->rpos & 7) { /* after a streamed payload: realign */
            memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
            c->rlen -= c->rpos;
            c->rpos = 0;
        }
        if (c->rlen - c->rpos < fh) {
            if (c->rcap - c->rpos < fh) {
                /* a header cut at the buffer's end: room for the rest
                 * (else the full buffer would be parsed again and again) */
                memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
                c->rlen -= c->rpos;
                c->rpos = 0;
            }
            break;
        }
        tcp_frame_t f;
        memcpy(&f, c->rbuf + c->rpos, fh);
        if (f.magic != TCP_FRAME_MAGIC)
            { bad_frame(c, "bad magic"); return; }
        if (f.kind == FR_BYE) {
            if (f.hlen || f.dlen)
                { bad_frame(c, "BYE with a body"); return; }
            c->bye = 1;
            T.peers[c->peer].bye_inc = c->peer_inc + 1;
            c->rpos += fh;
            continue;
        }
        if ((f.kind != FR_PKT && f.kind != FR_STREAM) || f.hlen != T.env->hdr_len)
            { bad_frame(c, "unknown kind or header length"); return; }
        if (f.kind == FR_PKT && f.dlen > T.max_inline)
            { bad_frame(c, "packet longer than the inline limit"); return; }
        if (f.kind == FR_STREAM && (f.dlen == 0 || f.dlen >> 48))
            { bad_frame(c, "stream length out of range"); return; }
        size_t need = fh + f.hlen + (f.kind == FR_PKT ? f.dlen + tcp_pad(f.dlen) : 0);
        if (f.kind == FR_PKT && f.dlen >= PLACE_MIN && T.env->place && !c->froll &&
            c->rlen - c->rpos < need && c->rlen - c->rpos >= fh + f.hlen && place(c, &f))
            continue;
        if (c->rlen - c->rpos < need) {
            c->rmiss = need - (c->rlen - c->rpos);
            if (need > c->rcap - c->rpos) {
                memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
                c->rlen -= c->rpos;
                c->rpos = 0;
                if (need > c->rcap) {
                    char *nb = realloc(c->rbuf, need);
                    if (!nb)
                        { bad_frame(c, "no memory for it"); return; }
                    c->rbuf = nb;
                    c->rcap = need;
                }
            }
            break;
        }
        char *hdr = c->rbuf + c->rpos + fh;
        c->rpos += need;
        if (f.kind == FR_PKT) {
            if (tcp_faults.on)
                tcp_fault_deliver(c, hdr, f.hlen, f.dlen);
            else
                T.env->deliver(c->peer, hdr, f.hlen + f.dlen);
            continue;
        }
        tp_io_t *io = NULL;
        if (T.env->sink(c->peer, hdr, f.dlen, &io) == 0 && io) {
            c->sink = io;
            c->sink_off = 0;
        } else {
            c->skip = f.dlen + tcp_pad(f.dlen);
        }
    }
    if (c->rpos == c->rlen)
        c->rpos = c->rlen = 0;
}

/* Read straight into the sink. 1: go on; 0: nothing now; -1: closed. */
static int read_sink(tcp_conn_t *c)
{
    struct iovec v[MAX_IOV];
    size_t b = 0;
    int k = c->sink->iov(c->sink, c->sink_off, c->sink->len - c->sink_off, v, MAX_IOV, &b);
    ssize_t n = readv(c->fd, v, k);
    if (n <= 0)
        return (int)n;
    c->sink->moved(c->sink, c->sink_off, (size_t)n);
    c->sink_off += (size_t)n;
    if (c->sink_off == c->sink->len) {
        tp_io_t *s = c->sink;
        c->sink = NULL;
        c->skip = tcp_pad(s->len);
        if (c->flip)
            tcp_fault_flip(c, s);
        s->done(s, 0);
    }
    return 1;
}

int tcp_io_read(tcp_conn_t *c)
{
    int work = 0;
    T.rx_route = c->route; /* what env->deliver's packets came by (tp_ops_t rx_route) */
    while (c->state == C_READY) {
        ssize_t n;
        if (c->sink && c->rpos == c->rlen) {
            n = read_sink(c);
        } else {
            if (!c->rbuf) {
                if (!(c->rbuf = malloc(RBUF_MIN))) {
                    tcp_conn_close(c, "no memory for a receive buffer", 1);
                    break;
                }
                c->rcap = RBUF_MIN;
            }
            if (c->rlen == c->rcap) {
                parse(c);
                continue;
            }
            /* the rest of a frame whose length is known, else a bounded
             * look ahead (RECV_HEAD) */
            size_t want = c->rmiss > RECV_HEAD ? c->rmiss : RECV_HEAD;
            if (want > c->rcap - c->rlen)
                want = c->rcap - c->rlen;
            n = recv(c->fd, c->rbuf + c->rlen, want, 0);
            if (n > 0)
                c->rlen += (size_t)n;
        }
        /* after the peer's BYE, or ours (MPI_Finalize), the end of the
         * connection is no failure */
        int quiet = c->bye || T.closing;
        if (n == 0) {
            tcp_conn_close(c, quiet ? NULL : "closed by the peer", !quiet);
            break;
        }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            if (errno != EINTR)
                tcp_conn_close(c, quiet ? NULL : strerror(errno), !quiet);
            continue;
        }
        work++;
        parse(c);
    }
    if (c->held && c->state == C_READY)
        tcp_fault_flush(c);
    return work;
}
