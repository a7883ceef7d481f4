/*
 * Neighborhood collectives: MPI_Neighbor_allgather(v) and
 * MPI_Neighbor_alltoall(v/w) on Cartesian, graph and distributed graph
 * communicators, and their non-blocking forms MPI_Ineighbor_* (the
 * persistent MPI_Neighbor_*_init are in neighbor_persist.c). Every process
 * builds one collective schedule (coll/sched.h): one receive per
 * in-neighbor and one send per out-neighbor, all concurrent, on the
 * collective context; the blocking form runs it to completion, the
 * non-blocking one returns its request. Cost max(in, out) (alpha + n beta),
 * no extra copies.
 *
 * Neighbor order: Cartesian, for each dimension the neighbor in the
 * negative direction then the one in the positive direction (MPI_PROC_NULL
 * off a non-periodic edge: its block is neither sent nor written); graph,
 * MPI_Graph_neighbors order for both; distributed graph, sources and
 * destinations as MPI_Dist_graph_neighbors returns them.
 *
 * A schedule's messages share one tag, and the messages between two
 * processes match in the order the schedule creates them. When both
 * neighbors of a Cartesian dimension are the same process (a periodic
 * dimension of size 1 or 2), its block sent towards +1 must land in the
 * peer's block of its -1 side: so, per dimension, the receives are created
 * -1 side first and the sends +1 side first. Only the neighbors of one
 * dimension (or self, in several dimensions of size 1) can be the same
 * process, so this order pairs every block with its own.
 */
#include "api/comm_int.h"
#include "api/coll_check.h"
#include "coll/coll_nb.h"

#include <stdlib.h>

typedef struct {
    int nin, nout;
    int *in, *out;
    void **rb;        /* [nin] receive block addresses */
    int *rc;          /* [nin] */
    dt_t **rdt;       /* [nin] */
    const void **sb;  /* [nout] */
    int *sc;          /* [nout] */
    dt_t **sdt;       /* [nout] */
} nbr_t;

static void nbr_free(nbr_t *x)
{
    free(x->in);
    free(x->out);
    free(x->rb);
    free(x->rc);
    free(x->rdt);
    free(x->sb);
    free(x->sc);
    free(x->sdt);
}

static int nbr_init(comm_t *c, nbr_t *x)
{
    int rc = topo_neighbors(c->topo, c->rank, &x->nin, &x->in, &x->nout, &x->out);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t ni = (size_t)x->nin + 1, no = (size_t)x->nout + 1;
    x->rb = malloc(ni * sizeof(void *));
    x->rc = malloc(ni * sizeof(int));
    x->rdt = malloc(ni * sizeof(dt_t *));
    x->sb = malloc(no * sizeof(void *));
    x->sc = malloc(no * sizeof(int));
    x->sdt = malloc(no * sizeof(dt_t *));
    if (!x->rb || !x->rc || !x->rdt || !x->sb || !x->sc || !x->sdt)
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

/* Schedule x's messages and run them (rp NULL: to completion) or start
 * them (*rp: the request). */
static int nbr_run(comm_t *c, nbr_t *x, req_t **rp)
{
    int cart = ((topo_t *)c->topo)->kind == MPI_CART;
    sched_t *s = sched_new(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < x->nin; i++) {
        sched_keep_dt(s, x->rdt[i]);
        if (x->in[i] != MPI_PROC_NULL)
            sched_recv(s, x->rb[i], (size_t)x->rc[i], x->rdt[i], x->in[i]);
    }
    for (int k = 0; k < x->nout; k++) {
        int i = cart ? k ^ 1 : k; /* Cartesian: +1 side first */
        sched_keep_dt(s, x->sdt[i]);
        if (x->out[i] != MPI_PROC_NULL)
            sched_send(s, x->sb[i], (size_t)x->sc[i], x->sdt[i], x->out[i]);
    }
    return coll_run(s, rp); /* a build error (no memory) is in s->err */
}

/* Run x for the blocking form (request NULL) or start it and hand the
 * request to the user. */
static int nbr_go(comm_t *c, nbr_t *x, MPI_Request *request)
{
    int rc;
    COLL_RUN(request, nbr_run(c, x, rp_));
    return rc;
}

/* The communicator of a neighborhood collective: an intracommunicator
 * with a topology. */
#define CHECK_NBR_COMM(h, c)                                                \
    do {                                                                    \
        CHECK_COMM(h, c);                                                   \
        if (!(c)->topo) API_FAIL(MPI_ERR_TOPOLOGY);                         \
        CHECK_USABLE(c);                                                    \
    } while (0)

#define CHECK_NOT_IN_PLACE(b) do { if ((b) == MPI_IN_PLACE) API_FAIL(MPI_ERR_BUFFER); } while (0)

static char *at(const void *buf, MPI_Aint off)
{
    return (char *)buf + off;
}

/* Neighbor_allgather (every neighbour gets the same block: spread 0) and
 * Neighbor_alltoall (neighbour i gets block i: spread 1). */
static int nbr_regular(const char *fname, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, int spread,
                       MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt, *rdt;
    nbr_t x = {0};
    CHECK_NBR_COMM(comm, c);
    CHECK_COUNT(sendcount);
    CHECK_COUNT(recvcount);
    CHECK_DT(sendtype, sdt);
    CHECK_DT(recvtype, rdt);
    CHECK_NOT_IN_PLACE(sendbuf);
    CHECK_NOT_IN_PLACE(recvbuf);
    CHECK_BUF(sendbuf, sendcount, sdt);
    CHECK_BUF(recvbuf, recvcount, rdt);
    rc = nbr_init(c, &x);
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < x.nin; i++) {
            x.rb[i] = at(recvbuf, (MPI_Aint)i * recvcount * rdt->extent);
            x.rc[i] = recvcount;
            x.rdt[i] = rdt;
        }
        for (int i = 0; i < x.nout; i++) {
            x.sb[i] = at(sendbuf, (MPI_Aint)(spread ? i : 0) * sendcount * sdt->extent);
            x.sc[i] = sendcount;
            x.sdt[i] = sdt;
        }
        rc = nbr_go(c, &x, request);
    }
    nbr_free(&x);
    API_END();
}

API_WEAK(Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_regular("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 0, NULL);
}

static int nbr_allgatherv(const char *fname, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt, *rdt;
    nbr_t x = {0};
    CHECK_NBR_COMM(comm, c);
    CHECK_COUNT(sendcount);
    CHECK_DT(sendtype, sdt);
    CHECK_DT(recvtype, rdt);
    CHECK_NOT_IN_PLACE(sendbuf);
    CHECK_NOT_IN_PLACE(recvbuf);
    CHECK_BUF(sendbuf, sendcount, sdt);
    rc = nbr_init(c, &x);
    if (rc != MPI_SUCCESS)
        goto out;
    if (x.nin > 0 && (!recvcounts || !displs)) {
        rc = MPI_ERR_ARG;
        goto out;
    }
    for (int i = 0; i < x.nin; i++) {
        if (recvcounts[i] < 0) {
            rc = MPI_ERR_COUNT;
            goto out;
        }
        x.rb[i] = at(recvbuf, (MPI_Aint)displs[i] * rdt->extent);
        x.rc[i] = recvcounts[i];
        x.rdt[i] = rdt;
    }
    for (int i = 0; i < x.nout; i++) {
        x.sb[i] = sendbuf;
        x.sc[i] = sendcount;
        x.sdt[i] = sdt;
    }
    rc = nbr_go(c, &x, request);
out:
    nbr_free(&x);
    API_END();
}

API_WEAK(Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_regular("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 1, NULL);
}

static int nbr_alltoallv(const char *fname, const void *sendbuf, const int sendcounts[],
                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt, *rdt;
    nbr_t x = {0};
    CHECK_NBR_COMM(comm, c);
    CHECK_DT(sendtype, sdt);
    CHECK_DT(recvtype, rdt);
    CHECK_NOT_IN_PLACE(sendbuf);
    CHECK_NOT_IN_PLACE(recvbuf);
    rc = nbr_init(c, &x);
    if (rc != MPI_SUCCESS)
        goto out;
    if ((x.nin > 0 && (!recvcounts || !rdispls)) || (x.nout > 0 && (!sendcounts || !sdispls))) {
        rc = MPI_ERR_ARG;
        goto out;
    }
    for (int i = 0; i < x.nin; i++) {
        if (recvcounts[i] < 0) {
            rc = MPI_ERR_COUNT;
            goto out;
        }
        x.rb[i] = at(recvbuf, (MPI_Aint)rdispls[i] * rdt->extent);
        x.rc[i] = recvcounts[i];
        x.rdt[i] = rdt;
    }
    for (int i = 0; i < x.nout; i++) {
        if (sendcounts[i] < 0) {
            rc = MPI_ERR_COUNT;
            goto out;
        }
        x.sb[i] = at(sendbuf, (MPI_Aint)sdispls[i] * sdt->extent);
        x.sc[i] = sendcounts[i];
        x.sdt[i] = sdt;
    }
    rc = nbr_go(c, &x, request);
out:
    nbr_free(&x);
    API_END();
}

/* One datatype argument of the w form (MPI_ERR_TYPE if not usable). */
static dt_t *w_type(MPI_Datatype h)
{
    dt_t *dt = dt_get(h);
    if (!dt || !dt->committed || h == MPI_LB || h == MPI_UB)
        return NULL;
    return dt;
}

static int nbr_alltoallw(const char *fname, const void *sendbuf, const int sendcounts[],
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                         const int recvcounts[], const MPI_Aint rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    nbr_t x = {0};
    CHECK_NBR_COMM(comm, c);
    CHECK_NOT_IN_PLACE(sendbuf);
    CHECK_NOT_IN_PLACE(recvbuf);
    rc = nbr_init(c, &x);
    if (rc != MPI_SUCCESS)
        goto out;
    if ((x.nin > 0 && (!recvcounts || !rdispls || !recvtypes)) ||
        (x.nout > 0 && (!sendcounts || !sdispls || !sendtypes))) {
        rc = MPI_ERR_ARG;
        goto out;
    }
    for (int i = 0; i < x.nin; i++) {
        if (recvcounts[i] < 0) {
            rc = MPI_ERR_COUNT;
            goto out;
        }
        if (!(x.rdt[i] = w_type(recvtypes[i]))) {
            rc = MPI_ERR_TYPE;
            goto out;
        }
        x.rb[i] = at(recvbuf, rdispls[i]);
        x.rc[i] = recvcounts[i];
    }
    for (int i = 0; i < x.nout; i++) {
        if (sendcounts[i] < 0) {
            rc = MPI_ERR_COUNT;
            goto out;
        }
        if (!(x.sdt[i] = w_type(sendtypes[i]))) {
            rc = MPI_ERR_TYPE;
            goto out;
        }
        x.sb[i] = at(sendbuf, sdispls[i]);
        x.sc[i] = sendcounts[i];
    }
    rc = nbr_go(c, &x, request);
out:
    nbr_free(&x);
    API_END();
}

/* ---- the entry points: blocking (request NULL) and non-blocking ---- */

/* A non-blocking form given no place for its request. */
#define NEED_REQ(request, name) \
    do { if (!(request)) return api_fail_early(comm, MPI_ERR_REQUEST, name); } while (0)

API_WEAK(Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ineighbor_allgather");
    return nbr_regular("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 0, request);
}

API_WEAK(Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ineighbor_alltoall");
    return nbr_regular("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 1, request);
}

API_WEAK(Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                          recvcounts, displs, recvtype, comm, NULL);
}

API_WEAK(Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ineighbor_allgatherv");
    return nbr_allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf,
                          recvcounts, displs, recvtype, comm, request);
}

API_WEAK(Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                         recvbuf, recvcounts, rdispls, recvtype, comm, NULL);
}

API_WEAK(Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ineighbor_alltoallv");
    return nbr_alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype,
                         recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

API_WEAK(Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm)
{
    return nbr_alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                         recvbuf, recvcounts, rdispls, recvtypes, comm, NULL);
}

API_WEAK(Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ineighbor_alltoallw");
    return nbr_alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes,
                         recvbuf, recvcounts, rdispls, recvtypes, comm, request);
}
