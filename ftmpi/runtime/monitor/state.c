/* The job as JSON for the monitor. */
#include "state.h"
#include "ranks.h"
#include "../launcher/head_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *mon_state_name(int state, int finalized)
{
    switch (state) {
    case HP_STARTING: return "starting";
    case HP_OK: return finalized ? "finalizing" : "running";
    case HP_UNAVAILABLE: return "suspected";
    case HP_JOINING: return "joining";
    case HP_FAILED: return "failed";
    case HP_EXITED: return finalized ? "finalized" : "exited";
    default: return "none";
    }
}

/* utime+stime (clock ticks) and resident pages of pid; -1 when gone. */
static int proc_usage(pid_t pid, unsigned long long *ticks, long *rss_pages)
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
    if (!p)
        return -1;
    unsigned long long ut, st;
    long rss;
    /* fields 3.. : state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime cutime cstime priority nice threads
     * itrealvalue starttime vsize rss */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu "
               "%llu %*d %*d %*d %*d %*d %*d %*u %*u %ld", &ut, &st,
               &rss) != 3)
        return -1;
    *ticks = ut + st;
    *rss_pages = rss;
    return 0;
}

void mon_state_json(FILE *f, struct head *h, mon_cpu_sample_t *prev)
{
    static long hz, page;
    if (!hz) {
        hz = sysconf(_SC_CLK_TCK);
        page = sysconf(_SC_PAGESIZE);
    }
    double now = evloop_now();
    const char *phase = h->phase == PH_RUN ? "running" :
                        h->phase == PH_ABORTING ? "aborting" : "done";
    fprintf(f, "{\"jobid\":\"%s\",\"np\":%d,\"t\":%.3f,\"phase\":\"%s\","
            "\"generation\":%u,\"comm_mode\":\"%s\",\"program\":\"%s\","
            "\"failures\":%d,\"round_active\":%d,\"hosts\":[",
            h->jobid, h->size, now - h->t0, phase, h->generation,
            h->o->comm_str ? h->o->comm_str : "abort",
            evlog_esc(h->o->argv[0]), h->nfails, h->round_active);
    for (int i = 0; i < h->nhosts; i++) {
        head_host_t *host = &h->hosts[i];
        fprintf(f, "%s{\"id\":%d,\"name\":\"%s\",\"local\":%s,\"lost\":%s,"
                "\"slots\":%d}", i ? "," : "", i, evlog_esc(host->name),
                host->is_local ? "true" : "false",
                host->lost ? "true" : "false", host->nslots);
    }
    fputs("],\"ranks\":[", f);
    for (int r = 0; r < h->size; r++) {
        head_proc_t *p = &h->procs[r];
        fprintf(f, "%s{\"rank\":%d,\"hostid\":%d,\"pid\":%d,\"incarnation\":%u,"
                "\"state\":\"%s\",\"replaced\":%s", r ? "," : "", r,
                p->hostid, (int)p->pid, p->inc,
                mon_state_name(p->state, p->finalized),
                p->inc > 0 ? "true" : "false");
        unsigned long long ticks;
        long rss;
        mon_cpu_sample_t *s = &prev[r];
        if (head_live(p) && p->pid > 0 && h->hosts[p->hostid].is_local &&
            proc_usage(p->pid, &ticks, &rss) == 0) {
            fprintf(f, ",\"rss_kib\":%ld", rss * (page / 1024));
            if (s->pid == p->pid && now > s->t && ticks >= s->ticks)
                fprintf(f, ",\"cpu_pct\":%.1f",
                        100.0 * (double)(ticks - s->ticks) / (double)hz /
                        (now - s->t));
            s->pid = p->pid;
            s->ticks = ticks;
            s->t = now;
        } else if (head_live(p)) {
            mon_ranks_usage_json(f, h, r); /* the rank's own report */
        }
        mon_ranks_comms_json(f, h, r);
        fputc('}', f);
    }
    fputc(']', f);
    mon_ranks_matrix_json(f, h);
    fputc('}', f);
}
