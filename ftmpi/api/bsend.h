/* Buffered sends: the attached buffer and its allocator. */
#ifndef FTMPI_API_BSEND_H
#define FTMPI_API_BSEND_H

#include "api/api.h"

/* Copy (buf, count, dt) into the attached buffer and start a send of the
 * copy; *r_p is the send's request (completes when the copy is sent, the
 * buffer space is reclaimed then). MPI_ERR_BUFFER if there is no room. */
int bsend_start(comm_t *c, const void *buf, int count, dt_t *dt, int dest, int tag,
                req_t **r_p);

#endif
