/*
 * The reliability layer's operations (rel.h): open over a lower transport,
 * send and send_stream (rel_tx.c), progress (the lower transport delivers
 * into rel_rx.c; then timers and ACKs), failure of a peer, closing.
 *
 * No thread: timers run in progress. A rank asleep in the progress engine
 * waits on wait_fd, an epoll set holding the lower transport's descriptor
 * and a timerfd armed for the earliest retransmission or delayed ACK, so a
 * timer wakes it like arriving data does.
 */
#include "rel_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "util/timer.h"

rel_t R;

int rel_wanted(void)
{
    const char *s = getenv("FTMPI_RELIABILITY");
    if (!s || !*s || !strcasecmp(s, "on") || !strcmp(s, "1") || !strcasecmp(s, "yes"))
        return 1;
    if (!strcasecmp(s, "off") || !strcmp(s, "0") || !strcasecmp(s, "no"))
        return 0;
    fprintf(stderr, "ftmpi: FTMPI_RELIABILITY='%s' is not on or off\n", s);
    return -1;
}

static void peer_reset(int w, int err)
{
    rel_tx_drop(w, err);
    rel_rx_drop(w);
    rel_route_reset(&R.peers[w]);
    R.peers[w].inc = R.up->inc_of(w);
}

/* A peer's process was replaced: the numbers start again. */
void rel_peer_check(int world)
{
    if (R.peers[world].inc != R.up->inc_of(world))
        peer_reset(world, -ECONNRESET);
}

static int r_send(int world, int addr, const void *hdr, const struct iovec *iov, int n)
{
    (void)addr;
    return rel_tx_send(world, hdr, iov, n);
}

static int r_send_stream(int world, int addr, const void *hdr, tp_io_t *src)
{
    (void)addr;
    return rel_tx_stream(world, hdr, src);
}

static int r_connect(int world, int addr)
{
    (void)addr;
    return R.low->connect ? R.low->connect(world, world) : 0;
}

static void arm(void)
{
    if (!R.next_timer || (R.armed && R.armed <= R.next_timer))
        return;
    struct itimerspec ts = {.it_value = {.tv_sec = (time_t)(R.next_timer / 1000000000ull),
                                         .tv_nsec = (long)(R.next_timer % 1000000000ull)}};
    if (timerfd_settime(R.tfd, TFD_TIMER_ABSTIME, &ts, NULL) == 0)
        R.armed = R.next_timer;
}

static int r_progress(void)
{
    int work = R.low->progress();
    uint64_t now = timer_ns();
    if (R.armed && now >= R.armed) {
        uint64_t x;
        (void)!read(R.tfd, &x, sizeof(x)); /* its descriptor must not stay readable */
        R.armed = 0;
    }
    if (R.next_timer && now >= R.next_timer) {
        R.next_timer = 0;
        rel_tx_timers(now);
        rel_route_timers(now);
        work++;
    }
    if (R.nbusy)
        for (int w = 0; w < R.up->world_size; w++)
            if (!list_empty(&R.peers[w].pend) || !list_empty(&R.peers[w].resend))
                work += rel_tx_push(w);
    if (!list_empty(&R.acklist))
        work += rel_rx_acks(now);
    arm();
    return work;
}

static int r_busy(void)
{
    return R.low->busy() || !list_empty(&R.acklist) || rel_tx_busy();
}

static int r_wait_fd(void) { return R.epfd; }

static void r_drop_peer(int world, int addr)
{
    (void)addr;
    R.low->drop_peer(world, world);
    peer_reset(world, -ECONNRESET);
}

static void r_drop_incoming(void)
{
    if (R.low->drop_incoming)
        R.low->drop_incoming();
}

static int env_on(const char *name)
{
    const char *s = getenv(name);
    return s && *s && strcmp(s, "0") != 0;
}

static void stats(void)
{
    if (!env_on("FTMPI_REL_STATS") && !env_on("FTMPI_VERBOSE") && !getenv("FTMPI_NET_FAULTS"))
        return;
    fprintf(stderr, "ftmpi: rel: rank %d: %llu fragments, %llu sent again (%llu timer, "
                    "%llu NACK, %llu route lost; %llu before finalize), %llu bad CRC, %llu duplicates dropped, "
                    "%llu kept out of order, %llu NACKs, routes %llu out of use %llu back, "
                    "%llu ROUTE frames sent (%llu tries not taken), %llu stream fragments "
                    "copied to complete their send, %llu placed (%llu bad CRC)\n",
            R.up->my_world, (unsigned long long)R.n_frags, (unsigned long long)R.n_rexmit,
            (unsigned long long)R.n_by_timer, (unsigned long long)R.n_by_nack,
            (unsigned long long)R.n_by_route, (unsigned long long)R.n_before_close,
            (unsigned long long)R.n_badcrc,
            (unsigned long long)R.n_dup, (unsigned long long)R.n_ooo,
            (unsigned long long)R.n_nack, (unsigned long long)R.n_route_down,
            (unsigned long long)R.n_route_up, (unsigned long long)R.n_told,
            (unsigned long long)R.n_tell_retry, (unsigned long long)R.n_detached,
            (unsigned long long)R.n_placed, (unsigned long long)R.n_placed_bad);
    rel_route_stats();
}

/* Answer every peer, then give the last ACKs up to a second to come (the
 * peers are closing too and answer from their own close). */
static void r_close(void)
{
    for (int w = 0; w < R.up->world_size; w++) {
        rel_peer_t *p = &R.peers[w];
        if (p->expect == 1)
            continue;
        p->ack_now = 1;
        if (!p->on_acklist) {
            p->on_acklist = 1;
            list_add_tail(&R.acklist, &p->acklink);
        }
    }
    R.n_before_close = R.n_rexmit;
    uint64_t end = timer_ns() + 1000000000ull;
    do {
        r_progress();
        if (!R.nbusy && list_empty(&R.acklist))
            break;
        usleep(1000);
    } while (timer_ns() < end);
    stats();
    R.low->close();
    for (int w = 0; w < R.up->world_size; w++) {
        peer_reset(w, -ESHUTDOWN);
        free(R.peers[w].ooo);
    }
    close(R.tfd);
    close(R.epfd);
    free(R.peers);
    rel_pool_drain();
    memset(&R, 0, sizeof(R));
}

static tp_ops_t rel_ops = {
    .name = "rel",
    .send = r_send,
    .send_stream = r_send_stream,
    .connect = r_connect,
    .progress = r_progress,
    .busy = r_busy,
    .wait_fd = r_wait_fd,
    .drop_peer = r_drop_peer,
    .drop_incoming = r_drop_incoming,
    .close = r_close,
};

/* The lower transport never streams for us: every fragment is a packet. */
static int no_sink(int src, const void *hdr, size_t len, tp_io_t **io)
{
    (void)src, (void)hdr, (void)len, (void)io;
    return 1;
}

static long env_num(const char *name, long dflt, long lo, long hi)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return dflt;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) {
        fprintf(stderr, "ftmpi: %s='%s' is not a number in %ld..%ld; using %ld\n", name, s, lo,
                hi, dflt);
        return dflt;
    }
    return v;
}

const tp_ops_t *rel_tp_open(const tp_env_t *env, tp_open_fn lower)
{
    memset(&R, 0, sizeof(R));
    R.up = env;
    R.low_env = *env;
    R.low_env.hdr_len = sizeof(rel_hdr_t);
    R.low_env.deliver = rel_rx_deliver;
    R.low_env.sink = no_sink;
    /* FTMPI_REL_PLACE=0: no zero-copy receive (every fragment copied out of
     * the connection's buffer; to measure what placing gains) */
    R.low_env.place = env_num("FTMPI_REL_PLACE", 1, 0, 1) ? rel_place : NULL;
    R.low_env.route_lost = rel_route_lost;
    /* the retransmission timeout's floor; it starts at twice that and
     * follows the measured round trip (rel_route.c) */
    R.rto_floor = (uint64_t)env_num("FTMPI_REL_RTO_MS", 100, 1, 60000) * 1000000ull;
    R.rto_init = R.rto_floor * 2;
    R.rto_max = R.rto_floor * 32;
    R.ack_delay = 2000000ull; /* 2 ms */
    R.probe_every = (uint64_t)env_num("FTMPI_REL_PROBE_MS", 500, 10, 60000) * 1000000ull;
    R.route_wait = (uint64_t)env_num("FTMPI_REL_ROUTE_MS", 1000, 10, 600000) * 1000000ull;
    R.frag = (size_t)env_num("FTMPI_REL_FRAG", 1 << 19, 1024, 1 << 19);
    /* test knobs (docs/network.md, "Reliability settings") */
    R.route_eagain = env_num("FTMPI_REL_ROUTE_EAGAIN", 0, 0, 1000000);
    R.drop_acks = env_num("FTMPI_REL_DROP_ACKS", 0, 0, 1000000000);
    list_init(&R.acklist);
    R.epfd = R.tfd = -1;
    if (!(R.low = lower(&R.low_env)))
        goto fail;
    if (!(R.peers = calloc((size_t)env->world_size, sizeof(*R.peers))))
        goto fail_low;
    for (int w = 0; w < env->world_size; w++) {
        rel_peer_t *p = &R.peers[w];
        list_init(&p->pend);
        list_init(&p->unacked);
        list_init(&p->resend);
        list_init(&p->acklink);
        p->expect = 1;
        p->inc = env->inc_of(w);
        p->rto = R.rto_init;
    }
    R.epfd = epoll_create1(EPOLL_CLOEXEC);
    R.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (R.epfd < 0 || R.tfd < 0)
        goto fail_low;
    struct epoll_event ev = {.events = EPOLLIN};
    int lfd = R.low->wait_fd ? R.low->wait_fd() : -1;
    if (epoll_ctl(R.epfd, EPOLL_CTL_ADD, R.tfd, &ev) < 0 ||
        (lfd >= 0 && epoll_ctl(R.epfd, EPOLL_CTL_ADD, lfd, &ev) < 0))
        goto fail_low;
    rel_ops.max_inline = R.low->max_inline - env->hdr_len;
    return &rel_ops;
fail_low:
    fprintf(stderr, "ftmpi: the reliability layer cannot start: %s\n", strerror(errno));
    R.low->close();
fail:
    if (R.epfd >= 0)
        close(R.epfd);
    if (R.tfd >= 0)
        close(R.tfd);
    free(R.peers);
    memset(&R, 0, sizeof(R));
    return NULL;
}
