/*
 * Placement: where each rank runs at launch, how many shm slots each host's
 * segment has, and where REBUILD puts the replacement of a rank whose host
 * was lost (docs/runtime.md, "Node loss").
 */
#include "head_int.h"

#include <stdlib.h>

/* Ranks in blocks over the first nhosts - spare_hosts hosts: each takes its
 * slots (or ceil(np / those hosts)) ranks; ranks beyond the total go
 * round-robin. Under REBUILD on several hosts, each segment also gets room
 * for replacements: its spare slots (slots given beyond the ranks placed;
 * every slot of a spare host) plus ceil(np / active hosts) more, the
 * round-robin reserve. Spare hosts get a daemon only under REBUILD. */
void head_place(head_t *h)
{
    const ftrun_opts_t *o = h->o;
    int spare = o->hosts ? o->spare_hosts : 0;
    int active = h->nhosts - spare;
    int per = (h->size + active - 1) / active;
    for (int i = 0; i < h->nhosts; i++)
        h->hosts[i].cap = o->hosts && o->hosts[i].slots ? o->hosts[i].slots
                                                          : per;
    int r = 0;
    for (int i = 0; i < active && r < h->size; i++)
        for (int k = 0; k < h->hosts[i].cap && r < h->size; k++, r++)
            h->procs[r].hostid = i;
    for (int i = 0; r < h->size; r++, i = (i + 1) % active)
        h->procs[r].hostid = i;
    for (r = 0; r < h->size; r++) {
        h->procs[r].slot = h->hosts[h->procs[r].hostid].nslots++;
        h->procs[r].launch_hostid = h->procs[r].hostid;
    }
    /* Room for MPI_Comm_spawn's processes (--universe) on every host. */
    for (int i = 0; i < h->nhosts && h->nprocs > h->size; i++)
        if (i < active || o->comm_mode == COMM_REBUILD)
            h->hosts[i].nslots += h->nprocs - h->size;
    if (o->comm_mode != COMM_REBUILD || h->nhosts < 2)
        return;
    for (int i = 0; i < h->nhosts; i++) {
        head_host_t *host = &h->hosts[i];
        int room = host->cap > host->nslots ? host->cap : host->nslots;
        host->nslots = room + per;
    }
}

/* A slot of host not in use by a live process other than p (ever: not
 * given to any other process, live or not, so that nothing a dead one
 * left in its rings meets a newcomer); -1 if none free. */
static int free_slot_ever(head_t *h, int hostid, const head_proc_t *p, int *used_p, int ever)
{
    head_host_t *host = &h->hosts[hostid];
    char *used = calloc((size_t)host->nslots + 1, 1);
    if (!used)
        return -1;
    int n = 0;
    for (int r = 0; r < h->nprocs; r++) {
        const head_proc_t *q = &h->procs[r];
        if (q != p && q->hostid == hostid && (ever ? q->state != 0 : head_live(q)) &&
            q->slot >= 0 &&
            q->slot < host->nslots) {
            used[q->slot] = 1;
            n++;
        }
    }
    int slot = -1;
    for (int s = 0; s < host->nslots && slot < 0; s++)
        if (!used[s])
            slot = s;
    free(used);
    *used_p = n;
    return slot;
}

static int free_slot(head_t *h, int hostid, const head_proc_t *p, int *used_p)
{
    return free_slot_ever(h, hostid, p, used_p, 0);
}

static int usable(const head_host_t *host)
{
    return host->attached && !host->lost && host->nslots > 0;
}

int head_place_replacement(head_t *h, head_proc_t *p)
{
    /* Spare slots first: the surviving host with the most room left
     * within its slots (a spare host has all of them). */
    int best = -1, best_room = 0, best_slot = -1;
    for (int i = 0; i < h->nhosts; i++) {
        int used, slot;
        if (!usable(&h->hosts[i]) || (slot = free_slot(h, i, p, &used)) < 0)
            continue;
        int room = h->hosts[i].cap - used;
        if (room > best_room) {
            best = i;
            best_room = room;
            best_slot = slot;
        }
    }
    /* Then round-robin over the surviving hosts, in their reserve. */
    for (int k = 0; best < 0 && k < h->nhosts; k++) {
        int i = (h->rr_host + k) % h->nhosts, used, slot;
        if (!usable(&h->hosts[i]) || (slot = free_slot(h, i, p, &used)) < 0)
            continue;
        best = i;
        best_slot = slot;
        h->rr_host = (i + 1) % h->nhosts;
    }
    if (best < 0)
        return -1;
    p->hostid = best;
    p->slot = best_slot;
    return 0;
}

int head_place_spawned(head_t *h, head_proc_t *p, int hostid)
{
    int best = -1, best_free = 0, best_slot = -1;
    for (int k = 0; k < h->nhosts; k++) {
        int i = (h->rr_host + k) % h->nhosts, used, slot;
        if ((hostid >= 0 && i != hostid) || !usable(&h->hosts[i]) ||
            (slot = free_slot_ever(h, i, p, &used, 1)) < 0)
            continue;
        if (best < 0 || h->hosts[i].nslots - used > best_free) {
            best = i;
            best_free = h->hosts[i].nslots - used;
            best_slot = slot;
        }
    }
    if (best < 0)
        return -1;
    if (hostid < 0)
        h->rr_host = (best + 1) % h->nhosts;
    p->hostid = best;
    p->launch_hostid = best;
    p->slot = best_slot;
    return 0;
}
