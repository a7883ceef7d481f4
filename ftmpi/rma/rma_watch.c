/* A window's watch: a receive from itself that nothing ever sends, posted
 * on the window's communicator for the window's whole life. What ends
 * every pending receive on that communicator ends it too: MPIX_Win_revoke
 * (MPIX_ERR_REVOKED), a failure under the message mode RESET, a recovery
 * round. Once it has ended the window is cut off: the progress hook fails
 * every operation posted on the communicator from then on (rma_progress),
 * so a call that was already inside a wait when the news came, and posts
 * its next step afterwards (the next round of a fence's barrier, the next
 * target of MPI_Win_complete), fails instead of waiting for a peer that
 * has stopped. */
#include "rma/rma.h"

#include "p2p/p2p.h"

int rma_watch_start(win_t *w)
{
    int rc = MPI_SUCCESS;
    w->watch = rma_recv_empty(w, w->rank, RMA_TAG_WATCH, &rc);
    if (w->watch && w->watch->complete) /* could not be posted */
        rc = w->watch->status.MPI_ERROR;
    return rc;
}

int rma_cut(const win_t *w)
{
    if (!w->watch || !w->watch->complete)
        return MPI_SUCCESS;
    int e = w->watch->status.MPI_ERROR;
    return e != MPI_SUCCESS ? e : MPI_ERR_OTHER;
}

void rma_watch_stop(win_t *w)
{
    req_t *r = w->watch;
    if (!r)
        return;
    w->watch = NULL;
    if (!r->complete)
        p2p_cancel(r);
    if (r->complete)
        req_free(r); /* else p2p still holds it: left to the library */
}
