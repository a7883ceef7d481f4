/*
 * Transmitting packets to a world rank: straight into the peer's shared
 * memory ring when there is room, into a per-peer FIFO of pending packets
 * when there is not (so that order is kept), and by direct dispatch when
 * the peer is this process.
 */
#include "p2p/p2p_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/errors.h"

typedef struct pend {
    list_node_t link;
    pkt_t pkt;
    req_t *req;      /* eager data comes from this request's buffer */
} pend_t;

static list_node_t *pending;   /* [world size] */
static int npending;

int xmit_init(void)
{
    pending = malloc((size_t)ftg.world_size * sizeof(*pending));
    if (!pending)
        return -1;
    for (int i = 0; i < ftg.world_size; i++)
        list_init(&pending[i]);
    return 0;
}

void xmit_fini(void)
{
    if (!pending)
        return;
    for (int i = 0; i < ftg.world_size; i++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &pending[i]) {
            list_del(n);
            free(list_entry(n, pend_t, link));
        }
    }
    free(pending);
    pending = NULL;
    npending = 0;
}

/* Write the packet (and the data of req, if any) into the ring. */
static int ring_put(int slot, const pkt_t *p, req_t *req)
{
    size_t dlen = req ? req->bytes : 0;
    char *dst = shm_send_reserve(&shm_self, (uint32_t)slot, sizeof(*p) + dlen);
    if (!dst)
        return -1;
    memcpy(dst, p, sizeof(*p));
    if (dlen)
        dt_pack(req->dt, (size_t)req->count, req->buf, 0, dst + sizeof(*p), dlen);
    shm_send_commit(&shm_self, (uint32_t)slot, sizeof(*p) + dlen);
    return 0;
}

int xmit_route(int world)
{
    static int no_route; /* the error code, made at first use */
    if (world == ftg.world_rank || ftg.slot_of_world[world] >= 0)
        return MPI_SUCCESS;
    if (!no_route)
        no_route = err_make_code(MPI_ERR_UNSUPPORTED_OPERATION,
                                 "MPI_ERR_UNSUPPORTED_OPERATION: no transport to a process on "
                                 "another host (ftmpi has shared memory within a host only)");
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
    int slot = ftg.slot_of_world[world];
    if (slot < 0)
        return xmit_route(world);
    if (list_empty(&pending[world]) && ring_put(slot, p, req) == 0) {
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
    npending++;
    return MPI_SUCCESS;
}

/* Eager fast path: write header + data straight into the ring when
 * nothing is queued for that peer. 1: sent; 0: use the general path. */
int xmit_eager_now(int world, const pkt_t *p, const void *buf, size_t count, const dt_t *dt)
{
    int slot = ftg.slot_of_world[world];
    if (slot < 0 || !list_empty(&pending[world]))
        return 0;
    size_t dlen = p->len;
    char *dst = shm_send_reserve(&shm_self, (uint32_t)slot, sizeof(*p) + dlen);
    if (!dst)
        return 0;
    memcpy(dst, p, sizeof(*p));
    if (dlen)
        dt_pack(dt, count, buf, 0, dst + sizeof(*p), dlen);
    shm_send_commit(&shm_self, (uint32_t)slot, sizeof(*p) + dlen);
    return 1;
}

int xmit_flush(void)
{
    int done = 0;
    if (!npending)
        return 0;
    for (int w = 0; w < ftg.world_size; w++) {
        list_node_t *n, *t;
        list_for_each_safe(n, t, &pending[w]) {
            pend_t *q = list_entry(n, pend_t, link);
            if (ring_put(ftg.slot_of_world[w], &q->pkt, q->req) != 0)
                break;
            list_del(n);
            npending--;
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
    return npending;
}

/* Drop what is queued for a dead peer; requests waiting on it fail. */
void xmit_drop_peer(int world, int err)
{
    list_node_t *n, *t;
    list_for_each_safe(n, t, &pending[world]) {
        pend_t *q = list_entry(n, pend_t, link);
        list_del(n);
        npending--;
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
            npending--;
            if (q->req && !q->req->complete) {
                q->req->status.MPI_ERROR = err;
                req_complete(q->req);
            }
            free(q);
        }
    }
}
