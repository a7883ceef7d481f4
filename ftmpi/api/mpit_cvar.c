/* MPI_T_cvar_*: control variables (MPI-4.0 15.3.6; the table is
 * api/mpit_cvars.c, docs/mpit.md). */
#include "api/api.h"
#include "api/mpit.h"

#include <stdlib.h>

struct ftmpi_t_cvar_handle {
    list_node_t link; /* first: the handle is its link's address */
    const mpit_cvar_t *v;
};

/* Every live handle: a handle is valid when it is on this list. */
static list_node_t handles = LIST_INIT(handles);

static int handle_valid(MPI_T_cvar_handle h)
{
    return mpit_on_list(&handles, h);
}

void mpit_cvar_fini(void)
{
    while (!list_empty(&handles)) {
        list_node_t *n = handles.next;
        list_del(n);
        free(list_entry(n, struct ftmpi_t_cvar_handle, link));
    }
}

static const char *cvar_name(int i, int arg)
{
    (void)arg;
    return mpit_cvar(i)->name;
}

API_WEAK(T_cvar_get_num)
int PMPI_T_cvar_get_num(int *num_cvar)
{
    T_BEGIN();
    if (!num_cvar)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_cvar = mpit_cvar_count();
    T_END();
}

API_WEAK(T_cvar_get_info)
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    T_BEGIN();
    const mpit_cvar_t *v = mpit_cvar(cvar_index);
    if (!v)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    mpit_str(v->name, name, name_len);
    mpit_str(v->desc, desc, desc_len);
    if (verbosity)
        *verbosity = v->verbosity;
    if (datatype)
        *datatype = v->type;
    if (enumtype)
        *enumtype = v->en ? (MPI_T_enum)v->en : MPI_T_ENUM_NULL;
    if (bind)
        *bind = v->bind;
    if (scope)
        *scope = v->scope;
    T_END();
}

API_WEAK(T_cvar_get_index)
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    T_BEGIN();
    rc = mpit_find(name, mpit_cvar_count(), cvar_name, 0, cvar_index);
    T_END();
}

API_WEAK(T_cvar_handle_alloc)
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    (void)obj_handle; /* every control variable is bound to no object */
    T_BEGIN();
    const mpit_cvar_t *v = mpit_cvar(cvar_index);
    if (!v)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    if (!handle || !count)
        T_FAIL(MPI_T_ERR_INVALID);
    struct ftmpi_t_cvar_handle *h = malloc(sizeof(*h));
    if (!h)
        T_FAIL(MPI_T_ERR_MEMORY);
    h->v = v;
    list_add_tail(&handles, &h->link);
    *handle = h;
    *count = 1;
    T_END();
}

API_WEAK(T_cvar_handle_free)
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    T_BEGIN();
    if (!handle || !handle_valid(*handle))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    list_del(&(*handle)->link);
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    T_END();
}

API_WEAK(T_cvar_read)
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    T_BEGIN();
    if (!handle_valid(handle))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    if (!buf)
        T_FAIL(MPI_T_ERR_INVALID);
    rc = handle->v->read(handle->v->arg, buf);
    T_END();
}

API_WEAK(T_cvar_write)
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    T_BEGIN();
    if (!handle_valid(handle))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    if (!buf)
        T_FAIL(MPI_T_ERR_INVALID);
    const mpit_cvar_t *v = handle->v;
    if (!v->write || v->scope == MPI_T_SCOPE_CONSTANT || v->scope == MPI_T_SCOPE_READONLY)
        T_FAIL(MPI_T_ERR_CVAR_SET_NEVER);
    rc = v->write(v->arg, buf);
    T_END();
}
