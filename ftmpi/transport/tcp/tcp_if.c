/*
 * Interfaces and addresses: which IPv4 interfaces this process listens on
 * and publishes (those of FTMPI_NET present on this host: hosts may name
 * their interfaces differently; or every interface that is up and not
 * loopback; loopback alone when there is nothing else), and the routes to a
 * peer: a pair of addresses for each network both hosts have.
 */
#include "tcp_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is name in the comma-separated list? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k + (e ? 1 : 0);
    }
    return 0;
}

static void add(tcp_t *t, const struct ifaddrs *i)
{
    if (t->nif == TCP_MAX_ADDRS)
        return;
    t->ifaddr[t->nif] = ((const struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
    t->ifmask[t->nif] = i->ifa_netmask
                            ? ((const struct sockaddr_in *)i->ifa_netmask)->sin_addr.s_addr
                            : 0xffffffffu;
    t->nif++;
}

int tcp_if_select(tcp_t *t)
{
    const char *want = getenv("FTMPI_NET");
    if (want && !*want)
        want = NULL;
    struct ifaddrs *ifs;
    if (getifaddrs(&ifs) < 0)
        return -errno;
    t->nif = 0;
    for (int pass = 0; pass < 2 && t->nif == 0; pass++)
        for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
                continue;
            int lo = (i->ifa_flags & IFF_LOOPBACK) != 0;
            if (want ? in_list(want, i->ifa_name) : (pass == 0 ? !lo : lo))
                add(t, i);
        }
    freeifaddrs(ifs);
    if (t->nif == 0) {
        fprintf(stderr, "ftmpi: no usable IPv4 interface for the TCP transport%s%s%s\n",
                want ? ": none of FTMPI_NET=" : "", want ? want : "",
                want ? " is up with an IPv4 address on this host" : "");
        return -ENODEV;
    }
    t->me.naddr = (uint16_t)t->nif;
    memcpy(t->me.addr, t->ifaddr, sizeof(uint32_t) * (size_t)t->nif);
    return 0;
}

int tcp_rec_get(int world, uint32_t inc, tcp_rec_t *rec)
{
    char key[64];
    size_t len = 0;
    snprintf(key, sizeof(key), "tcp.%d.%u", world, inc);
    int rc = T.env->kv_get(key, rec, sizeof(*rec), &len);
    if (rc < 0)
        return rc;
    if (len != sizeof(*rec) || rec->naddr == 0 || rec->naddr > TCP_MAX_ADDRS)
        return -EPROTO;
    return 0;
}

static int same_net(uint32_t a, uint32_t b, uint32_t mask) { return (a & mask) == (b & mask); }

static void route_add(tcp_peer_t *p, uint32_t laddr, uint32_t raddr)
{
    for (int r = 0; r < p->nrt; r++)
        if (p->rt[r].laddr == laddr && p->rt[r].raddr == raddr)
            return;
    if (p->nrt < TCP_MAX_ROUTES) {
        p->rt[p->nrt].laddr = laddr;
        p->rt[p->nrt++].raddr = raddr;
    }
}

/* One route per network both hosts have, numbered in the order of the
 * lower world rank's addresses, so that both ends give a network the same
 * number (a connection's HELLO names it). No shared network: one route to
 * the peer's first address. */
int tcp_routes(int world)
{
    tcp_peer_t *p = &T.peers[world];
    uint32_t inc = T.env->inc_of(world);
    if (p->have_rec && p->rec_inc == inc && p->nrt)
        return p->nrt;
    int rc = tcp_rec_get(world, inc, &p->rec);
    if (rc < 0) {
        fprintf(stderr, "ftmpi: tcp: no address for rank %d (incarnation %u): %s\n", world, inc,
                strerror(-rc));
        return rc;
    }
    p->have_rec = 1;
    p->rec_inc = inc;
    p->nrt = 0;
    const tcp_rec_t *rec = &p->rec;
    if (T.env->my_world < world) {
        for (int i = 0; i < T.nif; i++)
            for (int a = 0; a < rec->naddr; a++)
                if (same_net(T.ifaddr[i], rec->addr[a], T.ifmask[i])) {
                    route_add(p, T.ifaddr[i], rec->addr[a]);
                    break;
                }
    } else {
        for (int a = 0; a < rec->naddr; a++)
            for (int i = 0; i < T.nif; i++)
                if (same_net(T.ifaddr[i], rec->addr[a], T.ifmask[i])) {
                    route_add(p, T.ifaddr[i], rec->addr[a]);
                    break;
                }
    }
    if (!p->nrt)
        route_add(p, 0, rec->addr[0]);
    return p->nrt;
}
