/* The daemon's sampling of its ranks' CPU and memory for the live monitor
 * (ftmpirun --monitor, docs/tools.md). Once a second the daemon reads
 * /proc/PID/stat of every process it runs (utime + stime, resident pages,
 * the state letter) and puts one sample per rank into the job's key-value
 * store, under ftmpi.mon.R.usage, through the link its ranks' own messages
 * take (DH_RANK, as the rank's current incarnation: the head drops a
 * sample of a process that is no longer the rank's). Since the daemon
 * reads, a rank that is stopped, hung or busy in a computation is sampled
 * like any other. Payload (runtime/proto.h's helpers):
 *
 *   u32 version (1), u32 incarnation, i32 pid, u64 resident KiB,
 *   i32 CPU share of one core since the previous sample in tenths of a
 *   percent (-1 for the first sample of a process), u32 state letter
 *   (R, S, D, T, ...), u32 samples taken of this process.
 */
#include "daemon_int.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define USAGE_PERIOD_S 1.0

/* utime + stime (clock ticks), resident pages and state letter of pid. */
static int proc_stat(pid_t pid, unsigned long long *ticks, long *rss, char *state)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = 0;
    const char *p = strrchr(buf, ')'); /* after the command name */
    unsigned long long ut, st;
    /* fields 3..: state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime cutime cstime priority nice threads
     * itrealvalue starttime vsize rss */
    if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu "
                     "%*d %*d %*d %*d %*d %*d %*u %*u %ld", state, &ut, &st, rss) != 4)
        return -1;
    *ticks = ut + st;
    return 0;
}

static void sample(daemon_t *d, daemon_proc_t *p, long hz, long page_kib)
{
    unsigned long long ticks;
    long rss;
    char state;
    if (proc_stat(p->pid, &ticks, &rss, &state) < 0)
        return; /* gone: the reaping reports it */
    double now = evloop_now();
    int tenths = -1;
    if (p->usage_pid == p->pid && now > p->usage_t && ticks >= p->usage_ticks)
        tenths = (int)(1000.0 * (double)(ticks - p->usage_ticks) / (double)hz /
                       (now - p->usage_t) + 0.5);
    if (p->usage_pid != p->pid)
        p->usage_n = 0;
    p->usage_pid = p->pid;
    p->usage_ticks = ticks;
    p->usage_t = now;
    p->usage_n++;
    char key[48];
    snprintf(key, sizeof key, "ftmpi.mon.%d.usage", p->rank);
    proto_buf_t v, b;
    proto_buf_init(&v);
    proto_put_u32(&v, 1);
    proto_put_u32(&v, p->inc);
    proto_put_i32(&v, (int32_t)p->pid);
    proto_put_u64(&v, (uint64_t)(rss > 0 ? rss : 0) * (uint64_t)page_kib);
    proto_put_i32(&v, tenths);
    proto_put_u32(&v, (uint32_t)(unsigned char)state);
    proto_put_u32(&v, p->usage_n);
    proto_buf_init(&b);
    proto_put_str(&b, key);
    proto_put_bytes(&b, v.data, (uint32_t)v.len);
    if (!v.err && !b.err)
        daemon_forward_rank_msg(d, p, PR_KV_PUT, b.data, (uint32_t)b.len);
    proto_buf_free(&b);
    proto_buf_free(&v);
}

static void usage_tick(evloop_t *loop, void *arg)
{
    daemon_t *d = arg;
    long hz = sysconf(_SC_CLK_TCK), page_kib = sysconf(_SC_PAGESIZE) / 1024;
    d->usage_timer = 0;
    for (int i = 0; i < d->nslots && hz > 0; i++)
        if (d->procs[i].running && d->procs[i].pid > 0)
            sample(d, &d->procs[i], hz, page_kib);
    d->usage_timer = evloop_timer_add(loop, USAGE_PERIOD_S, usage_tick, d);
}

void daemon_usage_start(daemon_t *d)
{
    for (char **e = d->base_env; e && *e; e++)
        if (strncmp(*e, "FTMPI_MONITOR=", 14) == 0 && strcmp(*e + 14, "") != 0 &&
            strcmp(*e + 14, "0") != 0 && !d->usage_timer)
            d->usage_timer = evloop_timer_add(d->loop, USAGE_PERIOD_S, usage_tick, d);
}

void daemon_usage_stop(daemon_t *d)
{
    if (d->usage_timer)
        evloop_timer_cancel(d->loop, d->usage_timer);
    d->usage_timer = 0;
}
