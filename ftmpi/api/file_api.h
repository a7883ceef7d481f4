/*
 * Helpers of the MPI-IO API files (api/file_*.c, docs/io.md). Errors about
 * a file go to the file's error handler; errors with no file (MPI_File_open,
 * MPI_File_delete, an invalid handle) to the handler set on MPI_FILE_NULL
 * (MPI_ERRORS_RETURN unless the program changed it):
 *
 *   API_BEGIN("MPI_File_sync");
 *   io_file_t *f = NULL;
 *   CHECK_FILE(fh, f);
 *   ...
 *   API_END_CLEANUP(FILE_RAISE(f));
 */
#ifndef FTMPI_API_FILE_API_H
#define FTMPI_API_FILE_API_H

#include "api/comm_int.h"
#include "io/io.h"

/* Raise rc on f's handler (NULL: MPI_FILE_NULL's). FT: AUTO recovery,
 * the ULFM class. */
int api_error_file(io_file_t *f, int rc, const char *fname);
/* An error before the body ran (a _c form's count wrapper). */
int api_file_fail_early(MPI_File fh, int rc, const char *fname);

#define CHECK_FILE(h, f)                                                              \
    do {                                                                              \
        (f) = io_file_get(h);                                                         \
        if (!(f))                                                                     \
            API_FAIL(err_cause(MPI_ERR_FILE, "%d is not an open file", (int)(h)));    \
    } while (0)

#define FILE_RAISE(f)                                                   \
    do {                                                                \
        if (rc != MPI_SUCCESS && !rc_raised) {                          \
            rc = api_error_file((f), rc, FNAME);                        \
            rc_raised = 1;                                              \
        }                                                               \
    } while (0)

/* Where a data access call reads or writes. */
typedef enum { IO_AT = 0, IO_INDIV, IO_SHARED, IO_ORDERED } io_where_t;
/* The one body of every read/write call: where, collective (coll), a
 * request to return (non-blocking: the call completes the access, the
 * request is complete), split (a _begin: IO_SPLIT_* kind, the status kept
 * for the _end). */
typedef struct {
    const char *fname;
    io_where_t where;
    int write, coll, split, nb;
    MPI_Request *request;
} io_call_t;
int api_file_rw(const io_call_t *call, MPI_File fh, MPI_Offset offset, const void *buf,
                int count, MPI_Datatype datatype, MPI_Status *status);
/* MPI_File_*_end: the status of the split collective begun as `kind`. */
int api_file_split_end(const char *fname, int kind, MPI_File fh, const void *buf,
                       MPI_Status *status);

#endif
