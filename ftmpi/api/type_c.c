/*
 * The large-count datatype constructors and envelope queries (MPI-4.0 5.1,
 * _c forms). Contiguous, vector and hvector build directly with size_t
 * counts (core/dt_create.c; a value beyond int is kept in the record's
 * large counts, which MPI_Type_get_contents_c returns). The indexed family
 * and struct run their int constructors when every value fits; otherwise
 * they become the hindexed (struct) type of the same type map, with byte
 * displacements and every block longer than INT_MAX split in pieces.
 * Subarray and darray take values beyond int only through their int forms
 * (not supported beyond INT_MAX: MPI_ERR_COUNT; docs/largecount.md).
 */
#include "api/count_c.h"

#include <stdlib.h>

#include "api/api.h"

static int fits(MPI_Count v) { return v >= INT_MIN && v <= INT_MAX; }

static int fail(int rc, const char *fname) { return cnt_fail(MPI_COMM_NULL, rc, fname); }

/* Contiguous, vector (stride in extents) and hvector (in bytes). */
static int vector_c(const char *fname, int combiner, MPI_Count count, MPI_Count blocklength,
                    MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    API_BEGIN(fname);
    CHECK_COUNT(count);
    if (blocklength < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "blocklength %lld is negative", (long long)blocklength));
    dt_t *old = dt_get(oldtype), *dt = NULL;
    if (!old)
        API_FAIL(MPI_ERR_TYPE);
    CHECK_PTR(newtype);
    rc = combiner == MPI_COMBINER_CONTIGUOUS
             ? dt_create_contiguous((size_t)count, old, &dt)
             : dt_create_vector(combiner, (size_t)count, (size_t)blocklength, (MPI_Aint)stride,
                                old, &dt);
    if (rc == MPI_SUCCESS && (rc = dt_publish(dt)) != MPI_SUCCESS)
        dt_release(dt);
    if (rc == MPI_SUCCESS)
        *newtype = dt->handle;
    API_END();
}

API_WEAK(Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return vector_c("MPI_Type_contiguous_c", MPI_COMBINER_CONTIGUOUS, count, 1, 0, oldtype,
                    newtype);
}

API_WEAK(Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return vector_c("MPI_Type_vector_c", MPI_COMBINER_VECTOR, count, blocklength, stride,
                    oldtype, newtype);
}

API_WEAK(Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return vector_c("MPI_Type_create_hvector_c", MPI_COMBINER_HVECTOR, count, blocklength,
                    stride, oldtype, newtype);
}

/* The blocks of an indexed-family or struct _c call. */
typedef struct {
    MPI_Count count;
    const MPI_Count *bl;      /* bl[i], or bl[0] for every block (single) */
    int single;
    const MPI_Count *disp;    /* in extents (idisp) or bytes */
    int idisp;
    const MPI_Datatype *types; /* struct; else old for all */
    MPI_Datatype old;
} blocks_t;

static MPI_Count bl_of(const blocks_t *b, MPI_Count i) { return b->bl[b->single ? 0 : i]; }
static MPI_Datatype type_of(const blocks_t *b, MPI_Count i)
{
    return b->types ? b->types[i] : b->old;
}

/* The same type map as an hindexed (struct) type of int block lengths and
 * byte displacements: blocks beyond INT_MAX elements split in pieces. */
static int split_blocks(const char *fname, const blocks_t *b, MPI_Datatype *newtype)
{
    MPI_Count pieces = 0;
    for (MPI_Count i = 0; i < b->count; i++) {
        if (bl_of(b, i) < 0)
            return fail(MPI_ERR_ARG, fname);
        pieces += bl_of(b, i) / INT_MAX + 1;
    }
    if (pieces > INT_MAX)
        return fail(MPI_ERR_COUNT, fname);
    int *bls = malloc(((size_t)pieces + 1) * sizeof(int));
    MPI_Aint *ds = malloc(((size_t)pieces + 1) * sizeof(MPI_Aint));
    MPI_Datatype *ts = malloc(((size_t)pieces + 1) * sizeof(MPI_Datatype));
    int rc = bls && ds && ts ? MPI_SUCCESS : MPI_ERR_NO_MEM, k = 0;
    for (MPI_Count i = 0; rc == MPI_SUCCESS && i < b->count; i++) {
        MPI_Aint lb, ext;
        if ((rc = PMPI_Type_get_extent(type_of(b, i), &lb, &ext)) != MPI_SUCCESS)
            break;
        MPI_Aint d = b->idisp ? (MPI_Aint)b->disp[i] * ext : (MPI_Aint)b->disp[i];
        MPI_Count left = bl_of(b, i);
        do {
            int n = left > INT_MAX ? INT_MAX : (int)left;
            bls[k] = n;
            ds[k] = d;
            ts[k++] = type_of(b, i);
            d += (MPI_Aint)n * ext;
            left -= n;
        } while (left > 0);
    }
    if (rc == MPI_SUCCESS)
        rc = b->types ? PMPI_Type_create_struct(k, bls, ds, ts, newtype)
                      : PMPI_Type_create_hindexed(k, bls, ds, b->old, newtype);
    else
        rc = fail(rc, fname);
    free(bls);
    free(ds);
    free(ts);
    return rc;
}

/* Every value in int: the int constructor (the envelope the standard
 * gives that type); else split_blocks. */
static int blocks_c(const char *fname, int combiner, const blocks_t *b, MPI_Datatype *newtype)
{
    if (b->count < 0)
        return fail(MPI_ERR_COUNT, fname);
    int n = b->single ? 1 : (int)b->count, all = fits(b->count);
    for (MPI_Count i = 0; all && i < b->count; i++)
        all = fits(bl_of(b, i)) && (!b->idisp || fits(b->disp[i]));
    if (!all)
        return split_blocks(fname, b, newtype);
    int *bls = malloc(((size_t)n + 1) * sizeof(int));
    int *ids = malloc(((size_t)b->count + 1) * sizeof(int));
    MPI_Aint *ads = malloc(((size_t)b->count + 1) * sizeof(MPI_Aint));
    if (!bls || !ids || !ads) {
        free(bls);
        free(ids);
        free(ads);
        return fail(MPI_ERR_NO_MEM, fname);
    }
    for (int i = 0; i < n; i++)
        bls[i] = (int)b->bl[i];
    for (MPI_Count i = 0; i < b->count; i++) {
        ids[i] = (int)b->disp[i];
        ads[i] = (MPI_Aint)b->disp[i];
    }
    int c = (int)b->count, rc;
    switch (combiner) {
    case MPI_COMBINER_INDEXED: rc = PMPI_Type_indexed(c, bls, ids, b->old, newtype); break;
    case MPI_COMBINER_HINDEXED:
        rc = PMPI_Type_create_hindexed(c, bls, ads, b->old, newtype);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        rc = PMPI_Type_create_indexed_block(c, bls[0], ids, b->old, newtype);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        rc = PMPI_Type_create_hindexed_block(c, bls[0], ads, b->old, newtype);
        break;
    default: rc = PMPI_Type_create_struct(c, bls, ads, b->types, newtype); break;
    }
    free(bls);
    free(ids);
    free(ads);
    return rc;
}

API_WEAK(Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, 1, NULL, oldtype};
    return blocks_c("MPI_Type_indexed_c", MPI_COMBINER_INDEXED, &b, newtype);
}

API_WEAK(Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, 0, NULL, oldtype};
    return blocks_c("MPI_Type_create_hindexed_c", MPI_COMBINER_HINDEXED, &b, newtype);
}

API_WEAK(Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    blocks_t b = {count, &blocklength, 1, array_of_displacements, 1, NULL, oldtype};
    return blocks_c("MPI_Type_create_indexed_block_c", MPI_COMBINER_INDEXED_BLOCK, &b, newtype);
}

API_WEAK(Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    blocks_t b = {count, &blocklength, 1, array_of_displacements, 0, NULL, oldtype};
    return blocks_c("MPI_Type_create_hindexed_block_c", MPI_COMBINER_HINDEXED_BLOCK, &b,
                    newtype);
}

API_WEAK(Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    blocks_t b = {count, array_of_blocklengths, 0, array_of_displacements, 0, array_of_types,
                  MPI_DATATYPE_NULL};
    return blocks_c("MPI_Type_create_struct_c", MPI_COMBINER_STRUCT, &b, newtype);
}

/* n MPI_Counts as ints: MPI_ERR_COUNT when one does not fit. */
static int ints_of(const MPI_Count *in, int n, int *out)
{
    for (int i = 0; i < n; i++) {
        if (!fits(in[i]))
            return err_cause(MPI_ERR_COUNT, "a size of %lld: subarray and darray sizes beyond "
                             "INT_MAX are not supported (docs/largecount.md)",
                             (long long)in[i]);
        out[i] = (int)in[i];
    }
    return MPI_SUCCESS;
}

#define MAX_DIMS 64 /* more than any machine's arrays have; beyond: MPI_ERR_DIMS */

API_WEAK(Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int sz[MAX_DIMS], sub[MAX_DIMS], st[MAX_DIMS], rc = MPI_SUCCESS;
    if (ndims < 0 || ndims > MAX_DIMS)
        return fail(ndims < 0 ? MPI_ERR_ARG : MPI_ERR_DIMS, "MPI_Type_create_subarray_c");
    if (ndims > 0 && (!array_of_sizes || !array_of_subsizes || !array_of_starts))
        return fail(MPI_ERR_ARG, "MPI_Type_create_subarray_c");
    if ((rc = ints_of(array_of_sizes, ndims, sz)) != MPI_SUCCESS ||
        (rc = ints_of(array_of_subsizes, ndims, sub)) != MPI_SUCCESS ||
        (rc = ints_of(array_of_starts, ndims, st)) != MPI_SUCCESS)
        return fail(rc, "MPI_Type_create_subarray_c");
    return PMPI_Type_create_subarray(ndims, sz, sub, st, order, oldtype, newtype);
}

API_WEAK(Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    int gs[MAX_DIMS], rc;
    if (ndims < 0 || ndims > MAX_DIMS)
        return fail(ndims < 0 ? MPI_ERR_ARG : MPI_ERR_DIMS, "MPI_Type_create_darray_c");
    if (ndims > 0 && !array_of_gsizes)
        return fail(MPI_ERR_ARG, "MPI_Type_create_darray_c");
    if ((rc = ints_of(array_of_gsizes, ndims, gs)) != MPI_SUCCESS)
        return fail(rc, "MPI_Type_create_darray_c");
    return PMPI_Type_create_darray(size, rank, ndims, gs, array_of_distribs, array_of_dargs,
                                   array_of_psizes, order, oldtype, newtype);
}

API_WEAK(Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    return PMPI_Type_create_resized(oldtype, (MPI_Aint)lb, (MPI_Aint)extent, newtype);
}

API_WEAK(Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    API_BEGIN("MPI_Type_get_envelope_c");
    CHECK_PTR(num_integers);
    CHECK_PTR(num_addresses);
    CHECK_PTR(num_large_counts);
    CHECK_PTR(num_datatypes);
    CHECK_PTR(combiner);
    dt_t *dt = dt_get(datatype);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    rc = dt_get_envelope_c(dt, num_integers, num_addresses, num_large_counts, num_datatypes,
                           combiner);
    API_END();
}

API_WEAK(Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    API_BEGIN("MPI_Type_get_contents_c");
    dt_t *dt = dt_get(datatype);
    if (!dt)
        API_FAIL(MPI_ERR_TYPE);
    rc = dt_get_contents_c(dt, max_integers, max_addresses, max_large_counts, max_datatypes,
                           array_of_integers, array_of_addresses, array_of_large_counts,
                           array_of_datatypes);
    API_END();
}
