/*
 * ftmpirun (also mpirun, mpiexec): the head and the local daemon in one
 * process, joined by an in-process link; ftmpid daemons on other hosts
 * join over TCP (remote.c).
 */
#include "head.h"
#include "remote.h"
#include "../daemon/daemon.h"
#include "../monitor/mon.h"
#include "../../util/ft_auth.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void ensure_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd) {
                dup2(n, fd);
                close(n);
            }
        }
}

/* Like execvp's search: a name with '/' is used as is, else PATH. */
static int program_exists(const char *prog, char *why, size_t cap)
{
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st) < 0) {
            snprintf(why, cap, "%s", strerror(errno));
            return 0;
        }
        if (S_ISDIR(st.st_mode) || access(prog, X_OK) < 0) {
            snprintf(why, cap, "not an executable file");
            return 0;
        }
        return 1;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path; p;) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)(n ? n : 1),
                 n ? p : ".", prog);
        if (stat(buf, &st) == 0 && !S_ISDIR(st.st_mode) &&
            access(buf, X_OK) == 0)
            return 1;
        p = c ? c + 1 : NULL;
    }
    snprintf(why, cap, "not found in PATH");
    return 0;
}

static void on_signal(evloop_t *loop, int signo, void *arg)
{
    head_t *h = arg;
    char msg[128];
    snprintf(msg, sizeof msg, "ftmpirun: received SIG%s; killing the job",
             sigabbrev_np(signo) ? sigabbrev_np(signo) : "?");
    head_kill_job(h, 128 + signo, msg);
}

static void on_timeout(evloop_t *loop, void *arg)
{
    void **a = arg;
    head_t *h = a[0];
    const ftrun_opts_t *o = a[1];
    char msg[160];
    snprintf(msg, sizeof msg, "ftmpirun: timeout: the job ran for %g "
             "seconds (--timeout); killing all processes", o->timeout_s);
    head_kill_job(h, 124, msg);
}

int main(int argc, char **argv)
{
    double t0 = evloop_now();
    ensure_std_fds();
    ftrun_opts_t o;
    int rc = ftrun_opts_parse(&o, argc, argv);
    if (rc) {
        ftrun_opts_free(&o);
        return rc == 1 ? 0 : rc;
    }

    evloop_t *loop = evloop_create();
    head_t *h = loop ? head_create(loop, &o, t0) : NULL;
    if (!h) {
        fprintf(stderr, "ftmpirun: cannot initialise: %s\n", strerror(errno));
        return 1;
    }
    int local = -1, nremote = 0;
    for (int i = 0; i < head_nhosts(h); i++) {
        if (head_host_is_local(h, i))
            local = i;
        else
            nremote += head_host_nslots(h, i) > 0;
    }
    char why[256];
    if (local >= 0 && !program_exists(o.argv[0], why, sizeof why)) {
        fprintf(stderr, "ftmpirun: cannot run '%s': %s\n", o.argv[0], why);
        head_destroy(h);
        evloop_destroy(loop);
        ftrun_opts_free(&o);
        return 127;
    }

    /* The job's secret: daemons prove they hold it (remote.c), ranks get
     * it from their daemon (rtc_job_secret). */
    static char secret[FT_AUTH_SECRET_MAX + 1];
    int src = ft_auth_new_secret(secret, sizeof secret);
    if (src) {
        fprintf(stderr, "ftmpirun: cannot make the job's secret: %s\n",
                strerror(-src));
        return 1;
    }

    /* The local daemon, joined to the head by two in-process links. */
    rt_link_t to_head, to_daemon;
    daemon_t *d = NULL;
    if (local >= 0) {
        d = daemon_create(loop, &to_head, 1);
        if (!d || daemon_set_secret(d, secret)) {
            fprintf(stderr, "ftmpirun: out of memory\n");
            return 1;
        }
        daemon_set_stop_timeout(d, o.hb_timeout);
        rt_link_local_init(&to_head, loop, head_host_msg,
                           head_host_arg(h, local));
        rt_link_local_init(&to_daemon, loop, daemon_on_head_msg, d);
        head_host_attach(h, local, &to_daemon);
    }
    mon_t *mon = NULL;
    if (o.monitor &&
        !(mon = mon_start(loop, h, o.mon_addr, o.mon_port, secret)))
        return 1;
    evloop_on_signal(loop, on_signal, h);
    void *targ[2] = {h, &o};
    if (o.timeout_s > 0)
        evloop_timer_add(loop, t0 + o.timeout_s - evloop_now(), on_timeout,
                         targ);

    remote_t *rem = NULL;
    if (nremote > 0) {
        rem = remote_launch(h, loop, &o, secret);
        if (!rem) {
            mon_stop(mon);
            if (d)
                daemon_destroy(d);
            return 1;
        }
    } else {
        head_start(h);
    }

    while (!head_done(h))
        evloop_run_once(loop, -1);

    if (d) {
        daemon_kill_all(d, SIGKILL); /* only after a failed abort */
        daemon_flush_output(d);
    }
    if (rem)
        remote_finish(rem, loop);
    int code = head_exit_code(h);
    mon_stop(mon);
    fflush(stdout);
    if (d)
        daemon_destroy(d);
    head_destroy(h);
    evloop_destroy(loop);
    ftrun_opts_free(&o);
    return code;
}
