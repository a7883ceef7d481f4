/* Probe, Iprobe, Mprobe, Improbe, Mrecv, Imrecv, and message handles. */
#include "api/api.h"

#include "util/handle.h"

static handle_table_t msg_table;
static int msg_table_ready;

static int msg_handle(umsg_t *m)
{
    if (!msg_table_ready) {
        handle_table_init(&msg_table, FTMPI_KIND_MESSAGE, 2);
        msg_table_ready = 1;
    }
    int h = handle_alloc(&msg_table, m);
    if (h >= 0)
        m->handle = h;
    return h;
}

typedef struct {
    comm_t *c;
    int src, tag, take, found;
    MPI_Status st;
    umsg_t *m;
} probe_arg_t;

static int probe_done(void *arg)
{
    probe_arg_t *a = arg;
    p2p_probe(a->c, a->src, a->tag, a->take, &a->found, &a->st, &a->m);
    return a->found || api_comm_usable(a->c) != MPI_SUCCESS || p2p_source_failed(a->c, a->src);
}

static int probe_common(const char *fname, int source, int tag, MPI_Comm comm, int blocking,
                        int take, int *flag, MPI_Message *message, MPI_Status *status)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_RECV_TAG(tag);
    CHECK_SOURCE(c, source);
    if (!blocking)
        CHECK_PTR(flag);
    if (take)
        CHECK_PTR(message);
    CHECK_USABLE(c);
    probe_arg_t a = {c, source, tag, take, 0, {0}, NULL};
    if (blocking)
        progress_wait(probe_done, &a);
    else if (!probe_done(&a)) {
        progress_poll();
        probe_done(&a);
    }
    if (!a.found) {
        if (flag)
            *flag = 0;
        CHECK_USABLE(c);
        if (p2p_source_failed(c, source))
            API_FAIL(MPI_ERR_OTHER);
        goto fail;
    }
    if (flag)
        *flag = 1;
    api_status_out(status, &a.st);
    if (take) {
        if (source == MPI_PROC_NULL) {
            *message = MPI_MESSAGE_NO_PROC;
        } else {
            a.m->comm = c;
            comm_retain(c);
            if (msg_handle(a.m) < 0)
                API_FAIL(MPI_ERR_NO_MEM);
            *message = a.m->handle;
        }
    }
    API_END();
}

API_WEAK(Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe_common("MPI_Probe", source, tag, comm, 1, 0, NULL, NULL, status);
}

API_WEAK(Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    return probe_common("MPI_Iprobe", source, tag, comm, 0, 0, flag, NULL, status);
}

API_WEAK(Mprobe)
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    return probe_common("MPI_Mprobe", source, tag, comm, 1, 1, NULL, message, status);
}

API_WEAK(Improbe)
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    return probe_common("MPI_Improbe", source, tag, comm, 0, 1, flag, message, status);
}

static int mrecv_common(const char *fname, void *buf, int count, MPI_Datatype type,
                        MPI_Message *message, MPI_Status *status, MPI_Request *req_p)
{
    API_BEGIN(fname);
    dt_t *dt;
    CHECK_PTR(message);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buf, count, dt);
    if (*message == MPI_MESSAGE_NO_PROC) {
        /* A receive from MPI_PROC_NULL. */
        req_t *r = req_new_p2p(REQ_RECV, comm_self(), buf, count, dt, MPI_PROC_NULL, 0,
                               SEND_STANDARD, 0);
        if (!r)
            API_FAIL(MPI_ERR_NO_MEM);
        if (req_p && (rc = req_make_handle(r)) != MPI_SUCCESS) {
            req_free(r); /* the message stays the caller's */
            goto fail;
        }
        p2p_start_recv(r);
        *message = MPI_MESSAGE_NULL;
        if (req_p) {
            *req_p = r->handle;
        } else {
            rc = api_req_finish(r, NULL, status);
        }
        goto fail;
    }
    umsg_t *m = msg_table_ready ? handle_get(&msg_table, *message) : NULL;
    if (!m)
        API_FAIL(MPI_ERR_REQUEST);
    comm_t *c = m->comm;
    err_comm = c;
    req_t *r = req_new_p2p(REQ_RECV, c, buf, count, dt, m->pkt.src, m->pkt.tag, SEND_STANDARD, 0);
    if (!r)
        API_FAIL(MPI_ERR_NO_MEM);
    /* The handle before the message is taken: on failure the caller still
     * holds the message and may try again. */
    if (req_p && (rc = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        goto fail;
    }
    handle_release(&msg_table, *message);
    *message = MPI_MESSAGE_NULL;
    comm_release(c); /* the message's reference; the request holds its own */
    p2p_start_mrecv(r, m);
    if (req_p) {
        *req_p = r->handle;
    } else {
        progress_wait_req(r);
        rc = api_req_finish(r, NULL, status);
    }
    API_END();
}

API_WEAK(Mrecv)
int PMPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
    return mrecv_common("MPI_Mrecv", buf, count, type, message, status, NULL);
}

API_WEAK(Imrecv)
int PMPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message,
                MPI_Request *request)
{
    if (!request)
        return api_fail_early(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Imrecv");
    return mrecv_common("MPI_Imrecv", buf, count, type, message, NULL, request);
}
