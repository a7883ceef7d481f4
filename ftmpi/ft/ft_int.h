/* Internal state of the fault-tolerance layer. */
#ifndef FTMPI_FT_INT_H
#define FTMPI_FT_INT_H

#include "ft/ft.h"
#include "core/proc.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "core/errors.h"
#include "runtime/rtc.h"
#include "transport/shm/shm.h"

typedef struct {
    int *failed;          /* world ranks failed since the last recovery, in order */
    char *failed_mark;    /* [size] */
    int nfailed;
    rtc_recovery_t *recovered; /* result of the round in progress, once it arrived */
    int in_recovery;
    int recoveries;       /* completed recoveries */
    uint32_t *fail_gen;   /* [size] generation of the recovery that handled each rank's last failure */
    uint32_t dup_ctx;     /* context id a recovery reserved for its duplicate of MPI_COMM_WORLD */
    int dup_ctx_unused;   /* reserved and not yet handed out here */
    int in_callbacks;     /* the recovery callbacks are running */
    int round_waiting;    /* a round started without us: communication fails until we join */
    int refused;          /* the round we joined will not run (the job is finalizing) */
} ft_t;

extern ft_t ft;

int ft_event_init(void);
/* BLANK: is world rank w a gap, i.e. failed and handled by a recovery? A
 * failure not recovered yet is no gap (ft_is_gap). */
int ft_gap_world(int w);
void ft_log_event(const char *what, int rank, const rtc_event_t *ev);

#endif
