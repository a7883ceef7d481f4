/*
 * Completion: Wait/Test and their any/all/some forms, Request_get_status,
 * Request_free. A null handle or an inactive persistent request counts as
 * "not active": it completes at once with an empty status.
 */
#include "api/api.h"

#include <stdlib.h>

static int is_active(const req_t *r)
{
    return r && (!r->persistent || r->active);
}

/* Look up a request handle. 1: ok (*r_p may be NULL for a null handle). */
static int lookup(MPI_Request h, req_t **r_p)
{
    *r_p = NULL;
    if (h == MPI_REQUEST_NULL)
        return 1;
    *r_p = req_get(h);
    return *r_p != NULL;
}

/* Test r once: *flag says whether it is done (an inactive request is, with
 * an empty status). Returns 1 when r is active and complete: the caller
 * then reports it. */
static int test_once(req_t *r, int *flag, MPI_Status *status)
{
    if (!is_active(r)) {
        *flag = 1;
        api_status_empty(status);
        return 0;
    }
    if (!r->complete)
        progress_poll();
    *flag = r->complete;
    return r->complete;
}

/* Finish r for the user and raise its error on its communicator. */
static int finish(req_t *r, MPI_Request *h, MPI_Status *st, const char *fname)
{
    comm_t *c = r->comm;
    if (c)
        comm_retain(c);
    int err = api_req_finish(r, h, st);
    if (err != MPI_SUCCESS)
        err = api_error_comm(c, err, fname);
    if (c)
        comm_release(c);
    return err;
}

API_WEAK(Wait)
int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    API_BEGIN("MPI_Wait");
    CHECK_PTR(request);
    req_t *r;
    if (!lookup(*request, &r))
        API_FAIL(MPI_ERR_REQUEST);
    if (!is_active(r)) {
        api_status_empty(status);
        goto fail;
    }
    progress_wait_req(r);
    API_LEAVE_RAISED(finish(r, request, status, FNAME));
    API_END();
}

API_WEAK(Test)
int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    API_BEGIN("MPI_Test");
    CHECK_PTR(request);
    CHECK_PTR(flag);
    req_t *r;
    if (!lookup(*request, &r))
        API_FAIL(MPI_ERR_REQUEST);
    if (test_once(r, flag, status))
        API_LEAVE_RAISED(finish(r, request, status, FNAME));
    API_END();
}

static int check_array(int count, MPI_Request reqs[])
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (count > 0 && !reqs)
        return MPI_ERR_ARG;
    for (int i = 0; i < count; i++) {
        req_t *r;
        if (!lookup(reqs[i], &r))
            return MPI_ERR_REQUEST;
    }
    return MPI_SUCCESS;
}

/* Index of a completed active request, -1 if none, -2 if none is active. */
static int find_done(int count, MPI_Request reqs[])
{
    int active = 0;
    for (int i = 0; i < count; i++) {
        req_t *r = req_get(reqs[i]);
        if (!is_active(r))
            continue;
        active = 1;
        if (r->complete)
            return i;
    }
    return active ? -1 : -2;
}

typedef struct {
    int count;
    MPI_Request *reqs;
} any_arg_t;

static int any_done(void *arg)
{
    any_arg_t *a = arg;
    return find_done(a->count, a->reqs) != -1;
}

API_WEAK(Waitany)
int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    API_BEGIN("MPI_Waitany");
    CHECK_PTR(index);
    if ((rc = check_array(count, reqs)) != MPI_SUCCESS)
        goto fail;
    any_arg_t a = {count, reqs};
    progress_wait(any_done, &a);
    int i = find_done(count, reqs);
    if (i < 0) {
        *index = MPI_UNDEFINED;
        api_status_empty(status);
        goto fail;
    }
    *index = i;
    API_LEAVE_RAISED(finish(req_get(reqs[i]), &reqs[i], status, FNAME));
    API_END();
}

API_WEAK(Testany)
int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
    API_BEGIN("MPI_Testany");
    CHECK_PTR(index);
    CHECK_PTR(flag);
    if ((rc = check_array(count, reqs)) != MPI_SUCCESS)
        goto fail;
    int i = find_done(count, reqs);
    if (i == -1) {
        progress_poll();
        i = find_done(count, reqs);
    }
    *flag = i != -1;
    *index = MPI_UNDEFINED;
    if (i == -2) {
        api_status_empty(status);
        goto fail;
    }
    if (i >= 0) {
        *index = i;
        API_LEAVE_RAISED(finish(req_get(reqs[i]), &reqs[i], status, FNAME));
    }
    API_END();
}

static int all_done(void *arg)
{
    any_arg_t *a = arg;
    for (int i = 0; i < a->count; i++) {
        req_t *r = req_get(a->reqs[i]);
        if (is_active(r) && !r->complete)
            return 0;
    }
    return 1;
}

/* Finish every request of the array; MPI_ERR_IN_STATUS if any failed. */
static int finish_all(int count, MPI_Request reqs[], MPI_Status sts[], comm_t **errc)
{
    int any_err = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];
        req_t *r = req_get(reqs[i]);
        if (!is_active(r)) {
            api_status_empty(st);
            if (st != MPI_STATUS_IGNORE)
                st->MPI_ERROR = MPI_SUCCESS;
            continue;
        }
        if (!*errc)
            *errc = r->comm;
        int err = api_req_finish(r, &reqs[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS) {
            any_err = 1;
        }
    }
    return any_err ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

API_WEAK(Waitall)
int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status sts[])
{
    API_BEGIN("MPI_Waitall");
    if ((rc = check_array(count, reqs)) != MPI_SUCCESS)
        goto fail;
    any_arg_t a = {count, reqs};
    progress_wait(all_done, &a);
    rc = finish_all(count, reqs, sts, &err_comm);
    API_END();
}

API_WEAK(Testall)
int PMPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status sts[])
{
    API_BEGIN("MPI_Testall");
    CHECK_PTR(flag);
    if ((rc = check_array(count, reqs)) != MPI_SUCCESS)
        goto fail;
    any_arg_t a = {count, reqs};
    if (!all_done(&a))
        progress_poll();
    *flag = all_done(&a);
    if (*flag)
        rc = finish_all(count, reqs, sts, &err_comm);
    API_END();
}

/* Finish every completed request; *out = how many, or MPI_UNDEFINED. */
static int some_common(int count, MPI_Request reqs[], int *out, int idx[], MPI_Status sts[],
                       comm_t **errc)
{
    int n = 0, active = 0, any_err = 0;
    for (int i = 0; i < count; i++) {
        req_t *r = req_get(reqs[i]);
        if (!is_active(r))
            continue;
        active = 1;
        if (!r->complete)
            continue;
        MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[n];
        if (!*errc)
            *errc = r->comm;
        int err = api_req_finish(r, &reqs[i], st);
        if (st != MPI_STATUS_IGNORE)
            st->MPI_ERROR = err;
        if (err != MPI_SUCCESS)
            any_err = 1;
        idx[n++] = i;
    }
    *out = active ? n : MPI_UNDEFINED;
    return any_err ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

static int some_done(void *arg)
{
    any_arg_t *a = arg;
    return find_done(a->count, a->reqs) != -1;
}

API_WEAK(Waitsome)
int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
    API_BEGIN("MPI_Waitsome");
    CHECK_PTR(outcount);
    if ((rc = check_array(incount, reqs)) != MPI_SUCCESS)
        goto fail;
    if (incount > 0)
        CHECK_PTR(idx);
    any_arg_t a = {incount, reqs};
    progress_wait(some_done, &a);
    rc = some_common(incount, reqs, outcount, idx, sts, &err_comm);
    API_END();
}

API_WEAK(Testsome)
int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int idx[], MPI_Status sts[])
{
    API_BEGIN("MPI_Testsome");
    CHECK_PTR(outcount);
    if ((rc = check_array(incount, reqs)) != MPI_SUCCESS)
        goto fail;
    if (incount > 0)
        CHECK_PTR(idx);
    progress_poll();
    rc = some_common(incount, reqs, outcount, idx, sts, &err_comm);
    API_END();
}

API_WEAK(Request_get_status)
int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    API_BEGIN("MPI_Request_get_status");
    CHECK_PTR(flag);
    req_t *r;
    if (!lookup(request, &r))
        API_FAIL(MPI_ERR_REQUEST);
    if (test_once(r, flag, status))
        api_status_out(status, &r->status);
    API_END();
}

API_WEAK(Request_free)
int PMPI_Request_free(MPI_Request *request)
{
    API_BEGIN("MPI_Request_free");
    CHECK_PTR(request);
    req_t *r = req_get(*request);
    if (!r)
        API_FAIL(MPI_ERR_REQUEST);
    err_comm = r->comm;
    if (r->kind == REQ_GREQ) {
        /* The handle stays valid for MPI_Grequest_complete; the free
         * function runs when the request is both freed and complete. */
        if (r->complete) {
            rc = api_greq_free(r);
            req_free(r);
        } else {
            r->user_freed = 1;
        }
    } else if (r->pcoll && r->active) {
        API_FAIL(MPI_ERR_REQUEST); /* an active persistent collective (MPI-4.0 6.13) */
    } else if (r->complete) {
        /* Done (a started persistent request too, though not waited
         * for): nothing is left to go on. */
        req_free(r);
    } else {
        /* Still running: it frees itself when it completes, and
         * MPI_Finalize waits for that. */
        req_orphan(r);
    }
    *request = MPI_REQUEST_NULL;
    API_END();
}
