/*
 * Neighborhood collectives (blocking): MPI_Neighbor_allgather(v) and
 * MPI_Neighbor_alltoall(v/w) on Cartesian, graph and distributed graph
 * communicators. Every process posts one receive per in-neighbor and one
 * send per out-neighbor on the collective context and waits for all:
 * cost max(in, out) (alpha + n beta), no extra copies.
 *
 * Neighbor order: Cartesian, for each dimension the neighbor in the
 * negative direction then the one in the positive direction (MPI_PROC_NULL
 * off a non-periodic edge: its block is neither sent nor written); graph,
 * MPI_Graph_neighbors order for both; distributed graph, sources and
 * destinations as MPI_Dist_graph_neighbors returns them.
 *
 * Cartesian messages carry one of two tags: "sent towards +1" or "sent
 * towards -1", so that the blocks stay apart when both neighbors of a
 * dimension are the same process (a periodic dimension of size 1 or 2).
 * Between two processes, messages of one tag are matched in dimension
 * order on both sides.
 */
#include "api/comm_int.h"

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

static int nbr_run(comm_t *c, nbr_t *x)
{
    int cart = ((topo_t *)c->topo)->kind == MPI_CART;
    int t_pos = coll_tag(c), t_neg = coll_tag(c);
    req_t **rq = calloc((size_t)(x->nin + x->nout) + 1, sizeof(req_t *));
    if (!rq)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    /* in-neighbor 2d sits at -1 and sent its block towards +1 */
    for (int i = 0; i < x->nin && rc == MPI_SUCCESS; i++)
        rc = coll_irecv(c, x->rb[i], (size_t)x->rc[i], x->rdt[i], x->in[i],
                        cart && (i & 1) ? t_neg : t_pos, &rq[i]);
    for (int i = 0; i < x->nout && rc == MPI_SUCCESS; i++)
        rc = coll_isend(c, x->sb[i], (size_t)x->sc[i], x->sdt[i], x->out[i],
                        cart && !(i & 1) ? t_neg : t_pos, &rq[x->nin + i]);
    int rc2 = coll_waitall(rq, x->nin + x->nout);
    free(rq);
    return rc != MPI_SUCCESS ? rc : rc2;
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
                       MPI_Datatype recvtype, MPI_Comm comm, int spread)
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
        rc = nbr_run(c, &x);
    }
    nbr_free(&x);
    API_END();
}

API_WEAK(Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_regular("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 0);
}

API_WEAK(Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    API_BEGIN("MPI_Neighbor_allgatherv");
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
    rc = nbr_run(c, &x);
out:
    nbr_free(&x);
    API_END();
}

API_WEAK(Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return nbr_regular("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf,
                       recvcount, recvtype, comm, 1);
}

API_WEAK(Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    API_BEGIN("MPI_Neighbor_alltoallv");
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
    rc = nbr_run(c, &x);
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

API_WEAK(Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            MPI_Comm comm)
{
    API_BEGIN("MPI_Neighbor_alltoallw");
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
    rc = nbr_run(c, &x);
out:
    nbr_free(&x);
    API_END();
}
