/*
 * MPI_Type_create_f90_real/complex/integer: the datatype of a Fortran
 * REAL(KIND=SELECTED_REAL_KIND(p, r)), COMPLEX of that kind, or
 * INTEGER(KIND=SELECTED_INT_KIND(r)), as gfortran selects kinds on this
 * machine: REAL 4, 8 and 10 (x87 extended, C long double's layout);
 * INTEGER 1, 2, 4 and 8. The type returned stands for a predefined one:
 * its envelope is the F90 combiner with (p, r), it is committed, it cannot
 * be freed, and the same (p, r) gives the same handle.
 */
#include "api/api.h"

#include <float.h>

#define F90_CACHE 32

static struct {
    int combiner, p, r;
    MPI_Datatype type;
} cache[F90_CACHE];
static int ncache;

/* The kind gfortran's SELECTED_REAL_KIND(p, r) gives: 4, 8, 10, or 0 when
 * none has that precision and range (MPI_UNDEFINED: not specified). */
static int real_kind(int p, int r)
{
    if (p == MPI_UNDEFINED)
        p = 0;
    if (r == MPI_UNDEFINED)
        r = 0;
    if (p <= FLT_DIG && r <= FLT_MAX_10_EXP)
        return 4;
    if (p <= DBL_DIG && r <= DBL_MAX_10_EXP)
        return 8;
    if (p <= LDBL_DIG && r <= LDBL_MAX_10_EXP && sizeof(long double) > sizeof(double))
        return 10;
    return 0;
}

static MPI_Datatype base_of(int combiner, int p, int r)
{
    if (combiner == MPI_COMBINER_F90_INTEGER) {
        if (r == MPI_UNDEFINED)
            r = 0;
        return r <= 2 ? MPI_INTEGER1 : r <= 4 ? MPI_INTEGER2 : r <= 9 ? MPI_INTEGER4
             : r <= 18 ? MPI_INTEGER8 : MPI_DATATYPE_NULL;
    }
    int cplx = combiner == MPI_COMBINER_F90_COMPLEX;
    switch (real_kind(p, r)) {
    case 4: return cplx ? MPI_COMPLEX8 : MPI_REAL4;
    case 8: return cplx ? MPI_COMPLEX16 : MPI_REAL8;
    case 10: return cplx ? MPI_C_LONG_DOUBLE_COMPLEX : MPI_LONG_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

static int create_f90(const char *fname, int combiner, int p, int r, MPI_Datatype *newtype)
{
    API_BEGIN(fname);
    CHECK_PTR(newtype);
    for (int i = 0; i < ncache; i++)
        if (cache[i].combiner == combiner && cache[i].p == p && cache[i].r == r) {
            *newtype = cache[i].type;
            goto fail; /* rc MPI_SUCCESS */
        }
    MPI_Datatype b = base_of(combiner, p, r);
    if (b == MPI_DATATYPE_NULL)
        API_FAIL(err_cause(MPI_ERR_ARG, "no Fortran %s kind has precision %d and range %d",
                           combiner == MPI_COMBINER_F90_INTEGER ? "INTEGER" : "REAL", p, r));
    if (ncache == F90_CACHE)
        API_FAIL(err_cause(MPI_ERR_INTERN, "more than %d distinct (p, r) pairs", F90_CACHE));
    dt_t *dt = NULL;
    if ((rc = dt_create_f90(combiner, p, r, dt_get(b), &dt)) != MPI_SUCCESS)
        goto fail;
    if ((rc = dt_publish(dt)) != MPI_SUCCESS) {
        dt_release(dt);
        goto fail;
    }
    cache[ncache].combiner = combiner;
    cache[ncache].p = p;
    cache[ncache].r = r;
    cache[ncache++].type = *newtype = dt->handle;
    API_END();
}

API_WEAK(Type_create_f90_real)
int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return create_f90("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r, newtype);
}

API_WEAK(Type_create_f90_complex)
int PMPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return create_f90("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

API_WEAK(Type_create_f90_integer)
int PMPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return create_f90("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                      newtype);
}

void api_type_f90_fini(void)
{
    for (int i = 0; i < ncache; i++) {
        dt_t *dt = dt_get(cache[i].type);
        if (dt)
            dt_f90_free(dt);
    }
    ncache = 0;
}
