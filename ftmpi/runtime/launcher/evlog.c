/* Event log writer (JSON lines). */
#include "evlog.h"
#include "../evloop.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int evlog_open(evlog_t *e, const char *path, double t0)
{
    e->f = NULL;
    e->t0 = t0;
    if (!path)
        return 0;
    e->f = fopen(path, "we");
    if (!e->f)
        return -errno;
    setvbuf(e->f, NULL, _IOLBF, 0);
    return 0;
}

void evlog_close(evlog_t *e)
{
    if (e->f)
        fclose(e->f);
    e->f = NULL;
}

void evlog_event(evlog_t *e, const char *event, const char *fields, ...)
{
    if (!evlog_on(e))
        return;
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    if (!m)
        return;
    fprintf(m, "{\"t\":%.6f,\"event\":\"%s\"", evloop_now() - e->t0, event);
    if (fields && fields[0]) {
        fputc(',', m);
        va_list ap;
        va_start(ap, fields);
        vfprintf(m, fields, ap);
        va_end(ap);
    }
    fputc('}', m);
    if (fclose(m) == 0) {
        if (e->f) {
            fwrite(line, 1, len, e->f);
            fputc('\n', e->f);
            fflush(e->f);
        }
        if (e->hook)
            e->hook(e->hook_arg, line, len);
    }
    free(line);
}

const char *evlog_esc(const char *s)
{
    static char ring[8][1024];
    static int next;
    char *out = ring[next++ & 7];
    size_t k = 0;
    for (; s && *s && k < sizeof ring[0] - 8; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            out[k++] = '\\';
            out[k++] = (char)c;
        } else if (c < 0x20) {
            k += (size_t)snprintf(out + k, 8, "\\u%04x", c);
        } else {
            out[k++] = (char)c;
        }
    }
    out[k] = 0;
    return out;
}

const char *evlog_int_list(char *buf, size_t cap, const int *v, int n)
{
    size_t k = 0;
    if (cap < 3)
        return "[]";
    buf[k++] = '[';
    for (int i = 0; i < n && k + 16 < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, i ? ",%d" : "%d", v[i]);
    buf[k++] = ']';
    buf[k] = 0;
    return buf;
}
