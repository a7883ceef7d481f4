/*
 * The reliability layer's routes (docs/network.md, "Routes"): a peer
 * reached by several connections of the lower transport (one per network
 * the two hosts share). Every fragment goes on the up route with the fewest
 * bytes in flight (sent, not yet ACKed), so that a large message's
 * fragments spread over the routes in proportion to how fast each one
 * drains (fragment striping) and a small message takes the least loaded
 * route (message binding by size and load).
 *
 * Per-route feedback: every DATA frame carries its number on its route,
 * and every frame without payload the peer sends carries, per route, the
 * highest number that arrived there. A route that has had frames out for
 * route_wait while the peer's feedback (which reaches us, so the peer is
 * running and some route works) shows none of them arrived, carries
 * nothing: it is taken out of use. A receiver that is busy computing sends
 * no feedback at all, so it never takes a route down; a slow route whose
 * numbers still move is not lost either.
 *
 * A route is taken out of use when the lower transport reports it lost
 * (reset, refused, stalled), by the feedback rule above, or after
 * REL_ROUTE_NACKS NACKs in a row;
 * its unACKed fragments are sent again on the others, and the peer is
 * told (ROUTE). The last route is never taken out of use: losing it makes
 * the peer suspect (the runtime decides). A route out of use gets a PROBE
 * every probe_every; the PROBE_ACK that comes back on it takes it into use
 * again. Every change goes to stderr and to the job's event log.
 *
 * The retransmission timeout is estimated per peer from ACKed fragments
 * sent once (Karn), as RFC 6298 does: srtt + 4 rttvar, at least rto_floor
 * (a busy receiver is not a lost fragment), at most rto_max.
 */
#include "rel_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/timer.h"

int rel_routes(int world)
{
    rel_peer_t *p = &R.peers[world];
    if (p->nrt)
        return p->nrt;
    int n = R.low->routes ? R.low->routes(world) : 1;
    if (n < 1)
        return 1; /* no address yet: route 0, whose send reports it */
    p->nrt = n < TP_MAX_ROUTES ? n : TP_MAX_ROUTES;
    for (int r = 0; r < p->nrt; r++)
        p->rt[r].up = 1;
    return p->nrt;
}

/* The up routes in the order to try (fewest bytes in flight first, equal
 * ones in turn), `avoid` last; returns how many. */
int rel_route_order(int world, int avoid, int *ord)
{
    rel_peer_t *p = &R.peers[world];
    int n = rel_routes(world), k = 0;
    unsigned start = p->rr++;
    for (int i = 0; i < n; i++) {
        int r = (int)((start + (unsigned)i) % (unsigned)n);
        if (p->nrt && !p->rt[r].up)
            continue;
        int j = k++;
        while (j > 0 && p->rt[ord[j - 1]].inflight > p->rt[r].inflight)
            ord[j] = ord[j - 1], j--;
        ord[j] = r;
    }
    for (int i = 0; i + 1 < k; i++)
        if (ord[i] == avoid) {
            memmove(ord + i, ord + i + 1, sizeof(int) * (size_t)(k - i - 1));
            ord[k - 1] = avoid;
            break;
        }
    return k;
}

static int others_up(const rel_peer_t *p, int r)
{
    for (int u = 0; u < p->nrt; u++)
        if (u != r && p->rt[u].up)
            return 1;
    return 0;
}

static void note(const char *what, int world, int r)
{
    if (!R.up->note)
        return;
    static const char *const keys[] = {"peer", "route"};
    double vals[] = {world, r};
    R.up->note(what, 2, keys, vals);
}

/* Tell the peer that route r changed state; what the lower transport does
 * not take now (its queue full, no connection ready) is tried again from
 * the timers until it is taken or the state changes again. */
#define TELL_RETRY_NS 5000000ull
static void tell(int world, int r, int state)
{
    rel_route_t *rt = &R.peers[world].rt[r];
    rt->tell = state + 1;
    /* back: on the route itself (the peer's PROBE_ACK proved it works) */
    if (rel_ctl_send(world, state ? r : -1, RK_ROUTE, 0, (uint32_t)r, (uint32_t)state) == 0) {
        rt->tell = 0;
        R.n_told++;
        return;
    }
    R.n_tell_retry++;
    rel_timer_want(timer_ns() + TELL_RETRY_NS);
}

static void route_down(int world, int r, const char *why, int tell_peer)
{
    rel_peer_t *p = &R.peers[world];
    rel_route_t *rt = &p->rt[r];
    if (!rt->up || !others_up(p, r))
        return;
    rt->up = 0;
    rt->probe_ns = timer_ns() + R.probe_every;
    rel_timer_want(rt->probe_ns);
    R.n_route_down++;
    fprintf(stderr, "ftmpi: rel: rank %d: route %d to rank %d out of use (%s); "
                    "its fragments go on the other routes\n", R.up->my_world, r, world, why);
    note("route_down", world, r);
    list_node_t *n;
    list_for_each(n, &p->unacked) {
        rel_frag_t *f = list_entry(n, rel_frag_t, link);
        if (f->route == r && !f->sacked && !f->in_resend) {
            rel_tx_resend(p, f);
            R.n_by_route++;
        }
    }
    if (tell_peer)
        tell(world, r, 0);
    /* not sent from here: this may run inside a transmission (the lower
     * transport reporting the route lost); progress sends the resend list */
}

static void route_up(int world, int r, int tell_peer)
{
    rel_route_t *rt = &R.peers[world].rt[r];
    if (rt->up)
        return;
    rt->up = 1;
    rt->nnack = 0;
    /* what it held before it went may still be on its way: its clock
     * starts again */
    rt->fb_wait_ns = rt->tx_cnt != rt->fb_cnt ? timer_ns() : 0;
    R.n_route_up++;
    fprintf(stderr, "ftmpi: rel: rank %d: route %d to rank %d back in use\n", R.up->my_world, r,
            world);
    note("route_up", world, r);
    if (tell_peer)
        tell(world, r, 1);
}

void rel_route_lost(int world, int r, const char *why)
{
    rel_peer_t *p = &R.peers[world];
    if (r >= 0 && r < p->nrt && others_up(p, r)) {
        route_down(world, r, why, 1);
        return;
    }
    if (r >= 0 && r < p->nrt && !p->rt[r].up)
        return; /* already out of use (a PROBE's connection failed) */
    R.up->suspect(world); /* no other route: the runtime decides */
}

void rel_rtt_sample(rel_peer_t *p, uint64_t s)
{
    if (!p->srtt) {
        p->srtt = s;
        p->rttvar = s / 2;
    } else {
        uint64_t d = s > p->srtt ? s - p->srtt : p->srtt - s;
        p->rttvar = (3 * p->rttvar + d) / 4;
        p->srtt = (7 * p->srtt + s) / 8;
    }
    uint64_t rto = p->srtt + 4 * p->rttvar;
    p->rto = rto < R.rto_floor ? R.rto_floor : rto > R.rto_max ? R.rto_max : rto;
}

void rel_route_acked(rel_peer_t *p, rel_frag_t *f)
{
    if (f->route < 0)
        return;
    rel_route_t *rt = &p->rt[f->route];
    if (f->infl) {
        rt->inflight -= f->len;
        f->infl = 0;
    }
    rt->nnack = 0;
}

/* A DATA frame went on route r: its clock starts if nothing was out. */
void rel_route_sent(rel_peer_t *p, int r, uint64_t now)
{
    rel_route_t *rt = &p->rt[r];
    rt->tx_cnt++;
    if (!rt->fb_wait_ns)
        rt->fb_wait_ns = now;
}

/* Receiving: DATA frame h arrived on route r. */
void rel_route_arrived(rel_peer_t *p, int r, const rel_hdr_t *h)
{
    rel_route_t *rt = &p->rt[r];
    if ((int32_t)(h->rstate - rt->rx_cnt) > 0)
        rt->rx_cnt = h->rstate;
}

/* The feedback for a frame without payload (rel_hdr_rxc). */
void rel_route_fill(const rel_peer_t *p, rel_hdr_t *h)
{
    uint32_t c[TP_MAX_ROUTES] = {0};
    for (int r = 0; r < TP_MAX_ROUTES; r++)
        c[r] = p->rt[r].rx_cnt;
    h->msg_len = (uint64_t)c[0] | (uint64_t)c[1] << 32;
    h->rprev = (uint64_t)c[2] | (uint64_t)c[3] << 32;
}

/* The peer's feedback arrived (a frame without payload, on any route). */
void rel_route_feedback(int world, const rel_hdr_t *h)
{
    rel_peer_t *p = &R.peers[world];
    if (p->nrt < 2)
        return; /* one route is never taken out of use */
    uint64_t now = timer_ns();
    for (int r = 0; r < p->nrt; r++) {
        rel_route_t *rt = &p->rt[r];
        uint32_t fb = rel_hdr_rxc(h, r);
        int moved = (int32_t)(fb - rt->fb_cnt) > 0 && (int32_t)(rt->tx_cnt - fb) >= 0;
        if (moved)
            rt->fb_cnt = fb;
        if (!rt->fb_wait_ns)
            continue;
        if (rt->tx_cnt == rt->fb_cnt)
            rt->fb_wait_ns = 0; /* everything it carried arrived */
        else if (moved)
            rt->fb_wait_ns = now; /* slow, perhaps, but it delivers */
        else if (rt->up && now - rt->fb_wait_ns > R.route_wait)
            route_down(world, r, "the peer answers, but nothing sent on it arrives", 1);
    }
}

void rel_route_nacked(int world, rel_frag_t *f)
{
    rel_peer_t *p = &R.peers[world];
    if (f->route < 0 || p->nrt < 2)
        return;
    if (++p->rt[f->route].nnack >= REL_ROUTE_NACKS)
        route_down(world, f->route, "repeated NACKs", 1);
}

/* PROBE, PROBE_ACK and ROUTE frames. */
void rel_route_ctl(int world, const rel_hdr_t *h)
{
    rel_peer_t *p = &R.peers[world];
    int r = (int)h->route;
    rel_routes(world);
    if (r < 0 || r >= p->nrt)
        return;
    if (h->kind == RK_PROBE)
        rel_ctl_send(world, r, RK_PROBE_ACK, h->seq, (uint32_t)r, 0);
    else if (h->kind == RK_PROBE_ACK && (!R.low->rx_route || R.low->rx_route() == r))
        route_up(world, r, 1);
    else if (h->kind == RK_ROUTE && h->rstate == 0)
        route_down(world, r, "the peer took it out of use", 0);
    else if (h->kind == RK_ROUTE && h->rstate == 1)
        route_up(world, r, 0);
}

/* The ROUTE frames still to send; a PROBE on every route out of use whose
 * time has come. */
void rel_route_timers(uint64_t now)
{
    for (int w = 0; w < R.up->world_size; w++) {
        rel_peer_t *p = &R.peers[w];
        for (int r = 0; r < p->nrt; r++) {
            rel_route_t *rt = &p->rt[r];
            if (rt->tell)
                tell(w, r, rt->tell - 1);
            if (rt->up)
                continue;
            if (now >= rt->probe_ns) {
                rel_ctl_send(w, r, RK_PROBE, now, (uint32_t)r, 0);
                rt->probe_ns = now + R.probe_every;
            }
            rel_timer_want(rt->probe_ns);
        }
    }
}

void rel_route_reset(rel_peer_t *p)
{
    memset(p->rt, 0, sizeof(p->rt));
    p->nrt = 0;
    p->srtt = p->rttvar = 0;
    p->rto = R.rto_init;
}

void rel_route_stats(void)
{
    for (int w = 0; w < R.up->world_size; w++) {
        const rel_peer_t *p = &R.peers[w];
        for (int r = 0; r < p->nrt; r++)
            fprintf(stderr, "ftmpi: rel: rank %d: route %d to rank %d: %s, %llu bytes out, "
                            "%llu bytes in\n", R.up->my_world, r, w,
                    p->rt[r].up ? "in use" : "out of use",
                    (unsigned long long)p->rt[r].tx_bytes,
                    (unsigned long long)p->rt[r].rx_bytes);
    }
}
