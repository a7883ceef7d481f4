/* Daemon: environment of the ranks, fork and exec. */
#include "daemon_int.h"
#include "../../util/futex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

extern char **environ;

/* The daemon holds four descriptors per rank: raise our soft limit to the
 * hard one, and give the ranks the limit we were started with. */
static struct rlimit nofile_orig;
static int nofile_raised;

void daemon_raise_nofile(void)
{
    struct rlimit r;
    if (nofile_raised || getrlimit(RLIMIT_NOFILE, &r) != 0)
        return;
    nofile_orig = r;
    if (r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &r) == 0)
            nofile_raised = 1;
    }
}

/* Variables set per process; inherited values are dropped. */
static const char *const per_proc_vars[] = {
    "FTMPI_RANK", "FTMPI_SIZE", "FTMPI_LOCAL_SLOT", "FTMPI_NSLOTS",
    "FTMPI_HOSTID", "FTMPI_CTL_FD", "FTMPI_SHM_FD", "FTMPI_SHM_SIZE",
    "FTMPI_INCARNATION", "FTMPI_RESTARTED", "FTMPI_GENERATION", "FTMPI_JOBID",
    "FTMPI_FAULT_POINTS", "FTMPI_WORLD_BASE", "FTMPI_WORLD_SIZE", "FTMPI_APPNUM",
    "FTMPI_PARENT", NULL};
/* (FTMPI_WORLD_SIZE of the launch processes is in the head's HD_CONFIG
 * exports; a spawned process's own comes first in its environment.) */

static int env_name_is(const char *entry, const char *name)
{
    size_t n = strlen(name);
    return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

static int env_name_eq(const char *a, const char *b)
{
    const char *ea = strchr(a, '='), *eb = strchr(b, '=');
    size_t na = ea ? (size_t)(ea - a) : strlen(a);
    size_t nb = eb ? (size_t)(eb - b) : strlen(b);
    return na == nb && strncmp(a, b, na) == 0;
}

/* Base environment: ours, minus per-process variables, plus extra
 * ("NAME=VALUE", replacing an inherited NAME). */
int daemon_build_env(daemon_t *d, char **extra, int nextra)
{
    int n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc((size_t)(n + nextra + 1), sizeof *env);
    if (!env)
        return -ENOMEM;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int drop = 0;
        for (int j = 0; per_proc_vars[j] && !drop; j++)
            drop = env_name_is(environ[i], per_proc_vars[j]);
        for (int j = 0; j < nextra && !drop; j++)
            drop = env_name_eq(environ[i], extra[j]);
        if (!drop)
            env[k++] = strdup(environ[i]);
    }
    for (int j = 0; j < nextra; j++)
        env[k++] = strdup(extra[j]);
    env[k] = NULL;
    d->base_env = env;
    return 0;
}

int daemon_cmd_read(proto_rd_t *r, daemon_cmd_t **cmd_p)
{
    *cmd_p = NULL;
    if (!proto_get_i32(r))
        return r->err;
    daemon_cmd_t *c = calloc(1, sizeof *c);
    if (!c)
        return -ENOMEM;
    c->world_base = proto_get_i32(r);
    c->world_n = proto_get_i32(r);
    c->appnum = proto_get_i32(r);
    c->parent_root = proto_get_i32(r);
    c->tag = proto_get_u32(r);
    c->wdir = proto_get_strdup(r);
    c->argv = proto_get_strv(r, 65536);
    c->env = proto_get_strv(r, 65536);
    *cmd_p = c;
    return r->err || !c->wdir || !c->argv || !c->argv[0] || !c->env ? -EPROTO : 0;
}

void daemon_cmd_free(daemon_cmd_t *c)
{
    if (!c)
        return;
    free(c->wdir);
    proto_strv_free(c->argv);
    proto_strv_free(c->env);
    free(c);
}

/* The per-process variables (they win: getenv takes the first), the
 * spawned command's own variables, then base_env. The per-process strings
 * are malloc'd by the caller. */
#define NPER 18
static char **env_for_proc(daemon_t *d, char *per[NPER], char **user)
{
    int n = 0, nu = 0, k = 0;
    while (d->base_env[n])
        n++;
    while (user && user[nu])
        nu++;
    char **env = malloc((size_t)(nu + n + NPER + 1) * sizeof *env);
    if (!env)
        return NULL;
    for (int i = 0; i < NPER; i++)
        if (per[i])
            env[k++] = per[i];
    if (nu)
        memcpy(env + k, user, (size_t)nu * sizeof *env);
    memcpy(env + k + nu, d->base_env, (size_t)n * sizeof *env);
    env[k + nu + n] = NULL;
    return env;
}

static char *env_fmt(const char *name, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *env_fmt(const char *name, const char *fmt, ...)
{
    char val[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(val, sizeof val, fmt, ap);
    va_end(ap);
    char *s = malloc(strlen(name) + strlen(val) + 2);
    if (s)
        sprintf(s, "%s=%s", name, val);
    return s;
}

static void report_spawn_failure(daemon_t *d, daemon_proc_t *p, int err)
{
    p->running = 0;
    p->exec_errno = err;
    daemon_send_exited(d, p, 0, 127);
}

/* execvpe with the PATH of env, not the daemon's: MPI_Comm_spawn's "path"
 * info key puts its directories there (glibc's execvpe searches the
 * caller's PATH). A relative directory is taken from the working directory
 * already entered. Returns the errno of the last try that was not "no such
 * file" (EACCES if any), as execvp does. Async-signal-safe. */
static int exec_search(char **argv, char **env)
{
    const char *path = NULL;
    for (char **e = env; e && *e && !path; e++)
        if (strncmp(*e, "PATH=", 5) == 0)
            path = *e + 5;
    if (strchr(argv[0], '/') || !path) {
        execvpe(argv[0], argv, env);
        return errno;
    }
    size_t nlen = strlen(argv[0]);
    int err = ENOENT, denied = 0;
    for (const char *dir = path;; dir++) {
        const char *end = strchr(dir, ':');
        size_t dlen = end ? (size_t)(end - dir) : strlen(dir);
        char file[PATH_MAX];
        if (dlen + nlen + 2 <= sizeof file) {
            size_t k = 0;
            if (dlen == 0)
                file[k++] = '.'; /* an empty entry is the working directory */
            memcpy(file + k, dir, dlen);
            k += dlen;
            file[k++] = '/';
            memcpy(file + k, argv[0], nlen + 1);
            execve(file, argv, env);
            if (errno == EACCES)
                denied = 1;
            else if (errno != ENOENT && errno != ENOTDIR)
                err = errno;
        }
        if (!end)
            break;
        dir = end;
    }
    return denied ? EACCES : err;
}

/* Child side, between fork and exec. Only async-signal-safe calls. */
static void __attribute__((noreturn))
spawn_child(daemon_t *d, daemon_proc_t *p, shmseg_slot_t *slot, int ctl_fd,
            int out_fd, int err_fd, int errpipe, char **env, pid_t parent,
            int in_fd, const daemon_cmd_t *cmd, const cpu_set_t *cpus)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127); /* the daemon died before we got here */
    evloop_child_reset_signals();
    if (nofile_raised)
        setrlimit(RLIMIT_NOFILE, &nofile_orig);
    if (cpus)
        sched_setaffinity(0, sizeof *cpus, cpus); /* docs/runtime.md, "Binding" */
    /* Identity first, state LIVE last (the parent writes the same). */
    atomic_store(&slot->incarnation, p->inc);
    slot->world_rank = p->rank;
    atomic_store(&slot->pid, (int32_t)getpid());
    atomic_store(&slot->state, SHMSEG_SLOT_LIVE);

    if (in_fd >= 0) {
        dup2(in_fd, 0);
    } else if (p->rank != d->stdin_rank) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0 && nul != 0) {
            dup2(nul, 0);
            close(nul);
        }
    }
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    fcntl(ctl_fd, F_SETFD, 0);
    fcntl(d->shm_fd, F_SETFD, 0);
    int e = 0;
    if (cmd && cmd->wdir[0]) {
        if (chdir(cmd->wdir) != 0)
            e = errno; /* MPI_Comm_spawn's wdir: an error, not a guess */
    } else if (d->cwd && d->cwd[0] && chdir(d->cwd) != 0) {
        /* stay where the daemon is */
    }
    char **argv = cmd ? cmd->argv : d->argv;
    if (!e) {
        e = exec_search(argv, env);
    }
    if (write(errpipe, &e, sizeof e) < 0) {
        /* nothing more to do */
    }
    _exit(127);
}

void daemon_spawn(daemon_t *d, int rank, int slot_no, uint32_t inc,
                  uint32_t generation, int restarted, const char *faults,
                  const daemon_cmd_t *cmd)
{
    if (slot_no < 0 || slot_no >= d->nslots || rank < 0 || rank >= d->size)
        return;
    daemon_proc_t *p = &d->procs[slot_no];
    if (p->running)
        return; /* the head never asks for this */
    if (p->ctl_open) {
        evloop_del_fd(d->loop, p->ctl.fd);
        close(p->ctl.fd);
        proto_conn_free(&p->ctl);
        p->ctl_open = 0;
    }
    daemon_io_detach(p->io[0]);
    daemon_io_detach(p->io[1]);
    memset(p, 0, sizeof *p);
    p->d = d;
    p->used = 1;
    p->rank = rank;
    p->inc = inc;
    p->errpipe = -1;
    p->cpu = daemon_bind_pick(d, rank, slot_no);
    d->slot_of_rank[rank] = slot_no;

    int sv[2] = {-1, -1}, po[2] = {-1, -1}, pe[2] = {-1, -1},
        px[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) ||
        pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(px, O_CLOEXEC)) {
        int e = errno;
        for (int i = 0; i < 2; i++) {
            if (sv[i] >= 0) close(sv[i]);
            if (po[i] >= 0) close(po[i]);
            if (pe[i] >= 0) close(pe[i]);
            if (px[i] >= 0) close(px[i]);
        }
        report_spawn_failure(d, p, e);
        return;
    }

    char *per[NPER] = {0};
    per[0] = env_fmt("FTMPI_RANK", "%d", rank);
    per[1] = env_fmt("FTMPI_SIZE", "%d", d->size);
    per[2] = env_fmt("FTMPI_LOCAL_SLOT", "%d", slot_no);
    per[3] = env_fmt("FTMPI_NSLOTS", "%d", d->nslots);
    per[4] = env_fmt("FTMPI_HOSTID", "%d", d->hostid);
    per[5] = env_fmt("FTMPI_CTL_FD", "%d", sv[1]);
    per[6] = env_fmt("FTMPI_SHM_FD", "%d", d->shm_fd);
    per[7] = env_fmt("FTMPI_SHM_SIZE", "%zu", d->shm_size);
    per[8] = env_fmt("FTMPI_INCARNATION", "%u", inc);
    per[9] = env_fmt("FTMPI_RESTARTED", "%d", restarted ? 1 : 0);
    per[10] = env_fmt("FTMPI_GENERATION", "%u", generation);
    per[11] = env_fmt("FTMPI_JOBID", "%s", d->jobid);
    per[12] = faults && faults[0] ? env_fmt("FTMPI_FAULT_POINTS", "%s", faults)
                                  : NULL;
    if (cmd) {
        per[13] = env_fmt("FTMPI_WORLD_BASE", "%d", cmd->world_base);
        per[14] = env_fmt("FTMPI_WORLD_SIZE", "%d", cmd->world_n);
        per[15] = env_fmt("FTMPI_APPNUM", "%d", cmd->appnum);
        per[16] = env_fmt("FTMPI_PARENT", "%d:%u", cmd->parent_root, cmd->tag);
    }
    /* Bound to one CPU, the rank cannot tell from its own mask whether the
     * host is oversubscribed: say it (unless the user did). */
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    if (p->cpu >= 0) {
        CPU_SET(p->cpu, &cpus);
        if (!d->bind_user_oversub)
            per[17] = env_fmt("FTMPI_OVERSUBSCRIBE", "%d",
                              daemon_bind_shared(d, p->cpu, slot_no));
    }
    char **env = env_for_proc(d, per, cmd ? cmd->env : NULL);
    shmseg_slot_t *slot = shmseg_slot(d->shm, (uint32_t)slot_no);

    int in_fd = rank == d->stdin_rank ? daemon_stdin_pipe(d) : -1;
    pid_t self = getpid();
    pid_t pid = env ? fork() : -1;
    int fork_errno = errno;
    if (pid == 0)
        spawn_child(d, p, slot, sv[1], po[1], pe[1], px[1], env, self, in_fd, cmd,
                    p->cpu >= 0 ? &cpus : NULL);
    if (in_fd >= 0)
        close(in_fd);

    free(env);
    for (int i = 0; i < NPER; i++)
        free(per[i]);
    close(sv[1]);
    close(po[1]);
    close(pe[1]);
    close(px[1]);
    if (pid < 0) {
        close(sv[0]);
        close(po[0]);
        close(pe[0]);
        close(px[0]);
        report_spawn_failure(d, p, env ? fork_errno : ENOMEM);
        return;
    }
    setpgid(pid, pid); /* also done by the child; one of them wins */
    atomic_store(&slot->incarnation, inc);
    slot->world_rank = rank;
    atomic_store(&slot->pid, (int32_t)pid);
    atomic_store(&slot->state, SHMSEG_SLOT_LIVE);

    p->pid = pid;
    p->running = 1;
    daemon_bind_report(d, p);
    p->errpipe = px[0];
    daemon_ctl_open(d, p, sv[0]);
    p->io[0] = daemon_io_open(d, po[0], rank, 1);
    p->io[1] = daemon_io_open(d, pe[0], rank, 2);
    daemon_io_set_owner(p->io[0], &p->io[0]);
    daemon_io_set_owner(p->io[1], &p->io[1]);
    evloop_child_watch(d->loop, pid, daemon_child_exited, d);

    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, rank);
    proto_put_u32(&b, inc);
    proto_put_i32(&b, pid);
    rt_link_send_buf(d->head, DH_STARTED, &b);
    proto_buf_free(&b);
}
