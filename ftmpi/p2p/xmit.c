/*
 * Transmitting packets to a world rank through its transport (route.c):
 * straight into the transport when it has room, into a per-peer FIFO of
 * pending packets when it has not (so that order is kept), and by direct
 * dispatch when the peer is this process.
 */
#include "p2p/p2p_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"

typedef struct pend {
    list_node_t link;
    pkt_t pkt;
    req_t *req;      /* eager data comes from this request's buffer */
} pend_t;

static list_node_t *pending;   /* [world size] */
int xmit_npending;
static uint64_t *seq_out;      /* [world size] last number sent */
static uint32_t *seq_inc;      /* [world size] incarnation it counts for */

int xmit_init(void)
{
    size_t n = (size_t)ftg.world_size;
    pending = malloc(n * sizeof(*pending));
    seq_out = calloc(n, sizeof(*seq_out));
    seq_inc = calloc(n, sizeof(*seq_inc));
    if (!pending || !seq_out || !seq_inc)
        return -1;
    for (int i = 0; i < ftg.world_size; i++)
        list_init(&pending[i]);
    return route_open();
}

void xmit_fini(void)
{
    route_close();
    if (pending) {
        for (int i = 0; i < ftg.world_size; i++) {
            list_node_t *n, *t;
            list_for_each_safe(n, t, &pending[i]) {
                list_del(n);
                free(list_entry(n, pend_t, link));
            }
        }
    }
    free(pending);
    free(seq_out);
    free(seq_inc);
    pending = NULL;
    seq_out = NULL;
    seq_inc = NULL;
    xmit_npending = 0;
}

void xmit_stamp(int world, pkt_t *p)
{
    uint32_t inc = ftg.inc_of_world[world];
    if (seq_inc[world] != inc) {
        seq_inc[world] = inc;
        seq_out[world] = 0;
    }
    p->seq = ++seq_out[world];
}

/* The compact header (pkt_short_t) and the packed payload, written in
 * place into one reserved record: a small message on one line. */
static inline int put_short(const tp_ops_t *tp, int addr, const pkt_short_t *h, const void *buf,
                            size_t count, const dt_t *dt, size_t dlen)
{
    pkt_short_t *sh = tp->reserve(addr, sizeof(*sh) + dlen);
    if (!sh)
        return -EAGAIN;
    *sh = *h;
    if (dlen)
        dt_pack_small(dt, count, buf, sh + 1, dlen);
    tp->commit(addr, sizeof(*sh) + dlen);
    return 0;
}

/* Header + count elements of (buf, dt), packed into dlen bytes, to a
 * transport: into a reserved record where the transport has them (packing
 * in place), else as a gather list. 0, or -EAGAIN: no room now. */
static int put_data(int world, const pkt_t *p, const void *buf, size_t count, const dt_t *dt,
                    size_t dlen)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    if (tp->reserve && p->type == PKT_EAGER) {
        pkt_short_t sh = {.type = PKT_EAGER_SHORT, .flags = p->flags, .src_inc = p->src_inc,
                          .ctx = p->ctx, .src = p->src, .tag = p->tag, .gen = p->gen,
                          .src_world = p->src_world, .sreq = p->sreq};
        return put_short(tp, addr, &sh, buf, count, dt, dlen);
    }
    pkt_t h = *p;
    if (tp->reserve) {
        char *dst = tp->reserve(addr, sizeof(h) + dlen);
        if (!dst)
            return -EAGAIN;
        xmit_stamp(world, &h);
        memcpy(dst, &h, sizeof(h));
        if (dlen)
            dt_pack(dt, count, buf, 0, dst + sizeof(h), dlen);
        tp->commit(addr, sizeof(h) + dlen);
        return 0;
    }
    struct iovec iov[64];
    int n = 0;
    char *tmp = NULL;
    size_t bytes = 0;
    if (dlen && dt_is_contig(dt, count)) {
        iov[0].iov_base = (char *)buf + dt->true_lb;
        iov[0].iov_len = dlen;
        n = 1;
    } else if (dlen && (!dt_iov_worthwhile(dt, count) ||
                        (n = dt_iov(dt, count, buf, 0, dlen, iov, 64, &bytes), bytes < dlen))) {
        if (!(tmp = malloc(dlen)))
            return -ENOMEM;
        dt_pack(dt, count, buf, 0, tmp, dlen);
        iov[0].iov_base = tmp;
        iov[0].iov_len = dlen;
        n = 1;
    }
    xmit_stamp(world, &h);
    int rc = tp->send(world, addr, &h, iov, n);
    free(tmp);
    return rc == -EAGAIN ? -EAGAIN : 0; /* a lost connection: the runtime decides */
}

static int put(int world, const pkt_t *p, req_t *req)
{
    if (!req)
        return put_data(world, p, NULL, 0, NULL, 0);
    return put_data(world, p, req->buf, (size_t)req->count, req->dt, req->bytes);
}

int xmit_route(int world)
{
    static int no_route; /* the error code, made at first use */
    int addr;
    if (world == ftg.world_rank || route_of(world, &addr))
        return MPI_SUCCESS;
    if (!no_route)
        no_route = err_make_code(MPI_ERR_UNSUPPORTED_OPERATION,
                                 "MPI_ERR_UNSUPPORTED_OPERATION: no transport reaches the "
                                 "process (a singleton, or the TCP transport is not open)");
    return no_route;
}

int xmit(int world, const pkt_t *p, req_t *req)
{
    if (world == ftg.world_rank) {
        /* Loopback: the receiver side sees the sender's buffer directly. */
        if (req && !dt_is_contig(req->dt, (size_t)req->count) && req->bytes) {
            char *tmp = malloc(req->bytes);
            if (!tmp)
                return MPI_ERR_NO_MEM;
            dt_pack(req->dt, (size_t)req->count, req->buf, 0, tmp, req->bytes);
            p2p_deliver(p, tmp, req->bytes);
            free(tmp);
        } else {
            const char *data = req ? (const char *)req->buf + req->dt->true_lb : NULL;
            p2p_deliver(p, data, req ? req->bytes : 0);
        }
        if (req)
            p2p_eager_sent(req);
        return MPI_SUCCESS;
    }
    int rc = xmit_route(world);
    if (rc != MPI_SUCCESS)
        return rc;
    if (list_empty(&pending[world]) && put(world, p, req) == 0) {
        if (req)
            p2p_eager_sent(req);
        return MPI_SUCCESS;
    }
    pend_t *q = malloc(sizeof(*q));
    if (!q)
        return MPI_ERR_NO_MEM;
    q->pkt = *p;
    q->req = req;
    list_add_tail(&pending[world], &q->link);
    xmit_npending++;
    return MPI_SUCCESS;
}

/* Eager fast path: header + data to the transport at once when nothing is
 * queued for that peer. 1: sent; 0: use the general path. */
int xmit_eager_now(int world, const pkt_t *p, const void *buf, size_t count, const dt_t *dt)
{
    int addr;
    if (!route_of(world, &addr) || !list_empty(&pending[world]))
        return 0;
    return put_data(world, p, buf, count, dt, p->len) == 0;
}

int xmit_head_now(int world, const pkt_t *p, const req_t *r)
{
    int addr;
    if (!route_of(world, &addr) || !list_empty(&pending[world]))
        return 0;
    return put_data(world, p, r->buf, (size_t)r->count, r->dt, (size_t)p->rreq) == 0;
}

int xmit_short_now(int world, const pkt_short_t *h, const void *buf, size_t count,
                   const dt_t *dt, size_t dlen)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    if (!tp || !tp->reserve)
        return -1;
    if (!list_empty(&pending[world]))
        return 0;
    return put_short(tp, addr, h, buf, count, dt, dlen) == 0;
}

int xmit_flush(void)
{
    int done = 0;
    if (!xmit_npending)
        return 0;
    for (int w = 0; w < ftg.world_size; w++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &pending[w]) {
            pend_t *q = list_entry(n, pend_t, link);
            if (put(w, &q->pkt, q->req) != 0)
                break;
            list_del(n);
            xmit_npending--;
            done++;
            if (q->req)
                p2p_eager_sent(q->req);
            free(q);
        }
    }
    return done;
}

int xmit_pending(void)
{
    return xmit_npending;
}

int xmit_idle(int world)
{
    return list_empty(&pending[world]);
}

/* Drop what is queued for a dead peer; requests waiting on it fail. */
void xmit_drop_peer(int world, int err)
{
    route_drop_peer(world);
    list_node_t *n, *t;
    list_for_each_safe(n, t, &pending[world]) {
        pend_t *q = list_entry(n, pend_t, link);
        list_del(n);
        xmit_npending--;
        if (q->req && !q->req->complete) {
            q->req->status.MPI_ERROR = err;
            req_complete(q->req);
        }
        free(q);
    }
}

/* Drop queued packets of requests on c (NULL: all); their requests fail. */
void xmit_fail_comm(comm_t *c, int err)
{
    for (int w = 0; w < ftg.world_size; w++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &pending[w]) {
            pend_t *q = list_entry(n, pend_t, link);
            if (c && (!q->req || q->req->comm != c))
                continue;
            if (!c && !q->req && q->pkt.type != PKT_EAGER && q->pkt.type != PKT_RTS)
                continue; /* keep control packets (FIN, ACK) flowing */
            list_del(n);
            xmit_npending--;
            if (q->req && !q->req->complete) {
                q->req->status.MPI_ERROR = err;
                req_complete(q->req);
            }
            free(q);
        }
    }
}
