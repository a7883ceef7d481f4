/* Error handlers and attributes of windows. */
#include "api/win_api.h"

#include "core/attr.h"

API_WEAK(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    API_BEGIN("MPI_Win_set_errhandler");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    errh_t *e = errh_get_kind(errhandler, ERRH_WIN);
    if (!e)
        API_FAIL(MPI_ERR_ARG);
    errh_replace(&w->errh, e);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    API_BEGIN("MPI_Win_get_errhandler");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(errhandler);
    errh_retain(w->errh); /* the user frees the handle it gets */
    *errhandler = w->errh->handle;
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    API_BEGIN("MPI_Win_call_errhandler");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    /* The handler's verdict is what the call returns (MPI_SUCCESS when
     * it returns at all, as for MPI_Comm_call_errhandler). */
    errh_invoke(w->errh, w->handle, errorcode, FNAME);
    API_END_CLEANUP(WIN_RAISE(w));
}

/* The predefined attributes of a window (values are pointers to the data,
 * the base itself for MPI_WIN_BASE). */
static int predefined(win_t *w, int keyval, void *val, int *flag)
{
    static int flavor, model, du;
    static MPI_Aint size;
    *flag = 1;
    switch (keyval) {
    case MPI_WIN_BASE: *(void **)val = w->base; break;
    case MPI_WIN_SIZE: size = w->bytes; *(void **)val = &size; break;
    case MPI_WIN_DISP_UNIT: du = w->disp_unit; *(void **)val = &du; break;
    case MPI_WIN_CREATE_FLAVOR: flavor = w->flavor; *(void **)val = &flavor; break;
    case MPI_WIN_MODEL: model = w->model; *(void **)val = &model; break;
    default: *flag = 0; return 0;
    }
    return 1;
}

API_WEAK(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag)
{
    API_BEGIN("MPI_Win_get_attr");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(val);
    CHECK_PTR(flag);
    if (!predefined(w, keyval, val, flag))
        rc = attr_get(KV_WIN, &w->attrs, keyval, val, flag);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int keyval, void *val)
{
    API_BEGIN("MPI_Win_set_attr");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (attr_keyval_predefined(keyval))
        API_FAIL(MPI_ERR_KEYVAL);
    rc = attr_set(KV_WIN, &w->attrs, w->handle, keyval, val);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    API_BEGIN("MPI_Win_delete_attr");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (attr_keyval_predefined(keyval))
        API_FAIL(MPI_ERR_KEYVAL);
    rc = attr_delete(KV_WIN, &w->attrs, w->handle, keyval);
    API_END_CLEANUP(WIN_RAISE(w));
}
