/*
 * The large-count collectives with count arrays (MPI-4.0 6.x, 7.6 _c forms):
 * Gatherv, Scatterv, Allgatherv, Alltoallv, Alltoallw, Reduce_scatter and
 * the neighbourhood v/w forms, blocking and non-blocking. The arrays become
 * int arrays for the int functions (api/count_c.h: divided by their common
 * factor, the type then contiguous(factor, type), where a value is beyond
 * int), read only where the standard makes them significant.
 */
#include "api/count_c.h"

#include "api/api.h"

/* Are a rooted collective's array arguments significant here, and for how
 * many processes? */
static int rooted(MPI_Comm comm, int root, int *sig, int *n)
{
    int inter = 0, me = 0, rc = PMPI_Comm_test_inter(comm, &inter);
    if (rc == MPI_SUCCESS && !inter)
        rc = PMPI_Comm_rank(comm, &me);
    if (rc == MPI_SUCCESS)
        rc = cnt_group_size(comm, n);
    *sig = inter ? root == MPI_ROOT : me == root;
    return rc;
}

/* Gatherv (scatter 0) and Scatterv (scatter 1), request NULL: blocking. */
static int gsv_c(const char *fname, int scatter, const void *sendbuf, const MPI_Count *counts,
                 const MPI_Aint *displs, MPI_Count count, MPI_Datatype vtype,
                 MPI_Datatype type, void *recvbuf, int root, MPI_Comm comm, MPI_Request *q)
{
    int sig, n, rc = rooted(comm, root, &sig, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    cnt_t c;
    cvec_t v;
    if ((rc = cnt_make(count, type, &c)) != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    if ((rc = cvec_make(sig ? counts : NULL, sig ? displs : NULL, n, vtype, 0, &v)) != MPI_SUCCESS) {
        cnt_done(&c);
        return cnt_fail(comm, rc, fname);
    }
    if (scatter)
        rc = q ? PMPI_Iscatterv(sendbuf, v.counts, v.displs, v.t, recvbuf, c.n, c.t, root, comm, q)
               : PMPI_Scatterv(sendbuf, v.counts, v.displs, v.t, recvbuf, c.n, c.t, root, comm);
    else
        rc = q ? PMPI_Igatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, root, comm, q)
               : PMPI_Gatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, root, comm);
    cvec_done(&v);
    cnt_done(&c);
    return rc;
}

API_WEAK(Gatherv_c)
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    return gsv_c("MPI_Gatherv_c", 0, sendbuf, recvcounts, displs, sendcount, recvtype, sendtype,
                 recvbuf, root, comm, NULL);
}

API_WEAK(Igatherv_c)
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Igatherv_c");
    return gsv_c("MPI_Igatherv_c", 0, sendbuf, recvcounts, displs, sendcount, recvtype, sendtype,
                 recvbuf, root, comm, request);
}

API_WEAK(Scatterv_c)
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gsv_c("MPI_Scatterv_c", 1, sendbuf, sendcounts, displs, recvcount, sendtype, recvtype,
                 recvbuf, root, comm, NULL);
}

API_WEAK(Iscatterv_c)
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Iscatterv_c");
    return gsv_c("MPI_Iscatterv_c", 1, sendbuf, sendcounts, displs, recvcount, sendtype,
                 recvtype, recvbuf, root, comm, request);
}

/* Allgatherv, (I)Neighbor_allgatherv (neighbor 1): one send count, receive arrays;
 * q NULL: blocking. */
static int agv_c(const char *fname, int neighbor, const void *sendbuf, MPI_Count sendcount,
                 MPI_Datatype sendtype, void *recvbuf, const MPI_Count *recvcounts,
                 const MPI_Aint *displs, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *q)
{
    int n, out, rc = neighbor ? cnt_neighbors(comm, &n, &out) : cnt_group_size(comm, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    cnt_t c;
    cvec_t v;
    if ((rc = cnt_make(sendcount, sendtype, &c)) != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    if ((rc = cvec_make(recvcounts, displs, n, recvtype, 0, &v)) != MPI_SUCCESS) {
        cnt_done(&c);
        return cnt_fail(comm, rc, fname);
    }
    if (neighbor && q)
        rc = PMPI_Ineighbor_allgatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, comm,
                                       q);
    else if (neighbor)
        rc = PMPI_Neighbor_allgatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, comm);
    else if (q)
        rc = PMPI_Iallgatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, comm, q);
    else
        rc = PMPI_Allgatherv(sendbuf, c.n, c.t, recvbuf, v.counts, v.displs, v.t, comm);
    cvec_done(&v);
    cnt_done(&c);
    return rc;
}

API_WEAK(Allgatherv_c)
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    return agv_c("MPI_Allgatherv_c", 0, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                 displs, recvtype, comm, NULL);
}

API_WEAK(Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Iallgatherv_c");
    return agv_c("MPI_Iallgatherv_c", 0, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                 displs, recvtype, comm, request);
}

API_WEAK(Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return agv_c("MPI_Neighbor_allgatherv_c", 1, sendbuf, sendcount, sendtype, recvbuf,
                 recvcounts, displs, recvtype, comm, NULL);
}

API_WEAK(Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ineighbor_allgatherv_c");
    return agv_c("MPI_Ineighbor_allgatherv_c", 1, sendbuf, sendcount, sendtype, recvbuf,
                 recvcounts, displs, recvtype, comm, request);
}

/* Alltoallv, Neighbor_alltoallv (neighbor 1). */
static int a2av_c(const char *fname, int neighbor, const void *sendbuf,
                  const MPI_Count *sendcounts, const MPI_Aint *sdispls, MPI_Datatype sendtype,
                  void *recvbuf, const MPI_Count *recvcounts, const MPI_Aint *rdispls,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *q)
{
    int nin, nout, rc = neighbor ? cnt_neighbors(comm, &nin, &nout) : cnt_group_size(comm, &nin);
    if (!neighbor)
        nout = nin;
    if (rc != MPI_SUCCESS)
        return rc;
    cvec_t s = {0}, r;
    int in_place = sendbuf == MPI_IN_PLACE;
    if (!in_place && (rc = cvec_make(sendcounts, sdispls, nout, sendtype, 0, &s)) != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    if ((rc = cvec_make(recvcounts, rdispls, nin, recvtype, 0, &r)) != MPI_SUCCESS) {
        cvec_done(&s);
        return cnt_fail(comm, rc, fname);
    }
    if (neighbor && q)
        rc = PMPI_Ineighbor_alltoallv(sendbuf, s.counts, s.displs, s.t, recvbuf, r.counts,
                                      r.displs, r.t, comm, q);
    else if (neighbor)
        rc = PMPI_Neighbor_alltoallv(sendbuf, s.counts, s.displs, s.t, recvbuf, r.counts,
                                     r.displs, r.t, comm);
    else if (q)
        rc = PMPI_Ialltoallv(sendbuf, s.counts, s.displs, s.t, recvbuf, r.counts, r.displs, r.t,
                             comm, q);
    else
        rc = PMPI_Alltoallv(sendbuf, s.counts, s.displs, s.t, recvbuf, r.counts, r.displs, r.t,
                            comm);
    cvec_done(&s);
    cvec_done(&r);
    return rc;
}

API_WEAK(Alltoallv_c)
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return a2av_c("MPI_Alltoallv_c", 0, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                  recvcounts, rdispls, recvtype, comm, NULL);
}

API_WEAK(Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ialltoallv_c");
    return a2av_c("MPI_Ialltoallv_c", 0, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                  recvcounts, rdispls, recvtype, comm, request);
}

API_WEAK(Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    return a2av_c("MPI_Neighbor_alltoallv_c", 1, sendbuf, sendcounts, sdispls, sendtype,
                  recvbuf, recvcounts, rdispls, recvtype, comm, NULL);
}

API_WEAK(Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ineighbor_alltoallv_c");
    return a2av_c("MPI_Ineighbor_alltoallv_c", 1, sendbuf, sendcounts, sdispls, sendtype,
                  recvbuf, recvcounts, rdispls, recvtype, comm, request);
}

/* Alltoallw (int byte displacements) and Neighbor_alltoallw (MPI_Aint ones,
 * passed as they are: neighbor 1). */
static int a2aw_c(const char *fname, int neighbor, const void *sendbuf,
                  const MPI_Count *sendcounts, const MPI_Aint *sdispls,
                  const MPI_Datatype *sendtypes, void *recvbuf, const MPI_Count *recvcounts,
                  const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, MPI_Comm comm,
                  MPI_Request *q)
{
    int nin, nout, rc = neighbor ? cnt_neighbors(comm, &nin, &nout) : cnt_group_size(comm, &nin);
    if (!neighbor)
        nout = nin;
    if (rc != MPI_SUCCESS)
        return rc;
    cw_t s = {0}, r;
    if (sendbuf != MPI_IN_PLACE &&
        (rc = cw_make(sendcounts, neighbor ? NULL : sdispls, sendtypes, nout, &s)) != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    if ((rc = cw_make(recvcounts, neighbor ? NULL : rdispls, recvtypes, nin, &r)) != MPI_SUCCESS) {
        cw_done(&s);
        return cnt_fail(comm, rc, fname);
    }
    if (neighbor && q)
        rc = PMPI_Ineighbor_alltoallw(sendbuf, s.counts, sdispls, s.types, recvbuf, r.counts,
                                      rdispls, r.types, comm, q);
    else if (neighbor)
        rc = PMPI_Neighbor_alltoallw(sendbuf, s.counts, sdispls, s.types, recvbuf, r.counts,
                                     rdispls, r.types, comm);
    else if (q)
        rc = PMPI_Ialltoallw(sendbuf, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs,
                             r.types, comm, q);
    else
        rc = PMPI_Alltoallw(sendbuf, s.counts, s.displs, s.types, recvbuf, r.counts, r.displs,
                            r.types, comm);
    cw_done(&s);
    cw_done(&r);
    return rc;
}

API_WEAK(Alltoallw_c)
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return a2aw_c("MPI_Alltoallw_c", 0, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                  recvcounts, rdispls, recvtypes, comm, NULL);
}

API_WEAK(Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ialltoallw_c");
    return a2aw_c("MPI_Ialltoallw_c", 0, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                  recvcounts, rdispls, recvtypes, comm, request);
}

API_WEAK(Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              MPI_Comm comm)
{
    return a2aw_c("MPI_Neighbor_alltoallw_c", 1, sendbuf, sendcounts, sdispls, sendtypes,
                  recvbuf, recvcounts, rdispls, recvtypes, comm, NULL);
}

API_WEAK(Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ineighbor_alltoallw_c");
    return a2aw_c("MPI_Ineighbor_alltoallw_c", 1, sendbuf, sendcounts, sdispls, sendtypes,
                  recvbuf, recvcounts, rdispls, recvtypes, comm, request);
}

static int rs_c(const char *fname, const void *sendbuf, void *recvbuf,
                const MPI_Count *recvcounts, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request *q)
{
    int n, rc = PMPI_Comm_size(comm, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    cvec_t v;
    if ((rc = cvec_make(recvcounts, NULL, n, datatype, 1, &v)) != MPI_SUCCESS)
        return cnt_fail(comm, rc, fname);
    rc = q ? PMPI_Ireduce_scatter(sendbuf, recvbuf, v.counts, v.t, op, comm, q)
           : PMPI_Reduce_scatter(sendbuf, recvbuf, v.counts, v.t, op, comm);
    cvec_done(&v);
    return rc;
}

API_WEAK(Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return rs_c("MPI_Reduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL);
}

API_WEAK(Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (!request)
        return cnt_fail(comm, MPI_ERR_REQUEST, "MPI_Ireduce_scatter_c");
    return rs_c("MPI_Ireduce_scatter_c", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                request);
}
