/*
 * The large-count collectives with one count per side (MPI-4.0 6.x, _c
 * forms), blocking and non-blocking, and MPI_Reduce_local_c (MPI_Op_create_c is in
 * api/op.c):
 * each runs its int function with the counts expressed by api/count_c.h (a
 * count beyond INT_MAX: one element of a contiguous type; block i of a
 * gather is then at i * count * extent, as the standard places it).
 * Predefined reductions work on such a type element by element; a user
 * function sees the caller's type and count (core/op.c).
 */
#include "api/count_c.h"

#include "api/api.h"

/* Two (count, type) pairs; on failure nothing is left to free. */
static int cnt_pair(MPI_Count sc, MPI_Datatype st, MPI_Count rc_, MPI_Datatype rt, cnt_t *s,
                    cnt_t *r)
{
    int rc = cnt_make(sc, st, s);
    if (rc == MPI_SUCCESS && (rc = cnt_make(rc_, rt, r)) != MPI_SUCCESS)
        cnt_done(s);
    return rc;
}

#define PAIR_CALL(FNAME, CALL)                                                         \
    do {                                                                               \
        cnt_t s, r;                                                                    \
        int rc = cnt_pair(sendcount, sendtype, recvcount, recvtype, &s, &r);           \
        if (rc != MPI_SUCCESS)                                                         \
            return cnt_fail(comm, rc, FNAME);                                          \
        rc = CALL;                                                                     \
        cnt_done(&s);                                                                  \
        cnt_done(&r);                                                                  \
        return rc;                                                                     \
    } while (0)

#define ONE_CALL(FNAME, CALL)                                 \
    do {                                                      \
        cnt_t c;                                              \
        int rc = cnt_make(count, datatype, &c);               \
        if (rc != MPI_SUCCESS)                                \
            return cnt_fail(comm, rc, FNAME);                 \
        rc = CALL;                                            \
        cnt_done(&c);                                         \
        return rc;                                            \
    } while (0)

#define PAIR_PARAMS                                                                     \
    const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,      \
        MPI_Count recvcount, MPI_Datatype recvtype
#define PAIR_ARGS sendbuf, s.n, s.t, recvbuf, r.n, r.t

/* Gather, Scatter (rooted), Allgather, Alltoall and the neighbourhood pair:
 * blocking and non-blocking. */
#define PAIR_ROOTED(NAME, INAME)                                                                  \
    API_WEAK(NAME##_c)                                                                       \
    int PMPI_##NAME##_c(PAIR_PARAMS, int root, MPI_Comm comm)                               \
    {                                                                                        \
        PAIR_CALL("MPI_" #NAME "_c", PMPI_##NAME(PAIR_ARGS, root, comm));                    \
    }                                                                                        \
    API_WEAK(INAME##_c)                                                                      \
    int PMPI_##INAME##_c(PAIR_PARAMS, int root, MPI_Comm comm, MPI_Request *request)        \
    {                                                                                        \
        PAIR_CALL("MPI_" #INAME "_c", PMPI_##INAME(PAIR_ARGS, root, comm, request));         \
    }
#define PAIR_ALL(NAME)                                                                \
    API_WEAK(NAME##_c)                                                                \
    int PMPI_##NAME##_c(PAIR_PARAMS, MPI_Comm comm)                                   \
    {                                                                                 \
        PAIR_CALL("MPI_" #NAME "_c", PMPI_##NAME(PAIR_ARGS, comm));                   \
    }
#define PAIR_IALL(NAME)                                                               \
    API_WEAK(NAME##_c)                                                                \
    int PMPI_##NAME##_c(PAIR_PARAMS, MPI_Comm comm, MPI_Request *request)             \
    {                                                                                 \
        PAIR_CALL("MPI_" #NAME "_c", PMPI_##NAME(PAIR_ARGS, comm, request));          \
    }

PAIR_ROOTED(Gather, Igather)
PAIR_ROOTED(Scatter, Iscatter)
PAIR_ALL(Allgather)
PAIR_IALL(Iallgather)
PAIR_ALL(Alltoall)
PAIR_IALL(Ialltoall)
PAIR_ALL(Neighbor_allgather)
PAIR_IALL(Ineighbor_allgather)
PAIR_ALL(Neighbor_alltoall)
PAIR_IALL(Ineighbor_alltoall)

API_WEAK(Bcast_c)
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    ONE_CALL("MPI_Bcast_c", PMPI_Bcast(buffer, c.n, c.t, root, comm));
}

API_WEAK(Ibcast_c)
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    ONE_CALL("MPI_Ibcast_c", PMPI_Ibcast(buffer, c.n, c.t, root, comm, request));
}

/* Reductions: Reduce (rooted), Allreduce, Scan, Exscan, Reduce_scatter_block. */
#define RED_PARAMS \
    const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op
#define RED_ARGS sendbuf, recvbuf, c.n, c.t, op
#define RED(NAME, INAME)                                                                 \
    API_WEAK(NAME##_c)                                                                \
    int PMPI_##NAME##_c(RED_PARAMS, MPI_Comm comm)                                    \
    {                                                                                 \
        ONE_CALL("MPI_" #NAME "_c", PMPI_##NAME(RED_ARGS, comm));                     \
    }                                                                                 \
    API_WEAK(INAME##_c)                                                               \
    int PMPI_##INAME##_c(RED_PARAMS, MPI_Comm comm, MPI_Request *request)             \
    {                                                                                 \
        ONE_CALL("MPI_" #INAME "_c", PMPI_##INAME(RED_ARGS, comm, request));          \
    }

RED(Allreduce, Iallreduce)
RED(Scan, Iscan)
RED(Exscan, Iexscan)

API_WEAK(Reduce_c)
int PMPI_Reduce_c(RED_PARAMS, int root, MPI_Comm comm)
{
    ONE_CALL("MPI_Reduce_c", PMPI_Reduce(RED_ARGS, root, comm));
}

API_WEAK(Ireduce_c)
int PMPI_Ireduce_c(RED_PARAMS, int root, MPI_Comm comm, MPI_Request *request)
{
    ONE_CALL("MPI_Ireduce_c", PMPI_Ireduce(RED_ARGS, root, comm, request));
}

/* recvcount is the count here */
API_WEAK(Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    MPI_Count count = recvcount;
    ONE_CALL("MPI_Reduce_scatter_block_c", PMPI_Reduce_scatter_block(RED_ARGS, comm));
}

API_WEAK(Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    MPI_Count count = recvcount;
    ONE_CALL("MPI_Ireduce_scatter_block_c",
             PMPI_Ireduce_scatter_block(RED_ARGS, comm, request));
}

API_WEAK(Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op)
{
    MPI_Comm comm = MPI_COMM_SELF;
    ONE_CALL("MPI_Reduce_local_c", PMPI_Reduce_local(inbuf, inoutbuf, c.n, c.t, op));
}
