/* Collective entry points: allgather(v), alltoall(v/w) and their
 * non-blocking forms. */
#include "api/coll_check.h"

#include <stdlib.h>

#define NEED_REQ(request, name) \
    do { if (!(request)) return api_fail_early(comm, MPI_ERR_REQUEST, name); } while (0)

/* Elements from buf up to the furthest v-block end. */
static size_t v_extent(int n, const int *counts, const int *displs)
{
    size_t end = 0;
    for (int i = 0; i < n; i++)
        if ((size_t)displs[i] + (size_t)counts[i] > end)
            end = (size_t)displs[i] + (size_t)counts[i];
    return end;
}

/* Per-rank arrays for a call over the live members (BLANK gaps): the live
 * entries of a (or i * step when a is NULL, or `fill` when step < 0). */
static int live_array(comm_t *c, const int *a, int step, int fill, int **out)
{
    int rc = a ? coll_ft_compact(c, a, out) : coll_ft_scaled(c, step < 0 ? 0 : step, out);
    if (rc == MPI_SUCCESS && !a && step < 0)
        for (int i = 0; i < c->size; i++)
            (*out)[i] = fill;
    return rc;
}

/* Allgather(v) inside the FT wrapper; gaps: an allgatherv over the live
 * members with their blocks at their own places. */
static int allgather_ft(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                        int rcount, const int *rcounts, const int *displs, dt_t *rdt,
                        MPI_Request *request, int vector)
{
    int rc = MPI_SUCCESS, *cc = NULL, *dc = NULL;
    int n = comm_peer_size(c);
    if (coll_ft_gaps(c)) {
        rc = live_array(c, vector ? rcounts : NULL, -1, rcount, &cc);
        if (rc == MPI_SUCCESS)
            rc = live_array(c, vector ? displs : NULL, rcount, 0, &dc);
        if (rc == MPI_SUCCESS)
            COLL_FT_RUN(request, c, rbuf,
                        vector ? v_extent(n, rcounts, displs) : (size_t)rcount * (size_t)n, rdt,
                        NULL, 0, coll_iallgatherv(c, sbuf, scount, sdt, rbuf, cc, dc, rdt, rp_));
    } else if (vector) {
        COLL_FT_RUN(request, c, rbuf, v_extent(n, rcounts, displs), rdt, NULL, 0,
                    coll_iallgatherv(c, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, rp_));
    } else {
        COLL_FT_RUN(request, c, rbuf, (size_t)rcount, rdt, NULL, 1,
                    coll_iallgather(c, sbuf, scount, sdt, rbuf, rcount, rdt, rp_));
    }
    free(cc);
    free(dc);
    return rc;
}

/* Alltoall inside the FT wrapper; gaps: an alltoallv over the live
 * members, blocks at their ranks' places. */
static int alltoall_ft(comm_t *c, const void *sbuf, int scount, dt_t *sdt, void *rbuf,
                       int rcount, dt_t *rdt, MPI_Request *request)
{
    int rc = MPI_SUCCESS, *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
    int n = comm_peer_size(c);
    if (!coll_ft_gaps(c)) {
        COLL_FT_RUN(request, c, rbuf, (size_t)rcount, rdt, NULL, 1,
                    coll_ialltoall(c, sbuf, scount, sdt, rbuf, rcount, rdt, rp_));
        return rc;
    }
    if ((rc = live_array(c, NULL, -1, scount, &sc)) == MPI_SUCCESS &&
        (rc = live_array(c, NULL, scount, 0, &sd)) == MPI_SUCCESS &&
        (rc = live_array(c, NULL, -1, rcount, &rcn)) == MPI_SUCCESS &&
        (rc = live_array(c, NULL, rcount, 0, &rd)) == MPI_SUCCESS)
        COLL_FT_RUN(request, c, rbuf, (size_t)rcount * (size_t)n, rdt, NULL, 0,
                    coll_ialltoallv(c, sbuf, sc, sd, sdt, rbuf, rcn, rd, rdt, rp_));
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
    return rc;
}

static int alltoallv_ft(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                        dt_t *sdt, void *rbuf, const int *rcounts, const int *rdispls, dt_t *rdt,
                        MPI_Request *request)
{
    int rc = MPI_SUCCESS, *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
    int n = comm_peer_size(c);
    size_t ext = v_extent(n, rcounts, rdispls);
    if (!coll_ft_gaps(c)) {
        COLL_FT_RUN(request, c, rbuf, ext, rdt, NULL, 0,
                    coll_ialltoallv(c, sbuf, scounts, sdispls, sdt, rbuf, rcounts, rdispls, rdt,
                                    rp_));
        return rc;
    }
    int in_place = sbuf == MPI_IN_PLACE;
    if ((in_place || ((rc = live_array(c, scounts, 0, 0, &sc)) == MPI_SUCCESS &&
                      (rc = live_array(c, sdispls, 0, 0, &sd)) == MPI_SUCCESS)) &&
        (rc = live_array(c, rcounts, 0, 0, &rcn)) == MPI_SUCCESS &&
        (rc = live_array(c, rdispls, 0, 0, &rd)) == MPI_SUCCESS)
        COLL_FT_RUN(request, c, rbuf, ext, rdt, NULL, 0,
                    coll_ialltoallv(c, sbuf, sc, sd, sdt, rbuf, rcn, rd, rdt, rp_));
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
    return rc;
}

/* Alltoallw: the receive region is saved byte-wise (types may differ). */
static int alltoallw_ft(comm_t *c, const void *sbuf, const int *scounts, const int *sdispls,
                        dt_t **sdts, void *rbuf, const int *rcounts, const int *rdispls,
                        dt_t **rdts, MPI_Request *request)
{
    int rc = MPI_SUCCESS, n = comm_peer_size(c);
    size_t end = 0;
    for (int i = 0; i < n; i++) {
        size_t e = rcounts[i] ? (size_t)rdispls[i] + (size_t)rdts[i]->true_ub +
                                    (size_t)(rcounts[i] - 1) * (size_t)rdts[i]->extent
                              : 0;
        if (e > end)
            end = e;
    }
    dt_t *byte = dt_get(MPI_BYTE);
    if (!coll_ft_gaps(c)) {
        COLL_FT_RUN(request, c, rbuf, end, byte, NULL, 0,
                    coll_ialltoallw(c, sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts,
                                    rp_));
        return rc;
    }
    int *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
    dt_t **st = calloc(2 * (size_t)n, sizeof(dt_t *)), **rt = st ? st + n : NULL;
    if (!st)
        return MPI_ERR_NO_MEM;
    for (int i = 0, j = 0; i < n; i++)
        if (!ft_is_gap(c, i)) {
            if (sdts)
                st[j] = sdts[i];
            rt[j++] = rdts[i];
        }
    int in_place = sbuf == MPI_IN_PLACE;
    if ((in_place || ((rc = live_array(c, scounts, 0, 0, &sc)) == MPI_SUCCESS &&
                      (rc = live_array(c, sdispls, 0, 0, &sd)) == MPI_SUCCESS)) &&
        (rc = live_array(c, rcounts, 0, 0, &rcn)) == MPI_SUCCESS &&
        (rc = live_array(c, rdispls, 0, 0, &rd)) == MPI_SUCCESS)
        COLL_FT_RUN(request, c, rbuf, end, byte, NULL, 0,
                    coll_ialltoallw(c, sbuf, sc, sd, in_place ? NULL : st, rbuf, rcn, rd, rt,
                                    rp_));
    free(sc);
    free(sd);
    free(rcn);
    free(rd);
    free(st);
    return rc;
}

static int allgather_impl(const char *fname, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          const int *recvcounts, const int *displs, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request *request, int vector)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt = NULL, *rdt;
    CHECK_COMM(comm, c);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    if (sendbuf != MPI_IN_PLACE) {
        CHECK_COUNT(sendcount);
        CHECK_DT(sendtype, sdt);
    }
    CHECK_DT(recvtype, rdt);
    if (vector) {
        CHECK_COUNTS(recvcounts, comm_peer_size(c));
        if (!displs)
            API_FAIL(MPI_ERR_ARG);
    } else {
        CHECK_COUNT(recvcount);
    }
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = allgather_ft(c, sendbuf, sendcount, sdt, recvbuf, recvcount, recvcounts, displs, rdt,
                          request, vector);
        goto fail;
    }
    if (vector)
        COLL_RUN(request, coll_iallgatherv(c, sendbuf, sendcount, sdt, recvbuf, recvcounts,
                                           displs, rdt, rp_));
    else
        COLL_RUN(request, coll_iallgather(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt,
                                          rp_));
    API_END();
}

API_WEAK(Allgather)
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_impl("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          NULL, NULL, recvtype, comm, NULL, 0);
}

API_WEAK(Iallgather)
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Iallgather");
    return allgather_impl("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          NULL, NULL, recvtype, comm, request, 0);
}

API_WEAK(Allgatherv)
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    return allgather_impl("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, 0,
                          recvcounts, displs, recvtype, comm, NULL, 1);
}

API_WEAK(Iallgatherv)
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Iallgatherv");
    return allgather_impl("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, 0,
                          recvcounts, displs, recvtype, comm, request, 1);
}

static int alltoall_impl(const char *fname, const void *sendbuf, int sendcount,
                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt = NULL, *rdt;
    CHECK_COMM(comm, c);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    if (sendbuf != MPI_IN_PLACE) {
        CHECK_COUNT(sendcount);
        CHECK_DT(sendtype, sdt);
    }
    CHECK_COUNT(recvcount);
    CHECK_DT(recvtype, rdt);
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = alltoall_ft(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt, request);
        goto fail;
    }
    COLL_RUN(request, coll_ialltoall(c, sendbuf, sendcount, sdt, recvbuf, recvcount, rdt, rp_));
    API_END();
}

API_WEAK(Alltoall)
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_impl("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm, NULL);
}

API_WEAK(Ialltoall)
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ialltoall");
    return alltoall_impl("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                         recvtype, comm, request);
}

static int alltoallv_impl(const char *fname, const void *sendbuf, const int *sendcounts,
                          const int *sdispls, MPI_Datatype sendtype, void *recvbuf,
                          const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *sdt = NULL, *rdt;
    CHECK_COMM(comm, c);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    int n = comm_peer_size(c);
    if (sendbuf != MPI_IN_PLACE) {
        CHECK_COUNTS(sendcounts, n);
        CHECK_DT(sendtype, sdt);
        if (!sdispls)
            API_FAIL(MPI_ERR_ARG);
    }
    CHECK_COUNTS(recvcounts, n);
    CHECK_DT(recvtype, rdt);
    if (!rdispls)
        API_FAIL(MPI_ERR_ARG);
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = alltoallv_ft(c, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts, rdispls, rdt,
                          request);
        goto fail;
    }
    COLL_RUN(request, coll_ialltoallv(c, sendbuf, sendcounts, sdispls, sdt, recvbuf, recvcounts,
                                      rdispls, rdt, rp_));
    API_END();
}

API_WEAK(Alltoallv)
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoallv_impl("MPI_Alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                          recvcounts, rdispls, recvtype, comm, NULL);
}

API_WEAK(Ialltoallv)
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ialltoallv");
    return alltoallv_impl("MPI_Ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                          recvcounts, rdispls, recvtype, comm, request);
}

/* Look up n datatype handles; MPI_SUCCESS or MPI_ERR_TYPE. */
static int types_get(const MPI_Datatype *h, int n, dt_t **out)
{
    for (int i = 0; i < n; i++) {
        out[i] = dt_get(h[i]);
        if (!out[i] || !out[i]->committed || h[i] == MPI_LB || h[i] == MPI_UB)
            return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

static int alltoallw_impl(const char *fname, const void *sendbuf, const int *sendcounts,
                          const int *sdispls, const MPI_Datatype *sendtypes, void *recvbuf,
                          const int *recvcounts, const int *rdispls,
                          const MPI_Datatype *recvtypes, MPI_Comm comm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t **sdts = NULL, **rdts = NULL, **all = NULL;
    int n = 0;
    CHECK_COMM(comm, c);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    n = comm_peer_size(c);
    all = calloc(2 * (size_t)(n ? n : 1), sizeof(dt_t *));
    if (!all)
        API_FAIL(MPI_ERR_NO_MEM);
    rdts = all + n;
    if (sendbuf != MPI_IN_PLACE) {
        sdts = all;
        CHECK_COUNTS(sendcounts, n);
        if (!sdispls || !sendtypes)
            API_FAIL(MPI_ERR_ARG);
        if ((rc = types_get(sendtypes, n, sdts)) != MPI_SUCCESS)
            goto fail;
    }
    CHECK_COUNTS(recvcounts, n);
    if (!rdispls || !recvtypes)
        API_FAIL(MPI_ERR_ARG);
    if ((rc = types_get(recvtypes, n, rdts)) != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = alltoallw_ft(c, sendbuf, sendcounts, sdispls, sdts, recvbuf, recvcounts, rdispls,
                          rdts, request);
        goto fail;
    }
    COLL_RUN(request, coll_ialltoallw(c, sendbuf, sendcounts, sdispls, sdts, recvbuf, recvcounts,
                                      rdispls, rdts, rp_));
    API_END_CLEANUP(free(all));
}

API_WEAK(Alltoallw)
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return alltoallw_impl("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                          recvcounts, rdispls, recvtypes, comm, NULL);
}

API_WEAK(Ialltoallw)
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ialltoallw");
    return alltoallw_impl("MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                          recvcounts, rdispls, recvtypes, comm, request);
}
