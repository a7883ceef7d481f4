/*
 * MPI_Pack/Unpack/Pack_size (native representation: the packed stream of
 * the type, no header, so Pack_size is count * size) and the "external32"
 * variants (core/dt_external.c).
 */
#include "api/api.h"

#include <string.h>

/* Bytes of count elements of dt at `per` bytes each, if they fit in limit. */
static int stream_bytes(size_t per, int count, size_t limit, size_t *out)
{
    size_t n;
    if (__builtin_mul_overflow(per, (size_t)count, &n) || n > limit)
        return MPI_ERR_COUNT;
    *out = n;
    return MPI_SUCCESS;
}

API_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    API_BEGIN("MPI_Pack");
    comm_t *c;
    dt_t *dt;
    size_t n;
    CHECK_COMM(comm, c);
    CHECK_COUNT(incount);
    CHECK_DT(type, dt);
    CHECK_PTR(position);
    if (outsize < 0 || *position < 0)
        API_FAIL(MPI_ERR_ARG);
    if ((rc = stream_bytes(dt->size, incount, INT_MAX, &n)) != MPI_SUCCESS)
        goto fail;
    if (*position > outsize || n > (size_t)(outsize - *position))
        API_FAIL(MPI_ERR_TRUNCATE);
    if (n) {
        CHECK_PTR(outbuf);
        dt_pack(dt, (size_t)incount, inbuf, 0, (char *)outbuf + *position, n);
    }
    *position += (int)n;
    API_END();
}

API_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype type, MPI_Comm comm)
{
    API_BEGIN("MPI_Unpack");
    comm_t *c;
    dt_t *dt;
    size_t n;
    CHECK_COMM(comm, c);
    CHECK_COUNT(outcount);
    CHECK_DT(type, dt);
    CHECK_PTR(position);
    if (insize < 0 || *position < 0)
        API_FAIL(MPI_ERR_ARG);
    if ((rc = stream_bytes(dt->size, outcount, INT_MAX, &n)) != MPI_SUCCESS)
        goto fail;
    if (*position > insize || n > (size_t)(insize - *position))
        API_FAIL(MPI_ERR_TRUNCATE);
    if (n) {
        CHECK_PTR(inbuf);
        dt_unpack(dt, (size_t)outcount, outbuf, 0, (const char *)inbuf + *position, n);
    }
    *position += (int)n;
    API_END();
}

API_WEAK(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
    API_BEGIN("MPI_Pack_size");
    comm_t *c;
    dt_t *dt;
    size_t n;
    CHECK_COMM(comm, c);
    CHECK_COUNT(incount);
    CHECK_DT(type, dt);
    CHECK_PTR(size);
    if ((rc = stream_bytes(dt->size, incount, INT_MAX, &n)) != MPI_SUCCESS)
        goto fail;
    *size = (int)n;
    API_END();
}

static int check_datarep(const char *datarep)
{
    if (!datarep)
        return MPI_ERR_ARG;
    return strcmp(datarep, "external32") == 0 ? MPI_SUCCESS : MPI_ERR_UNSUPPORTED_DATAREP;
}

/* The checks Pack_external and Unpack_external share: representation,
 * count, type, position within a buffer of `size` bytes, and room for the
 * *n_p external32 bytes of (count, type). Returns an MPI error class. */
static int external_check(const char *datarep, int count, MPI_Datatype type, MPI_Aint size,
                          const MPI_Aint *position, dt_t **dt_p, size_t *n_p)
{
    int rc = check_datarep(datarep);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return MPI_ERR_COUNT;
    dt_t *dt = dt_get(type);
    if (!dt || !dt->committed || type == MPI_LB || type == MPI_UB)
        return MPI_ERR_TYPE;
    if (!position)
        return MPI_ERR_ARG;
    if (size < 0 || *position < 0)
        return MPI_ERR_ARG;
    if ((rc = stream_bytes(dt->ext_size, count, (size_t)INTPTR_MAX, n_p)) != MPI_SUCCESS)
        return rc;
    if (*position > size || *n_p > (size_t)(size - *position))
        return MPI_ERR_TRUNCATE;
    *dt_p = dt;
    return MPI_SUCCESS;
}

API_WEAK(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype type,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    API_BEGIN("MPI_Pack_external");
    dt_t *dt;
    size_t n;
    if ((rc = external_check(datarep, incount, type, outsize, position, &dt, &n)) != MPI_SUCCESS)
        goto fail;
    if (n) {
        CHECK_PTR(outbuf);
        rc = dt_pack_external(dt, (size_t)incount, inbuf, (char *)outbuf + *position);
        if (rc != MPI_SUCCESS)
            goto fail;
    }
    *position += (MPI_Aint)n;
    API_END();
}

API_WEAK(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype type)
{
    API_BEGIN("MPI_Unpack_external");
    dt_t *dt;
    size_t n;
    if ((rc = external_check(datarep, outcount, type, insize, position, &dt, &n)) != MPI_SUCCESS)
        goto fail;
    if (n) {
        CHECK_PTR(inbuf);
        rc = dt_unpack_external(dt, (size_t)outcount, (const char *)inbuf + *position, outbuf);
        if (rc != MPI_SUCCESS)
            goto fail;
    }
    *position += (MPI_Aint)n;
    API_END();
}

API_WEAK(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type,
                            MPI_Aint *size)
{
    API_BEGIN("MPI_Pack_external_size");
    dt_t *dt;
    size_t n;
    if ((rc = check_datarep(datarep)) != MPI_SUCCESS)
        goto fail;
    CHECK_COUNT(incount);
    CHECK_DT(type, dt);
    CHECK_PTR(size);
    if ((rc = stream_bytes(dt->ext_size, incount, (size_t)INTPTR_MAX, &n)) != MPI_SUCCESS)
        goto fail;
    *size = (MPI_Aint)n;
    API_END();
}
