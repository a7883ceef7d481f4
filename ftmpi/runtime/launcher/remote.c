/* Remote hosts: listener, launch agents, daemon connections. */
#include "remote.h"
#include "../proto.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONNECT_TIMEOUT_S 60.0

typedef struct rconn {
    struct remote *rm;
    rt_link_t link;
    int hostid;           /* -1 until DH_HELLO */
    int in_use;
} rconn_t;

typedef struct {
    pid_t agent;
    int running;
    int status;
    rconn_t *conn;
} rhost_t;

struct remote {
    head_t *h;
    evloop_t *loop;
    int lfd;
    char token[33];
    rhost_t *hosts;       /* [nhosts] */
    int nhosts, nwaiting;
    rconn_t **conns;
    int nconns;
    long timer;
};

/* ------------------------------------------------------------ agents */

static void shell_quote(char *out, size_t cap, const char *s)
{
    size_t k = 0;
    if (cap < 3)
        return;
    out[k++] = '\'';
    for (; *s && k + 5 < cap; s++) {
        if (*s == '\'') {
            memcpy(out + k, "'\\''", 4);
            k += 4;
        } else {
            out[k++] = *s;
        }
    }
    out[k++] = '\'';
    out[k] = 0;
}

/* template with {host} replaced; the ftmpid command replaces {cmd} or is
 * appended. */
static char *agent_command(const char *tmpl, const char *host,
                           const char *cmd)
{
    size_t cap = strlen(tmpl) + 8 * strlen(host) + strlen(cmd) + 16;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    size_t k = 0;
    int used_cmd = 0;
    for (const char *p = tmpl; *p;) {
        if (strncmp(p, "{host}", 6) == 0) {
            k += (size_t)snprintf(out + k, cap - k, "%s", host);
            p += 6;
        } else if (strncmp(p, "{cmd}", 5) == 0) {
            k += (size_t)snprintf(out + k, cap - k, "%s", cmd);
            p += 5;
            used_cmd = 1;
        } else {
            out[k++] = *p++;
        }
    }
    out[k] = 0;
    if (!used_cmd)
        snprintf(out + k, cap - k, " %s", cmd);
    return out;
}

static void agent_exited(evloop_t *loop, pid_t pid, int status, void *arg)
{
    remote_t *rm = arg;
    for (int i = 0; i < rm->nhosts; i++) {
        rhost_t *rh = &rm->hosts[i];
        if (rh->agent != pid)
            continue;
        rh->running = 0;
        rh->status = status;
        if (!rh->conn && !head_done(rm->h)) {
            char msg[512];
            snprintf(msg, sizeof msg, "ftmpirun: the launch agent for host "
                     "%s %s %d before its daemon connected",
                     head_host_name(rm->h, i),
                     WIFSIGNALED(status) ? "was killed by signal"
                                         : "exited with code",
                     WIFSIGNALED(status) ? WTERMSIG(status)
                                         : WEXITSTATUS(status));
            head_kill_job(rm->h, 1, msg);
        }
    }
}

static int start_agent(remote_t *rm, const ftrun_opts_t *o, int hostid,
                       const char *addr, int port)
{
    char self[PATH_MAX], ftmpid[PATH_MAX + 16], q[2 * PATH_MAX];
    if (o->ftmpid_path) {
        snprintf(ftmpid, sizeof ftmpid, "%s", o->ftmpid_path);
    } else {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        snprintf(ftmpid, sizeof ftmpid, "%s/ftmpid",
                 n > 0 ? dirname(self) : ".");
    }
    shell_quote(q, sizeof q, ftmpid);
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "%s --head %s:%d --host-id %d --token %s", q,
             addr, port, hostid, rm->token);
    char *full = agent_command(o->launch_agent, head_host_name(rm->h, hostid),
                               cmd);
    if (!full)
        return -ENOMEM;
    if (o->verbose)
        fprintf(stderr, "ftmpirun: starting host %s: %s\n",
                head_host_name(rm->h, hostid), full);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        evloop_child_reset_signals();
        int nul = open("/dev/null", O_RDONLY);
        if (nul > 0) {
            dup2(nul, 0);
            close(nul);
        }
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    free(full);
    if (pid < 0)
        return -errno;
    setpgid(pid, pid);
    rm->hosts[hostid].agent = pid;
    rm->hosts[hostid].running = 1;
    evloop_child_watch(rm->loop, pid, agent_exited, rm);
    return 0;
}

/* -------------------------------------------------------- connections */

static void conn_msg(void *arg, uint32_t type, const void *data, size_t len);

static void conn_closed(void *arg, int err)
{
    rconn_t *c = arg;
    remote_t *rm = c->rm;
    if (c->hostid >= 0) {
        head_host_lost(rm->h, c->hostid,
                       err == -EPIPE ? "connection closed" : strerror(-err));
    }
}

static void conn_msg(void *arg, uint32_t type, const void *data, size_t len)
{
    rconn_t *c = arg;
    remote_t *rm = c->rm;
    if (c->hostid >= 0) {
        head_host_msg(head_host_arg(rm->h, c->hostid), type, data, len);
        return;
    }
    /* First message: who is this? */
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int hostid = proto_get_i32(&r);
    char name[256], token[64];
    proto_get_str(&r, name, sizeof name);
    proto_get_i32(&r);
    proto_get_str(&r, token, sizeof token);
    if (type != DH_HELLO || r.err || strcmp(token, rm->token) != 0 ||
        hostid < 0 || hostid >= rm->nhosts || rm->hosts[hostid].conn ||
        head_host_is_local(rm->h, hostid)) {
        c->link.on_close = NULL;
        rt_link_close(&c->link);
        return;
    }
    c->hostid = hostid;
    rm->hosts[hostid].conn = c;
    head_host_attach(rm->h, hostid, &c->link);
    if (--rm->nwaiting == 0) {
        evloop_timer_cancel(rm->loop, rm->timer);
        rm->timer = 0;
        head_start(rm->h);
    }
}

static void on_accept(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    remote_t *rm = arg;
    for (;;) {
        int s = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (s < 0)
            return;
        int one = 1;
        setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        rconn_t *c = calloc(1, sizeof *c);
        rconn_t **cs = realloc(rm->conns, (size_t)(rm->nconns + 1) * sizeof *cs);
        if (!c || !cs) {
            free(c);
            close(s);
            return;
        }
        rm->conns = cs;
        rm->conns[rm->nconns++] = c;
        c->rm = rm;
        c->hostid = -1;
        c->in_use = 1;
        if (rt_link_stream_init(&c->link, loop, s, conn_msg, c, conn_closed))
            close(s);
    }
}

static void connect_timeout(evloop_t *loop, void *arg)
{
    remote_t *rm = arg;
    rm->timer = 0;
    char msg[256];
    snprintf(msg, sizeof msg, "ftmpirun: %d host daemon(s) did not connect "
             "within %g seconds", rm->nwaiting, CONNECT_TIMEOUT_S);
    head_kill_job(rm->h, 1, msg);
}

static int head_address(char *addr, size_t cap)
{
    const char *env = getenv("FTMPI_HEAD_ADDRESS");
    if (env && *env) {
        snprintf(addr, cap, "%s", env);
        return 0;
    }
    if (gethostname(addr, cap - 1) < 0)
        return -errno;
    addr[cap - 1] = 0;
    return 0;
}

remote_t *remote_launch(head_t *h, evloop_t *loop, const ftrun_opts_t *o)
{
    remote_t *rm = calloc(1, sizeof *rm);
    if (!rm)
        return NULL;
    rm->h = h;
    rm->loop = loop;
    rm->nhosts = head_nhosts(h);
    rm->hosts = calloc((size_t)rm->nhosts, sizeof *rm->hosts);
    unsigned char rnd[16];
    if (!rm->hosts || getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
        fprintf(stderr, "ftmpirun: cannot set up remote hosts\n");
        return NULL;
    }
    for (int i = 0; i < 16; i++)
        sprintf(rm->token + 2 * i, "%02x", rnd[i]);

    rm->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_addr.s_addr = htonl(INADDR_ANY)};
    socklen_t sl = sizeof sa;
    if (rm->lfd < 0 || bind(rm->lfd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        listen(rm->lfd, 128) < 0 ||
        getsockname(rm->lfd, (struct sockaddr *)&sa, &sl) < 0 ||
        evloop_add_fd(loop, rm->lfd, EPOLLIN, on_accept, rm) < 0) {
        fprintf(stderr, "ftmpirun: cannot listen for host daemons: %s\n",
                strerror(errno));
        return NULL;
    }
    char addr[256];
    head_address(addr, sizeof addr);
    int port = ntohs(sa.sin_port);
    for (int i = 0; i < rm->nhosts; i++) {
        if (head_host_is_local(h, i) || head_host_nslots(h, i) == 0)
            continue; /* served in-process, or nothing to run there */
        rm->nwaiting++;
        int rc = start_agent(rm, o, i, addr, port);
        if (rc) {
            fprintf(stderr, "ftmpirun: cannot start the launch agent for "
                    "host %s: %s\n", head_host_name(h, i), strerror(-rc));
            return NULL;
        }
    }
    if (rm->nwaiting == 0)
        head_start(h);
    else
        rm->timer = evloop_timer_add(loop, CONNECT_TIMEOUT_S,
                                     connect_timeout, rm);
    return rm;
}

void remote_finish(remote_t *rm, evloop_t *loop)
{
    /* The head has sent HD_EXIT: wait (bounded) for the daemons to hang
     * up after their last output, then for the agents. */
    double end = evloop_now() + 2.0;
    for (;;) {
        int open_links = 0, agents = 0;
        for (int i = 0; i < rm->nhosts; i++) {
            rconn_t *c = rm->hosts[i].conn;
            open_links += c && !c->link.closed;
            agents += rm->hosts[i].running;
        }
        if ((!open_links && !agents) || evloop_now() >= end)
            break;
        evloop_run_once(loop, 0.05);
    }
    for (int i = 0; i < rm->nhosts; i++)
        if (rm->hosts[i].running)
            kill(-rm->hosts[i].agent, SIGKILL);
    for (int i = 0; i < rm->nconns; i++) {
        rt_link_close(&rm->conns[i]->link);
        free(rm->conns[i]);
    }
    if (rm->lfd >= 0)
        close(rm->lfd);
    free(rm->conns);
    free(rm->hosts);
    free(rm);
}
