/*
 * ftmpid: the per-host daemon as its own program, for hosts other than the
 * launcher's. Started by ftmpirun's launch agent:
 *     ftmpid --head HOST:PORT --host-id N --token T
 * It connects to the head over TCP and then runs the same daemon code as
 * the launcher's in-process daemon. It ends (killing its ranks) when the
 * head says the job is over or when the connection to the head is lost.
 */
#include "daemon.h"

#include <errno.h>
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

static void on_head_close(void *arg, int err) { head_lost = 1; }

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
            "[--token T]\n(started by ftmpirun; see docs/runtime.md)\n");
}

int main(int argc, char **argv)
{
    const char *head = NULL, *token = "";
    int hostid = -1;
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
        } else if (i + 1 < argc && strcmp(argv[i], "--token") == 0) {
            token = argv[++i];
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
    if (!d || rt_link_stream_init(&link, loop, fd, daemon_on_head_msg, d,
                                  on_head_close)) {
        fprintf(stderr, "ftmpid: out of memory\n");
        return 1;
    }
    evloop_on_signal(loop, on_signal, NULL);

    char name[256] = "";
    gethostname(name, sizeof name - 1);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, hostid);
    proto_put_str(&b, name);
    proto_put_i32(&b, (int)getpid());
    proto_put_str(&b, token);
    rt_link_send_buf(&link, DH_HELLO, &b);
    proto_buf_free(&b);

    while (!head_lost && !got_signal && !daemon_exit_requested(d))
        evloop_run_once(loop, -1);

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
