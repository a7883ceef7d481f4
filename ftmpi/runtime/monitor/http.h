/*
 * A small HTTP/1.1 request parser for the live monitor (docs/tools.md):
 * the request line and headers only, with hard limits; anything it does not
 * accept is a 400 with a reason. No bodies: a request announcing one is
 * refused.
 */
#ifndef FTMPI_RUNTIME_MON_HTTP_H
#define FTMPI_RUNTIME_MON_HTTP_H

#include <stddef.h>

#define MON_HTTP_MAX_HEAD 8192    /* request line + headers */
#define MON_HTTP_MAX_TARGET 2048
#define MON_HTTP_MAX_HEADERS 64

typedef struct {
    char method[8];                   /* GET, HEAD or POST */
    char path[MON_HTTP_MAX_TARGET];   /* decoded, without the query */
    char query[MON_HTTP_MAX_TARGET];  /* raw, without '?' */
    int minor;                        /* HTTP/1.minor */
    int keep_alive;
} mon_http_req_t;

/* Parse the request at the start of buf[0..len). Returns the bytes of its
 * head when complete, 0 when more is needed, -1 when it is bad (why says
 * how, for the 400's body). */
long mon_http_parse(const char *buf, size_t len, mon_http_req_t *req,
                    const char **why);

/* The value of query parameter name, %-decoded into out; -1 when absent or
 * too long or badly encoded. */
int mon_http_query(const char *query, const char *name, char *out, size_t cap);

#endif
