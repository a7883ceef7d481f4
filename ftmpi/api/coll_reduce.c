/* Collective entry points: reduce, allreduce, reduce_scatter(_block), scan,
 * exscan, reduce_local, and the non-blocking forms. */
#include "api/coll_check.h"

#include <stdlib.h>

static int coll_iscan_x(comm_t *c, const void *s, void *r, int n, dt_t *dt, op_t *op, int ex,
                        req_t **rp);
static int rs_ft(comm_t *c, const void *sbuf, void *rbuf, const int *counts, int count, dt_t *dt,
                 op_t *op, MPI_Request *request, int block);

#define NEED_REQ(request, name) \
    do { if (!(request)) return api_fail_early(comm, MPI_ERR_REQUEST, name); } while (0)

/* Type, op and their combination. */
#define CHECK_REDUCTION(type, dt, opn, op)                                   \
    do {                                                                     \
        CHECK_DT(type, dt);                                                  \
        CHECK_OP(opn, op);                                                   \
        if ((rc = op_check(op, dt)) != MPI_SUCCESS) goto fail;               \
    } while (0)

/* The standard forbids aliased send and receive buffers. */
#define CHECK_ALIAS(sbuf, rbuf, n)                                           \
    do {                                                                     \
        if ((sbuf) == (rbuf) && (n) > 0 && (sbuf) != MPI_IN_PLACE && c->size > 1) \
            API_FAIL(MPI_ERR_BUFFER);                                        \
    } while (0)

static int reduce_impl(const char *fname, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype type, MPI_Op opn, int root, MPI_Comm comm,
                       MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    op_t *op;
    CHECK_COMM(comm, c);
    CHECK_COLL_ROOT(c, root);
    CHECK_COUNT(count);
    CHECK_REDUCTION(type, dt, opn, op);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    if (!c->is_inter) {
        if (sendbuf == MPI_IN_PLACE && c->rank != root)
            API_FAIL(MPI_ERR_BUFFER);
        if (c->rank == root)
            CHECK_ALIAS(sendbuf, recvbuf, count);
    }
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        int is_root = c->is_inter ? root == MPI_ROOT : c->rank == root;
        COLL_FT_RUN(request, c, is_root ? recvbuf : NULL, (size_t)count, dt, &root, 0,
                    coll_ireduce(c, sendbuf, recvbuf, count, dt, op, root, rp_));
        goto fail;
    }
    COLL_RUN(request, coll_ireduce(c, sendbuf, recvbuf, count, dt, op, root, rp_));
    API_END();
}

API_WEAK(Reduce)
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm)
{
    return reduce_impl("MPI_Reduce", sendbuf, recvbuf, count, type, op, root, comm, NULL);
}

API_WEAK(Ireduce)
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ireduce");
    return reduce_impl("MPI_Ireduce", sendbuf, recvbuf, count, type, op, root, comm, request);
}

/* Allreduce, scan (kind 1) and exscan (kind 2). */
static int allred_impl(const char *fname, const void *sendbuf, void *recvbuf, int count,
                       MPI_Datatype type, MPI_Op opn, MPI_Comm comm, MPI_Request *request,
                       int kind)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    op_t *op;
    CHECK_COMM(comm, c);
    if (kind)
        CHECK_INTRA(c);
    CHECK_COUNT(count);
    CHECK_REDUCTION(type, dt, opn, op);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    CHECK_ALIAS(sendbuf, recvbuf, count);
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        if (kind == 0)
            COLL_FT_RUN(request, c, recvbuf, (size_t)count, dt, NULL, 0,
                        coll_iallreduce(c, sendbuf, recvbuf, count, dt, op, rp_));
        else
            COLL_FT_RUN(request, c, recvbuf, (size_t)count, dt, NULL, 0,
                        coll_iscan_x(c, sendbuf, recvbuf, count, dt, op, kind == 2, rp_));
        goto fail;
    }
    if (kind == 0)
        COLL_RUN(request, coll_iallreduce(c, sendbuf, recvbuf, count, dt, op, rp_));
    else if (kind == 1)
        COLL_RUN(request, coll_iscan(c, sendbuf, recvbuf, count, dt, op, rp_));
    else
        COLL_RUN(request, coll_iexscan(c, sendbuf, recvbuf, count, dt, op, rp_));
    API_END();
}

API_WEAK(Allreduce)
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    return allred_impl("MPI_Allreduce", sendbuf, recvbuf, count, type, op, comm, NULL, 0);
}

API_WEAK(Iallreduce)
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Iallreduce");
    return allred_impl("MPI_Iallreduce", sendbuf, recvbuf, count, type, op, comm, request, 0);
}

API_WEAK(Scan)
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm)
{
    return allred_impl("MPI_Scan", sendbuf, recvbuf, count, type, op, comm, NULL, 1);
}

API_WEAK(Iscan)
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Iscan");
    return allred_impl("MPI_Iscan", sendbuf, recvbuf, count, type, op, comm, request, 1);
}

API_WEAK(Exscan)
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm)
{
    return allred_impl("MPI_Exscan", sendbuf, recvbuf, count, type, op, comm, NULL, 2);
}

API_WEAK(Iexscan)
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Iexscan");
    return allred_impl("MPI_Iexscan", sendbuf, recvbuf, count, type, op, comm, request, 2);
}

static int coll_iscan_x(comm_t *c, const void *s, void *r, int n, dt_t *dt, op_t *op, int ex,
                        req_t **rp)
{
    return ex ? coll_iexscan(c, s, r, n, dt, op, rp) : coll_iscan(c, s, r, n, dt, op, rp);
}

/* Reduce_scatter(_block) inside the FT wrapper. With BLANK gaps the
 * pieces of the gaps are dropped from the input vector (copied to a
 * compact one) and the call runs over the live members. */
static int rs_ft(comm_t *c, const void *sbuf, void *rbuf, const int *counts, int count, dt_t *dt,
                 op_t *op, MPI_Request *request, int block)
{
    int rc = MPI_SUCCESS, p = c->size;
    int mine = block ? count : counts[c->rank];
    if (!coll_ft_gaps(c) || c->is_inter) {
        if (block)
            COLL_FT_RUN(request, c, rbuf, (size_t)mine, dt, NULL, 0,
                        coll_ireduce_scatter_block(c, sbuf, rbuf, count, dt, op, rp_));
        else
            COLL_FT_RUN(request, c, rbuf, (size_t)mine, dt, NULL, 0,
                        coll_ireduce_scatter(c, sbuf, rbuf, counts, dt, op, rp_));
        return rc;
    }
    int *cc = malloc((size_t)p * sizeof(int));
    size_t total = 0, live_total = 0;
    for (int i = 0; i < p; i++) {
        int n = block ? count : counts[i];
        total += (size_t)n;
        if (!ft_is_gap(c, i))
            live_total += (size_t)n;
    }
    void *tmpm = NULL, *tmp = NULL;
    if (cc)
        tmpm = coll_tmpbuf(dt, live_total, &tmp);
    if (!cc || !tmpm) {
        free(cc);
        free(tmpm);
        return MPI_ERR_NO_MEM;
    }
    const char *in = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    size_t at = 0, lat = 0;
    int j = 0;
    for (int i = 0; i < p; i++) {
        int n = block ? count : counts[i];
        if (!ft_is_gap(c, i)) {
            coll_local_copy(in + (MPI_Aint)at * dt->extent, (char *)tmp + (MPI_Aint)lat * dt->extent,
                            (size_t)n, dt);
            cc[j++] = n;
            lat += (size_t)n;
        }
        at += (size_t)n;
    }
    (void)total;
    COLL_FT_RUN(request, c, rbuf, (size_t)mine, dt, NULL, 0,
                coll_ireduce_scatter(c, tmp, rbuf, cc, dt, op, rp_));
    free(cc);
    free(tmpm);
    return rc;
}

/* Reduce_scatter (counts != NULL) and Reduce_scatter_block. */
static int rs_impl(const char *fname, const void *sendbuf, void *recvbuf, const int *counts,
                   int count, MPI_Datatype type, MPI_Op opn, MPI_Comm comm, MPI_Request *request,
                   int block)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    op_t *op;
    CHECK_COMM(comm, c);
    if (block)
        CHECK_COUNT(count);
    else
        CHECK_COUNTS(counts, c->size);
    CHECK_REDUCTION(type, dt, opn, op);
    CHECK_NOT_INPLACE_INTER(c, sendbuf);
    /* Aliasing matters only when there is data: a zero-size reduce-scatter
     * may pass NULL for both buffers (issue 19). */
    long long total = 0;
    for (int i = 0; i < c->size; i++)
        total += block ? count : counts[i];
    CHECK_ALIAS(sendbuf, recvbuf, total);
    CHECK_USABLE(c);
    if (coll_ft_active(c)) {
        rc = rs_ft(c, sendbuf, recvbuf, counts, count, dt, op, request, block);
        goto fail;
    }
    if (block)
        COLL_RUN(request, coll_ireduce_scatter_block(c, sendbuf, recvbuf, count, dt, op, rp_));
    else
        COLL_RUN(request, coll_ireduce_scatter(c, sendbuf, recvbuf, counts, dt, op, rp_));
    API_END();
}

API_WEAK(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    return rs_impl("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, 0, type, op, comm, NULL,
                   0);
}

API_WEAK(Ireduce_scatter)
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ireduce_scatter");
    return rs_impl("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, 0, type, op, comm,
                   request, 0);
}

API_WEAK(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    return rs_impl("MPI_Reduce_scatter_block", sendbuf, recvbuf, NULL, recvcount, type, op, comm,
                   NULL, 1);
}

API_WEAK(Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    NEED_REQ(request, "MPI_Ireduce_scatter_block");
    return rs_impl("MPI_Ireduce_scatter_block", sendbuf, recvbuf, NULL, recvcount, type, op,
                   comm, request, 1);
}

API_WEAK(Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype type,
                      MPI_Op opn)
{
    API_BEGIN("MPI_Reduce_local");
    dt_t *dt;
    op_t *op;
    CHECK_COUNT(count);
    CHECK_REDUCTION(type, dt, opn, op);
    if (count > 0 && (!inbuf || !inoutbuf || inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE) &&
        dt->size > 0 && dt->true_lb == 0)
        API_FAIL(MPI_ERR_BUFFER);
    rc = op_apply(op, inbuf, inoutbuf, count, dt);
    API_END();
}
