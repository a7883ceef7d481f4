/*
 * MPI-4.1 MPI_Buffer_flush and MPI_Buffer_iflush: wait (or start waiting)
 * until every message buffered so far has been sent; the buffer stays
 * attached. The per-communicator and per-session buffers of MPI-4.1
 * (MPI_Comm_attach_buffer, MPI_Session_attach_buffer and their flushes)
 * are not here: there is one buffer per process.
 */
#include "api/bsend.h"

#include <stdlib.h>

static int all_sent(void *arg)
{
    (void)arg;
    return bsend_inflight() == 0;
}

API_WEAK(Buffer_flush)
int PMPI_Buffer_flush(void)
{
    API_BEGIN("MPI_Buffer_flush");
    progress_wait(all_sent, NULL); /* a failed peer completes its sends in error */
    API_END();
}

/* Requests of MPI_Buffer_iflush not complete yet, completed by the hook. */
static req_t **pending;
static int npending, cap;

static int flush_hook(void)
{
    if (npending == 0 || bsend_inflight() > 0)
        return 0;
    int n = npending;
    npending = 0;
    progress_remove_hook(flush_hook);
    for (int i = 0; i < n; i++)
        req_complete(pending[i]);
    return n;
}

API_WEAK(Buffer_iflush)
int PMPI_Buffer_iflush(MPI_Request *request)
{
    API_BEGIN("MPI_Buffer_iflush");
    CHECK_PTR(request);
    req_t *r = req_alloc(REQ_COLL);
    if (!r || req_make_handle(r) != MPI_SUCCESS) {
        if (r)
            req_free(r);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = MPI_SUCCESS;
    *request = r->handle;
    if (bsend_inflight() == 0) {
        req_complete(r);
        goto fail; /* done already */
    }
    if (npending == cap) {
        int ncap = cap ? 2 * cap : 8;
        req_t **p = realloc(pending, (size_t)ncap * sizeof(*p));
        if (!p) {
            req_free(r);
            *request = MPI_REQUEST_NULL;
            API_FAIL(MPI_ERR_NO_MEM);
        }
        pending = p;
        cap = ncap;
    }
    if (npending++ == 0)
        progress_add_hook(flush_hook);
    pending[npending - 1] = r;
    API_END();
}
