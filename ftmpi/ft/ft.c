/*
 * Fault tolerance entry points. The failure handling proper (states,
 * recovery protocol, modes) is built in the fault-tolerance issue; until
 * then a process failure outside ABORT mode is reported on every
 * communicating call as MPI_ERR_OTHER and the failed peer's operations
 * complete with MPI_ERR_OTHER.
 */
#include "ft/ft.h"

#include "api/api.h"

static void on_event(rtc_event_t *ev)
{
    if (ev->kind != RTC_EV_FAILURE)
        return;
    int w = ev->rank;
    if (w < 0 || w >= ftg.world_size)
        return;
    p2p_peer_failed(w, MPI_ERR_OTHER);
    /* Every communicator that contains the failed process has a problem. */
    comm_t *world = comm_world();
    world->state = COMM_DETECTED;
}

int ft_after_init(void)
{
    progress_set_event_handler(on_event);
    return MPI_SUCCESS;
}
