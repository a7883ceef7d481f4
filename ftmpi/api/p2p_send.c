/* Blocking and non-blocking sends in the four modes. */
#include "api/api.h"

#include "api/bsend.h"

/* Start a send; with req_p NULL it is blocking. */
static int send_common(const char *fname, const void *buf, int count, MPI_Datatype type,
                       int dest, int tag, MPI_Comm comm, send_mode_t mode, MPI_Request *req_p)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buf, count, dt);
    CHECK_SEND_TAG(tag);
    CHECK_DEST(c, dest);
    if (req_p == NULL && mode != SEND_BUFFERED && dest == MPI_PROC_NULL)
        goto fail; /* nothing to do */
    CHECK_USABLE(c);
    /* A blocking eager send in standard or ready mode is complete once its
     * packet is in the peer's ring: no request needed. */
    if (!req_p && (mode == SEND_STANDARD || mode == SEND_READY) &&
        p2p_send_now(c, buf, count, dt, dest, tag))
        goto fail;
    if (req_p)
        *req_p = MPI_REQUEST_NULL;
    req_t *r;
    if (mode == SEND_BUFFERED) {
        /* Buffered mode is local: the copy is on its way when this returns,
         * the caller gets an already complete request, made (with its
         * handle) before the message leaves. */
        if (!req_p) {
            rc = bsend_start(c, buf, count, dt, dest, tag);
            goto fail; /* the exit, with rc MPI_SUCCESS or the error */
        }
        r = req_new_p2p(REQ_SEND, c, buf, count, dt, dest, tag, SEND_BUFFERED, 0);
        if (!r)
            API_FAIL(MPI_ERR_NO_MEM);
        if ((rc = req_make_handle(r)) != MPI_SUCCESS) {
            req_free(r);
            goto fail;
        }
        r->complete = 1;
        r->data_done = 1;
        rc = bsend_start(c, buf, count, dt, dest, tag);
    } else {
        r = req_new_p2p(REQ_SEND, c, buf, count, dt, dest, tag, mode, 0);
        if (!r)
            API_FAIL(MPI_ERR_NO_MEM);
        /* The handle before the send starts: a started send cannot be
         * taken back (its packet may be in the peer's ring already). */
        if (req_p && (rc = req_make_handle(r)) != MPI_SUCCESS) {
            req_free(r);
            goto fail;
        }
        rc = p2p_start_send(r);
    }
    if (rc != MPI_SUCCESS) {
        if (r)
            req_free(r); /* and its handle */
        goto fail;
    }
    if (req_p) {
        *req_p = r->handle;
    } else {
        rc = api_wait_internal(r);
    }
    API_END();
}

#define SEND_FN(NAME, INAME, MODE)                                                       \
    API_WEAK(NAME)                                                                        \
    int PMPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,     \
                    MPI_Comm comm)                                                       \
    {                                                                                    \
        return send_common("MPI_" #NAME, buf, count, type, dest, tag, comm, MODE, NULL); \
    }                                                                                    \
    API_WEAK(INAME)                                                                       \
    int PMPI_##INAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,    \
                     MPI_Comm comm, MPI_Request *request)                                \
    {                                                                                    \
        if (!request)                                                                    \
            return api_fail_early(comm, MPI_ERR_ARG, "MPI_" #INAME);                     \
        return send_common("MPI_" #INAME, buf, count, type, dest, tag, comm, MODE, request); \
    }

SEND_FN(Send, Isend, SEND_STANDARD)
SEND_FN(Bsend, Ibsend, SEND_BUFFERED)
SEND_FN(Ssend, Issend, SEND_SYNC)
SEND_FN(Rsend, Irsend, SEND_READY)
