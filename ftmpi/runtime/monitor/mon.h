/*
 * ftmpirun --monitor: an HTTP/1.1 server in the head's event loop (no
 * thread) serving the live monitor page, the job's state as JSON, its
 * events as Server-Sent Events, and two actions (kill a rank, stop the
 * job). Every request must carry the job's monitor token in its URL
 * (?token=...): 403 without it, 400 for a malformed request. See
 * docs/tools.md.
 */
#ifndef FTMPI_RUNTIME_MON_H
#define FTMPI_RUNTIME_MON_H

#include "../evloop.h"

struct head;
struct ftrun_opts_s;
typedef struct mon mon_t;

/* Listen on addr:port (port 0: a free one), print the URL on stderr,
 * register the job (reg.h) and follow the head's events. NULL (with a
 * message printed) when it cannot listen. */
mon_t *mon_start(evloop_t *loop, struct head *h, const char *addr, int port,
                 const char *secret);
/* Close every connection, unregister. */
void mon_stop(mon_t *m);

/* The page (page.c, generated from tools/monitor/index.html). */
extern const char mon_page_html[];
extern const unsigned long mon_page_html_len;

#endif
