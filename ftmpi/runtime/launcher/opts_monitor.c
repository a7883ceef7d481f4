/* ftmpirun --monitor[=ADDR:PORT]: the address the monitor listens on. */
#include "opts.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_port(const char *s, int *port)
{
    char *end;
    if (!*s)
        return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || v > 65535)
        return -1;
    *port = (int)v;
    return 0;
}

int ftrun_parse_monitor(ftrun_opts_t *o, const char *val, char *why,
                        size_t cap)
{
    o->monitor = 1;
    snprintf(o->mon_addr, sizeof o->mon_addr, "127.0.0.1");
    o->mon_port = 0;
    if (!val)
        return 0;
    if (!*val) {
        snprintf(why, cap, "empty (give ADDR:PORT, PORT or ADDR)");
        return -1;
    }
    const char *colon = strrchr(val, ':');
    const char *addr = val, *port = NULL;
    size_t alen = strlen(val);
    if (colon) {
        alen = (size_t)(colon - val);
        port = colon + 1;
    } else if (strspn(val, "0123456789") == alen) {
        port = val; /* a bare port */
        alen = 0;
    }
    if (port && parse_port(port, &o->mon_port)) {
        snprintf(why, cap, "'%s' is not a port (0..65535)", port);
        return -1;
    }
    if (alen) {
        struct in_addr a;
        if (alen >= sizeof o->mon_addr) {
            snprintf(why, cap, "address too long");
            return -1;
        }
        memcpy(o->mon_addr, addr, alen);
        o->mon_addr[alen] = 0;
        if (strcmp(o->mon_addr, "localhost") == 0)
            snprintf(o->mon_addr, sizeof o->mon_addr, "127.0.0.1");
        if (inet_pton(AF_INET, o->mon_addr, &a) != 1) {
            snprintf(why, cap, "'%s' is not an IPv4 address", o->mon_addr);
            return -1;
        }
    }
    return 0;
}
