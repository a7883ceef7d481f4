/*
 * rt_fuzz: a hostile peer for the runtime's control connections
 * (tests/runtime/rt_security.sh).
 *   rt_fuzz client HOST:PORT     every case against a listening head: each
 *                                must end with the head closing the socket
 *   rt_fuzz server CASE          listen on 127.0.0.1, print the port, and
 *                                greet the one ftmpid that connects with
 *                                CASE; it must close the socket
 * Prints "case NAME: closed" or "case NAME: NOT closed"; exit 0 when every
 * case was closed by the peer.
 */
#include "runtime/proto.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void frame(int fd, uint32_t type, uint32_t len, const void *pl,
                  size_t have)
{
    uint8_t h[8];
    put32(h, type);
    put32(h + 4, len);
    if (write(fd, h, 8) != 8 || (have && write(fd, pl, have) != (ssize_t)have))
        return; /* the peer may close early: that is what is tested */
}

/* Read and drop until end of stream: 1 when the peer closed within 8 s. */
static int closed_by_peer(int fd)
{
    char buf[4096];
    for (;;) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 8000) <= 0)
            return 0;
        ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno == ECONNRESET))
            return 1;
        if (n < 0)
            return 0;
    }
}

/* The peer's nonce (a whole AUTH_NONCE message), or -1. */
static int read_nonce(int fd, uint8_t nonce[32])
{
    uint8_t m[40];
    size_t got = 0;
    while (got < sizeof m) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        if (poll(&pf, 1, 8000) <= 0)
            return -1;
        ssize_t n = read(fd, m + got, sizeof m - got);
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    memcpy(nonce, m + 8, 32);
    return m[0] == (AUTH_NONCE & 0xff) ? 0 : -1;
}

static const char *CASES[] = {"garbage", "huge", "truncated", "shortnonce",
                              "hellofirst", "skipproof", "wrongproof",
                              "closeearly", NULL};

/* Play one case on a connected socket. */
static void play(int fd, const char *c)
{
    uint8_t junk[64], nonce[32];
    memset(junk, 0xab, sizeof junk);
    if (!strcmp(c, "garbage")) {
        if (write(fd, junk, sizeof junk) < 0)
            return;
    } else if (!strcmp(c, "huge")) {
        frame(fd, AUTH_NONCE, 0x7fffffffu, junk, 16);
    } else if (!strcmp(c, "truncated")) {
        frame(fd, AUTH_NONCE, 32, junk, 10);
        shutdown(fd, SHUT_WR);
    } else if (!strcmp(c, "shortnonce")) {
        frame(fd, AUTH_NONCE, 16, junk, 16);
    } else if (!strcmp(c, "hellofirst")) {
        frame(fd, DH_HELLO, 12, junk, 12);
    } else if (!strcmp(c, "skipproof")) {
        frame(fd, AUTH_NONCE, 32, junk, 32);
        read_nonce(fd, nonce);
        frame(fd, DH_HELLO, 12, junk, 12);
    } else if (!strcmp(c, "wrongproof")) {
        read_nonce(fd, nonce);
        frame(fd, AUTH_NONCE, 32, junk, 32);
        frame(fd, AUTH_PROOF, 32, nonce, 32); /* not an HMAC of anything */
    } else if (!strcmp(c, "closeearly")) {
        /* nothing: the caller's close is the case */
    }
}

static int client(const char *hostport)
{
    char host[64];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t)(colon - hostport) >= sizeof host)
        return 2;
    snprintf(host, sizeof host, "%.*s", (int)(colon - hostport), hostport);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)atoi(colon + 1))};
    inet_pton(AF_INET, host, &sa.sin_addr);
    int bad = 0;
    for (int i = 0; CASES[i]; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
            printf("case %s: cannot connect: %s\n", CASES[i], strerror(errno));
            return 1;
        }
        play(fd, CASES[i]);
        int ok = !strcmp(CASES[i], "closeearly") || closed_by_peer(fd);
        printf("case %s: %s\n", CASES[i], ok ? "closed" : "NOT closed");
        bad += !ok;
        close(fd);
    }
    return bad ? 1 : 0;
}

static int server(const char *c)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    socklen_t sl = sizeof sa;
    if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        listen(l, 1) < 0 || getsockname(l, (struct sockaddr *)&sa, &sl) < 0)
        return 2;
    printf("%d\n", ntohs(sa.sin_port));
    fflush(stdout);
    struct pollfd pf = {.fd = l, .events = POLLIN};
    if (poll(&pf, 1, 15000) <= 0)
        return 1;
    int fd = accept(l, NULL, NULL);
    play(fd, c);
    int ok = closed_by_peer(fd);
    fprintf(stderr, "case %s: %s\n", c, ok ? "closed" : "NOT closed");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "client"))
        return client(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "server"))
        return server(argv[2]);
    fprintf(stderr, "usage: rt_fuzz client HOST:PORT | rt_fuzz server CASE\n");
    return 2;
}
