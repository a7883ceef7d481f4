/* Receives, Sendrecv and Sendrecv_replace. */
#include "api/api.h"

#include <stdlib.h>

static int recv_common(const char *fname, void *buf, int count, MPI_Datatype type, int source,
                       int tag, MPI_Comm comm, MPI_Status *status, MPI_Request *req_p)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buf, count, dt);
    CHECK_RECV_TAG(tag);
    CHECK_SOURCE(c, source);
    if (req_p)
        *req_p = MPI_REQUEST_NULL;
    if (source == MPI_PROC_NULL && !req_p) {
        if (status != MPI_STATUS_IGNORE && status) {
            status->MPI_SOURCE = MPI_PROC_NULL;
            status->MPI_TAG = MPI_ANY_TAG;
            status->ftmpi_count = 0;
            status->ftmpi_cancelled = 0;
        }
        goto fail;
    }
    CHECK_USABLE(c);
    /* A blocking receive of a message that is already here: no request. */
    if (!req_p && !(source == MPI_ANY_SOURCE && ulfm_wildcard_blocked(c)) &&
        p2p_recv_now(c, buf, count, dt, source, tag, status, &rc))
        goto fail; /* the exit, with rc MPI_SUCCESS or MPI_ERR_TRUNCATE */
    req_t *r = req_new_p2p(REQ_RECV, c, buf, count, dt, source, tag, SEND_STANDARD, 0);
    if (!r)
        API_FAIL(MPI_ERR_NO_MEM);
    /* The handle before the receive is posted: a posted receive cannot be
     * taken back without a trace (it may have matched already). */
    if (req_p && (rc = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        goto fail;
    }
    if (source == MPI_ANY_SOURCE && ulfm_wildcard_blocked(c))
        ulfm_park(r); /* ULFM: an unacknowledged failure in the group */
    else
        rc = p2p_start_recv(r);
    if (rc != MPI_SUCCESS) {
        req_free(r); /* and its handle */
        goto fail;
    }
    if (req_p) {
        *req_p = r->handle;
    } else {
        progress_wait_req(r);
        rc = api_req_finish(r, NULL, status);
        if (rc == MPIX_ERR_PROC_FAILED_PENDING)
            rc = MPIX_ERR_PROC_FAILED; /* a blocking receive ends */
    }
    API_END();
}

API_WEAK(Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    return recv_common("MPI_Recv", buf, count, type, source, tag, comm, status, NULL);
}

API_WEAK(Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_ARG, "MPI_Irecv");
    return recv_common("MPI_Irecv", buf, count, type, source, tag, comm, NULL, request);
}

/* The one Sendrecv, for every communicator (intra and inter) and for the
 * library's own use (MPI_Intercomm_create's leaders): a receive and a send
 * started together, then each one that started is waited for, as
 * MPI_Irecv + MPI_Isend + MPI_Waitall would. One that cannot start (its
 * peer has failed, under CONT or recovery NONE) is not waited for, and does
 * not stop the other: the live peer still gets its message or sends its
 * own. Returns the receive's error if any, else the send's. */
int api_sendrecv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, int dest, int stag,
                 void *rbuf, int rcount, dt_t *rdt, int source, int rtag, MPI_Status *status)
{
    req_t *rr = req_new_p2p(REQ_RECV, c, rbuf, rcount, rdt, source, rtag, SEND_STANDARD, 0);
    req_t *sr = req_new_p2p(REQ_SEND, c, sbuf, scount, sdt, dest, stag, SEND_STANDARD, 0);
    if (!rr || !sr) {
        if (rr)
            req_free(rr);
        if (sr)
            req_free(sr);
        return MPI_ERR_NO_MEM;
    }
    int rerr = p2p_start_recv(rr);
    int serr = p2p_start_send(sr);
    if (serr == MPI_SUCCESS)
        serr = api_wait_internal(sr);
    else
        req_free(sr);
    if (rerr == MPI_SUCCESS) {
        progress_wait_req(rr);
        rerr = api_req_finish(rr, NULL, status);
    } else {
        req_free(rr);
    }
    return rerr != MPI_SUCCESS ? rerr : serr;
}

static int sendrecv_common(const char *fname, const void *sbuf, int scount, MPI_Datatype stype,
                           int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                           int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt, *rdt;
    CHECK_SENDRECV(comm, c, sbuf, scount, stype, sdt, dest, stag, rbuf, rcount, rtype, rdt, source,
                   rtag);
    CHECK_USABLE(c);
    rc = api_sendrecv(c, sbuf, scount, sdt, dest, stag, rbuf, rcount, rdt, source, rtag, status);
    API_END();
}

API_WEAK(Sendrecv)
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_common("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                           recvcount, recvtype, source, recvtag, comm, status);
}

API_WEAK(Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    API_BEGIN("MPI_Sendrecv_replace");
    comm_t *c;
    dt_t *dt, *bytes_t = dt_get(MPI_BYTE);
    void *tmp = NULL;
    CHECK_SENDRECV(comm, c, buf, count, type, dt, dest, sendtag, buf, count, type, dt, source,
                   recvtag);
    CHECK_USABLE(c);
    /* Send from a packed copy, receive in place. */
    size_t bytes = (size_t)count * dt->size;
    if (bytes > INT_MAX)
        API_FAIL(err_cause(MPI_ERR_COUNT, "%zu bytes to replace (at most %d)", bytes, INT_MAX));
    if (!(tmp = malloc(bytes ? bytes : 1)))
        API_FAIL(MPI_ERR_NO_MEM);
    dt_pack(dt, (size_t)count, buf, 0, tmp, bytes);
    rc = api_sendrecv(c, tmp, (int)bytes, bytes_t, dest, sendtag, buf, count, dt, source, recvtag,
                      status);
    API_END_CLEANUP(free(tmp));
}
