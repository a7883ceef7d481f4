/*
 * The progress engine: polls the transports (route.c), retries pending sends, runs
 * registered hooks (non-blocking collectives), and handles runtime events
 * (failures) ahead of user messages. Waiting spins briefly (oversubscribed:
 * yields) and then sleeps on this process's doorbell, which peers and the
 * daemon ring (docs/progress.md).
 */
#ifndef FTMPI_P2P_PROGRESS_H
#define FTMPI_P2P_PROGRESS_H

#include "core/request.h"
#include "runtime/rtc.h"

typedef int progress_hook_fn(void);  /* returns work done */

/* Everything ready now; oversubscribed, an empty poll yields the CPU. */
int progress_poll(void);
/* The waiting policy from FTMPI_OVERSUBSCRIBE, FTMPI_SPIN_US and the ranks
 * on this host against the CPUs of the affinity mask (p2p_init). 0, or -1
 * with the reason on stderr. */
int progress_policy_init(void);
int progress_oversubscribed(void);
/* Only the packets already in the transports, no runtime events: what a
 * peer sent before it told the runtime anything is taken in first. */
int progress_poll_packets(void);
/* Progress until done(arg) is true. Returns MPI_SUCCESS, or an error if the
 * wait was interrupted by something that ends it (the job is going down). */
int progress_wait(int (*done)(void *arg), void *arg);
int progress_wait_req(req_t *r);
void progress_add_hook(progress_hook_fn *fn);
void progress_remove_hook(progress_hook_fn *fn);
/* Runtime event handler (installed by the ft layer). */
typedef void progress_event_fn(rtc_event_t *ev);
void progress_set_event_handler(progress_event_fn *fn);

#endif
