/*
 * Long payloads for transports that move them without a copy (TCP's
 * send_stream and sink): a tp_io_t over a request's buffer. The sender's
 * source gives the user's buffer (contiguous), the datatype's runs (long
 * runs) or a packed copy (short runs); the receiver's sink gives the same,
 * or a bounce buffer that is unpacked as its bytes land (short runs).
 *
 * The transport may hold an io after its request has failed and been
 * freed (a recovery fails requests on its own): every call resolves the
 * request's token, and an io whose request is gone reads zeros (source) or
 * writes into a scratch buffer (sink), so the stream's framing stays whole.
 */
#include "p2p/p2p_int.h"

#include <stdlib.h>
#include <string.h>

#define BOUNCE_BYTES (256u << 10)

list_node_t stream_io_list = LIST_INIT(stream_io_list); /* sends streaming through an io */

typedef struct {
    tp_io_t io;
    uint64_t token;
    size_t base;       /* message offset of the io's byte 0 (the RTS's head) */
    int recv;
    int bounced;       /* the last iov was the bounce buffer */
    char *bounce;
} rio_t;

static const char zeros[BOUNCE_BYTES];
static char trash[BOUNCE_BYTES];

static req_t *live(rio_t *x)
{
    req_t *r = req_from_token(x->token);
    return r && r->streaming ? r : NULL;
}

static size_t capacity(const req_t *r, int recv)
{
    return recv ? (size_t)r->count * r->dt->size : r->bytes;
}

static int one(struct iovec *iov, const void *base, size_t len, size_t *bytes)
{
    iov[0].iov_base = (void *)base;
    iov[0].iov_len = len;
    *bytes = len;
    return 1;
}

static int io_iov(tp_io_t *io, size_t off, size_t max, struct iovec *iov, int n, size_t *bytes)
{
    rio_t *x = (rio_t *)io;
    req_t *r = live(x);
    x->bounced = 0;
    off += x->base;
    size_t cap = r ? capacity(r, x->recv) : 0;
    if (off >= cap) /* gone, or the part of a message that does not fit */
        return one(iov, x->recv ? trash : zeros, max < BOUNCE_BYTES ? max : BOUNCE_BYTES, bytes);
    if (max > cap - off)
        max = cap - off;
    size_t count = (size_t)r->count;
    if (!x->recv && r->pack_tmp)
        return one(iov, (char *)r->pack_tmp + off, max, bytes);
    if (dt_is_contig(r->dt, count))
        return one(iov, (char *)r->buf + r->dt->true_lb + off, max, bytes);
    if (dt_iov_worthwhile(r->dt, count) || !x->bounce)
        return dt_iov(r->dt, count, r->buf, off, max, iov, n, bytes);
    x->bounced = 1;
    return one(iov, x->bounce, max < BOUNCE_BYTES ? max : BOUNCE_BYTES, bytes);
}

static void io_moved(tp_io_t *io, size_t off, size_t len)
{
    rio_t *x = (rio_t *)io;
    req_t *r;
    if (x->bounced && (r = live(x)))
        dt_unpack(r->dt, (size_t)r->count, r->buf, x->base + off, x->bounce, len);
}

static void io_done(tp_io_t *io, int err)
{
    rio_t *x = (rio_t *)io;
    req_t *r = live(x);
    if (r && err == 0) {
        list_del(&r->link); /* off recv_streams / stream_io_list */
        r->streaming = 0;
        if (x->recv) {
            r->received = x->base + io->len;
            req_complete(r);
        } else {
            r->data_done = 1;
            if (!r->cancel_pending && !r->complete)
                req_complete(r);
        }
    }
    /* err < 0: the connection is gone; the request fails when the runtime
     * announces the peer's failure (docs/ft.md). */
    free(x->bounce);
    free(x);
}

static rio_t *rio_new(uint64_t token, size_t base, size_t len, int recv)
{
    rio_t *x = calloc(1, sizeof(*x));
    if (!x)
        return NULL;
    x->io.len = len;
    x->io.iov = io_iov;
    x->io.moved = io_moved;
    x->io.done = io_done;
    x->token = token;
    x->base = base;
    x->recv = recv;
    return x;
}

/* Stream r's data from r->sent behind header p (stamped here). */
static int io_send(req_t *r, const tp_ops_t *tp, int addr, pkt_t *p)
{
    size_t count = (size_t)r->count;
    if (!dt_is_contig(r->dt, count) && !dt_iov_worthwhile(r->dt, count) && !r->pack_tmp) {
        if (!(r->pack_tmp = malloc(r->bytes)))
            return MPI_ERR_NO_MEM;
        dt_pack(r->dt, count, r->buf, 0, r->pack_tmp, r->bytes);
    }
    rio_t *x = rio_new(req_token(r), r->sent, r->bytes - r->sent, 0);
    if (!x)
        return MPI_ERR_NO_MEM;
    xmit_stamp(r->peer_world, p);
    r->streaming = 1;
    list_add_tail(&stream_io_list, &r->link);
    if (tp->send_stream(r->peer_world, addr, p, &x->io) < 0)
        free(x); /* no memory to queue it: the request waits for the runtime */
    return MPI_SUCCESS;
}

int stream_io_start(req_t *r, const tp_ops_t *tp, int addr)
{
    /* from r->sent: what the RTS did not carry */
    pkt_t p;
    pkt_init(&p, PKT_DATA, NULL, 0);
    p.rreq = r->remote_token;
    p.addr = r->sent;
    p.len = r->bytes - r->sent;
    return io_send(r, tp, addr, &p);
}

int stream_io_push(req_t *r, pkt_t *p)
{
    int addr;
    const tp_ops_t *tp = route_of(r->peer_world, &addr);
    if (!dt_is_contig(r->dt, (size_t)r->count)) {
        free(r->pack_tmp); /* a persistent send's earlier round */
        r->pack_tmp = NULL;
    }
    return io_send(r, tp, addr, p);
}

/* A pushed message that no receive was posted for yet lands in the
 * unexpected record it will be queued as (p2p_push_landed). */
typedef struct {
    tp_io_t io;
    umsg_t *m;
} uio_t;

static int uio_iov(tp_io_t *io, size_t off, size_t max, struct iovec *iov, int n, size_t *bytes)
{
    (void)n;
    return one(iov, ((uio_t *)io)->m->data + off, max < io->len - off ? max : io->len - off,
               bytes);
}

static void uio_moved(tp_io_t *io, size_t off, size_t len) { (void)io, (void)off, (void)len; }

static void uio_done(tp_io_t *io, int err)
{
    uio_t *u = (uio_t *)io;
    if (err == 0)
        p2p_push_landed(u->m);
    else
        umsg_free(u->m); /* its sender failed mid-way: nobody gets it */
    free(u);
}

/* The sink of a pushed message (header p, len payload bytes): its posted
 * receive's buffer, else an unexpected record. 1: discard it. */
static int push_sink(int src, const pkt_t *p, size_t len, tp_io_t **io)
{
    if (p->len != len || (src >= 0 && p->src_world != src))
        return 1;
    req_t *r;
    int rc = p2p_push_match(p, &r);
    if (rc < 0)
        return 1;
    if (rc > 0) {
        rio_t *x = rio_new(req_token(r), 0, len, 1);
        size_t count = (size_t)r->count;
        if (x && !dt_is_contig(r->dt, count) && !dt_iov_worthwhile(r->dt, count) &&
            !(x->bounce = malloc(BOUNCE_BYTES))) {
            free(x);
            x = NULL;
        }
        if (!x) {
            list_del(&r->link); /* off the receives being streamed to */
            r->streaming = 0;
            r->status.MPI_ERROR = MPI_ERR_NO_MEM;
            req_complete(r);
            return 1;
        }
        *io = &x->io;
        return 0;
    }
    uio_t *u = malloc(sizeof(*u));
    umsg_t *m = u ? umsg_alloc(p, len) : NULL;
    if (!m)
        rtc_abort(1, "ftmpi: out of memory storing an unexpected message");
    *u = (uio_t){.io = {.len = len, .iov = uio_iov, .moved = uio_moved, .done = uio_done},
                 .m = m};
    *io = &u->io;
    return 0;
}

int stream_sink(int src, const void *hdr, size_t len, tp_io_t **io)
{
    const pkt_t *p = hdr;
    if (p->type == PKT_EAGER)
        return push_sink(src, p, len, io);
    if (p->type != PKT_DATA)
        return 1;
    /* the stream of the whole message, or of its rest after the head its
     * RTS carried (r->received bytes) */
    req_t *r = req_from_token(p->rreq);
    if (!r || r->kind != REQ_RECV || !r->streaming || r->peer_world != p->src_world ||
        p->addr != r->received || len != r->bytes - r->received)
        return 1;
    rio_t *x = rio_new(p->rreq, r->received, len, 1);
    if (!x)
        return 1;
    size_t count = (size_t)r->count;
    if (!dt_is_contig(r->dt, count) && !dt_iov_worthwhile(r->dt, count) &&
        !(x->bounce = malloc(BOUNCE_BYTES))) {
        free(x);
        return 1;
    }
    *io = &x->io;
    return 0;
}
