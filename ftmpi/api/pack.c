/*
 * MPI_Pack/Unpack/Pack_size (native representation: the packed stream of
 * the type, no header, so Pack_size is count * size) and the "external32"
 * variants (core/dt_external.c).
 */
#include "api/api.h"

#include <string.h>

/* Bytes of count elements of dt at `per` bytes each, if they fit in limit. */
static int stream_bytes(size_t per, MPI_Count count, size_t limit, size_t *out)
{
    size_t n;
    if (__builtin_mul_overflow(per, (size_t)count, &n) || n > limit)
        return MPI_ERR_COUNT;
    *out = n;
    return MPI_SUCCESS;
}

/* The int forms keep their positions and sizes below INT_MAX; the large-count
 * (_c) forms take MPI_Count ones (docs/largecount.md). */
#define INT_LIMIT ((size_t)INT_MAX)
#define COUNT_LIMIT ((size_t)INTPTR_MAX)

/* MPI_Pack (unpack 0) and MPI_Unpack (unpack 1), both forms: the packed
 * stream of (buf, count, type) at byte *position of the packed buffer. */
static int pack_common(const char *fname, int unpack, const void *inbuf, MPI_Count count,
                       MPI_Datatype type, void *outbuf, MPI_Count bufsize, MPI_Count *position,
                       MPI_Comm comm, size_t limit)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    size_t n;
    CHECK_COMM(comm, c);
    CHECK_COUNT(count);
    CHECK_DT(type, dt);
    CHECK_PTR(position);
    if (bufsize < 0 || *position < 0)
        API_FAIL(MPI_ERR_ARG);
    if ((rc = stream_bytes(dt->size, count, limit, &n)) != MPI_SUCCESS)
        goto fail;
    if (*position > bufsize || n > (size_t)(bufsize - *position))
        API_FAIL(MPI_ERR_TRUNCATE);
    if (n && unpack) {
        CHECK_PTR(inbuf);
        dt_unpack(dt, (size_t)count, outbuf, 0, (const char *)inbuf + *position, n);
    } else if (n) {
        CHECK_PTR(outbuf);
        dt_pack(dt, (size_t)count, inbuf, 0, (char *)outbuf + *position, n);
    }
    *position += (MPI_Count)n;
    API_END();
}

API_WEAK(Pack)
int PMPI_Pack(const void *inbuf, int incount, MPI_Datatype type, void *outbuf, int outsize,
              int *position, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack_common("MPI_Pack", 0, inbuf, incount, type, outbuf, outsize,
                         position ? &pos : NULL, comm, INT_LIMIT);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

API_WEAK(Pack_c)
int PMPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype type, void *outbuf,
                MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    return pack_common("MPI_Pack_c", 0, inbuf, incount, type, outbuf, outsize, position, comm,
                       COUNT_LIMIT);
}

API_WEAK(Unpack)
int PMPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                MPI_Datatype type, MPI_Comm comm)
{
    MPI_Count pos = position ? *position : 0;
    int rc = pack_common("MPI_Unpack", 1, inbuf, outcount, type, outbuf, insize,
                         position ? &pos : NULL, comm, INT_LIMIT);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

API_WEAK(Unpack_c)
int PMPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, MPI_Datatype type, MPI_Comm comm)
{
    return pack_common("MPI_Unpack_c", 1, inbuf, outcount, type, outbuf, insize, position,
                       comm, COUNT_LIMIT);
}

static int pack_size_common(const char *fname, MPI_Count incount, MPI_Datatype type,
                            MPI_Comm comm, MPI_Count *size, size_t limit)
{
    API_BEGIN(fname);
    comm_t *c;
    dt_t *dt;
    size_t n;
    CHECK_COMM(comm, c);
    CHECK_COUNT(incount);
    CHECK_DT(type, dt);
    CHECK_PTR(size);
    if ((rc = stream_bytes(dt->size, incount, limit, &n)) != MPI_SUCCESS)
        goto fail;
    *size = (MPI_Count)n;
    API_END();
}

API_WEAK(Pack_size)
int PMPI_Pack_size(int incount, MPI_Datatype type, MPI_Comm comm, int *size)
{
    MPI_Count n = 0;
    int rc = pack_size_common("MPI_Pack_size", incount, type, comm, size ? &n : NULL,
                              INT_LIMIT);
    if (rc == MPI_SUCCESS)
        *size = (int)n;
    return rc;
}

API_WEAK(Pack_size_c)
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype type, MPI_Comm comm, MPI_Count *size)
{
    return pack_size_common("MPI_Pack_size_c", incount, type, comm, size, COUNT_LIMIT);
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
static int external_check(const char *datarep, MPI_Count count, MPI_Datatype type, MPI_Aint size,
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

/* MPI_Pack_external and MPI_Unpack_external (unpack 1), both forms (MPI_Aint
 * and MPI_Count are the same 64-bit integer here). */
static int external_common(const char *fname, int unpack, const char datarep[],
                           const void *inbuf, MPI_Count count, MPI_Datatype type, void *outbuf,
                           MPI_Aint bufsize, MPI_Aint *position)
{
    API_BEGIN(fname);
    dt_t *dt;
    size_t n;
    if ((rc = external_check(datarep, count, type, bufsize, position, &dt, &n)) != MPI_SUCCESS)
        goto fail;
    if (n && unpack) {
        CHECK_PTR(inbuf);
        rc = dt_unpack_external(dt, (size_t)count, (const char *)inbuf + *position, outbuf);
    } else if (n) {
        CHECK_PTR(outbuf);
        rc = dt_pack_external(dt, (size_t)count, inbuf, (char *)outbuf + *position);
    }
    if (rc != MPI_SUCCESS)
        goto fail;
    *position += (MPI_Aint)n;
    API_END();
}

_Static_assert(sizeof(MPI_Aint) == sizeof(MPI_Count), "the _c external forms pass MPI_Count as MPI_Aint");

API_WEAK(Pack_external)
int PMPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype type,
                       void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    return external_common("MPI_Pack_external", 0, datarep, inbuf, incount, type, outbuf,
                           outsize, position);
}

API_WEAK(Pack_external_c)
int PMPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         MPI_Datatype type, void *outbuf, MPI_Count outsize, MPI_Count *position)
{
    return external_common("MPI_Pack_external_c", 0, datarep, inbuf, incount, type, outbuf,
                           (MPI_Aint)outsize, (MPI_Aint *)position);
}

API_WEAK(Unpack_external)
int PMPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype type)
{
    return external_common("MPI_Unpack_external", 1, datarep, inbuf, outcount, type, outbuf,
                           insize, position);
}

API_WEAK(Unpack_external_c)
int PMPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           MPI_Datatype type)
{
    return external_common("MPI_Unpack_external_c", 1, datarep, inbuf, outcount, type, outbuf,
                           (MPI_Aint)insize, (MPI_Aint *)position);
}

static int external_size(const char *fname, const char datarep[], MPI_Count incount,
                         MPI_Datatype type, MPI_Aint *size)
{
    API_BEGIN(fname);
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

API_WEAK(Pack_external_size)
int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype type,
                            MPI_Aint *size)
{
    return external_size("MPI_Pack_external_size", datarep, incount, type, size);
}

API_WEAK(Pack_external_size_c)
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype type,
                              MPI_Count *size)
{
    return external_size("MPI_Pack_external_size_c", datarep, incount, type, (MPI_Aint *)size);
}
