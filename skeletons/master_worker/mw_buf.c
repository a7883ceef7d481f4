/* Byte buffers, error strings, clock. */
#include "mw_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *mw_buf_resize(mw_buf_t *b, size_t len)
{
    if (len > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < len)
            cap *= 2;
        void *d = realloc(b->data, cap);
        if (!d)
            return NULL;
        b->data = d;
        b->cap = cap;
    }
    b->len = len;
    /* A zero-length buffer still has a valid pointer. */
    if (!b->data) {
        b->data = malloc(1);
        if (!b->data)
            return NULL;
        b->cap = 1;
    }
    return b->data;
}

int mw_buf_set(mw_buf_t *b, const void *data, size_t len)
{
    if (!mw_buf_resize(b, len))
        return MW_ERR_NOMEM;
    if (len)
        memcpy(b->data, data, len);
    return MW_OK;
}

const char *mw_strerror(int code)
{
    switch (code) {
    case MW_OK:
        return "success";
    case MW_ERR_ARG:
        return "bad argument";
    case MW_ERR_NOMEM:
        return "out of memory";
    case MW_ERR_MPI:
        return "an MPI call failed (not a process failure)";
    case MW_ERR_MASTER_LOST:
        return "the master process failed (it is the single point of failure)";
    case MW_ERR_USER:
        return "a generate, work or consume function returned an error";
    case MW_ERR_RECOVERY:
        return "the MPI recovery failed";
    default:
        return "unknown error";
    }
}

double mw_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mw_sleep_s(double s)
{
    if (s <= 0)
        return;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int mw_debug_on = -1;

const char *mw_kind_name(int kind)
{
    static const char *names[] = {"?", "JOIN", "WELCOME", "TASK", "RESULT", "STOP", "ACK", "FINAL", "RECOVER"};
    return kind > 0 && kind <= MW_K_RECOVER ? names[kind] : names[0];
}

void mw_dbg(const mw_net_t *n, const char *fmt, ...)
{
    if (mw_debug_on < 0) {
        const char *e = getenv("MW_DEBUG");
        mw_debug_on = e && *e && strcmp(e, "0") != 0;
    }
    if (!mw_debug_on)
        return;
    char s[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[mw %.6f id %d rank %d] %s\n", mw_now(), n->id, n->rank, s);
}
