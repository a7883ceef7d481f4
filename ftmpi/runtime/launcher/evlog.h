/*
 * The launcher's event log: one JSON object per line,
 *     {"t": <seconds since launch>, "event": "<name>", <fields>...}
 * flushed line by line. The schema is in docs/runtime.md.
 */
#ifndef FTMPI_RUNTIME_EVLOG_H
#define FTMPI_RUNTIME_EVLOG_H

#include <stdio.h>

typedef struct {
    FILE *f;
    double t0;            /* evloop_now() at launch */
    /* Also handed every line (without its newline), when set: the live
     * monitor (mon.c). */
    void (*hook)(void *arg, const char *line, size_t len);
    void *hook_arg;
} evlog_t;

int evlog_open(evlog_t *e, const char *path, double t0); /* path NULL: off */
void evlog_close(evlog_t *e);
static inline int evlog_on(const evlog_t *e)
{
    return e->f != NULL || e->hook != NULL;
}

/* fields: a printf format producing the JSON members after "event"
 * (without braces; may be "" for none). */
void evlog_event(evlog_t *e, const char *event, const char *fields, ...)
    __attribute__((format(printf, 3, 4)));

/* JSON-escape s (without quotes) into a static ring of buffers: valid until
 * 8 further calls. */
const char *evlog_esc(const char *s);

/* "[1,2,3]" into buf. */
const char *evlog_int_list(char *buf, size_t cap, const int *v, int n);

#endif
