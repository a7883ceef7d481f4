/*
 * MPI_Comm_idup (non-blocking context agreement) and MPI_Comm_idup_with_info,
 * MPI_Comm_dup_with_info,
 * MPI_Comm_set_info and MPI_Comm_get_info.
 *
 * Comm_idup makes the new communicator object and its handle at once (so
 * *newcomm is valid when the call returns, though it must not be used
 * before the request completes), copies attributes, topology and hints,
 * and starts the agreement; the progress engine finishes it: the
 * communicator gets its context id and becomes visible to matching, then
 * the request completes. Messages sent on it by faster members before
 * that wait among the orphans of the p2p layer and are adopted.
 */
#include "api/comm_int.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    comm_t *n;
    req_t *r;
} idup_t;

static void idup_done(void *arg, int rc, const uint32_t *ctx)
{
    idup_t *d = arg;
    comm_t *n = d->n;
    if (rc == MPI_SUCCESS) {
        n->ctx = ctx[0];
        if (n->is_inter) {
            comm_t *lc = comm_new(n->group, NULL, ctx[1]);
            if (lc) {
                lc->hidden = 1;
                snprintf(lc->name, sizeof(lc->name), "local part of an intercommunicator");
                comm_register_hidden(lc);
                n->local_comm = lc;
            } else {
                comm_ctx_release(ctx[1]);
                comm_ctx_release(ctx[0]);
                rc = MPI_ERR_NO_MEM;
            }
        }
        if (rc == MPI_SUCCESS)
            comm_register(n); /* the handle exists already: cannot fail */
    }
    if (rc != MPI_SUCCESS)
        n->state = COMM_FAILED; /* only MPI_Comm_free works on it */
    comm_release(n);           /* the reference of the operation */
    req_t *r = d->r;
    free(d);
    r->status.MPI_ERROR = rc;
    req_complete(r);
}

/* MPI_Comm_idup, and with with_info MPI_Comm_idup_with_info (MPI-4.0):
 * the new communicator's hints are then the ones given. */
static int idup_common(const char *fname, MPI_Comm comm, int with_info, MPI_Info info,
                       MPI_Comm *newcomm, MPI_Request *request)
{
    API_BEGIN(fname);
    comm_t *c, *n = NULL;
    req_t *r = NULL;
    idup_t *d = NULL;
    info_t *in = NULL;
    CHECK_PTR(newcomm);
    CHECK_PTR(request);
    CHECK_COMM(comm, c);
    if (with_info)
        CHECK_INFO_OR_NULL(info, in);
    CHECK_USABLE(c);
    n = comm_new(c->group, c->rgroup, 0);
    r = req_alloc(REQ_COLL);
    d = malloc(sizeof(*d));
    if (!n || !r || !d || comm_make_handle(n) != MPI_SUCCESS ||
        req_make_handle(r) != MPI_SUCCESS) {
        rc = MPI_ERR_NO_MEM;
        goto undo;
    }
    n->errh = c->errh;
    errh_retain(n->errh);
    rc = api_comm_dup_extras(c, n);
    if (rc != MPI_SUCCESS)
        goto undo;
    if (with_info) {
        info_release(n->info);
        n->info = NULL;
        if (in && !(n->info = info_dup(in))) {
            rc = MPI_ERR_NO_MEM;
            goto undo;
        }
    }
    r->comm = c;
    comm_retain(c);
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = MPI_SUCCESS;
    d->n = n;
    d->r = r;
    comm_retain(n); /* held by the operation until it is over */
    *newcomm = n->handle;
    *request = r->handle;
    ctx_party_t pt;
    ctx_party_of(c, &pt);
    rc = ctx_agree_start(&pt, api_ctx_pairs(c->is_inter), idup_done, d);
    if (rc != MPI_SUCCESS) {
        /* could not start: complete the request with the error */
        idup_done(d, rc, NULL);
        rc = MPI_SUCCESS;
    }
    goto fail;
undo:
    if (n)
        comm_release(n);
    if (r)
        req_free(r);
    free(d);
    API_END();
}

API_WEAK(Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup_common("MPI_Comm_idup", comm, 0, MPI_INFO_NULL, newcomm, request);
}

API_WEAK(Comm_idup_with_info)
int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    return idup_common("MPI_Comm_idup_with_info", comm, 1, info, newcomm, request);
}

API_WEAK(Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_dup_with_info");
    comm_t *c, *n;
    info_t *in;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    CHECK_INFO_OR_NULL(info, in);
    CHECK_USABLE(c);
    rc = api_comm_dup(c, &n);
    if (rc != MPI_SUCCESS)
        goto fail;
    /* the hints are the ones given, not the parent's */
    info_release(n->info);
    n->info = NULL;
    if (in && !(n->info = info_dup(in))) {
        comm_release(n);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    *newcomm = n->handle;
    API_END();
}

API_WEAK(Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    API_BEGIN("MPI_Comm_set_info");
    comm_t *c;
    info_t *in;
    CHECK_COMM(comm, c);
    in = info_get(info);
    if (!in)
        API_FAIL(MPI_ERR_INFO);
    /* new values for the hints given; the others stay as they were */
    if (!c->info && !(c->info = info_new()))
        API_FAIL(MPI_ERR_NO_MEM);
    for (int k = 0; k < in->n && rc == MPI_SUCCESS; k++)
        rc = info_set(c->info, in->e[k].key, in->e[k].val);
    API_END();
}

API_WEAK(Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    API_BEGIN("MPI_Comm_get_info");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(info_used);
    info_t *i = info_dup(c->info);
    if (!i)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = info_make_handle(i);
    if (rc != MPI_SUCCESS) {
        info_release(i);
        goto fail;
    }
    *info_used = i->handle;
    API_END();
}
