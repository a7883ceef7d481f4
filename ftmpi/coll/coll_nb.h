/* Running collective schedules (coll_nb.c). */
#ifndef FTMPI_COLL_NB_H
#define FTMPI_COLL_NB_H

#include "coll/coll.h"
#include "coll/sched.h"

/* Run s: to completion when req_p is NULL (returns its result, frees s),
 * else start it and return a REQ_COLL request in *req_p that completes
 * when s does. s is consumed either way. */
int coll_run(sched_t *s, req_t **req_p);

#endif
