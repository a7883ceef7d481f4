/* MPI_Info_*: hint objects (core/info.c). Errors go to MPI_COMM_WORLD's
 * handler; before MPI_Init and after MPI_Finalize, where MPI-4.0 allows
 * these calls too (11.4.1), to the initial error handler (api/api.h). */
#include "api/api.h"

#include <string.h>

#include "core/info.h"

#define CHECK_INFO(h, i)                              \
    do {                                              \
        (i) = info_get(h);                            \
        if (!(i)) API_FAIL(MPI_ERR_INFO);             \
    } while (0)

/* Objects the user may change: not MPI_INFO_ENV. */
#define CHECK_INFO_MUTABLE(i) do { if ((i)->predefined) API_FAIL(MPI_ERR_INFO); } while (0)

API_WEAK(Info_create)
int PMPI_Info_create(MPI_Info *info)
{
    API_BEGIN_ANYTIME("MPI_Info_create");
    CHECK_PTR(info);
    info_t *i = info_new();
    if (!i)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = info_make_handle(i);
    if (rc != MPI_SUCCESS) {
        info_release(i);
        goto fail;
    }
    *info = i->handle;
    API_END_ANYTIME();
}

API_WEAK(Info_set)
int PMPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    API_BEGIN_ANYTIME("MPI_Info_set");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_INFO_MUTABLE(i);
    rc = info_set(i, key, value);
    API_END_ANYTIME();
}

API_WEAK(Info_delete)
int PMPI_Info_delete(MPI_Info info, const char *key)
{
    API_BEGIN_ANYTIME("MPI_Info_delete");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_INFO_MUTABLE(i);
    rc = info_check_key(key);
    if (rc == MPI_SUCCESS)
        rc = info_delete(i, key);
    API_END_ANYTIME();
}

API_WEAK(Info_get)
int PMPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    API_BEGIN_ANYTIME("MPI_Info_get");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_PTR(flag);
    rc = info_check_key(key);
    if (rc != MPI_SUCCESS)
        goto fail;
    if (valuelen < 0)
        API_FAIL(MPI_ERR_ARG);
    const char *v = info_find(i, key);
    *flag = v != NULL;
    if (v) {
        CHECK_PTR(value);
        /* at most valuelen characters, always terminated */
        size_t n = strnlen(v, (size_t)valuelen);
        memcpy(value, v, n);
        value[n] = '\0';
    }
    API_END_ANYTIME();
}

API_WEAK(Info_get_valuelen)
int PMPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    API_BEGIN_ANYTIME("MPI_Info_get_valuelen");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_PTR(valuelen);
    CHECK_PTR(flag);
    rc = info_check_key(key);
    if (rc != MPI_SUCCESS)
        goto fail;
    const char *v = info_find(i, key);
    *flag = v != NULL;
    if (v)
        *valuelen = (int)strlen(v);
    API_END_ANYTIME();
}

API_WEAK(Info_get_nkeys)
int PMPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    API_BEGIN_ANYTIME("MPI_Info_get_nkeys");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_PTR(nkeys);
    *nkeys = i->n;
    API_END_ANYTIME();
}

API_WEAK(Info_get_nthkey)
int PMPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    API_BEGIN_ANYTIME("MPI_Info_get_nthkey");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_PTR(key);
    if (n < 0 || n >= i->n)
        API_FAIL(MPI_ERR_ARG);
    strcpy(key, i->e[n].key);
    API_END_ANYTIME();
}

API_WEAK(Info_dup)
int PMPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    API_BEGIN_ANYTIME("MPI_Info_dup");
    info_t *i;
    CHECK_INFO(info, i);
    CHECK_PTR(newinfo);
    info_t *d = info_dup(i);
    if (!d)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = info_make_handle(d);
    if (rc != MPI_SUCCESS) {
        info_release(d);
        goto fail;
    }
    *newinfo = d->handle;
    API_END_ANYTIME();
}

API_WEAK(Info_free)
int PMPI_Info_free(MPI_Info *info)
{
    API_BEGIN_ANYTIME("MPI_Info_free");
    info_t *i;
    CHECK_PTR(info);
    CHECK_INFO(*info, i);
    CHECK_INFO_MUTABLE(i);
    info_release(i);
    *info = MPI_INFO_NULL;
    API_END_ANYTIME();
}
