/*
 * The network fault injector (docs/network.md, "Fault injection"), set by
 * FTMPI_NET_FAULTS=drop:R,corrupt:R,dup:R,reorder:R[,seed:N] with rates in
 * [0, 1] per packet frame. It acts where a frame has arrived, below any
 * layer above TCP (so after the sender's CRC was computed): drop loses the
 * frame, corrupt flips one bit of its body (payload, or the header when
 * there is none), dup delivers it twice, reorder holds it back and delivers
 * it after the next frame of the connection (or at the end of the read).
 * route:N limits all of it to the frames that arrive on route N (one of
 * several networks between two hosts), so that one route is bad and the
 * others are clean. Unset, it costs one test of a flag per frame.
 */
#include "tcp_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tcp_faults_t tcp_faults;

int tcp_fault_parse(const char *spec, int my_world)
{
    memset(&tcp_faults, 0, sizeof(tcp_faults));
    if (!spec || !*spec)
        return 0;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    char buf[256];
    if (strlen(spec) >= sizeof(buf))
        goto bad;
    strcpy(buf, spec);
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':'), *end;
        if (!colon)
            goto bad;
        *colon = 0;
        double v = strtod(colon + 1, &end);
        if (*end || colon[1] == 0)
            goto bad;
        if (!strcmp(tok, "seed")) {
            seed ^= (uint64_t)v * 0xbf58476d1ce4e5b9ull;
            continue;
        }
        if (!strcmp(tok, "route")) {
            if (v < 0 || v >= TCP_MAX_ROUTES || v != (int)v)
                goto bad;
            tcp_faults.route = (int)v + 1;
            continue;
        }
        if (v < 0 || v > 1)
            goto bad;
        uint32_t t = (uint32_t)(v * 4294967295.0);
        if (!strcmp(tok, "drop"))
            tcp_faults.drop = t;
        else if (!strcmp(tok, "corrupt"))
            tcp_faults.corrupt = t;
        else if (!strcmp(tok, "dup"))
            tcp_faults.dup = t;
        else if (!strcmp(tok, "reorder"))
            tcp_faults.reorder = t;
        else
            goto bad;
    }
    tcp_faults.rng = seed + (uint64_t)(my_world + 1) * 0x94d049bb133111ebull;
    tcp_faults.on = tcp_faults.drop || tcp_faults.corrupt || tcp_faults.dup ||
                    tcp_faults.reorder;
    return 0;
bad:
    fprintf(stderr, "ftmpi: FTMPI_NET_FAULTS='%s' is not a fault list: drop:R,corrupt:R,"
                    "dup:R,reorder:R[,seed:N][,route:N] with R in [0,1], N in 0..%d\n",
            spec, TCP_MAX_ROUTES - 1);
    return -1;
}

static uint32_t rnd(void)
{
    uint64_t x = tcp_faults.rng; /* xorshift64* */
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    tcp_faults.rng = x;
    return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

static int hit(uint32_t rate) { return rate && rnd() <= rate; }

/* Deliver a frame that was held back, if any. */
void tcp_fault_flush(tcp_conn_t *c)
{
    char *held = c->held;
    if (!held)
        return;
    c->held = NULL;
    T.env->deliver(c->peer, held, c->held_len);
    free(held);
}

unsigned tcp_fault_roll(tcp_conn_t *c)
{
    if (tcp_faults.route && c->route != tcp_faults.route - 1)
        return TF_ROLLED;
    if (hit(tcp_faults.drop))
        return TF_ROLLED | TF_DROP;
    unsigned f = TF_ROLLED;
    if (hit(tcp_faults.corrupt))
        f |= TF_CORRUPT;
    if (!c->held && hit(tcp_faults.reorder))
        f |= TF_REORDER;
    else if (hit(tcp_faults.dup))
        f |= TF_DUP;
    return f;
}

void tcp_fault_flip(tcp_conn_t *c, tp_io_t *io)
{
    struct iovec v[1];
    size_t b = 0;
    c->flip = 0;
    if (io->iov(io, rnd() % io->len, 1, v, 1, &b) == 1 && b) {
        *(char *)v[0].iov_base ^= (char)(1u << (rnd() % 8));
        tcp_faults.n_corrupt++;
    }
}

void tcp_fault_deliver(tcp_conn_t *c, char *pkt, size_t hlen, size_t dlen)
{
    size_t len = hlen + dlen;
    unsigned f = c->froll ? c->froll : tcp_fault_roll(c);
    c->froll = 0;
    if (f & TF_DROP) {
        tcp_faults.n_drop++;
        return;
    }
    if (f & TF_CORRUPT) {
        size_t at = dlen ? hlen + rnd() % dlen : rnd() % hlen;
        pkt[at] ^= (char)(1u << (rnd() % 8));
        tcp_faults.n_corrupt++;
    }
    if ((f & TF_REORDER) && !c->held) {
        if ((c->held = malloc(len))) {
            memcpy(c->held, pkt, len);
            c->held_len = len;
            tcp_faults.n_reorder++;
            return;
        }
    }
    char *copy = (f & TF_DUP) ? malloc(len) : NULL;
    if (copy)
        memcpy(copy, pkt, len);
    T.env->deliver(c->peer, pkt, len);
    tcp_fault_flush(c);
    if (copy) {
        tcp_faults.n_dup++;
        T.env->deliver(c->peer, copy, len);
        free(copy);
    }
}

void tcp_fault_report(void)
{
    if (!tcp_faults.on)
        return;
    fprintf(stderr, "ftmpi: tcp: rank %d: injected %llu drops, %llu corruptions, "
                    "%llu duplicates, %llu reorders\n", T.env->my_world,
            (unsigned long long)tcp_faults.n_drop, (unsigned long long)tcp_faults.n_corrupt,
            (unsigned long long)tcp_faults.n_dup, (unsigned long long)tcp_faults.n_reorder);
}
