/*
 * Which transport reaches which peer (docs/network.md): shared memory for
 * a process on this host, TCP for the others, or TCP for every peer with
 * FTMPI_TRANSPORT=tcp. Opens the transports at MPI_Init and gives them
 * what they need from the layers around (tp_env_t): the packet entry
 * points, the runtime's key-value store and suspicion, incarnations.
 */
#include "p2p/p2p_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "transport/shm/shm_tp.h"
#include "transport/tcp/tcp.h"
#include "transport/rel/rel.h"

const tp_ops_t *route_shm, *route_tcp;
int route_force_tcp;
static size_t tcp_eager, tcp_head, tcp_push;
static tp_env_t env;
/* FTMPI_TCP_PUSH_LIMIT's default (docs/network.md, "Push") */
#define TCP_PUSH_DEFAULT (4u << 20)

/* Can this process read its peers' memory (single copy)? Allow peers to
 * read ours, then check that the system call exists here. Peers' own
 * permission is checked at first use, with the streaming fallback. */
static int cma_probe(void)
{
    if (getenv("FTMPI_NO_CMA"))
        return 0;
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    char a[8] = "ftmpi", b[8] = {0};
    struct iovec l = {b, sizeof(b)}, r = {a, sizeof(a)};
    return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)sizeof(a);
}

static void env_deliver(int src, void *pkt, size_t len)
{
    p2p_on_packet(src, pkt, len);
}

static void env_suspect(int w)
{
    if (!ftstate_peer_dead(w))
        rtc_suspect(w);
}

static uint32_t env_inc_of(int w)
{
    return ftg.inc_of_world[w];
}

/* Some peer has no process on this host (or TCP is forced)? */
static int need_tcp(void)
{
    if (route_force_tcp)
        return 1;
    for (int w = 0; w < ftg.world_size; w++)
        if (w != ftg.world_rank && ftg.slot_of_world[w] < 0 && !ftstate_peer_dead(w))
            return 1;
    return 0;
}

static int open_tcp(void)
{
    if (route_tcp || !need_tcp())
        return 0;
    /* the network path, through the reliability layer unless it is off */
    int rel = rel_wanted();
    if (rel < 0 || !(route_tcp = rel ? rel_tp_open(&env, tcp_tp_open) : tcp_tp_open(&env)))
        return -1;
    if (route_shm)
        waker_start(route_tcp->wait_fd());
    return 0;
}

static size_t size_env(const char *name, size_t dflt, int *set)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return dflt;
    long long v = strtoll(s, &end, 10);
    if (*end || v < 0) {
        fprintf(stderr, "ftmpi: %s='%s' is not a non-negative integer; using %zu\n", name, s,
                dflt);
        return dflt;
    }
    if (set)
        *set = 1;
    return (size_t)v;
}

int route_open(void)
{
    if (ftg.singleton)
        return 0;
    const char *t = getenv("FTMPI_TRANSPORT");
    if (t && *t && strcasecmp(t, "tcp") == 0) {
        route_force_tcp = 1;
    } else if (t && *t && strcasecmp(t, "auto") != 0) {
        fprintf(stderr, "ftmpi: FTMPI_TRANSPORT='%s' is not a transport choice (auto or tcp)\n",
                t);
        return -1;
    }
    env = (tp_env_t){.my_world = ftg.world_rank, .world_size = ftg.world_size,
                     .my_inc = ftg.rt.incarnation, .hdr_len = sizeof(pkt_t),
                     .deliver = env_deliver, .sink = stream_sink, .kv_put = rtc_kv_put,
                     .kv_get = rtc_kv_get, .secret = rtc_job_secret(),
                     .suspect = env_suspect, .inc_of = env_inc_of, .note = rtc_note};
    int set = 0;
    size_env("FTMPI_EAGER_LIMIT", 0, &set);
    if (ftg.rt.shm_base) {
        route_shm = shm_tp_open(&env, ftg.rt.shm_base, ftg.rt.local_slot, cma_probe());
        if (!route_shm)
            return -1;
        /* Without FTMPI_EAGER_LIMIT: the largest message a ring record
         * holds (16312 bytes with the default 64 KiB ring). An 8 KiB
         * message copied through the ring costs less than a rendezvous
         * (RTS, process_vm_readv, FIN: a round trip and a system call
         * more); docs/progress.md "The eager limit". */
        if (!set || ftg.eager_limit > route_shm->max_inline)
            ftg.eager_limit = route_shm->max_inline;
    }
    /* TCP's own eager limit: FTMPI_TCP_EAGER_LIMIT, else FTMPI_EAGER_LIMIT
     * when given, else 64 KiB (a rendezvous costs a round trip more). */
    tcp_eager = set ? ftg.eager_limit : 65536;
    tcp_eager = size_env("FTMPI_TCP_EAGER_LIMIT", tcp_eager, NULL);
    if (open_tcp() < 0)
        return -1;
    if (route_tcp && tcp_eager > route_tcp->max_inline)
        tcp_eager = route_tcp->max_inline;
    /* The head of a rendezvous message that travels with its RTS
     * (FTMPI_TCP_RNDV_HEAD bytes, default the eager limit; 0: none):
     * it crosses the network while the CTS makes its round trip. */
    tcp_head = size_env("FTMPI_TCP_RNDV_HEAD", tcp_eager, NULL);
    if (route_tcp && tcp_head > route_tcp->max_inline)
        tcp_head = route_tcp->max_inline;
    /* Messages above the eager limit and up to FTMPI_TCP_PUSH_LIMIT bytes
     * (0: none) are pushed whole, no RTS/CTS round trip (p2p.c): read
     * straight into a posted receive, else into one buffer. Unless */
    /* FTMPI_EAGER_LIMIT chose the switch to rendezvous itself (0: every
     * message by rendezvous, the tests' .rndv setting): no push then */
    tcp_push = size_env("FTMPI_TCP_PUSH_LIMIT", set ? 0 : TCP_PUSH_DEFAULT, NULL);
    return 0;
}

int route_update(void)
{
    return ftg.singleton ? 0 : open_tcp();
}

void route_close(void)
{
    if (route_tcp) {
        waker_stop();
        route_tcp->close();
        route_tcp = NULL;
    }
    if (route_shm) {
        route_shm->close();
        route_shm = NULL;
    }
}

size_t route_eager_limit(int world)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    return tp && tp == route_tcp ? tcp_eager : ftg.eager_limit;
}

size_t route_rts_head(int world)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    return tp && tp == route_tcp && world != ftg.world_rank ? tcp_head : 0;
}

size_t route_push_limit(int world)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    return tp && tp == route_tcp && tp->send_stream && world != ftg.world_rank ? tcp_push : 0;
}

int route_can_cma(int world)
{
    int addr;
    const tp_ops_t *tp = route_of(world, &addr);
    return tp && (tp->caps & TP_CAP_CMA);
}

void route_no_cma(void)
{
    if (route_shm)
        shm_tp_no_cma();
}

int route_poll(void)
{
    int n = route_shm ? route_shm->progress() : 0;
    if (route_tcp)
        n += route_tcp->progress();
    return n;
}

int route_busy(void)
{
    return route_tcp && route_tcp->busy();
}

void route_drop_peer(int world)
{
    if (route_tcp)
        route_tcp->drop_peer(world, world);
}

void route_drop_incoming(void)
{
    if (route_shm)
        route_shm->drop_incoming();
    if (route_tcp)
        route_tcp->drop_incoming();
}
