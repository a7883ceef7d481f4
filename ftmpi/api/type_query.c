/* Datatype queries (size, extents) and addresses. */
#include "api/api.h"

#include <string.h>

static int get_dt(MPI_Datatype h, dt_t **dt)
{
    *dt = dt_get(h);
    return *dt ? MPI_SUCCESS : MPI_ERR_TYPE;
}

#define TYPE_QUERY(NAME, T, EXPR)                  \
    API_WEAK(NAME)                                 \
    int PMPI_##NAME(MPI_Datatype type, T *out)     \
    {                                              \
        API_BEGIN("MPI_" #NAME);                   \
        dt_t *dt;                                  \
        CHECK_PTR(out);                            \
        if ((rc = get_dt(type, &dt)) != MPI_SUCCESS) \
            goto fail;                             \
        *out = (T)(EXPR);                          \
        API_END();                                 \
    }

TYPE_QUERY(Type_size, int, dt->size > INT_MAX ? MPI_UNDEFINED : (int)dt->size)
TYPE_QUERY(Type_size_x, MPI_Count, dt->size)
TYPE_QUERY(Type_extent, MPI_Aint, dt->extent)
TYPE_QUERY(Type_lb, MPI_Aint, dt->lb)
TYPE_QUERY(Type_ub, MPI_Aint, dt->ub)

#define TYPE_PAIR(NAME, T, A, B)                              \
    API_WEAK(NAME)                                            \
    int PMPI_##NAME(MPI_Datatype type, T *a, T *b)            \
    {                                                         \
        API_BEGIN("MPI_" #NAME);                              \
        dt_t *dt;                                             \
        CHECK_PTR(a);                                         \
        CHECK_PTR(b);                                         \
        if ((rc = get_dt(type, &dt)) != MPI_SUCCESS)          \
            goto fail;                                        \
        *a = (T)(A);                                          \
        *b = (T)(B);                                          \
        API_END();                                            \
    }

TYPE_PAIR(Type_get_extent, MPI_Aint, dt->lb, dt->extent)
TYPE_PAIR(Type_get_extent_x, MPI_Count, dt->lb, dt->extent)
TYPE_PAIR(Type_get_true_extent, MPI_Aint, dt->true_lb, dt->true_ub - dt->true_lb)
TYPE_PAIR(Type_get_true_extent_x, MPI_Count, dt->true_lb, dt->true_ub - dt->true_lb)

API_WEAK(Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    API_BEGIN("MPI_Get_address");
    CHECK_PTR(address);
    *address = (MPI_Aint)(uintptr_t)location;
    API_END();
}

API_WEAK(Address)
int PMPI_Address(void *location, MPI_Aint *address)
{
    API_BEGIN("MPI_Address");
    CHECK_PTR(address);
    *address = (MPI_Aint)(uintptr_t)location;
    API_END();
}

API_WEAK(Aint_add)
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

API_WEAK(Aint_diff)
MPI_Aint PMPI_Aint_diff(MPI_Aint a, MPI_Aint b)
{
    return (MPI_Aint)((uintptr_t)a - (uintptr_t)b);
}

API_WEAK(Type_get_name)
int PMPI_Type_get_name(MPI_Datatype type, char *name, int *resultlen)
{
    API_BEGIN("MPI_Type_get_name");
    dt_t *dt;
    CHECK_PTR(name);
    CHECK_PTR(resultlen);
    if ((rc = get_dt(type, &dt)) != MPI_SUCCESS)
        goto fail;
    size_t n = strnlen(dt->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(name, dt->name, n);
    name[n] = 0;
    *resultlen = (int)n;
    API_END();
}

API_WEAK(Type_set_name)
int PMPI_Type_set_name(MPI_Datatype type, const char *name)
{
    API_BEGIN("MPI_Type_set_name");
    dt_t *dt;
    CHECK_PTR(name);
    if ((rc = get_dt(type, &dt)) != MPI_SUCCESS)
        goto fail;
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(dt->name, name, n);
    dt->name[n] = 0;
    API_END();
}
