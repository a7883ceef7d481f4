/* Failure notifications from the runtime. */
#include "ft/ft_int.h"
#include "coll/coll.h"
#include "ft/ulfm.h"
#include "runtime/monrank/monrank.h"
#include "core/mpit_stats.h"

#include <stdio.h>
#include <stdlib.h>

ft_t ft;

static int comm_contains(const comm_t *c, int world)
{
    if (group_rank_of_world(c->group, world) != MPI_UNDEFINED)
        return 1;
    return c->rgroup && group_rank_of_world(c->rgroup, world) != MPI_UNDEFINED;
}

static void on_failure(const rtc_event_t *ev)
{
    int w = ev->rank;
    if (w < 0 || w >= ftg.world_size || w == ftg.world_rank)
        return;
    if (ev->incarnation < ftg.inc_of_world[w])
        return; /* an earlier incarnation, already handled */
    if (!ft.failed_mark[w]) {
        ft.failed_mark[w] = 1;
        ft.failed[ft.nfailed++] = w;
        mpit_note_failure(w, ev->incarnation); /* MPI_T counter and event */
    }
    ftg.peer_dead[w] = 1;
    ft_log_event("failure", w, ev);
    monrank_event("failure", 3, (const char *const[]){"rank", "incarnation", "signal"},
                  (const double[]){w, ev->incarnation, ev->signal}); /* trace */
    if (ulfm_enabled())
        ulfm_on_failure(w); /* wildcard receives: PENDING (docs/ulfm.md) */
    p2p_peer_failed(w, MPI_ERR_OTHER);
    /* Every communicator that contains w has a problem. Its collectives
     * fail on every member (never hang on a partner that gave up); its
     * point-to-point traffic among live processes keeps working under
     * CONT and NONE, and is discarded under RESET. */
    int reset = ftg.msg_mode == FTMPI_MSG_MODE_RESET &&
                ftg.recovery_mode != FTMPI_RECOVERY_MODE_NONE;
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c)) {
        if (c->state == COMM_FAILED || !comm_contains(c, w))
            continue;
        if (c->state != COMM_RECOVER)
            c->state = COMM_DETECTED;
        p2p_fail_pending(c, MPI_ERR_OTHER, reset ? P2P_ALL : P2P_COLL_ONLY);
        /* An intercommunicator's collectives also wait on its hidden local
         * intracommunicator, which does not contain w (ft_atomic_inter). */
        if (c->local_comm)
            p2p_fail_pending(c->local_comm, MPI_ERR_OTHER, P2P_COLL_ONLY);
    }
    if (comm_change_hook)
        comm_change_hook(); /* the monitor shows the failed member */
}

/* A recovery round has started and waits for us. We may be blocked in
 * an operation that does not involve any failed process (a collective on
 * a communicator without it, a receive from a live process that has gone
 * to recover, a recovery callback of the previous round): every pending
 * operation completes with MPI_ERR_OTHER now (under CONT: collectives and
 * receives not yet matched; sends under way go on), and communicating
 * calls fail until this process joins, so that it reaches its recovering
 * call. The recovery destroys every derived communicator anyway; under
 * CONT, messages not yet received stay queued for after it. */
static void on_round(const rtc_event_t *ev)
{
    if (ft.in_recovery || ev->generation <= ftg.generation ||
        ftg.recovery_mode == FTMPI_RECOVERY_MODE_NONE)
        return; /* joined already, or a round we have the result of */
    ft.round_waiting = 1;
    ft_log_event("recovery round waiting, generation", (int)ev->generation, NULL);
    monrank_event1("recovery_round", "generation", ev->generation); /* trace */
    coll_sm_interrupt(); /* shared-memory collectives wait on no request */
    /* CONT: a send already under way keeps its data moving (the spec
     * promises that it is delivered); only what waits is ended. Before
     * that, take in the packets already here: a peer that went to recover
     * sent them before it joined (the round is told to us after its
     * join), so a receive they match completes with its data. */
    if (ftg.msg_mode == FTMPI_MSG_MODE_RESET) {
        p2p_fail_pending(NULL, MPI_ERR_OTHER, P2P_ALL);
        return;
    }
    progress_poll_packets();
    p2p_fail_pending(NULL, MPI_ERR_OTHER, P2P_UNMATCHED);
}

static void on_event(rtc_event_t *ev)
{
    switch (ev->kind) {
    case RTC_EV_FAILURE:
        on_failure(ev);
        break;
    case RTC_EV_ROUND:
        on_round(ev);
        break;
    case RTC_EV_REFUSED:
        if (ft.in_recovery)
            ft.refused = 1;
        break;
    case RTC_EV_RECOVERED:
        /* Keep it for ft_recover (it owns the data now). */
        free(ft.recovered);
        ft.recovered = ev->data;
        ev->data = NULL;
        break;
    default:
        break;
    }
}

int ft_round_waiting(void)
{
    return ft.round_waiting;
}

int ft_recovery_pending(void)
{
    return ft.nfailed > 0 && ftg.recovery_mode != FTMPI_RECOVERY_MODE_NONE;
}

int ft_event_init(void)
{
    ft.failed = calloc((size_t)ftg.world_size, sizeof(int));
    ft.failed_mark = calloc((size_t)ftg.world_size, sizeof(char));
    ft.fail_gen = calloc((size_t)ftg.world_size, sizeof(uint32_t));
    if (!ft.failed || !ft.failed_mark || !ft.fail_gen)
        return MPI_ERR_NO_MEM;
    progress_set_event_handler(on_event);
    return MPI_SUCCESS;
}

void ft_log_event(const char *what, int rank, const rtc_event_t *ev)
{
    static int debug = -1;
    if (debug < 0)
        debug = getenv("FTMPI_FT_DEBUG") != NULL;
    if (!debug)
        return;
    fprintf(stderr, "ftmpi[%d]: %s rank %d", ftg.world_rank, what, rank);
    if (ev && ev->signal)
        fprintf(stderr, " (signal %d)", ev->signal);
    fprintf(stderr, "\n");
}
