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
#include "rma/rma_fast.h"

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

/* A rank of the window's group (the communicator's, under BLANK with its
 * gaps) to its rank among the window's members: MPI_ERR_RANK out of range
 * or for a gap; MPI_PROC_NULL stays. */
static inline int win_rank(const win_t *w, int *r)
{
    if (*r == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (*r < 0 || *r >= w->usize)
        return MPI_ERR_RANK;
    if (w->wrank && w->wrank[*r] < 0)
        return err_cause(MPI_ERR_RANK, "the rank is a gap left by a failed process (BLANK)");
    if (w->wrank)
        *r = w->wrank[*r];
    return MPI_SUCCESS;
}
#define CHECK_WIN_RANK(w, r) \
    do { if ((rc = win_rank((w), &(r))) != MPI_SUCCESS) goto fail; } while (0)

/* The window of an MPI_Put, MPI_Get or MPI_Accumulate that may take the short path
 * (rma_fast.h): the library initialized, no MPI_THREAD_MULTIPLE lock to
 * take, a mapped window whose communicator is whole (what
 * api_comm_usable accepts, in its common case). NULL: the general path. */
static inline win_t *api_win_fast(MPI_Win h)
{
    if (!ftg.initialized || ftg.finalized || ftg.multiple)
        return NULL;
    win_t *w = rma_win_lookup(h);
    if (!w || w->via != RMA_VIA_SHM || !w->comm || w->comm->state != COMM_OK ||
        ft_round_waiting() || ulfm_is_revoked(w->comm))
        return NULL;
    return w;
}

#define WIN_RAISE(w)                                                    \
    do {                                                                \
        if (rc != MPI_SUCCESS && !rc_raised && (w)) {                   \
            rc = api_error_win((w), rc, FNAME);                         \
            rc_raised = 1;                                              \
        }                                                               \
    } while (0)

#endif
