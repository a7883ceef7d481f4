/*
 * The recovery protocol, rank side. The runtime's head runs the round:
 * it waits until every live process (survivors and replacements) has
 * joined, folds failures that happen meanwhile into the same round, and
 * sends everyone the same result. Here we join, wait for that result while
 * still handling packets and events, and apply it.
 */
#include "ft/ft_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "util/timer.h"
#include "core/err_cause.h"
#include "runtime/monrank/monrank.h"
#include "core/mpit_stats.h"

static int round_done(void *arg)
{
    (void)arg;
    return ft.recovered != NULL || ft.refused;
}

/* Every communicator but MPI_COMM_WORLD and MPI_COMM_SELF is destroyed:
 * calls on it return MPI_ERR_COMM (only MPI_Comm_free works), its context
 * id is given back so that communicators re-created in the same order get
 * the same ids on every process, replacements included. */
static void destroy_derived(void)
{
    if (ft.dup_ctx_unused) {
        comm_ctx_release(ft.dup_ctx);
        ft.dup_ctx_unused = 0;
    }
    comm_t *c = comm_next(NULL);
    while (c) {
        comm_t *next = comm_next(c);
        if (!c->predefined && c->state != COMM_FAILED) {
            c->state = COMM_FAILED;
            p2p_comm_detach(c);
            comm_unregister(c);
        }
        c = next;
    }
}

/* MPI_COMM_WORLD's new group, per the communicator mode. */
static int rebuild_world(const rtc_recovery_t *rec)
{
    comm_t *w = comm_world();
    /* this process's MPI_COMM_WORLD ids: the launch's, or its spawn's
     * (core/proc.h, docs/dynamic.md) */
    int n = ftg.world_n, k = 0;
    int *members = malloc((size_t)n * sizeof(int));
    if (!members)
        return MPI_ERR_NO_MEM;
    for (int i = ftg.world_base; i < ftg.world_base + n && i < rec->size; i++) {
        if (ftg.comm_mode == FTMPI_COMM_MODE_SHRINK && !rec->alive[i])
            continue;
        members[k++] = i;
    }
    group_t *g = group_new(k, members);
    free(members);
    if (!g)
        return MPI_ERR_NO_MEM;
    group_release(w->group);
    w->group = g;
    w->size = g->size;
    w->rank = g->rank;
    w->generation = rec->generation;
    w->coll_seq = 0;
    w->state = COMM_OK;
    comm_t *s = comm_self();
    s->coll_seq = 0;
    s->generation = rec->generation;
    s->state = COMM_OK;
    return MPI_SUCCESS;
}

/* FTMPI_NUM_FAILED_PROCS and FTMPI_ERROR_FAILURE; the failed ranks are
 * numbered as in MPI_COMM_WORLD before this recovery (`before`). */
static void set_failure_attributes(const rtc_recovery_t *rec, const group_t *before)
{
    ftg.num_failed = rec->nfailed;
    char msg[MPI_MAX_ERROR_STRING];
    int len = snprintf(msg, sizeof(msg), "MPI_ERR_OTHER: process failure; failed ranks:");
    for (int i = 0; i < rec->nfailed && len < (int)sizeof(msg) - 12; i++) {
        int r = group_rank_of_world(before, rec->failed[i]);
        len += snprintf(msg + len, sizeof(msg) - (size_t)len, " %d",
                        r == MPI_UNDEFINED ? rec->failed[i] : r);
    }
    ftg.error_failure = err_make_code(MPI_ERR_OTHER, msg);
}

/* Apply the agreed membership. */
static int apply(const rtc_recovery_t *rec)
{
    ftg.generation = rec->generation;
    for (int i = 0; i < rec->size && i < ftg.world_size; i++) {
        ftg.pid_of_world[i] = rec->pid[i];
        ftg.slot_of_world[i] = rec->slot[i];
        ftg.rt.host_of_rank[i] = rec->host[i];
        ftg.inc_of_world[i] = rec->incarnation[i];
        ftg.peer_dead[i] = !rec->alive[i];
        if (rec->slot[i] >= 0 && rec->slot[i] < ftg.rt.nslots)
            ftg.world_of_slot[rec->slot[i]] = i;
    }
    p2p_drop_old(rec->generation,
                 ftg.msg_mode == FTMPI_MSG_MODE_RESET ? P2P_ALL : P2P_COLL_ONLY);
    /* A replacement on another host needs TCP; if it cannot start, the
     * reason is on stderr and sends to that rank fail (no route). */
    (void)p2p_routes_changed();
    destroy_derived();
    /* Every participant now holds the same context ids (MPI_COMM_WORLD's
     * and MPI_COMM_SELF's). The lowest free one is reserved for the
     * recovery's duplicate of MPI_COMM_WORLD (ft_comm_dup), everywhere;
     * until the first collective, later dups of MPI_COMM_WORLD also need
     * no agreement. */
    uint32_t mask[COMM_CTX_WORDS];
    comm_ctx_mask(mask);
    ft.dup_ctx = 0;
    for (int i = 0; i < COMM_CTX_WORDS; i++)
        if (mask[i]) {
            ft.dup_ctx = (uint32_t)(i * 32 + __builtin_ctz(mask[i])) * 2;
            break;
        }
    comm_ctx_claim(ft.dup_ctx);
    ft.dup_ctx_unused = 1;
    ftg.ft_dup_phase = 1;
    group_t *before = comm_world()->group;
    group_retain(before);
    int rc = rebuild_world(rec);
    if (rc == MPI_SUCCESS)
        p2p_renumber(comm_world());
    set_failure_attributes(rec, before);
    group_release(before);
    /* Failures this round handled are no longer pending. */
    for (int i = 0; i < rec->nfailed; i++)
        if (rec->failed[i] >= 0 && rec->failed[i] < ftg.world_size) {
            ft.failed_mark[rec->failed[i]] = 0;
            ft.fail_gen[rec->failed[i]] = rec->generation;
        }
    int k = 0;
    for (int i = 0; i < ft.nfailed; i++)
        if (ft.failed_mark[ft.failed[i]])
            ft.failed[k++] = ft.failed[i];
    ft.nfailed = k;
    /* A failure announced after this round was decided (it arrived while
     * we waited for the result) is not in it: it stays pending, its process
     * dead, MPI_COMM_WORLD with a problem, so that the next call meets it. */
    for (int i = 0; i < ft.nfailed; i++) {
        ftg.peer_dead[ft.failed[i]] = 1;
        if (ftg.recovery_mode != FTMPI_RECOVERY_MODE_NONE)
            comm_world()->state = COMM_DETECTED;
    }
    ft.recoveries++;
    return rc;
}

static void free_recovery(rtc_recovery_t *rec)
{
    rtc_event_t ev = {.kind = RTC_EV_RECOVERED, .data = rec};
    rtc_event_free(&ev);
}

/* Join a round and apply its result; callbacks only when `callbacks`. */
static int recover(int callbacks)
{
    if (ftg.singleton)
        return MPI_SUCCESS;
    if (ft.in_recovery)
        return err_cause(MPI_ERR_OTHER, "a recovery callback tried to recover (not allowed)");
    ft.in_recovery = 1;
    mpit_note_recovery_begin();
    ft.round_waiting = 0;
    ft.refused = 0;
    monrank_event1("recovery_begin", "generation", ftg.generation); /* trace */
    comm_world()->state = COMM_RECOVER;
    /* RESET: everything of the old generation is discarded now, so that no
     * call stays blocked on it and new-generation messages match nothing old. */
    if (ftg.msg_mode == FTMPI_MSG_MODE_RESET)
        p2p_fail_pending(NULL, MPI_ERR_OTHER, P2P_ALL);
    int rc = rtc_recovery_join(ftg.generation) < 0
                 ? err_cause(MPI_ERR_OTHER, "the launcher could not be reached to recover")
                 : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        progress_wait(round_done, NULL);
    rtc_recovery_t *rec = ft.recovered;
    ft.recovered = NULL;
    if (rc == MPI_SUCCESS && rec)
        rc = apply(rec);
    else if (rc == MPI_SUCCESS && ft.refused) {
        /* Some process has finalized: no recovery (docs/ft.md). The
         * failures stay pending, MPI_COMM_WORLD keeps its problem. */
        rc = err_cause(MPI_ERR_OTHER, "no recovery: a process has called MPI_Finalize");
        comm_world()->state = COMM_DETECTED;
    }
    ft.refused = 0;
    ft_log_event(rec ? "recovered, generation" : "recovery without result", rec ? (int)rec->generation : -1, NULL);
    monrank_event("recovery_end", 2, (const char *const[]){"generation", "ok"},
                  (const double[]){ftg.generation, rc == MPI_SUCCESS}); /* trace */
    if (rec)
        free_recovery(rec);
    ft.in_recovery = 0;
    mpit_note_recovery_end(rc, ftg.generation, ftg.num_failed);
    if (comm_change_hook)
        comm_change_hook(); /* the monitor shows the new generation */
    /* Last step: the recovery callbacks, in attachment order. */
    if (rc == MPI_SUCCESS && callbacks) {
        comm_t *w = comm_world();
        ft.in_callbacks = 1;
        monrank_event1("restore_begin", "generation", ftg.generation); /* trace */
        attr_call_deletes(KV_COMM, &w->attrs, w->handle);
        monrank_event1("restore_end", "generation", ftg.generation);
        ft.in_callbacks = 0;
    }
    return rc;
}

int ft_recover(void)
{
    return recover(1);
}

int ft_join_as_replacement(void)
{
    return recover(0);
}
