/*
 * ftmpid: the per-host daemon as its own program, for hosts other than the
 * launcher's. Started by ftmpirun's launch agent:
 *     ftmpid --head HOST:PORT --host-id N [--heartbeat INTERVAL,TIMEOUT]
 * with the job's secret as the first line of its standard input (never on
 * the command line). It connects to the head over TCP, both prove they hold
 * the secret (link.c), and it then runs the same daemon code as the
 * launcher's in-process daemon. Both ends send a heartbeat every INTERVAL
 * seconds; ftmpid ends (killing its ranks) when the head says the job is
 * over, when the connection to the head is lost, or when nothing has come
 * from the head for TIMEOUT seconds (a cut link, a hung head).
 */
#include "daemon.h"
#include "../../util/ft_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef FTMPI_VERSION_STRING
#error "FTMPI_VERSION_STRING comes from CMake (project() VERSION)"
#endif

static int head_lost;
static int got_signal;
static char lost_why[128];

static struct {
    rt_link_t *link;
    daemon_t *d;
    double interval, timeout, last_rx;
} hb;

static void on_head_close(void *arg, int err)
{
    head_lost = 1;
    snprintf(lost_why, sizeof lost_why, "%s", rt_link_reason(hb.link));
}

/* Every message from the head counts as a heartbeat. */
static void on_head_msg(void *arg, uint32_t type, const void *data,
                        size_t len)
{
    hb.last_rx = evloop_now();
    if (type != HD_HEARTBEAT)
        daemon_on_head_msg(arg, type, data, len);
}

static void hb_send(evloop_t *loop, void *arg)
{
    if (head_lost)
        return;
    rt_link_send(hb.link, DH_HEARTBEAT, NULL, 0);
    evloop_timer_add(loop, hb.interval, hb_send, NULL);
}

/* Fires TIMEOUT after the last message seen when it was armed. */
static void hb_check(evloop_t *loop, void *arg)
{
    if (head_lost)
        return;
    double due = hb.last_rx + hb.timeout;
    if (evloop_now() >= due) {
        head_lost = 1;
        snprintf(lost_why, sizeof lost_why, "nothing from the head for %g s "
                 "(heartbeat timeout)", hb.timeout);
        return;
    }
    evloop_timer_add(loop, due - evloop_now(), hb_check, NULL);
}

/* The secret: the first line of standard input. */
static int read_secret(char *out, size_t cap)
{
    size_t n = 0;
    for (;;) {
        char ch;
        ssize_t k = read(0, &ch, 1);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0 || ch == '\n')
            break;
        if (n + 1 >= cap)
            return -EMSGSIZE;
        out[n++] = ch;
    }
    out[n] = 0;
    return n > 0 ? 0 : -ENODATA;
}

static void on_signal(evloop_t *loop, int signo, void *arg)
{
    got_signal = signo;
}

static int connect_head(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || (size_t)(colon - hostport) >= sizeof host)
        return -EINVAL;
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = 0;
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res = NULL;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc)
        return -EHOSTUNREACH;
    int fd = -1;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd < 0)
            continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
            break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0)
        return -ECONNREFUSED;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void usage(void)
{
    fprintf(stderr, "usage: ftmpid --head HOST:PORT --host-id N "
            "[--heartbeat INTERVAL,TIMEOUT] < SECRET\n(started by ftmpirun, "
            "which writes the job's secret on its standard input; see "
            "docs/runtime.md)\n");
}

int main(int argc, char **argv)
{
    const char *head = NULL;
    int hostid = -1;
    hb.interval = 1.0;
    hb.timeout = 5.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("ftmpid (FT-MPI runtime) %s\n", FTMPI_VERSION_STRING);
            return 0;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage();
            return 0;
        } else if (i + 1 < argc && strcmp(argv[i], "--head") == 0) {
            head = argv[++i];
        } else if (i + 1 < argc && strcmp(argv[i], "--host-id") == 0) {
            hostid = atoi(argv[++i]);
        } else if (i + 1 < argc && strcmp(argv[i], "--heartbeat") == 0) {
            char *end;
            const char *v = argv[++i];
            hb.interval = strtod(v, &end);
            if (*end == ',')
                hb.timeout = strtod(end + 1, &end);
            if (*end || !(hb.interval > 0) || !(hb.timeout > 0)) {
                fprintf(stderr, "ftmpid: bad --heartbeat '%s' (want "
                        "INTERVAL,TIMEOUT in seconds)\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "ftmpid: unknown argument '%s'\n", argv[i]);
            usage();
            return 2;
        }
    }
    if (!head || hostid < 0) {
        usage();
        return 2;
    }
    static char secret[FT_AUTH_SECRET_MAX + 1];
    int src = read_secret(secret, sizeof secret);
    if (src) {
        fprintf(stderr, "ftmpid: no job secret on standard input (%s)\n",
                src == -EMSGSIZE ? "line too long" : "empty");
        return 2;
    }
    int nul = open("/dev/null", O_RDONLY);
    if (nul > 0) {
        dup2(nul, 0);
        close(nul);
    }
    evloop_t *loop = evloop_create();
    if (!loop)
        return 1;
    int fd = connect_head(head);
    if (fd < 0) {
        fprintf(stderr, "ftmpid: cannot connect to the head at %s: %s\n",
                head, strerror(-fd));
        return 1;
    }
    rt_link_t link;
    daemon_t *d = daemon_create(loop, &link, 0);
    hb.link = &link;
    hb.d = d;
    if (!d || rt_link_stream_init(&link, loop, fd, on_head_msg, d,
                                  on_head_close) ||
        rt_link_require_auth(&link, secret, FT_AUTH_CONNECTOR,
                             hb.timeout > 10 ? hb.timeout : 10) ||
        daemon_set_secret(d, secret)) {
        fprintf(stderr, "ftmpid: out of memory\n");
        return 1;
    }
    evloop_on_signal(loop, on_signal, NULL);
    daemon_set_stop_timeout(d, hb.timeout);
    hb.last_rx = evloop_now();
    evloop_timer_add(loop, hb.interval, hb_send, NULL);
    evloop_timer_add(loop, hb.timeout, hb_check, NULL);

    char name[256] = "";
    gethostname(name, sizeof name - 1);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, hostid);
    proto_put_str(&b, name);
    proto_put_i32(&b, (int)getpid());
    rt_link_send_buf(&link, DH_HELLO, &b);
    proto_buf_free(&b);

    while (!head_lost && !got_signal && !daemon_exit_requested(d))
        evloop_run_once(loop, -1);
    if (head_lost)
        fprintf(stderr, "ftmpid: host %d: lost the head: %s; killing this "
                "host's ranks\n", hostid, lost_why);

    /* The job is over (or the head is gone): nothing may outlive it. */
    daemon_kill_all(d, SIGKILL);
    double end = evloop_now() + 1.0;
    while (daemon_nrunning(d) > 0 && evloop_now() < end)
        evloop_run_once(loop, 0.05);
    daemon_flush_output(d);
    rt_link_drain(&link, 1.0);
    rt_link_close(&link);
    daemon_destroy(d);
    evloop_destroy(loop);
    return head_lost ? 1 : 0;
}
