/* The cause of an error, see err_cause.h. */
#include "core/err_cause.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/errors.h"

#define CAUSE_MAX 256

int err_cause_pending = MPI_SUCCESS; /* class of the pending record */
static char pending[CAUSE_MAX];
static __thread char last[MPI_MAX_ERROR_STRING];

int err_cause(int cls, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pending, sizeof(pending), fmt, ap);
    va_end(ap);
    err_cause_pending = cls;
    return cls;
}

const char *err_cause_raise(int cls, const char *fname)
{
    const char *s = err_string(cls);
    if (!s)
        s = "unknown error code";
    /* the record of this call (API_BEGIN cleared it), whatever class the
     * edge made of the error (ULFM mode turns a failure into its class) */
    if (err_cause_pending != MPI_SUCCESS)
        snprintf(last, sizeof(last), "%s: %s: %s", fname, s, pending);
    else
        snprintf(last, sizeof(last), "%s: %s", fname, s);
    err_cause_pending = MPI_SUCCESS;
    return last;
}

const char *err_cause_last(void)
{
    return last;
}
