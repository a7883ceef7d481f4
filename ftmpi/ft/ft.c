/* Entry points of the fault-tolerance layer used by MPI_Init, the API
 * edge and MPI_Comm_dup. */
#include "ft/ft_int.h"

#include "core/attr.h"
#include "transport/shm/shm.h"

int ft_join_as_replacement(void);

int ft_after_init(void)
{
    int rc = ft_event_init();
    if (rc != MPI_SUCCESS || ftg.singleton || !ftg.rt.restarted)
        return rc;
    /* A replacement: whatever was queued for the process we replace is
     * stale. Nobody writes to us until the recovery below completes. */
    if (ftg.shm.base)
        shm_drop_incoming(&ftg.shm);
    rc = ft_join_as_replacement();
    return rc == MPI_SUCCESS ? MPI_INIT_RESTARTED_NODE : rc;
}

/* The duplicate of MPI_COMM_WORLD that a recovery agreed on (its context
 * id was fixed by the recovery, so making it needs no communication). */
static int make_recovery_dup(MPI_Comm *newcomm)
{
    comm_t *w = comm_world();
    comm_t *n = comm_new(w->group, NULL, ft.dup_ctx);
    if (!n)
        return MPI_ERR_NO_MEM;
    n->errh = w->errh;
    errh_retain(n->errh);
    int rc;
    if ((rc = comm_register(n)) != MPI_SUCCESS ||
        (rc = attr_copy(KV_COMM, w->attrs, w->handle, &n->attrs)) != MPI_SUCCESS) {
        comm_release(n);
        return rc;
    }
    ft.dup_ctx_unused = 0;
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int ft_comm_dup(comm_t *c, MPI_Comm *newcomm, int *handled)
{
    *handled = 0;
    if (c != comm_world() || ftg.recovery_mode == FTMPI_RECOVERY_MODE_NONE ||
        ftg.comm_mode == FTMPI_COMM_MODE_ABORT)
        return MPI_SUCCESS;
    if (ft.dup_ctx_unused) {
        /* A replacement's first MPI_Comm_dup(MPI_COMM_WORLD): the same
         * communicator the survivors' recovering dup returned. */
        *handled = 1;
        return make_recovery_dup(newcomm);
    }
    progress_poll(); /* learn of failures the runtime already announced */
    if (!ft_recovery_pending() && c->state != COMM_DETECTED)
        return MPI_SUCCESS;
    int rc = ft_recover();
    if (rc != MPI_SUCCESS)
        return rc;
    *handled = 1;
    return make_recovery_dup(newcomm);
}

void ft_auto_recover(int rc)
{
    if (rc != MPI_ERR_OTHER || ftg.recovery_mode != FTMPI_RECOVERY_MODE_AUTO ||
        ftg.comm_mode == FTMPI_COMM_MODE_ABORT || ft.in_recovery)
        return;
    progress_poll();
    if (ft_recovery_pending() || comm_world()->state == COMM_DETECTED)
        ft_recover();
}

int ft_is_gap(const comm_t *c, int r)
{
    if (ftg.comm_mode != FTMPI_COMM_MODE_BLANK || r < 0)
        return 0;
    int w = comm_peer_world(c, r);
    return ftg.peer_dead[w];
}

int ft_group_usable(const group_t *g)
{
    if (!ft.fail_gen || g->predefined)
        return 1;
    for (int i = 0; i < g->size; i++)
        if (ft.fail_gen[g->world[i]] > g->generation)
            return 0; /* a member failed and a recovery has happened since */
    return 1;
}
