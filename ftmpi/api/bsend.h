/* Buffered sends: the attached buffer and its allocator. */
#ifndef FTMPI_API_BSEND_H
#define FTMPI_API_BSEND_H

#include "api/api.h"

/* Copy (buf, count, dt) into the attached buffer and start a send of the
 * copy, by an internal request nobody waits for (the buffer space is
 * reclaimed when it completes). MPI_ERR_BUFFER if there is no room.
 * Buffered mode is local: the caller's own request, if it has one, is
 * complete once this returns; make it (and its handle) before calling,
 * so that a failure to make it does not leave a message sent. */
int bsend_start(comm_t *c, const void *buf, int count, dt_t *dt, int dest, int tag);
/* Buffered messages not sent yet (api/bsend_flush.c waits for 0). */
int bsend_inflight(void);

#endif
