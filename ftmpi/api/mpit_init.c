/* MPI_T_init_thread, MPI_T_finalize and the enumerations (MPI-4.0 15.3.4,
 * 15.3.5; docs/mpit.md). */
#include "api/api.h"
#include "api/mpit.h"

#include <string.h>

pthread_mutex_t mpit_mutex = PTHREAD_MUTEX_INITIALIZER;
int mpit_nesting;

void mpit_str(const char *s, char *buf, int *len)
{
    int n = (int)strlen(s);
    if (!len)
        return;
    if (!buf || *len <= 0) {
        *len = n + 1;
        return;
    }
    if (n > *len - 1)
        n = *len - 1;
    memcpy(buf, s, (size_t)n);
    buf[n] = '\0';
    *len = n + 1;
}

int mpit_find(const char *name, int n, const char *(*name_of)(int i, int arg), int arg,
              int *index)
{
    if (!name || !index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < n; i++) {
        const char *s = name_of(i, arg);
        if (s && strcmp(s, name) == 0) {
            *index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

int mpit_on_list(const list_node_t *h, const void *n)
{
    const list_node_t *p;
    if (!n)
        return 0;
    list_for_each(p, h)
        if ((const void *)p == n)
            return 1;
    return 0;
}

API_WEAK(T_init_thread)
int PMPI_T_init_thread(int required, int *provided)
{
    if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    pthread_mutex_lock(&mpit_mutex);
    mpit_nesting++;
    pthread_mutex_unlock(&mpit_mutex);
    /* one mutex serializes the interface: every level is safe */
    if (provided)
        *provided = MPI_THREAD_MULTIPLE;
    return MPI_SUCCESS;
}

API_WEAK(T_finalize)
int PMPI_T_finalize(void)
{
    T_BEGIN();
    if (--mpit_nesting == 0) {
        /* the last one: what the tool allocated goes (MPI-4.0 15.3.4) */
        mpit_event_fini();
        mpit_pvar_fini();
        mpit_cvar_fini();
    }
    T_END();
}

/* ---- enumerations ------------------------------------------------------- */

API_WEAK(T_enum_get_info)
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    T_BEGIN();
    if (!mpit_enum_valid(enumtype))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    const mpit_enum_t *e = (const mpit_enum_t *)enumtype;
    if (num)
        *num = e->n;
    mpit_str(e->name, name, name_len);
    T_END();
}

API_WEAK(T_enum_get_item)
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    T_BEGIN();
    if (!mpit_enum_valid(enumtype))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    const mpit_enum_t *e = (const mpit_enum_t *)enumtype;
    if (index < 0 || index >= e->n)
        T_FAIL(MPI_T_ERR_INVALID_ITEM);
    if (value)
        *value = e->vals ? e->vals[index] : e->base + index;
    mpit_str(e->items[index], name, name_len);
    T_END();
}
