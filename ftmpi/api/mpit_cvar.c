/* MPI_T_cvar_*: control variables (MPI-4.0 15.3.6; the table is
 * api/mpit_cvars.c, docs/mpit.md). */
#include "api/api.h"
#include "api/mpit.h"

#include <stdlib.h>
#include <string.h>

struct ftmpi_t_cvar_handle {
    struct ftmpi_t_cvar_handle *next;
    const mpit_cvar_t *v;
};

/* Every live handle: a handle is valid when it is on this list. */
static struct ftmpi_t_cvar_handle *handles;

static int handle_valid(MPI_T_cvar_handle h)
{
    for (struct ftmpi_t_cvar_handle *p = handles; p; p = p->next)
        if (p == h)
            return 1;
    return 0;
}

void mpit_cvar_fini(void)
{
    while (handles) {
        struct ftmpi_t_cvar_handle *n = handles->next;
        free(handles);
        handles = n;
    }
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
    if (!name || !cvar_index)
        T_FAIL(MPI_T_ERR_INVALID);
    rc = MPI_T_ERR_INVALID_NAME;
    for (int i = 0; i < mpit_cvar_count(); i++) {
        if (strcmp(mpit_cvar(i)->name, name) == 0) {
            *cvar_index = i;
            rc = MPI_SUCCESS;
            break;
        }
    }
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
    h->next = handles;
    handles = h;
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
    for (struct ftmpi_t_cvar_handle **p = &handles; *p; p = &(*p)->next) {
        if (*p == *handle) {
            *p = (*handle)->next;
            break;
        }
    }
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
