/* The body of every MPI-IO data access call (api/file_data.c), the end of
 * split collectives, and the error paths of files. */
#include "api/file_api.h"

int api_error_file(io_file_t *f, int rc, const char *fname)
{
    ft_auto_recover(rc);
    rc = ulfm_code(rc);
    return errh_invoke(f ? f->errh : *io_null_errh(), f ? f->handle : MPI_FILE_NULL, rc, fname);
}

int api_file_fail_early(MPI_File fh, int code, const char *fname)
{
    API_BEGIN(fname);
    io_file_t *f = io_file_get(fh);
    rc = code;
    API_END_CLEANUP(FILE_RAISE(f));
}

/* A request that is complete already, holding the access's status. */
static int done_request(const MPI_Status *st, MPI_Request *request)
{
    req_t *r = req_alloc(REQ_COLL);
    if (!r || req_make_handle(r) != MPI_SUCCESS) {
        if (r)
            req_free(r);
        return MPI_ERR_NO_MEM;
    }
    r->status = *st;
    r->status.MPI_ERROR = MPI_SUCCESS;
    req_complete(r);
    *request = r->handle;
    return MPI_SUCCESS;
}

/* Where the access starts (etypes of the view), the pointers moved. */
static int position(io_file_t *f, const io_call_t *call, MPI_Offset offset, MPI_Offset et,
                    MPI_Offset *off)
{
    switch (call->where) {
    case IO_AT: *off = offset; return MPI_SUCCESS;
    case IO_INDIV: *off = f->pos; f->pos += et; return MPI_SUCCESS;
    default: return io_shared_fetch_add(f, et, off);
    }
}

int api_file_rw(const io_call_t *call, MPI_File fh, MPI_Offset offset, const void *buf,
                int count, MPI_Datatype datatype, MPI_Status *status)
{
    API_BEGIN(call->fname);
    io_file_t *f = NULL;
    dt_t *dt;
    CHECK_FILE(fh, f);
    if (call->nb && !call->request)
        API_FAIL(err_cause(MPI_ERR_REQUEST, "NULL request pointer"));
    CHECK_COUNT(count);
    CHECK_DT(datatype, dt);
    CHECK_BUF(buf, count, dt);
    if ((f->amode & MPI_MODE_SEQUENTIAL) && (call->where == IO_AT || call->where == IO_INDIV))
        API_FAIL(err_cause(MPI_ERR_UNSUPPORTED_OPERATION,
                           "the file was opened MPI_MODE_SEQUENTIAL: shared pointer only"));
    if (call->split && f->split)
        API_FAIL(err_cause(MPI_ERR_OTHER, "a split collective is active on this file"));
    MPI_Status st = {0};
    MPI_Offset et = 0, off = 0, moved;
    rc = io_access_etypes(f, (size_t)count, dt, &et);
    /* collective: the group meets first (a dead member fails the call
     * before any byte moves; the accesses before it are complete); a
     * member whose access is refused takes part all the same */
    if (call->coll) {
        int rc2 = call->where == IO_ORDERED
                      ? io_shared_ordered(f, rc == MPI_SUCCESS ? et : 0, &off)
                      : io_barrier(f);
        if (rc == MPI_SUCCESS)
            rc = rc2;
    }
    if (rc == MPI_SUCCESS && call->where != IO_ORDERED)
        rc = position(f, call, offset, et, &off);
    if (rc == MPI_SUCCESS)
        rc = io_access(f, call->write, off, (void *)buf, (size_t)count, dt, &st, &moved);
    if (call->split) {
        f->split = call->split;
        f->split_buf = buf;
        f->split_status = st;
        f->split_rc = rc;
        rc = MPI_SUCCESS; /* reported by the _end */
    } else if (rc == MPI_SUCCESS && call->request) {
        rc = done_request(&st, call->request);
    } else if (rc == MPI_SUCCESS) {
        api_status_out(status, &st);
    }
    if (rc != MPI_SUCCESS && call->request)
        *call->request = MPI_REQUEST_NULL;
    API_END_CLEANUP(FILE_RAISE(f));
}

int api_file_split_end(const char *fname, int kind, MPI_File fh, const void *buf,
                       MPI_Status *status)
{
    API_BEGIN(fname);
    io_file_t *f = NULL;
    CHECK_FILE(fh, f);
    if (f->split != kind)
        API_FAIL(err_cause(MPI_ERR_OTHER, "no matching split collective was begun"));
    if (f->split_buf != buf)
        API_FAIL(err_cause(MPI_ERR_BUFFER, "the buffer is not the one given to the _begin"));
    f->split = 0;
    rc = f->split_rc;
    if (rc == MPI_SUCCESS)
        api_status_out(status, &f->split_status);
    API_END_CLEANUP(FILE_RAISE(f));
}
