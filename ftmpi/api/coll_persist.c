/*
 * Persistent collectives (MPI-4.0 6.13): MPI_Barrier_init, MPI_Bcast_init,
 * ... MPI_Exscan_init. The _init call checks the communicator and makes an
 * inactive persistent request that keeps the call's arguments (buffers and
 * arrays by address: the standard forbids changing them while the request
 * exists). Each MPI_Start/MPI_Startall runs the matching non-blocking
 * collective, which checks the arguments and raises its errors on the
 * communicator; the round's request is hidden from the user and completes
 * the persistent one (status and error, a process failure included) when
 * it completes. MPI_Wait/Test make the request inactive again; freeing an
 * active one is an error (MPI_ERR_REQUEST).
 *
 * Other files make persistent requests of the same kind whose round is
 * their own function (api_pcoll_init_round: the neighborhood collectives,
 * api/neighbor_persist.c).
 */
#include "api/comm_int.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
    PC_BARRIER, PC_BCAST, PC_GATHER, PC_GATHERV, PC_SCATTER, PC_SCATTERV, PC_ALLGATHER,
    PC_ALLGATHERV, PC_ALLTOALL, PC_ALLTOALLV, PC_ALLTOALLW, PC_REDUCE, PC_ALLREDUCE,
    PC_REDUCE_SCATTER, PC_REDUCE_SCATTER_BLOCK, PC_SCAN, PC_EXSCAN,
} pc_kind_t;

typedef struct {
    pc_kind_t kind;
    const void *sbuf;
    void *rbuf;
    int scount, rcount, root;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    MPI_Datatype sdt, rdt;
    const MPI_Datatype *sdts, *rdts;
    MPI_Op op;
    MPI_Comm comm;
    api_pround_fn *round; /* set: a round is round(ext, q) */
    max_align_t ext[];    /* round's arguments */
} pcoll_t;

/* One round of a persistent collective: the non-blocking call. */
static int pcoll_call(const pcoll_t *a, MPI_Request *q)
{
    if (a->round)
        return a->round(a->ext, q);
    switch (a->kind) {
    case PC_BARRIER: return PMPI_Ibarrier(a->comm, q);
    case PC_BCAST: return PMPI_Ibcast(a->rbuf, a->rcount, a->rdt, a->root, a->comm, q);
    case PC_GATHER:
        return PMPI_Igather(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root,
                            a->comm, q);
    case PC_GATHERV:
        return PMPI_Igatherv(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls, a->rdt,
                             a->root, a->comm, q);
    case PC_SCATTER:
        return PMPI_Iscatter(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root,
                             a->comm, q);
    case PC_SCATTERV:
        return PMPI_Iscatterv(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcount,
                              a->rdt, a->root, a->comm, q);
    case PC_ALLGATHER:
        return PMPI_Iallgather(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->comm,
                               q);
    case PC_ALLGATHERV:
        return PMPI_Iallgatherv(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls,
                                a->rdt, a->comm, q);
    case PC_ALLTOALL:
        return PMPI_Ialltoall(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->comm,
                              q);
    case PC_ALLTOALLV:
        return PMPI_Ialltoallv(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcounts,
                               a->rdispls, a->rdt, a->comm, q);
    case PC_ALLTOALLW:
        return PMPI_Ialltoallw(a->sbuf, a->scounts, a->sdispls, a->sdts, a->rbuf, a->rcounts,
                               a->rdispls, a->rdts, a->comm, q);
    case PC_REDUCE:
        return PMPI_Ireduce(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->root, a->comm, q);
    case PC_ALLREDUCE:
        return PMPI_Iallreduce(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    case PC_REDUCE_SCATTER:
        return PMPI_Ireduce_scatter(a->sbuf, a->rbuf, a->rcounts, a->rdt, a->op, a->comm, q);
    case PC_REDUCE_SCATTER_BLOCK:
        return PMPI_Ireduce_scatter_block(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm,
                                          q);
    case PC_SCAN: return PMPI_Iscan(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    case PC_EXSCAN:
        return PMPI_Iexscan(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    }
    return MPI_ERR_INTERN;
}

/* The round's request completed: so does the persistent one. */
static void round_done(req_t *round)
{
    req_t *r = round->parent;
    r->status = round->status;
    r->complete = 1;
}

int api_pcoll_start(req_t *r)
{
    const pcoll_t *a = r->pcoll;
    r->active = 1;
    r->complete = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    /* The non-blocking call takes the library lock itself. */
    MPI_Request q = MPI_REQUEST_NULL;
    api_unlock();
    int rc = pcoll_call(a, &q);
    api_lock();
    req_t *round = rc == MPI_SUCCESS ? req_get(q) : NULL;
    if (!round) {
        /* Not started (its error was raised by the call): the request
         * stays inactive. */
        r->active = 0;
        r->complete = 1;
        return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
    }
    if (round->complete) {
        round_done(&(req_t){.parent = r, .status = round->status});
        req_free(round);
        return MPI_SUCCESS;
    }
    round->parent = r;
    round->on_done = round_done;
    req_orphan(round); /* frees itself when done; MPI_Finalize waits for it */
    return MPI_SUCCESS;
}

static int pcoll_init_ext(const char *fname, const pcoll_t *args, const void *ext, size_t size,
                          MPI_Info info, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    info_t *in;
    CHECK_COMM(args->comm, c);
    CHECK_INFO_OR_NULL(info, in);
    (void)in; /* no info key changes how a persistent collective runs */
    if (!request)
        API_FAIL(MPI_ERR_REQUEST);
    req_t *r = req_alloc(REQ_COLL);
    pcoll_t *a = malloc(sizeof(*a) + size);
    if (!r || !a) {
        free(a);
        if (r)
            req_free(r);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    *a = *args;
    if (size)
        memcpy(a->ext, ext, size);
    r->pcoll = a;
    r->comm = c;
    comm_retain(c);
    r->persistent = 1;
    r->complete = 1; /* inactive: Wait/Test on it return at once */
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    if ((rc = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        goto fail;
    }
    *request = r->handle;
    API_END();
}

#define PC(...) (&(pcoll_t){__VA_ARGS__})

static int pcoll_init(const char *fname, const pcoll_t *args, MPI_Info info, MPI_Request *request)
{
    return pcoll_init_ext(fname, args, NULL, 0, info, request);
}

int api_pcoll_init_round(const char *fname, MPI_Comm comm, api_pround_fn *round, const void *args,
                         size_t size, MPI_Info info, MPI_Request *request)
{
    return pcoll_init_ext(fname, PC(.comm = comm, .round = round), args, size, info, request);
}

void *api_pcoll_round_args(req_t *r, api_pround_fn *round)
{
    pcoll_t *a = r ? r->pcoll : NULL;
    return a && a->round == round ? a->ext : NULL;
}

/* Gather, scatter (with a root), allgather, alltoall (without): one block
 * per process, one shape. */
#define PC_REG_FN(NAME, KIND, ROOT_PARAM, ROOT)                                        \
    API_WEAK(NAME)                                                                      \
    int PMPI_##NAME(const void *sendbuf, int sendcount, MPI_Datatype sendtype,          \
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, ROOT_PARAM     \
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)                 \
    {                                                                                   \
        return pcoll_init("MPI_" #NAME,                                                 \
                          PC(.kind = (KIND), .sbuf = sendbuf, .scount = sendcount,      \
                             .sdt = sendtype, .rbuf = recvbuf, .rcount = recvcount,     \
                             .rdt = recvtype, .root = (ROOT), .comm = comm),            \
                          info, request);                                               \
    }
#define ROOT_ARG int root,
#define NO_ROOT_ARG

PC_REG_FN(Gather_init, PC_GATHER, ROOT_ARG, root)
PC_REG_FN(Scatter_init, PC_SCATTER, ROOT_ARG, root)
PC_REG_FN(Allgather_init, PC_ALLGATHER, NO_ROOT_ARG, 0)
PC_REG_FN(Alltoall_init, PC_ALLTOALL, NO_ROOT_ARG, 0)

API_WEAK(Barrier_init)
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Barrier_init", PC(.kind = PC_BARRIER, .comm = comm), info, request);
}

API_WEAK(Bcast_init)
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Bcast_init",
                      PC(.kind = PC_BCAST, .rbuf = buffer, .rcount = count, .rdt = datatype,
                         .root = root, .comm = comm),
                      info, request);
}

API_WEAK(Gatherv_init)
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Gatherv_init",
                      PC(.kind = PC_GATHERV, .sbuf = sendbuf, .scount = sendcount,
                         .sdt = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,
                         .rdispls = displs, .rdt = recvtype, .root = root, .comm = comm),
                      info, request);
}

API_WEAK(Scatterv_init)
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    return pcoll_init("MPI_Scatterv_init",
                      PC(.kind = PC_SCATTERV, .sbuf = sendbuf, .scounts = sendcounts,
                         .sdispls = displs, .sdt = sendtype, .rbuf = recvbuf,
                         .rcount = recvcount, .rdt = recvtype, .root = root, .comm = comm),
                      info, request);
}

API_WEAK(Allgatherv_init)
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    return pcoll_init("MPI_Allgatherv_init",
                      PC(.kind = PC_ALLGATHERV, .sbuf = sendbuf, .scount = sendcount,
                         .sdt = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,
                         .rdispls = displs, .rdt = recvtype, .comm = comm),
                      info, request);
}

API_WEAK(Alltoallv_init)
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Alltoallv_init",
                      PC(.kind = PC_ALLTOALLV, .sbuf = sendbuf, .scounts = sendcounts,
                         .sdispls = sdispls, .sdt = sendtype, .rbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = rdispls, .rdt = recvtype,
                         .comm = comm),
                      info, request);
}

API_WEAK(Alltoallw_init)
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Alltoallw_init",
                      PC(.kind = PC_ALLTOALLW, .sbuf = sendbuf, .scounts = sendcounts,
                         .sdispls = sdispls, .sdts = sendtypes, .rbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = rdispls, .rdts = recvtypes,
                         .comm = comm),
                      info, request);
}

/* The reductions without a root share one shape. */
#define PC_RED(k, fname, sb, rb, n, dt, o, cm)                                  \
    pcoll_init(fname, PC(.kind = (k), .sbuf = (sb), .rbuf = (rb), .rcount = (n), \
                         .rdt = (dt), .op = (o), .comm = (cm)),                  \
               info, request)

API_WEAK(Reduce_init)
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcoll_init("MPI_Reduce_init",
                      PC(.kind = PC_REDUCE, .sbuf = sendbuf, .rbuf = recvbuf, .rcount = count,
                         .rdt = datatype, .op = op, .root = root, .comm = comm),
                      info, request);
}

API_WEAK(Allreduce_init)
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return PC_RED(PC_ALLREDUCE, "MPI_Allreduce_init", sendbuf, recvbuf, count, datatype, op,
                  comm);
}

API_WEAK(Reduce_scatter_block_init)
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   MPI_Info info, MPI_Request *request)
{
    return PC_RED(PC_REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block_init", sendbuf, recvbuf,
                  recvcount, datatype, op, comm);
}

API_WEAK(Reduce_scatter_init)
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    return pcoll_init("MPI_Reduce_scatter_init",
                      PC(.kind = PC_REDUCE_SCATTER, .sbuf = sendbuf, .rbuf = recvbuf,
                         .rcounts = recvcounts, .rdt = datatype, .op = op, .comm = comm),
                      info, request);
}

API_WEAK(Scan_init)
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return PC_RED(PC_SCAN, "MPI_Scan_init", sendbuf, recvbuf, count, datatype, op, comm);
}

API_WEAK(Exscan_init)
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return PC_RED(PC_EXSCAN, "MPI_Exscan_init", sendbuf, recvbuf, count, datatype, op, comm);
}
