/*
 * Remote hosts: a TCP listener for ftmpid daemons, the launch agent that
 * starts them ("ssh {host}" by default), and the binding of each daemon's
 * connection to its host in the head.
 */
#ifndef FTMPI_RUNTIME_REMOTE_H
#define FTMPI_RUNTIME_REMOTE_H

#include "head.h"

typedef struct remote remote_t;

/* Start the daemons of every non-local host (the job's secret goes to each
 * through its agent's standard input); head_start() is called when all
 * have connected and proved they hold the secret. Any other connection is
 * refused with a line on stderr. NULL (after a message) on failure. */
remote_t *remote_launch(head_t *h, evloop_t *loop, const ftrun_opts_t *o,
                        const char *secret);
/* After the job: let the daemons finish their output and exit. */
void remote_finish(remote_t *r, evloop_t *loop);

#endif
