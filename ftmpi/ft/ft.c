/* Entry points of the fault-tolerance layer used by MPI_Init, the API
 * edge and MPI_Comm_dup. */
#include "ft/ft_int.h"

#include "core/attr.h"
#include "ft/ulfm.h"

int ft_join_as_replacement(void);

/* p2p's hook: a collective operation started, so the dups of
 * MPI_COMM_WORLD that need no agreement (ft_comm_dup) are over. */
static void first_collective(void)
{
    ftg.ft_dup_phase = 0;
}

int ft_after_init(void)
{
    p2p_ft_hooks.coll_started = first_collective;
    int rc = ft_event_init();
    if (rc == MPI_SUCCESS && ulfm_enabled()) {
        /* ULFM: failures change no communicator and nothing recovers by
         * itself; point-to-point among live processes goes on. */
        ftg.recovery_mode = FTMPI_RECOVERY_MODE_NONE;
        ftg.msg_mode = FTMPI_MSG_MODE_CONT;
        ftg.coll_mode = FTMPI_COLL_MODE_NONATOMIC;
        rc = ulfm_init();
    }
    if (rc != MPI_SUCCESS || ftg.singleton || !ftg.rt.restarted)
        return rc;
    /* A replacement: whatever was queued for the process we replace is
     * stale. Nobody writes to us until the recovery below completes. */
    p2p_drop_incoming();
    rc = ft_join_as_replacement();
    return rc == MPI_SUCCESS ? MPI_INIT_RESTARTED_NODE : rc;
}

/* A duplicate of MPI_COMM_WORLD made without communication: the lowest
 * context id free here, which is the same on every process that makes the
 * same calls since the last recovery (all free ids were equal then). */
static int dup_with_ctx(uint32_t ctx, MPI_Comm *newcomm);

static int dup_without_agreement(MPI_Comm *newcomm)
{
    uint32_t mask[COMM_CTX_WORDS], ctx = 0;
    int found = 0;
    comm_ctx_mask(mask);
    for (int i = 0; i < COMM_CTX_WORDS && !found; i++)
        if (mask[i]) {
            ctx = (uint32_t)(i * 32 + __builtin_ctz(mask[i])) * 2;
            found = 1;
        }
    if (!found || comm_ctx_claim(ctx) != 0)
        return MPI_ERR_INTERN;
    return dup_with_ctx(ctx, newcomm);
}

/* The recovery's reserved duplicate (already claimed). */
static int dup_reserved(MPI_Comm *newcomm)
{
    ft.dup_ctx_unused = 0;
    return dup_with_ctx(ft.dup_ctx, newcomm);
}

static int dup_with_ctx(uint32_t ctx, MPI_Comm *newcomm)
{
    comm_t *w = comm_world();
    comm_t *n = comm_new(w->group, NULL, ctx);
    if (!n) {
        comm_ctx_release(ctx);
        return MPI_ERR_NO_MEM;
    }
    n->errh = w->errh;
    errh_retain(n->errh);
    int rc;
    if ((rc = comm_register(n)) != MPI_SUCCESS ||
        (rc = attr_copy(KV_COMM, w->attrs, w->handle, &n->attrs)) != MPI_SUCCESS) {
        comm_release(n);
        return rc;
    }
    *newcomm = n->handle;
    return MPI_SUCCESS;
}

int ft_comm_dup(comm_t *c, MPI_Comm *newcomm, int *handled)
{
    *handled = 0;
    if (c != comm_world() || ftg.recovery_mode == FTMPI_RECOVERY_MODE_NONE ||
        ftg.comm_mode == FTMPI_COMM_MODE_ABORT)
        return MPI_SUCCESS;
    if (ft.in_callbacks) {
        /* Inside recovery callbacks: paired by call order with the
         * replacements' restore code, no agreement needed. */
        *handled = 1;
        return dup_without_agreement(newcomm);
    }
    progress_poll(); /* learn of failures the runtime already announced */
    if (ft_recovery_pending() || c->state == COMM_DETECTED) {
        int rc = ft_recover();
        if (rc != MPI_SUCCESS)
            return rc;
        /* The recovering dup never communicates: replacements do not take
         * part in it. */
        *handled = 1;
        return dup_reserved(newcomm);
    }
    if (ft.dup_ctx_unused) {
        /* A replacement's (or an AUTO survivor's) first dup after a
         * recovery: the reserved duplicate, the same communicator as the
         * survivors' recovering dup. */
        *handled = 1;
        return dup_reserved(newcomm);
    }
    if (ftg.ft_dup_phase) {
        /* After the reserved duplicate, until the first collective: paired
         * by call order, no agreement needed. */
        *handled = 1;
        return dup_without_agreement(newcomm);
    }
    return MPI_SUCCESS; /* an ordinary dup */
}

int ft_comm_dup_interrupted(comm_t *c, int rc, MPI_Comm *newcomm)
{
    if (rc != MPI_ERR_OTHER || c != comm_world() ||
        ftg.recovery_mode == FTMPI_RECOVERY_MODE_NONE ||
        ftg.comm_mode == FTMPI_COMM_MODE_ABORT || ft.in_callbacks || ft.in_recovery)
        return rc;
    progress_poll();
    if (!ft_recovery_pending() && c->state != COMM_DETECTED)
        return rc; /* not a process failure */
    /* The first process to see a failure may enter its recovering dup
     * before the failure is announced to it (it saw a peer vanish): the
     * dup starts as an ordinary one, the announcement makes it fail, and
     * it is the recovery all the same (FTMPI-SPEC.md section 6). */
    rc = ft_recover();
    if (rc != MPI_SUCCESS)
        return rc;
    return dup_reserved(newcomm);
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

int ft_gap_world(int w)
{
    /* A gap is a failed rank that a recovery has handled. Before that, the
     * rank is a failed process like under any other mode: communication
     * with it returns MPI_ERR_OTHER (the FT-MPI idiom tests for it). */
    return ftg.peer_dead[w] && !(ft.failed_mark && ft.failed_mark[w]);
}

int ft_is_gap(const comm_t *c, int r)
{
    if (ftg.comm_mode != FTMPI_COMM_MODE_BLANK || r < 0)
        return 0;
    return ft_gap_world(comm_peer_world(c, r));
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
