/*
 * The head: the job's single authority. It keeps the job table (which
 * process holds which rank, on which host, with which pid, incarnation and
 * state), the key-value store and fences, confirms failures and announces
 * them to every live process in one order, coordinates recovery rounds,
 * injects faults, writes the event log and decides the exit status.
 *
 * It talks to the daemons only through rt_link_t messages (proto.h,
 * HD_* out, DH_* in), so a daemon may live in this process or on another
 * host.
 */
#ifndef FTMPI_RUNTIME_HEAD_H
#define FTMPI_RUNTIME_HEAD_H

#include "../evloop.h"
#include "../link.h"
#include "opts.h"

typedef struct head head_t;

head_t *head_create(evloop_t *loop, const ftrun_opts_t *o, double t0);
void head_destroy(head_t *h);

int head_nhosts(const head_t *h);
const char *head_host_name(const head_t *h, int hostid);
int head_host_is_local(const head_t *h, int hostid);
int head_host_nslots(const head_t *h, int hostid); /* ranks placed there */
const char *head_jobid(const head_t *h);

/* Connect host `hostid` to its daemon. Messages from that daemon must be
 * delivered to head_host_msg(head_host_arg(h, hostid), ...). */
void head_host_attach(head_t *h, int hostid, rt_link_t *to_daemon);
void *head_host_arg(head_t *h, int hostid);
void head_host_msg(void *host, uint32_t type, const void *data, size_t len);
/* The connection to a host's daemon is gone: its processes failed. */
void head_host_lost(head_t *h, int hostid, const char *why);

/* Every host attached: configure the daemons and start the ranks. */
void head_start(head_t *h);

/* Kill every process and end with exit status `code`; msg (if not NULL)
 * is printed on stderr first. */
void head_kill_job(head_t *h, int code, const char *msg);

int head_done(const head_t *h);
int head_exit_code(const head_t *h);

#endif
