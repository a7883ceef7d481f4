/* Shared helpers of the API layer. */
#include "api/api.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

int api_not_initialized(const char *fname)
{
    fprintf(stderr, "ftmpi: %s called %s\n", fname,
            ftg.finalized ? "after MPI_Finalize" : "before MPI_Init");
    return MPI_ERR_OTHER;
}

static pthread_mutex_t outside_lock = PTHREAD_MUTEX_INITIALIZER;

int api_anytime_enter(void)
{
    if (ftg.initialized && !ftg.finalized) {
        api_lock();
        return 0;
    }
    pthread_mutex_lock(&outside_lock);
    return 1;
}

void api_anytime_leave(int outside)
{
    if (outside)
        pthread_mutex_unlock(&outside_lock);
    else
        api_unlock();
}

int api_error_initial(int rc, const char *fname)
{
    const char *why = err_cause_raise(rc, fname); /* "fname: class string[: cause]" */
    const char *h = getenv("FTMPI_INITIAL_ERRHANDLER");
    if (h && strcasecmp(h, "mpi_errors_return") == 0)
        return rc;
    if (h && *h && strcasecmp(h, "mpi_errors_are_fatal") != 0 &&
        strcasecmp(h, "mpi_errors_abort") != 0)
        fprintf(stderr, "ftmpi: FTMPI_INITIAL_ERRHANDLER=%s is not mpi_errors_return, "
                        "mpi_errors_abort or mpi_errors_are_fatal: fatal\n", h);
    fprintf(stderr, "ftmpi: %s %s (initial error handler MPI_ERRORS_ARE_FATAL)\n", why,
            ftg.finalized ? "after MPI_Finalize" : "before MPI_Init");
    fflush(stderr);
    exit(rc);
}

int api_error_comm(comm_t *c, int rc, const char *fname)
{
    ft_auto_recover(rc); /* AUTO mode: recover before the error is reported */
    rc = ulfm_code(rc);  /* ULFM mode: a failure is MPIX_ERR_PROC_FAILED */
    if (!c)
        c = comm_world();
    if (!c)
        return rc;
    return errh_invoke(c->errh, c->handle, rc, fname);
}

int api_fail_early(MPI_Comm comm, int code, const char *fname)
{
    API_BEGIN(fname);
    err_comm = comm_get(comm); /* NULL: MPI_COMM_WORLD's handler */
    rc = code;
    API_END();
}

int api_bad_type(MPI_Datatype h, const dt_t *dt)
{
    if (!dt)
        return err_cause(MPI_ERR_TYPE, "%d is not a datatype handle", (int)h);
    if (h == MPI_LB || h == MPI_UB)
        return err_cause(MPI_ERR_TYPE, "MPI_LB and MPI_UB are markers, not datatypes to send");
    return err_cause(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
}

int api_bad_tag(int tag)
{
    return err_cause(MPI_ERR_TAG, "tag %d is outside 0..MPI_TAG_UB (%d)", tag, FTMPI_TAG_UB);
}

int api_bad_rank(comm_t *c, int r)
{
    int n = comm_peer_size(c);
    if (r >= 0 && r < n)
        return err_cause(MPI_ERR_RANK, "rank %d is a gap left by a failed process (BLANK mode)", r);
    return err_cause(MPI_ERR_RANK, "rank %d is outside 0..%d of the %s", r, n - 1,
                     c->is_inter ? "remote group" : "communicator");
}

int api_comm_usable(comm_t *c)
{
    /* A recovery round waits for this process: every communicating call
     * fails until it joins (docs/ft.md, "Who is told to recover"). */
    if (ft_round_waiting() && c->state != COMM_FAILED)
        return err_cause(MPI_ERR_OTHER, "a process failed and a recovery round waits for this "
                                        "process (recover MPI_COMM_WORLD first)");
    if (ulfm_is_revoked(c))
        return err_cause(MPIX_ERR_REVOKED, "the communicator was revoked");
    switch (c->state) {
    case COMM_OK:
    case COMM_RECOVERED:
        return MPI_SUCCESS;
    case COMM_FAILED:
        return err_cause(MPI_ERR_COMM, "the communicator was invalidated by a failure");
    case COMM_DETECTED:
        /* A member failed. Point-to-point among live processes goes on
         * under CONT and without recovery (NONE); collectives fail below. */
        if (ftg.msg_mode == FTMPI_MSG_MODE_CONT || ftg.recovery_mode == FTMPI_RECOVERY_MODE_NONE)
            return MPI_SUCCESS;
        return err_cause(MPI_ERR_OTHER, "a member of the communicator failed and it is not "
                                        "recovered yet (message mode RESET)");
    default:
        return MPI_ERR_OTHER;
    }
}

int api_req_finish(req_t *r, MPI_Request *handle_p, MPI_Status *status)
{
    int err = r->status.MPI_ERROR;
    if (handle_p && ulfm_parked(r)) {
        /* A wildcard receive stays pending across an unacknowledged
         * failure: reported, kept, re-posted by the acknowledgement. */
        api_status_out(status, &r->status);
        return err;
    }
    if (r->kind == REQ_GREQ && r->gq) {
        MPI_Status st = r->status;
        int qerr = api_greq_query(r, &st);
        r->status.MPI_SOURCE = st.MPI_SOURCE;
        r->status.MPI_TAG = st.MPI_TAG;
        r->status.ftmpi_count = st.ftmpi_count;
        r->status.ftmpi_cancelled = st.ftmpi_cancelled;
        if (qerr != MPI_SUCCESS)
            err = qerr;
    }
    api_status_out(status, &r->status);
    err = ulfm_code(err); /* ULFM: statuses say MPIX_ERR_PROC_FAILED too */
    if (r->persistent) {
        r->active = 0;
        return err;
    }
    if (r->kind == REQ_GREQ && r->gf) {
        int ferr = api_greq_free(r);
        if (ferr != MPI_SUCCESS && err == MPI_SUCCESS)
            err = ferr;
    }
    req_free(r);
    if (handle_p)
        *handle_p = MPI_REQUEST_NULL;
    return err;
}

int api_greq_query(req_t *r, MPI_Status *st)
{
    api_unlock();
    int rc = r->gq(r->gstate, st);
    api_lock();
    return rc;
}

int api_greq_free(req_t *r)
{
    if (!r->gf)
        return MPI_SUCCESS;
    api_unlock();
    int rc = r->gf(r->gstate);
    api_lock();
    return rc;
}

int api_greq_cancel(req_t *r, int complete)
{
    if (!r->gc)
        return MPI_SUCCESS;
    api_unlock();
    int rc = r->gc(r->gstate, complete);
    api_lock();
    return rc;
}

int api_wait_internal(req_t *r)
{
    progress_wait_req(r);
    int err = r->status.MPI_ERROR;
    req_free(r);
    return err;
}
