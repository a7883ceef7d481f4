/* Collective entry points: argument checks, then coll/. */
#include "api/api.h"

#include "coll/coll.h"

#define CHECK_INTRA(c) do { if ((c)->is_inter) API_FAIL(MPI_ERR_COMM); } while (0)
#define CHECK_ROOT(c, r) do { if ((r) < 0 || (r) >= (c)->size) API_FAIL(MPI_ERR_ROOT); } while (0)

API_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    API_BEGIN("MPI_Barrier");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_USABLE(c);
    rc = coll_barrier(c);
    API_END();
}

API_WEAK(Bcast)
int PMPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    API_BEGIN("MPI_Bcast");
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buffer, count, dt);
    CHECK_ROOT(c, root);
    CHECK_USABLE(c);
    rc = coll_bcast(c, buffer, count, dt, root);
    API_END();
}

static int reduce_checks(comm_t *c, const void *sbuf, void *rbuf, int count, dt_t *dt, op_t *op)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (!op)
        return MPI_ERR_OP;
    if (sbuf == rbuf && count > 0 && sbuf != MPI_IN_PLACE && c->size > 1)
        return MPI_ERR_BUFFER; /* aliased buffers: the standard forbids it */
    return op_check(op, dt);
}

API_WEAK(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op opn,
                int root, MPI_Comm comm)
{
    API_BEGIN("MPI_Reduce");
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_DT(type, dt);
    CHECK_ROOT(c, root);
    op_t *op = op_get(opn);
    if ((rc = reduce_checks(c, sendbuf, recvbuf, count, dt, op)) != MPI_SUCCESS)
        goto fail;
    if (sendbuf == MPI_IN_PLACE && c->rank != root)
        API_FAIL(MPI_ERR_BUFFER);
    CHECK_USABLE(c);
    rc = coll_reduce(c, sendbuf, recvbuf, count, dt, op, root);
    API_END();
}

API_WEAK(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op opn,
                   MPI_Comm comm)
{
    API_BEGIN("MPI_Allreduce");
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_DT(type, dt);
    op_t *op = op_get(opn);
    if ((rc = reduce_checks(c, sendbuf, recvbuf, count, dt, op)) != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    rc = coll_allreduce(c, sendbuf, recvbuf, count, dt, op);
    API_END();
}

API_WEAK(Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    API_BEGIN("MPI_Gather");
    comm_t *c;
    dt_t *sdt = NULL, *rdt = NULL;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_ROOT(c, root);
    if (sendbuf != MPI_IN_PLACE) {
        CHECK_COUNT(sendcount);
        CHECK_DT(sendtype, sdt);
    } else if (c->rank != root) {
        API_FAIL(MPI_ERR_BUFFER);
    }
    if (c->rank == root) {
        CHECK_COUNT(recvcount);
        CHECK_DT(recvtype, rdt);
    }
    CHECK_USABLE(c);
    rc = coll_gather(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt, root);
    API_END();
}

API_WEAK(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    API_BEGIN("MPI_Allgather");
    comm_t *c;
    dt_t *sdt = NULL, *rdt;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    if (sendbuf != MPI_IN_PLACE) {
        CHECK_COUNT(sendcount);
        CHECK_DT(sendtype, sdt);
    }
    CHECK_COUNT(recvcount);
    CHECK_DT(recvtype, rdt);
    CHECK_USABLE(c);
    rc = coll_allgather(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt);
    API_END();
}
