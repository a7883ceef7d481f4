/* Cancel, status queries and generalized requests. */
#include "api/api.h"

#include <stdint.h>

#include "transport/shm/shm.h"

API_WEAK(Cancel)
int PMPI_Cancel(MPI_Request *request)
{
    API_BEGIN("MPI_Cancel");
    CHECK_PTR(request);
    req_t *r = req_get(*request);
    if (!r)
        API_FAIL(MPI_ERR_REQUEST);
    err_comm = r->comm;
    if (r->persistent && !r->active)
        API_FAIL(MPI_ERR_REQUEST);
    if (r->kind == REQ_GREQ) {
        rc = api_greq_cancel(r, r->complete);
        goto fail;
    }
    rc = p2p_cancel(r);
    API_END();
}

API_WEAK(Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    API_BEGIN("MPI_Test_cancelled");
    CHECK_PTR(status);
    CHECK_PTR(flag);
    *flag = status->ftmpi_cancelled;
    API_END();
}

static int count_common(const char *fname, const MPI_Status *status, MPI_Datatype type,
                        MPI_Count *count, int elements)
{
    API_BEGIN(fname);
    dt_t *dt;
    CHECK_PTR(status);
    CHECK_PTR(count);
    dt = dt_get(type);
    if (!dt || !dt->committed)
        API_FAIL(MPI_ERR_TYPE);
    long long bytes = status->ftmpi_count;
    if (elements) {
        *count = dt_elements_in(dt, (size_t)bytes);
    } else if (dt->size == 0) {
        *count = 0;
    } else if (bytes % (long long)dt->size) {
        *count = MPI_UNDEFINED;
    } else {
        *count = bytes / (long long)dt->size;
    }
    API_END();
}

API_WEAK(Get_count)
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
    MPI_Count c = 0;
    int rc = count_common("MPI_Get_count", status, type, &c, 0);
    if (rc == MPI_SUCCESS && count)
        *count = c > INT_MAX ? MPI_UNDEFINED : (int)c;
    return rc;
}

API_WEAK(Get_elements)
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
    MPI_Count c = 0;
    int rc = count_common("MPI_Get_elements", status, type, &c, 1);
    if (rc == MPI_SUCCESS && count)
        *count = c > INT_MAX ? MPI_UNDEFINED : (int)c;
    return rc;
}

API_WEAK(Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    return count_common("MPI_Get_elements_x", status, type, count, 1);
}

/* MPI-4.0 large-count forms */
API_WEAK(Get_elements_c)
int PMPI_Get_elements_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    return count_common("MPI_Get_elements_c", status, type, count, 1);
}

API_WEAK(Get_count_c)
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype type, MPI_Count *count)
{
    return count_common("MPI_Get_count_c", status, type, count, 0);
}

static int set_elements(const char *fname, MPI_Status *status, MPI_Datatype type, MPI_Count n)
{
    API_BEGIN(fname);
    CHECK_PTR(status);
    dt_t *dt = dt_get(type);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    if (n < 0)
        API_FAIL(MPI_ERR_COUNT);
    /* Stored as bytes: the bytes that n basic elements of the type take. */
    size_t bytes = dt_bytes_of_elements(dt, n);
    if (bytes == SIZE_MAX)
        API_FAIL(MPI_ERR_ARG);
    status->ftmpi_count = (long long)bytes;
    API_END();
}

API_WEAK(Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype type, int count)
{
    return set_elements("MPI_Status_set_elements", status, type, count);
}

API_WEAK(Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype type, MPI_Count count)
{
    return set_elements("MPI_Status_set_elements_x", status, type, count);
}

API_WEAK(Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    API_BEGIN("MPI_Status_set_cancelled");
    CHECK_PTR(status);
    status->ftmpi_cancelled = flag != 0;
    API_END();
}

API_WEAK(Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                        MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    API_BEGIN("MPI_Grequest_start");
    CHECK_PTR(request);
    req_t *r = req_alloc(REQ_GREQ);
    if (!r)
        API_FAIL(MPI_ERR_NO_MEM);
    r->gq = query_fn;
    r->gf = free_fn;
    r->gc = cancel_fn;
    r->gstate = extra_state;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->status.MPI_SOURCE = MPI_UNDEFINED;
    r->status.MPI_TAG = MPI_UNDEFINED;
    if ((rc = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        goto fail;
    }
    *request = r->handle;
    API_END();
}

API_WEAK(Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request)
{
    API_BEGIN("MPI_Grequest_complete");
    req_t *r = req_get(request);
    if (!r || r->kind != REQ_GREQ || r->complete)
        API_FAIL(MPI_ERR_REQUEST);
    if (r->user_freed) {
        /* MPI_Request_free came first: the request ends here; its free
         * function runs now, as the standard says. */
        r->complete = 1;
        api_greq_free(r);
        req_free(r);
        goto fail;
    }
    req_complete(r);
    /* Wake a thread that may be waiting on it. */
    if (shm_self.base)
        shmseg_wake(shmseg_slot(shm_self.base, shm_self.my_slot));
    API_END();
}
