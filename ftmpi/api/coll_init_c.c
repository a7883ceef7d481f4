/*
 * The large-count persistent collectives (MPI_Bcast_init_c ...
 * MPI_Exscan_init_c, MPI_Neighbor_*_init_c): a persistent request (api/coll_persist.c) whose every
 * MPI_Start runs the matching non-blocking _c call with the arguments kept
 * here (arrays by address: the standard forbids changing them while the
 * request exists).
 */
#include "api/api.h"

typedef enum {
    PCC_BCAST, PCC_GATHER, PCC_GATHERV, PCC_SCATTER, PCC_SCATTERV, PCC_ALLGATHER,
    PCC_ALLGATHERV, PCC_ALLTOALL, PCC_ALLTOALLV, PCC_ALLTOALLW, PCC_REDUCE, PCC_ALLREDUCE,
    PCC_REDUCE_SCATTER, PCC_REDUCE_SCATTER_BLOCK, PCC_SCAN, PCC_EXSCAN, PCC_NBR_ALLGATHER,
    PCC_NBR_ALLGATHERV, PCC_NBR_ALLTOALL, PCC_NBR_ALLTOALLV, PCC_NBR_ALLTOALLW
} pcc_kind_t;

typedef struct {
    pcc_kind_t kind;
    int root;
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount;
    const MPI_Count *scounts, *rcounts;
    const MPI_Aint *sdispls, *rdispls;
    MPI_Datatype sdt, rdt;
    const MPI_Datatype *sdts, *rdts;
    MPI_Op op;
    MPI_Comm comm;
} pcc_t;

static int pcc_call(const void *rec, MPI_Request *q)
{
    const pcc_t *a = rec;
    switch (a->kind) {
    case PCC_BCAST: return PMPI_Ibcast_c(a->rbuf, a->rcount, a->rdt, a->root, a->comm, q);
    case PCC_GATHER:
        return PMPI_Igather_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root,
                              a->comm, q);
    case PCC_GATHERV:
        return PMPI_Igatherv_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls,
                               a->rdt, a->root, a->comm, q);
    case PCC_SCATTER:
        return PMPI_Iscatter_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->root,
                               a->comm, q);
    case PCC_SCATTERV:
        return PMPI_Iscatterv_c(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcount,
                                a->rdt, a->root, a->comm, q);
    case PCC_ALLGATHER:
        return PMPI_Iallgather_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->comm,
                                 q);
    case PCC_ALLGATHERV:
        return PMPI_Iallgatherv_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts, a->rdispls,
                                  a->rdt, a->comm, q);
    case PCC_ALLTOALL:
        return PMPI_Ialltoall_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt, a->comm,
                                q);
    case PCC_ALLTOALLV:
        return PMPI_Ialltoallv_c(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf, a->rcounts,
                                 a->rdispls, a->rdt, a->comm, q);
    case PCC_ALLTOALLW:
        return PMPI_Ialltoallw_c(a->sbuf, a->scounts, a->sdispls, a->sdts, a->rbuf, a->rcounts,
                                 a->rdispls, a->rdts, a->comm, q);
    case PCC_REDUCE:
        return PMPI_Ireduce_c(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->root, a->comm, q);
    case PCC_ALLREDUCE:
        return PMPI_Iallreduce_c(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    case PCC_REDUCE_SCATTER:
        return PMPI_Ireduce_scatter_c(a->sbuf, a->rbuf, a->rcounts, a->rdt, a->op, a->comm, q);
    case PCC_REDUCE_SCATTER_BLOCK:
        return PMPI_Ireduce_scatter_block_c(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm,
                                            q);
    case PCC_SCAN: return PMPI_Iscan_c(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    case PCC_EXSCAN:
        return PMPI_Iexscan_c(a->sbuf, a->rbuf, a->rcount, a->rdt, a->op, a->comm, q);
    case PCC_NBR_ALLGATHER:
        return PMPI_Ineighbor_allgather_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt,
                                          a->comm, q);
    case PCC_NBR_ALLGATHERV:
        return PMPI_Ineighbor_allgatherv_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts,
                                           a->rdispls, a->rdt, a->comm, q);
    case PCC_NBR_ALLTOALL:
        return PMPI_Ineighbor_alltoall_c(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt,
                                         a->comm, q);
    case PCC_NBR_ALLTOALLV:
        return PMPI_Ineighbor_alltoallv_c(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf,
                                          a->rcounts, a->rdispls, a->rdt, a->comm, q);
    case PCC_NBR_ALLTOALLW:
        return PMPI_Ineighbor_alltoallw_c(a->sbuf, a->scounts, a->sdispls, a->sdts, a->rbuf,
                                          a->rcounts, a->rdispls, a->rdts, a->comm, q);
    }
    return MPI_ERR_INTERN;
}

static int pcc_init(const char *fname, const pcc_t *a, MPI_Info info, MPI_Request *request)
{
    return api_pcoll_init_round(fname, a->comm, pcc_call, a, sizeof(*a), info, request);
}

#define PCC(...) (&(pcc_t){__VA_ARGS__})
#define PAIR_PARAMS                                                                     \
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,      \
        MPI_Count recvcount, MPI_Datatype recvtype
#define PAIR_FIELDS                                                                      \
    .sbuf = sendbuf, .scount = sendcount, .sdt = sendtype, .rbuf = recvbuf,              \
    .rcount = recvcount, .rdt = recvtype

API_WEAK(Bcast_init_c)
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcc_init("MPI_Bcast_init_c",
                    PCC(.kind = PCC_BCAST, .rbuf = buffer, .rcount = count, .rdt = datatype,
                        .root = root, .comm = comm),
                    info, request);
}

API_WEAK(Gather_init_c)
int PMPI_Gather_init_c(PAIR_PARAMS, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcc_init("MPI_Gather_init_c",
                    PCC(.kind = PCC_GATHER, PAIR_FIELDS, .root = root, .comm = comm), info,
                    request);
}

API_WEAK(Scatter_init_c)
int PMPI_Scatter_init_c(PAIR_PARAMS, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return pcc_init("MPI_Scatter_init_c",
                    PCC(.kind = PCC_SCATTER, PAIR_FIELDS, .root = root, .comm = comm), info,
                    request);
}

/* The unrooted collectives of one (count, type) per side or of a
 * reduction: PARAMS and FIELDS say which. */
#define UNROOTED_INIT(NAME, KIND, PARAMS, FIELDS)                                          \
    API_WEAK(NAME##_init_c)                                                                \
    int PMPI_##NAME##_init_c(PARAMS, MPI_Comm comm, MPI_Info info, MPI_Request *request)   \
    {                                                                                      \
        return pcc_init("MPI_" #NAME "_init_c", PCC(.kind = KIND, FIELDS, .comm = comm),   \
                        info, request);                                                    \
    }
#define PAIR_INIT(NAME, KIND) UNROOTED_INIT(NAME, KIND, PAIR_PARAMS, PAIR_FIELDS)

PAIR_INIT(Allgather, PCC_ALLGATHER)
PAIR_INIT(Alltoall, PCC_ALLTOALL)
PAIR_INIT(Neighbor_allgather, PCC_NBR_ALLGATHER)
PAIR_INIT(Neighbor_alltoall, PCC_NBR_ALLTOALL)

API_WEAK(Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    return pcc_init("MPI_Gatherv_init_c",
                    PCC(.kind = PCC_GATHERV, .sbuf = sendbuf, .scount = sendcount,
                        .sdt = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,
                        .rdispls = displs, .rdt = recvtype, .root = root, .comm = comm),
                    info, request);
}

API_WEAK(Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    return pcc_init("MPI_Scatterv_init_c",
                    PCC(.kind = PCC_SCATTERV, .sbuf = sendbuf, .scounts = sendcounts,
                        .sdispls = displs, .sdt = sendtype, .rbuf = recvbuf,
                        .rcount = recvcount, .rdt = recvtype, .root = root, .comm = comm),
                    info, request);
}

#define RED_PARAMS \
    const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op
#define RED_FIELDS .sbuf = sendbuf, .rbuf = recvbuf, .rcount = count, .rdt = datatype, .op = op
#define RED_INIT(NAME, KIND) UNROOTED_INIT(NAME, KIND, RED_PARAMS, RED_FIELDS)

RED_INIT(Allreduce, PCC_ALLREDUCE)
RED_INIT(Scan, PCC_SCAN)
RED_INIT(Exscan, PCC_EXSCAN)

API_WEAK(Reduce_init_c)
int PMPI_Reduce_init_c(RED_PARAMS, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return pcc_init("MPI_Reduce_init_c",
                    PCC(.kind = PCC_REDUCE, RED_FIELDS, .root = root, .comm = comm), info,
                    request);
}

API_WEAK(Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request)
{
    return pcc_init("MPI_Reduce_scatter_block_init_c",
                    PCC(.kind = PCC_REDUCE_SCATTER_BLOCK, .sbuf = sendbuf, .rbuf = recvbuf,
                        .rcount = recvcount, .rdt = datatype, .op = op, .comm = comm),
                    info, request);
}

API_WEAK(Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    return pcc_init("MPI_Reduce_scatter_init_c",
                    PCC(.kind = PCC_REDUCE_SCATTER, .sbuf = sendbuf, .rbuf = recvbuf,
                        .rcounts = recvcounts, .rdt = datatype, .op = op, .comm = comm),
                    info, request);
}

/* Allgatherv, Alltoallv, Alltoallw and their neighbourhood twins: the
 * same parameters, one kind each. */
#define AGV_INIT(NAME, KIND)                                                                  \
    API_WEAK(NAME##_init_c)                                                                   \
    int PMPI_##NAME##_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,  \
                             void *recvbuf, const MPI_Count recvcounts[],                     \
                             const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,   \
                             MPI_Info info, MPI_Request *request)                             \
    {                                                                                         \
        return pcc_init("MPI_" #NAME "_init_c",                                               \
                        PCC(.kind = KIND, .sbuf = sendbuf, .scount = sendcount,               \
                            .sdt = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,          \
                            .rdispls = displs, .rdt = recvtype, .comm = comm),                \
                        info, request);                                                       \
    }
#define A2AV_INIT(NAME, KIND)                                                                 \
    API_WEAK(NAME##_init_c)                                                                   \
    int PMPI_##NAME##_init_c(const void *sendbuf, const MPI_Count sendcounts[],               \
                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,  \
                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],          \
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,             \
                             MPI_Request *request)                                            \
    {                                                                                         \
        return pcc_init("MPI_" #NAME "_init_c",                                               \
                        PCC(.kind = KIND, .sbuf = sendbuf, .scounts = sendcounts,             \
                            .sdispls = sdispls, .sdt = sendtype, .rbuf = recvbuf,             \
                            .rcounts = recvcounts, .rdispls = rdispls, .rdt = recvtype,       \
                            .comm = comm),                                                    \
                        info, request);                                                       \
    }
#define A2AW_INIT(NAME, KIND)                                                                 \
    API_WEAK(NAME##_init_c)                                                                   \
    int PMPI_##NAME##_init_c(const void *sendbuf, const MPI_Count sendcounts[],               \
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],        \
                             void *recvbuf, const MPI_Count recvcounts[],                     \
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],        \
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)              \
    {                                                                                         \
        return pcc_init("MPI_" #NAME "_init_c",                                               \
                        PCC(.kind = KIND, .sbuf = sendbuf, .scounts = sendcounts,             \
                            .sdispls = sdispls, .sdts = sendtypes, .rbuf = recvbuf,           \
                            .rcounts = recvcounts, .rdispls = rdispls, .rdts = recvtypes,     \
                            .comm = comm),                                                    \
                        info, request);                                                       \
    }

AGV_INIT(Allgatherv, PCC_ALLGATHERV)
AGV_INIT(Neighbor_allgatherv, PCC_NBR_ALLGATHERV)
A2AV_INIT(Alltoallv, PCC_ALLTOALLV)
A2AV_INIT(Neighbor_alltoallv, PCC_NBR_ALLTOALLV)
A2AW_INIT(Alltoallw, PCC_ALLTOALLW)
A2AW_INIT(Neighbor_alltoallw, PCC_NBR_ALLTOALLW)
