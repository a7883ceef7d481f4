/*
 * MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 3.10): a receive and a
 * send started together under one request, which completes when both
 * halves have (status: the receive's; error: the first half's error, a
 * failed peer included). The halves are internal requests that free
 * themselves; the replace form sends from a packed copy of the buffer,
 * kept by the request until it is freed.
 */
#include "api/api.h"

#include <stdlib.h>

static void half_done(req_t *h)
{
    req_t *r = h->parent;
    int err = r->status.MPI_ERROR;
    if (h->kind == REQ_RECV)
        r->status = h->status;
    r->status.MPI_ERROR = err != MPI_SUCCESS ? err : h->status.MPI_ERROR;
    if (--r->nchildren == 0)
        req_complete(r);
}

/* Start one half; one that cannot start counts as done with its error. */
static void start_half(req_t *r, req_t *h)
{
    h->parent = r;
    h->on_done = half_done;
    h->user_freed = 1; /* nobody waits for it: freed when it completes */
    int rc = h->kind == REQ_RECV ? p2p_start_recv(h) : p2p_start_send(h);
    if (rc != MPI_SUCCESS) {
        h->status.MPI_ERROR = rc;
        h->on_done = NULL;
        req_free(h);
        if (r->status.MPI_ERROR == MPI_SUCCESS)
            r->status.MPI_ERROR = rc;
        if (--r->nchildren == 0)
            req_complete(r);
    }
}

static int isendrecv_common(const char *fname, const void *sbuf, int scount, MPI_Datatype stype,
                            int dest, int stag, void *rbuf, int rcount, MPI_Datatype rtype,
                            int source, int rtag, MPI_Comm comm, MPI_Request *request,
                            int replace)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt, *rdt;
    CHECK_SENDRECV(comm, c, sbuf, scount, stype, sdt, dest, stag, rbuf, rcount, rtype, rdt, source,
                   rtag);
    if (!request)
        API_FAIL(MPI_ERR_REQUEST);
    CHECK_USABLE(c);
    void *tmp = NULL;
    if (replace) {
        /* The send goes from a packed copy; the receive lands in place. */
        size_t bytes = (size_t)scount * sdt->size;
        tmp = malloc(bytes ? bytes : 1);
        if (!tmp)
            API_FAIL(MPI_ERR_NO_MEM);
        dt_pack(sdt, (size_t)scount, sbuf, 0, tmp, bytes);
        sbuf = tmp;
        scount = (int)bytes;
        sdt = dt_get(MPI_BYTE);
    }
    req_t *r = req_alloc(REQ_COLL);
    req_t *rr = req_new_p2p(REQ_RECV, c, rbuf, rcount, rdt, source, rtag, SEND_STANDARD, 0);
    req_t *sr = req_new_p2p(REQ_SEND, c, sbuf, scount, sdt, dest, stag, SEND_STANDARD, 0);
    if (!r || !rr || !sr || req_make_handle(r) != MPI_SUCCESS) {
        if (r)
            req_free(r);
        if (rr)
            req_free(rr);
        if (sr)
            req_free(sr);
        free(tmp);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    r->comm = c;
    comm_retain(c);
    r->pack_tmp = tmp; /* freed with the request */
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->nchildren = 2;
    *request = r->handle;
    start_half(r, rr);
    start_half(r, sr);
    API_END();
}

API_WEAK(Isendrecv)
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_common("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag,
                            recvbuf, recvcount, recvtype, source, recvtag, comm, request, 0);
}

API_WEAK(Isendrecv_replace)
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    return isendrecv_common("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, buf,
                            count, datatype, source, recvtag, comm, request, 1);
}
