/*
 * Helpers of the one-sided API files (api/win_*.c, api/rma_*.c). Errors
 * about a window go to the window's error handler:
 *
 *   API_BEGIN("MPI_Put");
 *   win_t *w = NULL;
 *   CHECK_WIN(win, w);
 *   ...
 *   API_END_CLEANUP(WIN_RAISE(w));
 */
#ifndef FTMPI_API_WIN_API_H
#define FTMPI_API_WIN_API_H

#include "api/comm_int.h"
#include "rma/rma.h"

/* Raise rc on w's error handler (FT: AUTO recovery, ULFM class). */
int api_error_win(win_t *w, int rc, const char *fname);

#define CHECK_WIN(h, w)                                  \
    do {                                                 \
        (w) = win_get(h);                                \
        if (!(w)) API_FAIL(MPI_ERR_WIN);                 \
    } while (0)

/* A communicating call on w: its communicator usable (FT state). */
#define CHECK_WIN_USABLE(w) \
    do { if ((rc = api_comm_usable((w)->comm)) != MPI_SUCCESS) goto fail; } while (0)

#define WIN_RAISE(w)                                                    \
    do {                                                                \
        if (rc != MPI_SUCCESS && !rc_raised && (w)) {                   \
            rc = api_error_win((w), rc, FNAME);                         \
            rc_raised = 1;                                              \
        }                                                               \
    } while (0)

#endif
