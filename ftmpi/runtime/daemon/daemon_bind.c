/*
 * Daemon: which CPU each rank of this host runs on (docs/runtime.md,
 * "Binding"). The CPUs are those of the daemon's own affinity mask, ordered
 * cores first (the first hardware thread of every core, then the second
 * ones) when /sys shows the topology. Each process goes to the least used
 * CPU in that order; a rank started again (REBUILD's replacement) goes back
 * to the CPU its predecessor had here.
 *
 * Other jobs on the host: a daemon that binds claims its CPUs with a lock
 * on /dev/shm/ftmpi-cpus-UID/cpuN (flock, released by the kernel when the
 * daemon ends, however it ends). Under auto, a daemon that cannot claim one
 * free CPU per launch rank does not bind at all (another job holds them);
 * under core, it binds to the free CPUs first, then to the claimed ones.
 */
#include "daemon_int.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *base_getenv(const daemon_t *d, const char *name)
{
    size_t n = strlen(name);
    for (char **e = d->base_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* The first CPU of cpu's core that is in set (cpu itself when /sys does
 * not say). */
static int core_leader(int cpu, const cpu_set_t *set)
{
    char path[96], buf[256];
    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    FILE *f = fopen(path, "r");
    if (!f)
        return cpu;
    char *ok = fgets(buf, sizeof buf, f);
    fclose(f);
    if (!ok)
        return cpu;
    /* "0,4" or "0-1": the lowest sibling that is ours */
    for (char *s = buf; *s;) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s)
            break;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && c < CPU_SETSIZE; c++)
            if (c >= 0 && CPU_ISSET((int)c, set))
                return (int)c;
        s = *end == ',' ? end + 1 : end;
        if (*s == '\n')
            break;
    }
    return cpu;
}

/* CPU list of a set, "0-1,4" (for the reports). */
void daemon_bind_format(const cpu_set_t *set, char *out, size_t cap)
{
    size_t k = 0;
    out[0] = 0;
    for (int c = 0; c < CPU_SETSIZE && k + 24 < cap; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        k += (size_t)snprintf(out + k, cap - k, e > c ? "%s%d-%d" : "%s%d",
                              k ? "," : "", c, e);
        c = e;
    }
}

/* Claim cpu for this daemon: the lock file's descriptor, or -1 when another
 * process holds it or the directory cannot be used. */
static int claim_cpu(int cpu)
{
    char dir[64], path[96];
    snprintf(dir, sizeof dir, "/dev/shm/ftmpi-cpus-%u", (unsigned)getuid());
    struct stat st;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return -1;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
        return -1; /* not ours: no claims through it */
    snprintf(path, sizeof path, "%s/cpu%d", dir, cpu);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return -1;
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Put the CPUs this daemon could claim (up to want) first in bind_cpu;
 * returns how many. */
static int claim_cpus(daemon_t *d, int want)
{
    int got = 0;
    for (int k = 0; k < d->bind_ncpu && got < want; k++) {
        int fd = claim_cpu(d->bind_cpu[k]);
        if (fd < 0)
            continue;
        int c = d->bind_cpu[k]; /* move it to the front, keeping the order */
        memmove(d->bind_cpu + got + 1, d->bind_cpu + got,
                (size_t)(k - got) * sizeof *d->bind_cpu);
        d->bind_cpu[got] = c;
        d->bind_lock[got++] = fd;
    }
    return got;
}

int daemon_bind_init(daemon_t *d, int nlaunch)
{
    const char *v = base_getenv(d, "FTMPI_BIND_TO");
    const char *r = base_getenv(d, "FTMPI_REPORT_BINDINGS");
    const char *o = base_getenv(d, "FTMPI_OVERSUBSCRIBE");
    d->bind_report = r && *r && strcmp(r, "0") != 0;
    d->bind_user_oversub = o && *o;
    if (!v || !*v || !strcmp(v, "auto"))
        d->bind_policy = DAEMON_BIND_AUTO;
    else if (!strcmp(v, "core"))
        d->bind_policy = DAEMON_BIND_CORE;
    else if (!strcmp(v, "none"))
        d->bind_policy = DAEMON_BIND_NONE;
    else {
        /* ftmpirun checks it; a remote daemon's environment may differ */
        fprintf(stderr, "ftmpid: FTMPI_BIND_TO='%s' is not core, none or auto\n", v);
        return -EINVAL;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        CPU_ZERO(&set);
    d->bind_mask = set;
    d->bind_ncpu = CPU_COUNT(&set);
    d->bind_cpu = calloc((size_t)d->bind_ncpu + 1, sizeof *d->bind_cpu);
    d->bind_lock = malloc(((size_t)d->bind_ncpu + 1) * sizeof *d->bind_lock);
    d->bind_rank_cpu = malloc((size_t)d->size * sizeof *d->bind_rank_cpu);
    if (!d->bind_cpu || !d->bind_lock || !d->bind_rank_cpu)
        return -ENOMEM;
    for (int i = 0; i < d->size; i++)
        d->bind_rank_cpu[i] = -1;
    int k = 0;
    for (int pass = 0; pass < 2; pass++) /* core leaders, then the others */
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set) && (core_leader(c, &set) == c) == (pass == 0))
                d->bind_cpu[k++] = c;
    d->bind_oversub = nlaunch > d->bind_ncpu;
    if (d->bind_policy == DAEMON_BIND_NONE || d->bind_ncpu == 0 ||
        (d->bind_policy == DAEMON_BIND_AUTO && (d->bind_oversub || nlaunch == 0)))
        return 0;
    d->bind_nlock = claim_cpus(d, nlaunch);
    if (d->bind_policy == DAEMON_BIND_AUTO && d->bind_nlock < nlaunch) {
        /* auto: one free CPU each, or no binding (another job runs here) */
        daemon_bind_unclaim(d);
        return 0;
    }
    if (d->bind_policy == DAEMON_BIND_AUTO)
        d->bind_ncpu = d->bind_nlock; /* spawned processes share these */
    d->bind_on = 1;
    return 0;
}

void daemon_bind_unclaim(daemon_t *d)
{
    for (int i = 0; i < d->bind_nlock; i++)
        close(d->bind_lock[i]);
    d->bind_nlock = 0;
}

void daemon_bind_free(daemon_t *d)
{
    daemon_bind_unclaim(d);
    free(d->bind_lock);
    free(d->bind_cpu);
    free(d->bind_rank_cpu);
    d->bind_cpu = d->bind_rank_cpu = NULL;
}

int daemon_bind_pick(daemon_t *d, int rank, int slot)
{
    if (!d->bind_on)
        return -1;
    int prev = d->bind_rank_cpu[rank];
    int best = -1, best_use = 0;
    for (int k = 0; k < d->bind_ncpu; k++) {
        int c = d->bind_cpu[k], use = 0;
        for (int i = 0; i < d->nslots; i++)
            use += i != slot && d->procs[i].running && d->procs[i].cpu == c;
        if (c == prev && use == 0)
            return c; /* its predecessor's CPU, free again */
        if (best < 0 || use < best_use) {
            best = c;
            best_use = use;
        }
    }
    d->bind_rank_cpu[rank] = best;
    return best;
}

int daemon_bind_shared(const daemon_t *d, int cpu, int slot)
{
    int use = 0;
    for (int i = 0; i < d->nslots; i++)
        use += i != slot && d->procs[i].running && d->procs[i].cpu == cpu;
    return use > 0 || d->bind_oversub;
}

void daemon_bind_report(const daemon_t *d, const daemon_proc_t *p)
{
    if (!d->bind_report)
        return;
    char list[512];
    if (p->cpu >= 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(p->cpu, &one);
        daemon_bind_format(&one, list, sizeof list);
    } else {
        daemon_bind_format(&d->bind_mask, list, sizeof list);
    }
    fprintf(stderr, "ftmpirun: binding: host %d rank %d pid %d cpus %s (%s)\n",
            d->hostid, p->rank, (int)p->pid, list,
            p->cpu >= 0 ? "bound" : "not bound");
    fflush(stderr);
}
