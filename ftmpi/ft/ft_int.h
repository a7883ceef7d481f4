/* Internal state of the fault-tolerance layer. */
#ifndef FTMPI_FT_INT_H
#define FTMPI_FT_INT_H

#include "ft/ft.h"
#include "api/api.h"

typedef struct {
    int *failed;          /* world ranks failed since the last recovery, in order */
    char *failed_mark;    /* [size] */
    int nfailed;
    rtc_recovery_t *recovered; /* result of the round in progress, once it arrived */
    int in_recovery;
    int recoveries;       /* completed recoveries */
    uint32_t *fail_gen;   /* [size] generation of the recovery that handled each rank's last failure */
    /* After a recovery, until this process's first collective operation,
     * MPI_Comm_dup(MPI_COMM_WORLD) takes the lowest free context id without
     * communication (every participant has the same free ids then). */
} ft_t;

extern ft_t ft;

int ft_event_init(void);
void ft_log_event(const char *what, int rank, const rtc_event_t *ev);

#endif
