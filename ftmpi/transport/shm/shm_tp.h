/* The shared-memory transport as a tp_ops_t (transport/transport.h). */
#ifndef FTMPI_TRANSPORT_SHM_TP_H
#define FTMPI_TRANSPORT_SHM_TP_H

#include "transport/transport.h"
#include "shm.h"

/* Attach to the host segment at base as slot `slot` (shm_self); cma: 1 if
 * single-copy reads work here. NULL when the segment is not usable (the
 * reason on stderr). */
const tp_ops_t *shm_tp_open(const tp_env_t *env, void *base, int slot, int cma);
/* Single copy was refused by the kernel: stop offering it. */
void shm_tp_no_cma(void);

#endif
