/*
 * Persistent neighborhood collectives (MPI-4.0 8.8): MPI_Neighbor_*_init.
 * Each is a persistent collective request (api/coll_persist.c) whose round
 * is the matching MPI_Ineighbor_* call with the arguments kept here
 * (buffers and arrays by address: the standard forbids changing them while
 * the request exists). As for the other persistent collectives, the
 * arguments are checked and their errors raised by each MPI_Start.
 */
#include "api/api.h"

typedef enum { NP_ALLGATHER, NP_ALLGATHERV, NP_ALLTOALL, NP_ALLTOALLV, NP_ALLTOALLW } np_kind_t;

typedef struct {
    np_kind_t kind;
    const void *sbuf;
    void *rbuf;
    int scount, rcount;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const MPI_Aint *swdispls, *rwdispls;
    MPI_Datatype sdt, rdt;
    const MPI_Datatype *sdts, *rdts;
    MPI_Comm comm;
} np_args_t;

static int np_round(const void *args, MPI_Request *q)
{
    const np_args_t *a = args;
    switch (a->kind) {
    case NP_ALLGATHER:
        return PMPI_Ineighbor_allgather(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt,
                                        a->comm, q);
    case NP_ALLGATHERV:
        return PMPI_Ineighbor_allgatherv(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcounts,
                                         a->rdispls, a->rdt, a->comm, q);
    case NP_ALLTOALL:
        return PMPI_Ineighbor_alltoall(a->sbuf, a->scount, a->sdt, a->rbuf, a->rcount, a->rdt,
                                       a->comm, q);
    case NP_ALLTOALLV:
        return PMPI_Ineighbor_alltoallv(a->sbuf, a->scounts, a->sdispls, a->sdt, a->rbuf,
                                        a->rcounts, a->rdispls, a->rdt, a->comm, q);
    case NP_ALLTOALLW:
        return PMPI_Ineighbor_alltoallw(a->sbuf, a->scounts, a->swdispls, a->sdts, a->rbuf,
                                        a->rcounts, a->rwdispls, a->rdts, a->comm, q);
    }
    return MPI_ERR_INTERN;
}

#define NP(...) (&(np_args_t){__VA_ARGS__})
#define NP_INIT(fname, args) \
    api_pcoll_init_round(fname, (args)->comm, np_round, (args), sizeof(np_args_t), info, request)

API_WEAK(Neighbor_allgather_init)
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return NP_INIT("MPI_Neighbor_allgather_init",
                   NP(.kind = NP_ALLGATHER, .sbuf = sendbuf, .scount = sendcount,
                      .sdt = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rdt = recvtype,
                      .comm = comm));
}

API_WEAK(Neighbor_allgatherv_init)
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    return NP_INIT("MPI_Neighbor_allgatherv_init",
                   NP(.kind = NP_ALLGATHERV, .sbuf = sendbuf, .scount = sendcount,
                      .sdt = sendtype, .rbuf = recvbuf, .rcounts = recvcounts,
                      .rdispls = displs, .rdt = recvtype, .comm = comm));
}

API_WEAK(Neighbor_alltoall_init)
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return NP_INIT("MPI_Neighbor_alltoall_init",
                   NP(.kind = NP_ALLTOALL, .sbuf = sendbuf, .scount = sendcount,
                      .sdt = sendtype, .rbuf = recvbuf, .rcount = recvcount, .rdt = recvtype,
                      .comm = comm));
}

API_WEAK(Neighbor_alltoallv_init)
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return NP_INIT("MPI_Neighbor_alltoallv_init",
                   NP(.kind = NP_ALLTOALLV, .sbuf = sendbuf, .scounts = sendcounts,
                      .sdispls = sdispls, .sdt = sendtype, .rbuf = recvbuf,
                      .rcounts = recvcounts, .rdispls = rdispls, .rdt = recvtype,
                      .comm = comm));
}

API_WEAK(Neighbor_alltoallw_init)
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    return NP_INIT("MPI_Neighbor_alltoallw_init",
                   NP(.kind = NP_ALLTOALLW, .sbuf = sendbuf, .scounts = sendcounts,
                      .swdispls = sdispls, .sdts = sendtypes, .rbuf = recvbuf,
                      .rcounts = recvcounts, .rwdispls = rdispls, .rdts = recvtypes,
                      .comm = comm));
}
