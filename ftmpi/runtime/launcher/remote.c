/* Remote hosts: listener, launch agents, daemon connections. */
#include "remote.h"
#include "../proto.h"
#include "../../util/ft_auth.h"

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
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONNECT_TIMEOUT_S 60.0
#define AUTH_TIMEOUT_S 10.0

typedef struct rconn {
    struct remote *rm;
    rt_link_t link;
    int hostid;           /* -1 until DH_HELLO */
    int in_use;
    char peer[64];        /* address:port, for the log */
    double last_rx;       /* when its daemon last sent anything */
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
    const char *secret;   /* the job's secret (main.c) */
    rhost_t *hosts;       /* [nhosts] */
    int nhosts, nwaiting;
    rconn_t **conns;
    int nconns;
    long timer;
    double hb_interval, hb_timeout;
};

/* ---------------------------------------------------------- heartbeats */

/* Every hb_interval: a heartbeat to every connected daemon. */
static void hb_send(evloop_t *loop, void *arg)
{
    remote_t *rm = arg;
    if (head_done(rm->h))
        return;
    for (int i = 0; i < rm->nhosts; i++) {
        rconn_t *c = rm->hosts[i].conn;
        if (c && !c->link.closed)
            rt_link_send(&c->link, HD_HEARTBEAT, NULL, 0);
    }
    evloop_timer_add(loop, rm->hb_interval, hb_send, rm);
}

/* Armed for last_rx + timeout of one daemon: silent that long, its host
 * is lost (a cut link or a hung machine gives no end of stream). */
static void hb_check(evloop_t *loop, void *arg)
{
    rconn_t *c = arg;
    remote_t *rm = c->rm;
    if (c->link.closed || head_done(rm->h))
        return;
    double due = c->last_rx + rm->hb_timeout;
    if (evloop_now() < due) {
        evloop_timer_add(loop, due - evloop_now(), hb_check, c);
        return;
    }
    char why[96];
    snprintf(why, sizeof why, "no heartbeat for %g s (--heartbeat-timeout)",
             rm->hb_timeout);
    c->link.on_close = NULL;
    rt_link_close(&c->link);
    head_host_lost(rm->h, c->hostid, why);
}

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
    size_t ncmd = 1, nhost = 0;
    for (const char *p = tmpl; (p = strchr(p, '{')); p++) {
        ncmd += strncmp(p, "{cmd}", 5) == 0;
        nhost += strncmp(p, "{host}", 6) == 0;
    }
    size_t cap = strlen(tmpl) + nhost * strlen(host) + ncmd * strlen(cmd) + 16;
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
    snprintf(cmd, sizeof cmd, "%s --head %s:%d --host-id %d --heartbeat %g,%g",
             q, addr, port, hostid, o->hb_interval, o->hb_timeout);
    char *full = agent_command(o->launch_agent, head_host_name(rm->h, hostid),
                               cmd);
    if (!full)
        return -ENOMEM;
    if (o->verbose)
        fprintf(stderr, "ftmpirun: starting host %s: %s\n",
                head_host_name(rm->h, hostid), full);
    /* The secret goes to ftmpid through the agent's standard input: never
     * on a command line, never in an environment. One line, written
     * before the agent starts (it fits in the pipe). */
    int in[2];
    if (pipe2(in, O_CLOEXEC) < 0) {
        free(full);
        return -errno;
    }
    char line[FT_AUTH_SECRET_MAX + 2];
    int n = snprintf(line, sizeof line, "%s\n", rm->secret);
    if (write(in[1], line, (size_t)n) != n) {
        close(in[0]);
        close(in[1]);
        free(full);
        return -EIO;
    }
    memset(line, 0, sizeof line);
    close(in[1]);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        evloop_child_reset_signals();
        dup2(in[0], 0); /* dup2 clears close-on-exec on fd 0 */
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    int err = errno;
    close(in[0]);
    free(full);
    if (pid < 0)
        return -err;
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
        head_host_lost(rm->h, c->hostid, rt_link_reason(&c->link));
        return;
    }
    /* Not (yet) a daemon of this job: refused, and said so. */
    fprintf(stderr, "ftmpirun: refused a connection from %s: %s\n", c->peer,
            rt_link_reason(&c->link));
    rt_link_close(&c->link);
}

static void conn_msg(void *arg, uint32_t type, const void *data, size_t len)
{
    rconn_t *c = arg;
    remote_t *rm = c->rm;
    c->last_rx = evloop_now();
    if (c->hostid >= 0) {
        if (type != DH_HEARTBEAT)
            head_host_msg(head_host_arg(rm->h, c->hostid), type, data, len);
        return;
    }
    /* First message after authentication: which host is this? */
    proto_rd_t r;
    proto_rd_init(&r, data, len);
    int hostid = proto_get_i32(&r);
    char name[256];
    proto_get_str(&r, name, sizeof name);
    proto_get_i32(&r);
    if (type != DH_HELLO || r.err || hostid < 0 || hostid >= rm->nhosts ||
        rm->hosts[hostid].conn || head_host_is_local(rm->h, hostid)) {
        fprintf(stderr, "ftmpirun: refused a connection from %s: %s\n",
                c->peer, type != DH_HELLO || r.err
                             ? "malformed or unexpected first message"
                             : "no such host, or it is connected already");
        c->link.on_close = NULL;
        rt_link_close(&c->link);
        return;
    }
    c->hostid = hostid;
    rm->hosts[hostid].conn = c;
    head_host_attach(rm->h, hostid, &c->link);
    evloop_timer_add(rm->loop, rm->hb_timeout, hb_check, c);
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
        struct sockaddr_storage sa;
        socklen_t sl = sizeof sa;
        int s = accept4(fd, (struct sockaddr *)&sa, &sl,
                        SOCK_CLOEXEC | SOCK_NONBLOCK);
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
        char host[48] = "?", port[8] = "?";
        getnameinfo((struct sockaddr *)&sa, sl, host, sizeof host, port,
                    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV);
        snprintf(c->peer, sizeof c->peer, "%s:%s", host, port);
        if (rt_link_stream_init(&c->link, loop, s, conn_msg, c, conn_closed) ||
            rt_link_require_auth(&c->link, rm->secret, FT_AUTH_ACCEPTOR,
                                 AUTH_TIMEOUT_S)) {
            c->link.on_close = NULL;
            rt_link_close(&c->link);
        }
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

remote_t *remote_launch(head_t *h, evloop_t *loop, const ftrun_opts_t *o,
                        const char *secret)
{
    remote_t *rm = calloc(1, sizeof *rm);
    if (!rm)
        return NULL;
    rm->h = h;
    rm->loop = loop;
    rm->nhosts = head_nhosts(h);
    rm->hosts = calloc((size_t)rm->nhosts, sizeof *rm->hosts);
    rm->secret = secret;
    rm->hb_interval = o->hb_interval;
    rm->hb_timeout = o->hb_timeout;
    if (!rm->hosts) {
        fprintf(stderr, "ftmpirun: cannot set up remote hosts\n");
        return NULL;
    }

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
    evloop_timer_add(loop, rm->hb_interval, hb_send, rm);
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
