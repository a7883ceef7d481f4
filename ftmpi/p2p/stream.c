/*
 * Rendezvous fallback: when the receiver cannot read the sender's memory
 * (single copy refused by the kernel, or a peer on another host), it
 * answers CTS and the sender streams the data: through the transport's
 * send_stream where it has one (no copy, stream_io.c), else in fragments
 * through reserved records, as room allows.
 */
#include "p2p/p2p_int.h"

#include <string.h>

list_node_t stream_list = LIST_INIT(stream_list);

void stream_add(req_t *r)
{
    int addr;
    const tp_ops_t *tp = route_of(r->peer_world, &addr);
    if (tp && tp->send_stream) {
        if (stream_io_start(r, tp, addr) != MPI_SUCCESS) {
            r->status.MPI_ERROR = MPI_ERR_NO_MEM;
            req_complete(r);
        }
        return;
    }
    r->streaming = 1;
    list_add_tail(&stream_list, &r->link);
}

/* Bytes one stream may write per poll: a long stream neither starves the
 * other streams nor delays the failure events that the next poll handles
 * (with a reader draining on another core, the ring never fills). */
#define STREAM_POLL_BYTES (1u << 20)

static int stream_one(req_t *r)
{
    int slot;
    const tp_ops_t *tp = route_of(r->peer_world, &slot);
    size_t frag = tp->max_inline;
    int n = 0;
    size_t budget = STREAM_POLL_BYTES;
    while (r->sent < r->bytes && budget > 0) {
        size_t k = r->bytes - r->sent < frag ? r->bytes - r->sent : frag;
        char *dst = tp->reserve(slot, sizeof(pkt_t) + k);
        if (!dst)
            break;
        pkt_t p;
        pkt_init(&p, PKT_DATA, NULL, 0);
        p.rreq = r->remote_token;
        p.addr = r->sent;
        p.len = k;
        xmit_stamp(r->peer_world, &p);
        memcpy(dst, &p, sizeof(p));
        if (r->pack_tmp)
            memcpy(dst + sizeof(p), (char *)r->pack_tmp + r->sent, k);
        else
            dt_pack(r->dt, (size_t)r->count, r->buf, r->sent, dst + sizeof(p), k);
        tp->commit(slot, sizeof(pkt_t) + k);
        r->sent += k;
        budget = k < budget ? budget - k : 0;
        n++;
    }
    return n;
}

int stream_progress(void)
{
    int n = 0;
    list_node_t *it, *t;
    list_for_each_safe(it, t, &stream_list) {
        req_t *r = list_entry(it, req_t, link);
        n += stream_one(r);
        if (r->sent == r->bytes) {
            list_del(&r->link);
            r->streaming = 0;
            r->data_done = 1;
            if (!r->cancel_pending && !r->complete)
                req_complete(r);
        }
    }
    return n;
}

/* Fail the streams to `world` (>= 0) or on c (world < 0; c NULL: all). */
static void fail_streams(list_node_t *list, int world, comm_t *c, int err)
{
    list_node_t *it, *t;
    list_for_each_safe(it, t, list) {
        req_t *r = list_entry(it, req_t, link);
        if (world >= 0 ? r->peer_world == world : (!c || r->comm == c)) {
            list_del(&r->link);
            r->streaming = 0;
            r->status.MPI_ERROR = err;
            req_complete(r);
        }
    }
}

void stream_drop_peer(int world, int err)
{
    fail_streams(&stream_list, world, NULL, err);
    fail_streams(&stream_io_list, world, NULL, err);
}

void stream_fail_comm(comm_t *c, int err)
{
    fail_streams(&stream_list, -1, c, err);
    fail_streams(&stream_io_list, -1, c, err);
}

int stream_active(void)
{
    return !list_empty(&stream_list) || !list_empty(&stream_io_list);
}
