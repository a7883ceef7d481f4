/* The job as JSON for the monitor. */
#include "state.h"
#include "ranks.h"
#include "../launcher/head_int.h"

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

void mon_state_json(FILE *f, struct head *h)
{
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
        mon_ranks_usage_json(f, h, r); /* from the rank's daemon */
        mon_ranks_comms_json(f, h, r);
        fputc('}', f);
    }
    fputc(']', f);
    mon_ranks_matrix_json(f, h);
    fputc('}', f);
}
