/*
 * The large-count point-to-point functions (MPI-4.0 3.x, the _c forms):
 * each runs its int function with the count expressed by api/count_c.h.
 * A status reports bytes, so MPI_Get_count_c/Get_elements_c give the
 * caller's count in the caller's type.
 */
#include "api/count_c.h"

#include "api/api.h"

/* fn(buf, count, type, ARGS...) with the count made int; the wrapper type,
 * if any, is freed after the call (a request holds its own reference). */
#define CNT_CALL(NAME, COMM, CALL)                        \
    do {                                                  \
        cnt_t c;                                          \
        int rc = cnt_make(count, datatype, &c);           \
        if (rc != MPI_SUCCESS)                            \
            return cnt_fail(COMM, rc, "MPI_" #NAME "_c"); \
        rc = CALL;                                        \
        cnt_done(&c);                                     \
        return rc;                                        \
    } while (0)

#define SEND_C(NAME)                                                                     \
    API_WEAK(NAME##_c)                                                                    \
    int PMPI_##NAME##_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, \
                        int tag, MPI_Comm comm)                                          \
    {                                                                                    \
        CNT_CALL(NAME, comm, PMPI_##NAME(buf, c.n, c.t, dest, tag, comm));               \
    }
/* The non-blocking and persistent sends and receives share one shape. */
#define REQ_C(NAME, CONST)                                                                \
    API_WEAK(NAME##_c)                                                                     \
    int PMPI_##NAME##_c(CONST void *buf, MPI_Count count, MPI_Datatype datatype, int peer, \
                        int tag, MPI_Comm comm, MPI_Request *request)                     \
    {                                                                                     \
        CNT_CALL(NAME, comm, PMPI_##NAME(buf, c.n, c.t, peer, tag, comm, request));       \
    }

SEND_C(Send)
SEND_C(Bsend)
SEND_C(Ssend)
SEND_C(Rsend)
REQ_C(Isend, const)
REQ_C(Ibsend, const)
REQ_C(Issend, const)
REQ_C(Irsend, const)
REQ_C(Irecv, )
REQ_C(Send_init, const)
REQ_C(Bsend_init, const)
REQ_C(Ssend_init, const)
REQ_C(Rsend_init, const)
REQ_C(Recv_init, )

API_WEAK(Recv_c)
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    CNT_CALL(Recv, comm, PMPI_Recv(buf, c.n, c.t, source, tag, comm, status));
}

API_WEAK(Mrecv_c)
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    CNT_CALL(Mrecv, MPI_COMM_WORLD, PMPI_Mrecv(buf, c.n, c.t, message, status));
}

API_WEAK(Imrecv_c)
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    CNT_CALL(Imrecv, MPI_COMM_WORLD, PMPI_Imrecv(buf, c.n, c.t, message, request));
}

API_WEAK(Sendrecv_replace_c)
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Status *status)
{
    CNT_CALL(Sendrecv_replace, comm, PMPI_Sendrecv_replace(buf, c.n, c.t, dest, sendtag, source,
                                                           recvtag, comm, status));
}

API_WEAK(Isendrecv_replace_c)
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    CNT_CALL(Isendrecv_replace, comm, PMPI_Isendrecv_replace(buf, c.n, c.t, dest, sendtag,
                                                             source, recvtag, comm, request));
}

/* Sendrecv and Isendrecv: two counts (request NULL: the blocking one). */
static int sendrecv_c(const char *fname, const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                      MPI_Comm comm, MPI_Status *status, MPI_Request *request)
{
    cnt_t s, r = {0};
    int rc = cnt_make(sendcount, sendtype, &s);
    if (rc == MPI_SUCCESS && (rc = cnt_make(recvcount, recvtype, &r)) != MPI_SUCCESS)
        cnt_done(&s);
    if (rc != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    if (request)
        rc = PMPI_Isendrecv(sendbuf, s.n, s.t, dest, sendtag, recvbuf, r.n, r.t, source, recvtag,
                            comm, request);
    else
        rc = PMPI_Sendrecv(sendbuf, s.n, s.t, dest, sendtag, recvbuf, r.n, r.t, source, recvtag,
                           comm, status);
    cnt_done(&s);
    cnt_done(&r);
    return rc;
}

API_WEAK(Sendrecv_c)
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    return sendrecv_c("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                      recvcount, recvtype, source, recvtag, comm, status, NULL);
}

API_WEAK(Isendrecv_c)
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Isendrecv_c");
    return sendrecv_c("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                      recvcount, recvtype, source, recvtag, comm, NULL, request);
}

API_WEAK(Status_set_elements_c)
int PMPI_Status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return PMPI_Status_set_elements_x(status, datatype, count);
}
