/*
 * The cause of an error (docs/ftmpi.md, "Errors"). Inside the library a
 * status is an int holding MPI_SUCCESS or an MPI error class; nothing else
 * travels up the layers. Where a layer knows more than the class says
 * (which rank failed, how many bytes did not fit, which argument was
 * wrong), it records that with err_cause() when it fails, and returns the
 * class err_cause() hands back:
 *
 *     return err_cause(MPI_ERR_TRUNCATE, "%zu bytes into a %zu-byte buffer", got, cap);
 *
 * The API edge (API_BEGIN clears the record; the error exit takes it)
 * attaches the cause to the error it raises: MPI_ERRORS_ARE_FATAL prints
 * it, FTMPI_Error_cause() returns it. The code returned to the program is
 * the class itself, as programs compare return codes with classes.
 * The pending record is written and taken while the call holds the
 * library's lock (one per process is enough); the last raised cause is
 * per thread.
 */
#ifndef FTMPI_CORE_ERR_CAUSE_H
#define FTMPI_CORE_ERR_CAUSE_H

#include "mpi.h"

/* Record the cause of an error of class cls; returns cls. */
int err_cause(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Forget the pending record (the start of every API call: one store). */
extern int err_cause_pending;
static inline void err_cause_clear(void)
{
    err_cause_pending = MPI_SUCCESS;
}
/* An error of class cls leaves the library from function fname: make the
 * pending record (if this call made one) the thread's last raised cause,
 * or the class's own string when there is none. Returns the text. */
const char *err_cause_raise(int cls, const char *fname);
/* The last raised cause of this thread ("" when none). */
const char *err_cause_last(void);

#endif
