/* Persistent requests: *_init, Start, Startall. */
#include "api/api.h"

#include "api/bsend.h"

static int init_common(const char *fname, req_kind_t kind, const void *buf, int count,
                       MPI_Datatype type, int peer, int tag, MPI_Comm comm, send_mode_t mode,
                       MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    CHECK_PTR(request);
    CHECK_COMM(comm, c);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buf, count, dt);
    if (kind == REQ_SEND) {
        CHECK_SEND_TAG(tag);
        CHECK_DEST(c, peer);
    } else {
        CHECK_RECV_TAG(tag);
        CHECK_SOURCE(c, peer);
    }
    req_t *r = req_new_p2p(kind, c, buf, count, dt, peer, tag, mode, 0);
    if (!r)
        API_FAIL(MPI_ERR_NO_MEM);
    r->persistent = 1;
    r->complete = 1; /* inactive: Wait/Test on it return at once */
    if ((rc = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        goto fail;
    }
    *request = r->handle;
    API_END();
}

#define SEND_INIT_FN(NAME, MODE)                                                           \
    API_WEAK(NAME)                                                                         \
    int PMPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,      \
                    MPI_Comm comm, MPI_Request *request)                                   \
    {                                                                                      \
        return init_common("MPI_" #NAME, REQ_SEND, buf, count, type, dest, tag, comm,      \
                           MODE, request);                                                 \
    }

SEND_INIT_FN(Send_init, SEND_STANDARD)
SEND_INIT_FN(Bsend_init, SEND_BUFFERED)
SEND_INIT_FN(Ssend_init, SEND_SYNC)
SEND_INIT_FN(Rsend_init, SEND_READY)

API_WEAK(Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request *request)
{
    return init_common("MPI_Recv_init", REQ_RECV, buf, count, type, source, tag, comm,
                       SEND_STANDARD, request);
}

/* *raised: the error was raised already (a persistent collective's round). */
static int start_one(req_t *r, int *raised)
{
    *raised = 0;
    if (!r->persistent || r->active)
        return MPI_ERR_REQUEST;
    int rc = api_comm_usable(r->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (r->kind == REQ_COLL) {
        rc = api_pcoll_start(r);
        *raised = rc != MPI_SUCCESS;
        return rc;
    }
    r->active = 1;
    r->status.MPI_ERROR = MPI_SUCCESS;
    if (r->kind == REQ_RECV)
        return p2p_start_recv(r);
    if (r->mode == SEND_BUFFERED) {
        rc = bsend_start(r->comm, r->buf, r->count, r->dt, r->peer, r->tag);
        r->complete = 1; /* the copy is made (or the start failed) */
        return rc;
    }
    return p2p_start_send(r);
}

API_WEAK(Start)
int PMPI_Start(MPI_Request *request)
{
    API_BEGIN("MPI_Start");
    CHECK_PTR(request);
    req_t *r = req_get(*request);
    if (!r)
        API_FAIL(MPI_ERR_REQUEST);
    err_comm = r->comm;
    int raised;
    rc = start_one(r, &raised);
    if (raised)
        API_LEAVE_RAISED(rc);
    API_END();
}

API_WEAK(Startall)
int PMPI_Startall(int count, MPI_Request requests[])
{
    API_BEGIN("MPI_Startall");
    if (count < 0)
        API_FAIL(MPI_ERR_ARG);
    if (count > 0)
        CHECK_PTR(requests);
    for (int i = 0; i < count; i++) {
        req_t *r = req_get(requests[i]);
        if (!r || !r->persistent || r->active)
            API_FAIL(MPI_ERR_REQUEST);
    }
    for (int i = 0; i < count; i++) {
        req_t *r = req_get(requests[i]);
        err_comm = r->comm;
        int raised;
        if ((rc = start_one(r, &raised)) != MPI_SUCCESS) {
            if (raised)
                API_LEAVE_RAISED(rc);
            goto fail;
        }
    }
    API_END();
}
