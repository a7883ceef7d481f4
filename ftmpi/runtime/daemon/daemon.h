/*
 * The per-host daemon: creates the host's shared-memory segment, forks and
 * execs the ranks placed on the host, watches them, forwards their output
 * and their control messages to the head, and delivers the head's messages
 * to them. It talks to the head only through an rt_link_t (in-process in
 * ftmpirun, TCP in ftmpid), so both run the same code.
 */
#ifndef FTMPI_RUNTIME_DAEMON_H
#define FTMPI_RUNTIME_DAEMON_H

#include "../evloop.h"
#include "../link.h"

typedef struct daemon daemon_t;

/* output_local: write rank output to this process's stdout/stderr (the
 * launcher's own host); otherwise send it to the head as DH_OUTPUT. */
daemon_t *daemon_create(evloop_t *loop, rt_link_t *to_head, int output_local);
void daemon_destroy(daemon_t *d);
/* A rank process stopped (SIGSTOP, SIGTSTP, ...) for `seconds` is
 * SIGKILLed, so that it fails like a silent host does (the heartbeat
 * timeout). */
void daemon_set_stop_timeout(daemon_t *d, double seconds);
/* The job's secret, given to each rank in its HELLO_REPLY. 0 or -ENOMEM. */
int daemon_set_secret(daemon_t *d, const char *secret);

/* rt_link_recv_cb for messages from the head (arg = daemon). */
void daemon_on_head_msg(void *d, uint32_t type, const void *data, size_t len);

/* Signal every running rank's process group. */
void daemon_kill_all(daemon_t *d, int sig);
/* Number of rank processes not yet reaped. */
int daemon_nrunning(const daemon_t *d);
/* HD_EXIT received. */
int daemon_exit_requested(const daemon_t *d);
/* Read whatever output is still buffered in the pipes and write it. */
void daemon_flush_output(daemon_t *d);

#endif
