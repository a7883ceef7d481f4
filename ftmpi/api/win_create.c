/* MPI_Win_create and the other window constructors, free, query,
 * attach/detach. */
#include "api/win_api.h"

#include <string.h>

int api_error_win(win_t *w, int rc, const char *fname)
{
    ft_auto_recover(rc);
    rc = ulfm_code(rc);
    return errh_invoke(w->errh, w->handle, rc, fname);
}

/* The common part of the four constructors. */
static int create(const char *fname, int flavor, void *base, MPI_Aint size, int disp_unit,
                  MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    API_BEGIN(fname);
    comm_t *c;
    info_t *in;
    win_t *w = NULL;
    CHECK_PTR(win);
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_INFO_OR_NULL(info, in);
    if (size < 0)
        API_FAIL(MPI_ERR_SIZE);
    if (disp_unit <= 0)
        API_FAIL(MPI_ERR_DISP);
    if (flavor != MPI_WIN_FLAVOR_CREATE && flavor != MPI_WIN_FLAVOR_DYNAMIC)
        CHECK_PTR(baseptr);
    if (flavor == MPI_WIN_FLAVOR_CREATE && size > 0 && !base)
        API_FAIL(MPI_ERR_BASE);
    CHECK_USABLE(c);
    /* Under BLANK with gaps the window is made over the live members
     * (every survivor knows the same gaps after the recovery). */
    ft_coll_t f;
    if ((rc = ft_live_begin(&f, c)) != MPI_SUCCESS)
        goto fail;
    group_t *full = f.saved_group;
    rc = rma_win_create(c, flavor, base, size, disp_unit, in, baseptr, &w);
    if (rc == MPI_SUCCESS && full && (rc = rma_set_gaps(w, full)) != MPI_SUCCESS) {
        rma_win_free(w, 0); /* local: the others may have succeeded */
        w = NULL;
    }
    rc = ft_coll_end(&f, rc);
    if (rc == MPI_SUCCESS && ulfm_enabled())
        ulfm_watch(w->comm); /* MPIX_Win_revoke */
    if (rc == MPI_SUCCESS)
        *win = w->handle;
    API_END();
}

API_WEAK(Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                    MPI_Win *win)
{
    return create("MPI_Win_create", MPI_WIN_FLAVOR_CREATE, base, size, disp_unit, info, comm,
                  NULL, win);
}

API_WEAK(Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                      MPI_Win *win)
{
    return create("MPI_Win_allocate", MPI_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info, comm,
                  baseptr, win);
}

API_WEAK(Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                             void *baseptr, MPI_Win *win)
{
    return create("MPI_Win_allocate_shared", MPI_WIN_FLAVOR_SHARED, NULL, size, disp_unit, info,
                  comm, baseptr, win);
}

API_WEAK(Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return create("MPI_Win_create_dynamic", MPI_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, comm, NULL,
                  win);
}

API_WEAK(Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    API_BEGIN("MPI_Win_shared_query");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(size);
    CHECK_PTR(disp_unit);
    CHECK_PTR(baseptr);
    CHECK_WIN_RANK(w, rank);
    rc = rma_shared_query(w, rank, size, disp_unit, baseptr);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    API_BEGIN("MPI_Win_attach");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (size < 0)
        API_FAIL(MPI_ERR_SIZE);
    if (!base && size > 0)
        API_FAIL(MPI_ERR_BASE);
    rc = rma_attach(w, base, size);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    API_BEGIN("MPI_Win_detach");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    rc = rma_detach(w, base);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    API_BEGIN("MPI_Win_free");
    win_t *w = NULL;
    CHECK_PTR(win);
    CHECK_WIN(*win, w);
    if (w->start_group || w->post_group || w->lock_all)
        API_FAIL(MPI_ERR_RMA_SYNC);
    for (int t = 0; t < w->size; t++)
        if (w->access[t] >= EP_LOCK_SHARED)
            API_FAIL(MPI_ERR_RMA_SYNC);
    errh_t *e = w->errh;
    int h = w->handle;
    errh_retain(e);
    /* w is gone, also when rc reports a failure */
    rc = rma_win_free(w, !ulfm_is_revoked(w->comm));
    w = NULL;
    *win = MPI_WIN_NULL;
    if (rc != MPI_SUCCESS) {
        rc = errh_invoke(e, h, ulfm_code(rc), FNAME);
        rc_raised = 1;
    }
    errh_release(e);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    API_BEGIN("MPI_Win_get_group");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(group);
    group_t *wg = w->ugroup ? w->ugroup : w->comm->group;
    group_t *g = group_new(wg->size, wg->world);
    if (!g)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = group_make_handle(g);
    if (rc == MPI_SUCCESS)
        *group = g->handle;
    else
        group_release(g);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    API_BEGIN("MPI_Win_set_info");
    win_t *w = NULL;
    info_t *in;
    CHECK_WIN(win, w);
    CHECK_INFO_OR_NULL(info, in);
    info_t *d = in ? info_dup(in) : info_new();
    if (!d)
        API_FAIL(MPI_ERR_NO_MEM);
    info_release(w->info);
    w->info = d;
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    API_BEGIN("MPI_Win_get_info");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(info_used);
    info_t *d = info_dup(w->info);
    if (!d)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = info_make_handle(d);
    if (rc == MPI_SUCCESS)
        *info_used = d->handle;
    else
        info_release(d);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    API_BEGIN("MPI_Win_set_name");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(win_name);
    size_t n = strlen(win_name);
    if (n >= MPI_MAX_OBJECT_NAME)
        n = MPI_MAX_OBJECT_NAME - 1;
    memcpy(w->name, win_name, n);
    w->name[n] = 0;
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    API_BEGIN("MPI_Win_get_name");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(win_name);
    CHECK_PTR(resultlen);
    size_t n = strlen(w->name);
    memcpy(win_name, w->name, n + 1);
    *resultlen = (int)n;
    API_END_CLEANUP(WIN_RAISE(w));
}
