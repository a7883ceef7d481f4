/*
 * Subarray and distributed-array types. Both are built from simpler
 * constructors as the standard defines them (hvectors of the dimensions,
 * hindexed for the starting offset or the blocks a process owns, resized
 * to the whole array), kept in the record's `impl`; the record itself keeps
 * the user's arguments for get_contents.
 *
 * Argument checks are the API's (api/type_create.c); here they are
 * assumed valid.
 */
#include "core/dt_internal.h"

#include <stdlib.h>
#include <string.h>

/* After a constructor made *next from *t: replace *t by it, releasing
 * the old one (the new one holds its own reference). */
static int chain(int rc, dt_t **t, dt_t **next)
{
    if (rc == MPI_SUCCESS) {
        dt_release(*t);
        *t = *next;
    }
    return rc;
}

/* Offset and resize: the type `t` placed at byte disp, in an array of
 * `extent` bytes starting at 0. */
static int place(dt_t **t, MPI_Aint disp, MPI_Aint extent)
{
    dt_t *n = NULL;
    int one = 1;
    int rc = chain(dt_create_indexed(MPI_COMBINER_HINDEXED, 1, &one, NULL, &disp, *t, &n), t, &n);
    if (rc == MPI_SUCCESS)
        rc = chain(dt_create_resized(*t, 0, extent, &n), t, &n);
    return rc;
}

/* The finished type: a record of the user's arguments over `impl`. */
static int wrap(int combiner, const int *ints, int ni, dt_t *old, dt_t *impl, dt_t **out)
{
    dt_t *dt = dt_alloc();
    dt_env_t *e = dt ? dt_env_new(combiner, ni, 0, 1) : NULL;
    if (!e) {
        free(dt);
        dt_release(impl);
        return MPI_ERR_NO_MEM;
    }
    memcpy(e->ints, ints, (size_t)ni * sizeof(int));
    dt_retain(old);
    e->types[0] = old;
    e->impl = impl;
    dt->envelope = e;
    dt->size = impl->size;
    dt->lb = impl->lb;
    dt->ub = impl->ub;
    dt->extent = impl->extent;
    dt->true_lb = impl->true_lb;
    dt->true_ub = impl->true_ub;
    dt->has_lb = impl->has_lb;
    dt->has_ub = impl->has_ub;
    dt->empty = impl->empty;
    dt->align = impl->align;
    dt->elem_kind = impl->elem_kind;
    dt->elem_count = impl->elem_count;
    dt->ext_size = impl->ext_size;
    dt->kind = DTK_NONE;
    *out = dt;
    return MPI_SUCCESS;
}

/* Dimension i in the order of increasing stride (fastest first). */
static int dim_at(int ndims, int order, int k)
{
    return order == MPI_ORDER_C ? ndims - 1 - k : k;
}

int dt_create_subarray(int ndims, const int *sizes, const int *subsizes, const int *starts,
                       int order, dt_t *old, dt_t **out)
{
    MPI_Aint stride = old->extent, disp = 0;
    dt_t *t = old, *n = NULL;
    dt_retain(old);
    int rc = MPI_SUCCESS;
    for (int k = 0; k < ndims && rc == MPI_SUCCESS; k++) {
        int d = dim_at(ndims, order, k);
        if (k == 0)
            rc = chain(dt_create_contiguous((size_t)subsizes[d], t, &n), &t, &n);
        else
            rc = chain(dt_create_vector(MPI_COMBINER_HVECTOR, (size_t)subsizes[d], 1, stride, t,
                                        &n), &t, &n);
        disp += (MPI_Aint)starts[d] * stride;
        stride *= sizes[d];
    }
    if (rc == MPI_SUCCESS)
        rc = place(&t, disp, stride);
    if (rc != MPI_SUCCESS) {
        dt_release(t);
        return rc;
    }
    int ni = 3 * ndims + 2;
    int *ints = malloc((size_t)ni * sizeof(int));
    if (!ints) {
        dt_release(t);
        return MPI_ERR_NO_MEM;
    }
    ints[0] = ndims;
    memcpy(ints + 1, sizes, (size_t)ndims * sizeof(int));
    memcpy(ints + 1 + ndims, subsizes, (size_t)ndims * sizeof(int));
    memcpy(ints + 1 + 2 * ndims, starts, (size_t)ndims * sizeof(int));
    ints[ni - 1] = order;
    rc = wrap(MPI_COMBINER_SUBARRAY, ints, ni, old, t, out);
    free(ints);
    return rc;
}

/* The part of one dimension (g elements of type *t) that process
 * coordinate c of p owns, as a type of extent g * extent(*t). */
static int darray_dim(int distrib, int g, int p, int c, int darg, dt_t **t)
{
    MPI_Aint ext = (*t)->extent;
    dt_t *n = NULL;
    int rc;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        rc = chain(dt_create_contiguous((size_t)g, *t, &n), t, &n);
        return rc == MPI_SUCCESS ? place(t, 0, (MPI_Aint)g * ext) : rc;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        long start = (long)c * b;
        int len = start >= g ? 0 : (int)(g - start < b ? g - start : b);
        MPI_Aint d = (MPI_Aint)start * ext;
        rc = chain(dt_create_indexed(MPI_COMBINER_HINDEXED, 1, &len, NULL, &d, *t, &n), t, &n);
        return rc == MPI_SUCCESS ? chain(dt_create_resized(*t, 0, (MPI_Aint)g * ext, &n), t, &n)
                                 : rc;
    }
    /* CYCLIC(b): blocks of b at (c + k p) b, the last one maybe shorter. */
    int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    size_t nb = 0;
    for (long s = (long)c * b; s < g; s += (long)p * b)
        nb++;
    int *bl = malloc((nb ? nb : 1) * sizeof(int));
    MPI_Aint *ds = malloc((nb ? nb : 1) * sizeof(MPI_Aint));
    if (!bl || !ds) {
        free(bl);
        free(ds);
        return MPI_ERR_NO_MEM;
    }
    size_t i = 0;
    for (long s = (long)c * b; s < g; s += (long)p * b, i++) {
        bl[i] = (int)(g - s < b ? g - s : b);
        ds[i] = (MPI_Aint)s * ext;
    }
    rc = chain(dt_create_indexed(MPI_COMBINER_HINDEXED, nb, bl, NULL, ds, *t, &n), t, &n);
    free(bl);
    free(ds);
    return rc == MPI_SUCCESS ? chain(dt_create_resized(*t, 0, (MPI_Aint)g * ext, &n), t, &n) : rc;
}

int dt_create_darray(int size, int rank, int ndims, const int *gsizes, const int *distribs,
                     const int *dargs, const int *psizes, int order, dt_t *old, dt_t **out)
{
    int *coords = malloc((size_t)ndims * sizeof(int));
    if (!coords)
        return MPI_ERR_NO_MEM;
    /* The process grid is row-major whatever the array order. */
    for (int i = ndims - 1, r = rank; i >= 0; i--) {
        coords[i] = r % psizes[i];
        r /= psizes[i];
    }
    dt_t *t = old;
    dt_retain(old);
    int rc = MPI_SUCCESS;
    for (int k = 0; k < ndims && rc == MPI_SUCCESS; k++) {
        int d = dim_at(ndims, order, k);
        rc = darray_dim(distribs[d], gsizes[d], psizes[d], coords[d], dargs[d], &t);
    }
    free(coords);
    if (rc != MPI_SUCCESS) {
        dt_release(t);
        return rc;
    }
    int ni = 4 * ndims + 4;
    int *ints = malloc((size_t)ni * sizeof(int));
    if (!ints) {
        dt_release(t);
        return MPI_ERR_NO_MEM;
    }
    ints[0] = size;
    ints[1] = rank;
    ints[2] = ndims;
    memcpy(ints + 3, gsizes, (size_t)ndims * sizeof(int));
    memcpy(ints + 3 + ndims, distribs, (size_t)ndims * sizeof(int));
    memcpy(ints + 3 + 2 * ndims, dargs, (size_t)ndims * sizeof(int));
    memcpy(ints + 3 + 3 * ndims, psizes, (size_t)ndims * sizeof(int));
    ints[ni - 1] = order;
    rc = wrap(MPI_COMBINER_DARRAY, ints, ni, old, t, out);
    free(ints);
    return rc;
}
