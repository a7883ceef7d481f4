/*
 * The MPIX_ functions of the ULFM interface (mpi-ext.h, docs/ulfm.md).
 * Outside the ULFM mode (--with-ft ulfm) the ones that need its machinery
 * return MPI_ERR_UNSUPPORTED_OPERATION; MPIX_Comm_is_revoked (0) and
 * MPIX_Comm_get_failed work in every mode.
 */
#include "api/comm_int.h"

#include <stdio.h>
#include <stdlib.h>

#define API_XWEAK(name) API_ALIAS(MPIX_##name, PMPIX_##name)

/* The ULFM machinery runs only in the ULFM mode. */
#define CHECK_ULFM()                                                          \
    do {                                                                      \
        if (!ulfm_enabled()) {                                                \
            fprintf(stderr, "ftmpi: %s needs the ULFM mode (mpirun --with-ft ulfm)\n", \
                    FNAME);                                                   \
            API_FAIL(MPI_ERR_UNSUPPORTED_OPERATION);                          \
        }                                                                     \
    } while (0)

API_XWEAK(Comm_revoke)
int PMPIX_Comm_revoke(MPI_Comm comm)
{
    API_BEGIN("MPIX_Comm_revoke");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    rc = ulfm_revoke(c);
    API_END();
}

API_XWEAK(Comm_is_revoked)
int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag)
{
    API_BEGIN("MPIX_Comm_is_revoked");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(flag);
    *flag = ulfm_is_revoked(c);
    API_END();
}

/* The communicator a shrink decided, built over the survivors (an
 * intercommunicator when remote is not NULL) on the agreed pairs. */
static int build_shrunk(comm_t *c, group_t *local, group_t *remote, const uint32_t *ctx,
                        MPI_Comm *newcomm)
{
    comm_t *n;
    int rc = api_comm_build(c, local, remote, ctx, &n); /* gives ctx back on failure */
    group_release(local);
    if (remote)
        group_release(remote);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    return rc;
}

API_XWEAK(Comm_shrink)
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm)
{
    API_BEGIN("MPIX_Comm_shrink");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    CHECK_PTR(newcomm);
    *newcomm = MPI_COMM_NULL;
    group_t *local, *remote;
    uint32_t ctx[2];
    rc = ulfm_shrink(c, &local, &remote, ctx);
    if (rc == MPI_SUCCESS)
        rc = build_shrunk(c, local, remote, ctx, newcomm);
    API_END();
}

/* MPIX_Comm_ishrink: the agreement runs in the background; when it is
 * decided, the progress engine builds the communicator, writes *newcomm
 * and completes the request. */
typedef struct {
    comm_t *c;
    req_t *r;
    MPI_Comm *newcomm;
} ishrink_t;

static void ishrink_done(void *arg, int rc, group_t *local, group_t *remote,
                         const uint32_t *ctx)
{
    ishrink_t *d = arg;
    if (rc == MPI_SUCCESS)
        rc = build_shrunk(d->c, local, remote, ctx, d->newcomm);
    d->r->status.MPI_ERROR = rc;
    req_complete(d->r);
    free(d);
}

API_XWEAK(Comm_ishrink)
int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    API_BEGIN("MPIX_Comm_ishrink");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    CHECK_PTR(newcomm);
    CHECK_PTR(request);
    *newcomm = MPI_COMM_NULL;
    *request = MPI_REQUEST_NULL;
    ishrink_t *d = malloc(sizeof *d);
    req_t *r = req_alloc(REQ_COLL);
    if (!d || !r || req_make_handle(r) != MPI_SUCCESS) {
        free(d);
        if (r)
            req_free(r);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    r->comm = c;
    comm_retain(c);
    *d = (ishrink_t){c, r, newcomm};
    *request = r->handle;
    rc = ulfm_ishrink(c, ishrink_done, d);
    if (rc != MPI_SUCCESS) { /* not started: the request reports it */
        d->r->status.MPI_ERROR = rc;
        req_complete(r);
        free(d);
        rc = MPI_SUCCESS;
    }
    API_END();
}

API_XWEAK(Comm_agree)
int PMPIX_Comm_agree(MPI_Comm comm, int *flag)
{
    API_BEGIN("MPIX_Comm_agree");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    CHECK_PTR(flag);
    rc = ulfm_agree(c, flag);
    API_END();
}

API_XWEAK(Comm_iagree)
int PMPIX_Comm_iagree(MPI_Comm comm, int *flag, MPI_Request *request)
{
    API_BEGIN("MPIX_Comm_iagree");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    CHECK_PTR(flag);
    CHECK_PTR(request);
    *request = MPI_REQUEST_NULL;
    req_t *r;
    rc = ulfm_iagree(c, flag, &r);
    if (rc != MPI_SUCCESS)
        goto fail;
    rc = req_make_handle(r);
    if (rc != MPI_SUCCESS)
        goto fail; /* the agreement goes on without a handle; the request
                    * is freed when it completes */
    *request = r->handle;
    API_END();
}

API_XWEAK(Comm_failure_ack)
int PMPIX_Comm_failure_ack(MPI_Comm comm)
{
    API_BEGIN("MPIX_Comm_failure_ack");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    rc = ulfm_ack(c, -1, NULL);
    API_END();
}

API_XWEAK(Comm_ack_failed)
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked)
{
    API_BEGIN("MPIX_Comm_ack_failed");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_ULFM();
    CHECK_PTR(num_acked);
    if (num_to_ack < 0)
        API_FAIL(MPI_ERR_ARG);
    rc = ulfm_ack(c, num_to_ack, num_acked);
    API_END();
}

static int failed_group(const char *fname, MPI_Comm comm, int acked_only, MPI_Group *grp)
{
    API_BEGIN(fname);
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(grp);
    if (acked_only)
        CHECK_ULFM();
    group_t *g;
    rc = ulfm_failed_group(c, acked_only, &g);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(g, grp);
    API_END();
}

API_XWEAK(Comm_failure_get_acked)
int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp)
{
    return failed_group("MPIX_Comm_failure_get_acked", comm, 1, failedgrp);
}

API_XWEAK(Comm_get_failed)
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp)
{
    return failed_group("MPIX_Comm_get_failed", comm, 0, failedgrp);
}
