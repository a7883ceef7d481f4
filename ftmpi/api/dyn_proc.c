/*
 * Dynamic processes: the bridge, learning peers, a spawned process's
 * start (its parents' intercommunicator) and MPI_Comm_get_parent.
 */
#include "api/dyn.h"
#include "p2p/p2p.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bridge's context pair: the last but one (the last is ULFM's
 * channel, ft/ulfm_chan.c), so that reserving it changes no other
 * communicator's id. */
#define DYN_BRIDGE_CTX ((uint32_t)(COMM_CTX_PAIRS - 2) * 2)

static struct {
    comm_t *bridge;
    comm_t *parent;
    char *known;          /* [world_size] the process is reachable */
    int seq;
} D;

comm_t *dyn_bridge(void) { return D.bridge; }

int dyn_next_tag(void)
{
    /* below the collective tags' space is not needed: the bridge carries
     * nothing else than these exchanges */
    D.seq = (D.seq + 1) & 0xffffff;
    return (ftg.world_rank & 0x7f) << 24 | D.seq;
}

int dyn_learn(const int *ids, int n)
{
    int changed = 0;
    for (int i = 0; i < n; i++) {
        int w = ids[i];
        if (w < 0 || w >= ftg.world_size || !D.known || D.known[w])
            continue;
        struct {
            int32_t pid, hostid, slot;
            uint32_t inc;
        } v;
        char key[48];
        size_t len = 0;
        snprintf(key, sizeof key, "ftmpi.proc.%d", w);
        if (rtc_kv_get(key, &v, sizeof v, &len) < 0 || len != sizeof v)
            return err_cause(MPI_ERR_OTHER, "cannot learn process %d from the runtime", w);
        ftg.pid_of_world[w] = v.pid;
        ftg.inc_of_world[w] = v.inc;
        ftg.rt.host_of_rank[w] = v.hostid;
        int local = v.hostid == ftg.rt.hostid && v.slot >= 0 && v.slot < ftg.rt.nslots;
        ftg.slot_of_world[w] = local ? v.slot : -1;
        if (local)
            ftg.world_of_slot[v.slot] = w;
        ftg.peer_dead[w] = 0;
        D.known[w] = 1;
        changed = 1;
    }
    /* a peer on another host may need the network transport opened */
    if (changed && p2p_routes_changed() != 0)
        return err_cause(MPI_ERR_OTHER, "no route to a new process (see stderr)");
    return MPI_SUCCESS;
}

int dyn_connect_groups(comm_t *lc, int root, int peer, int tag, comm_t **out)
{
    comm_t *pc = NULL;
    if (lc->rank == root) {
        if (!D.bridge)
            return err_cause(MPI_ERR_SPAWN, "no room for other processes in this job "
                                            "(ftmpirun --universe)");
        int rc = dyn_learn(&peer, 1);
        if (rc != MPI_SUCCESS)
            return rc;
        pc = D.bridge;
        /* The bridge holds every id, so every failure marks it; only a
         * failure of the peer itself matters to it, and p2p reports that
         * (docs/dynamic.md). */
        if (pc->state == COMM_DETECTED)
            pc->state = COMM_OK;
    }
    return api_intercomm_create(lc, root, pc, peer, tag, out);
}

static int connect_parent(void)
{
    /* Siblings started after this process's HELLO are learned now. */
    int n = ftg.world_n;
    int *sib = malloc((size_t)n * sizeof(int));
    if (!sib)
        return MPI_ERR_NO_MEM;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (ftg.pid_of_world[ftg.world_base + i] == 0)
            sib[k++] = ftg.world_base + i;
    for (int i = 0; i < k; i++)
        D.known[sib[i]] = 0;
    int rc = dyn_learn(sib, k);
    free(sib);
    if (rc != MPI_SUCCESS)
        return rc;
    comm_t *w = comm_world();
    rc = dyn_connect_groups(w, 0, ftg.rt.parent_root, (int)ftg.rt.parent_tag, &D.parent);
    if (rc == MPI_SUCCESS) {
        snprintf(D.parent->name, sizeof(D.parent->name), "MPI_COMM_PARENT");
        comm_retain(D.parent); /* for get_parent's check after a free */
    }
    return rc;
}

int dyn_init(void)
{
    if (ftg.singleton || ftg.world_size <= ftg.world_n)
        return MPI_SUCCESS; /* no room to spawn: nothing to set up */
    int n = ftg.world_size;
    D.known = calloc((size_t)n, 1);
    int *ids = malloc((size_t)n * sizeof(int));
    if (!D.known || !ids) {
        free(ids);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++) {
        ids[i] = i;
        D.known[i] = !ftg.peer_dead[i];
    }
    group_t *g = group_new(n, ids);
    free(ids);
    if (!g || comm_ctx_claim(DYN_BRIDGE_CTX) != 0) {
        if (g)
            group_release(g);
        return err_cause(MPI_ERR_OTHER, "cannot reserve the dynamic-process bridge");
    }
    D.bridge = comm_new(g, NULL, DYN_BRIDGE_CTX);
    group_release(g);
    if (!D.bridge)
        return MPI_ERR_NO_MEM;
    D.bridge->hidden = 1;
    D.bridge->predefined = 1; /* an FT-MPI recovery keeps it (ft_recover.c) */
    D.bridge->errh = errh_get(MPI_ERRORS_RETURN);
    errh_retain(D.bridge->errh);
    snprintf(D.bridge->name, sizeof(D.bridge->name), "dynamic-process bridge");
    comm_register_hidden(D.bridge);
    return ftg.rt.parent_root >= 0 && !ftg.rt.restarted ? connect_parent() : MPI_SUCCESS;
}

API_WEAK(Comm_get_parent)
int PMPI_Comm_get_parent(MPI_Comm *parent)
{
    API_BEGIN("MPI_Comm_get_parent");
    CHECK_PTR(parent);
    /* MPI_COMM_NULL once the parent communicator was freed or
     * disconnected (the standard's rule), and for a launch process. */
    *parent = D.parent && !D.parent->freed ? D.parent->handle : MPI_COMM_NULL;
    API_END();
}
