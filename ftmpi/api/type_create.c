/*
 * Datatype constructors (MPI-1 and MPI-2 names): argument checks here, the
 * work in core/dt_create.c and core/dt_subarray.c.
 */
#include "api/api.h"

#include <stdlib.h>

#include "core/attr.h"

/* The type behind h for building on: any valid type (committed or not,
 * markers included). */
#define CHECK_OLD(h, dt)                                 \
    do {                                                 \
        (dt) = dt_get(h);                                \
        if (!(dt)) API_FAIL(MPI_ERR_TYPE);               \
    } while (0)

/* Give a new internal type its handle and hand it out. */
static int publish(int rc, dt_t **dtp, MPI_Datatype *newtype)
{
    dt_t *dt = *dtp;
    if (rc != MPI_SUCCESS)
        return rc;
    rc = dt_publish(dt);
    if (rc != MPI_SUCCESS) {
        dt_release(dt);
        return rc;
    }
    *newtype = dt->handle;
    return MPI_SUCCESS;
}

API_WEAK(Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN("MPI_Type_contiguous");
    dt_t *old, *dt = NULL;
    CHECK_COUNT(count);
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    rc = publish(dt_create_contiguous((size_t)count, old, &dt), &dt, newtype);
    API_END();
}

static int vector_common(const char *fname, int combiner, int count, int blocklen,
                         MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN(fname);
    dt_t *old, *dt = NULL;
    CHECK_COUNT(count);
    if (blocklen < 0)
        API_FAIL(MPI_ERR_ARG);
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    rc = publish(dt_create_vector(combiner, (size_t)count, (size_t)blocklen, stride, old, &dt),
                 &dt, newtype);
    API_END();
}

API_WEAK(Type_vector)
int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return vector_common("MPI_Type_vector", MPI_COMBINER_VECTOR, count, blocklength, stride,
                         oldtype, newtype);
}

API_WEAK(Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return vector_common("MPI_Type_hvector", MPI_COMBINER_HVECTOR, count, blocklength, stride,
                         oldtype, newtype);
}

API_WEAK(Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    return vector_common("MPI_Type_create_hvector", MPI_COMBINER_HVECTOR, count, blocklength,
                         stride, oldtype, newtype);
}

/* blocklens has count entries, or one (the _block variants). */
static int indexed_common(const char *fname, int combiner, int count, const int *blocklens,
                          int nbl, const int *idisps, const MPI_Aint *adisps,
                          MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN(fname);
    dt_t *old, *dt = NULL;
    CHECK_COUNT(count);
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    if (count > 0) {
        CHECK_PTR(blocklens);
        if (!idisps && !adisps)
            API_FAIL(MPI_ERR_ARG);
        for (int i = 0; i < nbl; i++)
            if (blocklens[i] < 0)
                API_FAIL(MPI_ERR_ARG);
    } else if (nbl == 1 && blocklens && blocklens[0] < 0) {
        API_FAIL(MPI_ERR_ARG);
    }
    static const int zero = 0;
    rc = publish(dt_create_indexed(combiner, (size_t)count, blocklens ? blocklens : &zero,
                                   idisps, adisps, old, &dt), &dt, newtype);
    API_END();
}

API_WEAK(Type_indexed)
int PMPI_Type_indexed(int count, const int blocklens[], const int disps[], MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    return indexed_common("MPI_Type_indexed", MPI_COMBINER_INDEXED, count, blocklens,
                          count > 0 ? count : 0, disps, NULL, oldtype, newtype);
}

API_WEAK(Type_hindexed)
int PMPI_Type_hindexed(int count, const int blocklens[], const MPI_Aint disps[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_common("MPI_Type_hindexed", MPI_COMBINER_HINDEXED, count, blocklens,
                          count > 0 ? count : 0, NULL, disps, oldtype, newtype);
}

API_WEAK(Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint disps[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_common("MPI_Type_create_hindexed", MPI_COMBINER_HINDEXED, count, blocklens,
                          count > 0 ? count : 0, NULL, disps, oldtype, newtype);
}

API_WEAK(Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklength, const int disps[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_common("MPI_Type_create_indexed_block", MPI_COMBINER_INDEXED_BLOCK, count,
                          &blocklength, 1, disps, NULL, oldtype, newtype);
}

API_WEAK(Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint disps[],
                                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return indexed_common("MPI_Type_create_hindexed_block", MPI_COMBINER_HINDEXED_BLOCK, count,
                          &blocklength, 1, NULL, disps, oldtype, newtype);
}

static int struct_common(const char *fname, int count, const int *blocklens,
                         const MPI_Aint *disps, const MPI_Datatype *types,
                         MPI_Datatype *newtype)
{
    API_BEGIN(fname);
    dt_t *dt = NULL, *small[16], **ts = small;
    CHECK_COUNT(count);
    CHECK_PTR(newtype);
    if (count > 0 && (!blocklens || !disps || !types))
        API_FAIL(MPI_ERR_ARG);
    if (count > 16 && !(ts = malloc((size_t)count * sizeof(*ts))))
        API_FAIL(MPI_ERR_NO_MEM);
    for (int i = 0; i < count; i++) {
        if (blocklens[i] < 0) {
            rc = MPI_ERR_ARG;
            break;
        }
        if (!(ts[i] = dt_get(types[i]))) {
            rc = MPI_ERR_TYPE;
            break;
        }
    }
    if (rc == MPI_SUCCESS)
        rc = publish(dt_create_struct((size_t)count, blocklens, disps, ts, &dt), &dt, newtype);
    if (ts != small)
        free(ts);
    API_END();
}

API_WEAK(Type_struct)
int PMPI_Type_struct(int count, const int blocklens[], const MPI_Aint disps[],
                     const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return struct_common("MPI_Type_struct", count, blocklens, disps, types, newtype);
}

API_WEAK(Type_create_struct)
int PMPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint disps[],
                            const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return struct_common("MPI_Type_create_struct", count, blocklens, disps, types, newtype);
}

API_WEAK(Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    API_BEGIN("MPI_Type_create_resized");
    dt_t *old, *dt = NULL;
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    rc = publish(dt_create_resized(old, lb, extent, &dt), &dt, newtype);
    API_END();
}

API_WEAK(Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                              const int starts[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    API_BEGIN("MPI_Type_create_subarray");
    dt_t *old, *dt = NULL;
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    if (ndims <= 0)
        API_FAIL(ndims < 0 ? MPI_ERR_COUNT : MPI_ERR_DIMS);
    CHECK_PTR(sizes);
    CHECK_PTR(subsizes);
    CHECK_PTR(starts);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        API_FAIL(MPI_ERR_ARG);
    for (int i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subsizes[i] < 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i])
            API_FAIL(MPI_ERR_ARG);
    rc = publish(dt_create_subarray(ndims, sizes, subsizes, starts, order, old, &dt), &dt,
                 newtype);
    API_END();
}

API_WEAK(Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[],
                            const int distribs[], const int dargs[], const int psizes[],
                            int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN("MPI_Type_create_darray");
    dt_t *old, *dt = NULL;
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    if (size <= 0 || rank < 0 || rank >= size)
        API_FAIL(MPI_ERR_ARG);
    if (ndims <= 0)
        API_FAIL(ndims < 0 ? MPI_ERR_COUNT : MPI_ERR_DIMS);
    CHECK_PTR(gsizes);
    CHECK_PTR(distribs);
    CHECK_PTR(dargs);
    CHECK_PTR(psizes);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        API_FAIL(MPI_ERR_ARG);
    long procs = 1;
    for (int i = 0; i < ndims; i++) {
        int g = gsizes[i], p = psizes[i], d = dargs[i];
        if (g <= 0 || p <= 0)
            API_FAIL(MPI_ERR_ARG);
        procs *= p;
        if (procs > size)
            API_FAIL(MPI_ERR_ARG);
        switch (distribs[i]) {
        case MPI_DISTRIBUTE_NONE:
            if (p != 1)
                API_FAIL(MPI_ERR_ARG);
            break;
        case MPI_DISTRIBUTE_BLOCK:
            if (d != MPI_DISTRIBUTE_DFLT_DARG && (d <= 0 || (long)d * p < g))
                API_FAIL(MPI_ERR_ARG);
            break;
        case MPI_DISTRIBUTE_CYCLIC:
            if (d != MPI_DISTRIBUTE_DFLT_DARG && d <= 0)
                API_FAIL(MPI_ERR_ARG);
            break;
        default:
            API_FAIL(MPI_ERR_ARG);
        }
    }
    if (procs != size)
        API_FAIL(MPI_ERR_ARG);
    rc = publish(dt_create_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old,
                                  &dt), &dt, newtype);
    API_END();
}

API_WEAK(Type_dup)
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN("MPI_Type_dup");
    dt_t *old, *dt = NULL;
    CHECK_OLD(oldtype, old);
    CHECK_PTR(newtype);
    rc = publish(dt_create_dup(old, &dt), &dt, newtype);
    if (rc == MPI_SUCCESS && old->attrs) {
        rc = attr_copy(KV_TYPE, old->attrs, old->handle, &dt->attrs);
        if (rc != MPI_SUCCESS) {
            dt_user_free(dt);
            *newtype = MPI_DATATYPE_NULL;
        }
    }
    API_END();
}

API_WEAK(Type_commit)
int PMPI_Type_commit(MPI_Datatype *type)
{
    API_BEGIN("MPI_Type_commit");
    dt_t *dt;
    CHECK_PTR(type);
    CHECK_OLD(*type, dt);
    if (*type == MPI_LB || *type == MPI_UB)
        API_FAIL(MPI_ERR_TYPE);
    rc = dt_commit(dt);
    API_END();
}

API_WEAK(Type_free)
int PMPI_Type_free(MPI_Datatype *type)
{
    API_BEGIN("MPI_Type_free");
    dt_t *dt;
    CHECK_PTR(type);
    CHECK_OLD(*type, dt);
    if (dt->predefined)
        API_FAIL(MPI_ERR_TYPE);
    rc = dt_user_free(dt);
    *type = MPI_DATATYPE_NULL;
    API_END();
}
