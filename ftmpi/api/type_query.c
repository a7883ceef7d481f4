/* Datatype queries (size, extents, envelope, names) and addresses. */
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
TYPE_QUERY(Type_size_c, MPI_Count, dt->size) /* MPI-4.0 large-count form */
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
/* MPI-4.0 large-count forms */
TYPE_PAIR(Type_get_extent_c, MPI_Count, dt->lb, dt->extent)
TYPE_PAIR(Type_get_true_extent_c, MPI_Count, dt->true_lb, dt->true_ub - dt->true_lb)

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

API_WEAK(Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype type, int *ni, int *na, int *nd, int *combiner)
{
    API_BEGIN("MPI_Type_get_envelope");
    dt_t *dt;
    CHECK_PTR(ni);
    CHECK_PTR(na);
    CHECK_PTR(nd);
    CHECK_PTR(combiner);
    if ((rc = get_dt(type, &dt)) != MPI_SUCCESS)
        goto fail;
    rc = dt_get_envelope(dt, ni, na, nd, combiner);
    API_END();
}

API_WEAK(Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype type, int max_integers, int max_addresses,
                           int max_datatypes, int ints[], MPI_Aint aints[],
                           MPI_Datatype types[])
{
    API_BEGIN("MPI_Type_get_contents");
    dt_t *dt;
    if ((rc = get_dt(type, &dt)) != MPI_SUCCESS)
        goto fail;
    rc = dt_get_contents(dt, max_integers, max_addresses, max_datatypes, ints, aints, types);
    API_END();
}

API_WEAK(Type_match_size)
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype *type)
{
    API_BEGIN("MPI_Type_match_size");
    CHECK_PTR(type);
    static const struct { int cls, size; MPI_Datatype t; } table[] = {
        {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8},
        {MPI_TYPECLASS_REAL, sizeof(long double), MPI_LONG_DOUBLE},
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1},
        {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4},
        {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_DOUBLE_COMPLEX},
        {MPI_TYPECLASS_COMPLEX, 2 * sizeof(long double), MPI_C_LONG_DOUBLE_COMPLEX},
    };
    *type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (table[i].cls == typeclass && table[i].size == size) {
            *type = table[i].t;
            break;
        }
    if (*type == MPI_DATATYPE_NULL)
        API_FAIL(MPI_ERR_ARG);
    API_END();
}
