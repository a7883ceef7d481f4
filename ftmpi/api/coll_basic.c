/* Collective entry points: barrier, bcast, gather(v), scatter(v), and their
 * non-blocking forms. Argument checks, then coll/. */
#include "api/coll_check.h"

#include <stdlib.h>

static int barrier_impl(const char *fname, MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_USABLE(c);
    if (coll_ft_active(c))
        COLL_FT_RUN(request, c, NULL, 0, NULL, NULL, 0, coll_ibarrier(c, rp_));
    else
        COLL_RUN(request, coll_ibarrier(c, rp_));
    API_END();
}

API_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    return barrier_impl("MPI_Barrier", comm, NULL);
}

API_WEAK(Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Ibarrier");
    return barrier_impl("MPI_Ibarrier", comm, request);
}

static int bcast_impl(const char *fname, void *buffer, int count, MPI_Datatype type, int root,
                      MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    CHECK_COMM(comm, c);
    CHECK_COLL_ROOT(c, root);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_BUF(buffer, count, dt);
    CHECK_USABLE(c);
    if (coll_ft_active(c))
        COLL_FT_RUN(request, c, buffer, (size_t)count, dt, &root, 0,
                    coll_ibcast(c, buffer, count, dt, root, rp_));
    else
        COLL_RUN(request, coll_ibcast(c, buffer, count, dt, root, rp_));
    API_END();
}

API_WEAK(Bcast)
int PMPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    return bcast_impl("MPI_Bcast", buffer, count, type, root, comm, NULL);
}

API_WEAK(Ibcast)
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm,
                MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Ibcast");
    return bcast_impl("MPI_Ibcast", buffer, count, type, root, comm, request);
}

/* Which sides of a rooted collective this rank plays. */
static void rooted_roles(comm_t *c, int root, int *is_root, int *is_leaf)
{
    if (c->is_inter) {
        *is_root = root == MPI_ROOT;
        *is_leaf = root >= 0;
    } else {
        *is_root = c->rank == root;
        *is_leaf = 1;
    }
}

/* Bytes spanned by v-blocks of rdt: elements from rbuf up to the furthest
 * block end (displacements are >= 0 here). */
static size_t v_extent(const comm_t *c, const int *counts, const int *displs)
{
    size_t end = 0;
    for (int i = 0; i < comm_peer_size(c); i++)
        if ((size_t)displs[i] + (size_t)counts[i] > end)
            end = (size_t)displs[i] + (size_t)counts[i];
    return end;
}

/* Gather(v) inside the FT wrapper. Under BLANK gaps the gather becomes a
 * gatherv over the live members' entries, blocks staying at their ranks'
 * places (a gap's block is left untouched). */
static int gather_ft(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf, int rcount,
                     const int *rcounts, const int *displs, dt_t *rdt, int root,
                     MPI_Request *request, int vector)
{
    int rc = MPI_SUCCESS, is_root = c->is_inter ? root == MPI_ROOT : c->rank == root;
    int *cc = NULL, *dc = NULL;
    if (coll_ft_gaps(c)) {
        if (is_root) {
            if (vector) {
                rc = coll_ft_compact(c, rcounts, &cc);
                if (rc == MPI_SUCCESS)
                    rc = coll_ft_compact(c, displs, &dc);
            } else {
                rc = coll_ft_scaled(c, 0, &cc);
                if (rc == MPI_SUCCESS)
                    rc = coll_ft_scaled(c, rcount, &dc);
                for (int i = 0; rc == MPI_SUCCESS && i < c->size; i++)
                    cc[i] = rcount;
            }
            if (rc != MPI_SUCCESS)
                goto out;
        }
        size_t n = is_root ? (vector ? v_extent(c, rcounts, displs)
                                     : (size_t)rcount * (size_t)c->size) : 0;
        COLL_FT_RUN(request, c, is_root ? rbuf : NULL, n, rdt, &root, 0,
                    coll_igatherv(c, sbuf, scount, sdt, rbuf, cc, dc, rdt, root, rp_));
        goto out;
    }
    if (vector)
        COLL_FT_RUN(request, c, is_root ? rbuf : NULL,
                    is_root ? v_extent(c, rcounts, displs) : 0, rdt, &root, 0,
                    coll_igatherv(c, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, rp_));
    else
        COLL_FT_RUN(request, c, is_root ? rbuf : NULL, (size_t)rcount, rdt, &root, 1,
                    coll_igather(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, rp_));
out:
    free(cc);
    free(dc);
    return rc;
}

/* Scatter(v) inside the FT wrapper (gaps: a scatterv over the live
 * members' blocks). */
static int scatter_ft(comm_t *c, const void *sbuf, int scount, const int *scounts,
                      const int *displs, dt_t *sdt, void *rbuf, int rcount, dt_t *rdt, int root,
                      MPI_Request *request, int vector)
{
    int rc = MPI_SUCCESS, is_root = c->is_inter ? root == MPI_ROOT : c->rank == root;
    int *cc = NULL, *dc = NULL;
    void *region = rbuf == MPI_IN_PLACE ? NULL : rbuf;
    if (coll_ft_gaps(c)) {
        if (is_root) {
            if (vector) {
                rc = coll_ft_compact(c, scounts, &cc);
                if (rc == MPI_SUCCESS)
                    rc = coll_ft_compact(c, displs, &dc);
            } else {
                rc = coll_ft_scaled(c, 0, &cc);
                if (rc == MPI_SUCCESS)
                    rc = coll_ft_scaled(c, scount, &dc);
                for (int i = 0; rc == MPI_SUCCESS && i < c->size; i++)
                    cc[i] = scount;
            }
            if (rc != MPI_SUCCESS)
                goto out;
        }
        COLL_FT_RUN(request, c, region, (size_t)rcount, rdt, &root, 0,
                    coll_iscatterv(c, sbuf, cc, dc, sdt, rbuf, rcount, rdt, root, rp_));
        goto out;
    }
    if (vector)
        COLL_FT_RUN(request, c, region, (size_t)rcount, rdt, &root, 0,
                    coll_iscatterv(c, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, rp_));
    else
        COLL_FT_RUN(request, c, region, (size_t)rcount, rdt, &root, 0,
                    coll_iscatter(c, sbuf, scount, sdt, rbuf, rcount, rdt, root, rp_));
out:
    free(cc);
    free(dc);
    return rc;
}

/* Gather and gatherv (rcounts == NULL: gather with rcount). */
static int gather_impl(const char *fname, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, const int *recvcounts,
                       const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *request, int vector)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt = NULL, *rdt = NULL;
    int is_root, is_leaf;
    CHECK_COMM(comm, c);
    CHECK_COLL_ROOT(c, root);
    rooted_roles(c, root, &is_root, &is_leaf);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    if (is_leaf && sendbuf != MPI_IN_PLACE) {
        CHECK_COUNT(sendcount);
        CHECK_DT(sendtype, sdt);
    } else if (is_leaf && !is_root) {
        API_FAIL(MPI_ERR_BUFFER); /* MPI_IN_PLACE is for the root only */
    }
    if (is_root) {
        CHECK_DT(recvtype, rdt);
        if (vector) {
            CHECK_COUNTS(recvcounts, comm_peer_size(c));
            if (!displs)
                API_FAIL(MPI_ERR_ARG);
        } else {
            CHECK_COUNT(recvcount);
        }
    }
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = gather_ft(c, sendbuf, sendcount, sdt, recvbuf, recvcount, recvcounts, displs, rdt,
                       root, request, vector);
        goto fail;
    }
    if (vector)
        COLL_RUN(request, coll_igatherv(c, sendbuf, sendcount, sdt, recvbuf, recvcounts, displs,
                                        rdt, root, rp_));
    else
        COLL_RUN(request, coll_igather(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt, root,
                                       rp_));
    API_END();
}

API_WEAK(Gather)
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_impl("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,
                       recvtype, root, comm, NULL, 0);
}

API_WEAK(Igather)
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Igather");
    return gather_impl("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                       NULL, recvtype, root, comm, request, 0);
}

API_WEAK(Gatherv)
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    return gather_impl("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                       displs, recvtype, root, comm, NULL, 1);
}

API_WEAK(Igatherv)
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Igatherv");
    return gather_impl("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                       displs, recvtype, root, comm, request, 1);
}

/* Scatter and scatterv (scounts == NULL: scatter with sendcount). */
static int scatter_impl(const char *fname, const void *sendbuf, int sendcount,
                        const int *sendcounts, const int *displs, MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Request *request, int vector)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt = NULL, *rdt = NULL;
    int is_root, is_leaf;
    CHECK_COMM(comm, c);
    CHECK_COLL_ROOT(c, root);
    rooted_roles(c, root, &is_root, &is_leaf);
    CHECK_NOT_INPLACE_INTER(c, recvbuf);
    if (is_root) {
        CHECK_DT(sendtype, sdt);
        if (vector) {
            CHECK_COUNTS(sendcounts, comm_peer_size(c));
            if (!displs)
                API_FAIL(MPI_ERR_ARG);
        } else {
            CHECK_COUNT(sendcount);
        }
    }
    if (is_leaf && recvbuf != MPI_IN_PLACE) {
        CHECK_COUNT(recvcount);
        CHECK_DT(recvtype, rdt);
    } else if (is_leaf && !is_root) {
        API_FAIL(MPI_ERR_BUFFER);
    }
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = scatter_ft(c, sendbuf, sendcount, sendcounts, displs, sdt, recvbuf, recvcount, rdt,
                        root, request, vector);
        goto fail;
    }
    if (vector)
        COLL_RUN(request, coll_iscatterv(c, sendbuf, sendcounts, displs, sdt, recvbuf, recvcount,
                                         rdt, root, rp_));
    else
        COLL_RUN(request, coll_iscatter(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt,
                                        root, rp_));
    API_END();
}

API_WEAK(Scatter)
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_impl("MPI_Scatter", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, NULL, 0);
}

API_WEAK(Iscatter)
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Iscatter");
    return scatter_impl("MPI_Iscatter", sendbuf, sendcount, NULL, NULL, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, request, 0);
}

API_WEAK(Scatterv)
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    return scatter_impl("MPI_Scatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, NULL, 1);
}

API_WEAK(Iscatterv)
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return api_fail_early(comm, MPI_ERR_REQUEST, "MPI_Iscatterv");
    return scatter_impl("MPI_Iscatterv", sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, request, 1);
}
