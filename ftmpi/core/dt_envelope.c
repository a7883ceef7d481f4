/* Constructor records of derived datatypes (get_envelope/get_contents). */
#include "core/dt_internal.h"

#include <stdlib.h>
#include <string.h>

dt_env_t *dt_env_new(int combiner, int ni, int na, int nd)
{
    return dt_env_new_l(combiner, ni, na, 0, nd);
}

dt_env_t *dt_env_new_l(int combiner, int ni, int na, int nl, int nd)
{
    /* One allocation: the record, then addresses, large counts, types and
     * ints. */
    size_t bytes = sizeof(dt_env_t) + (size_t)na * sizeof(MPI_Aint) +
                   (size_t)nl * sizeof(MPI_Count) + (size_t)nd * sizeof(dt_t *) +
                   (size_t)ni * sizeof(int);
    dt_env_t *e = calloc(1, bytes);
    if (!e)
        return NULL;
    char *p = (char *)(e + 1);
    e->combiner = combiner;
    e->ni = ni;
    e->na = na;
    e->nd = nd;
    e->nl = nl;
    e->aints = (MPI_Aint *)p;
    p += (size_t)na * sizeof(MPI_Aint);
    e->counts = (MPI_Count *)p;
    p += (size_t)nl * sizeof(MPI_Count);
    e->types = (dt_t **)p;
    p += (size_t)nd * sizeof(dt_t *);
    e->ints = (int *)p;
    return e;
}

void dt_env_free(dt_env_t *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nd; i++)
        if (e->types[i])
            dt_release(e->types[i]);
    if (e->impl)
        dt_release(e->impl);
    free(e);
}

int dt_is_portable(const dt_t *dt)
{
    const dt_env_t *e = dt->envelope;
    if (dt->predefined || !e)
        return dt->predefined;
    switch (e->combiner) {
    case MPI_COMBINER_DUP: case MPI_COMBINER_CONTIGUOUS: case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_INDEXED: case MPI_COMBINER_INDEXED_BLOCK: case MPI_COMBINER_SUBARRAY:
    case MPI_COMBINER_DARRAY: case MPI_COMBINER_F90_REAL: case MPI_COMBINER_F90_COMPLEX:
    case MPI_COMBINER_F90_INTEGER:
        for (int i = 0; i < e->nd; i++)
            if (!dt_is_portable(e->types[i]))
                return 0;
        return 1;
    default:
        return 0;
    }
}

int dt_get_envelope(const dt_t *dt, int *ni, int *na, int *nd, int *combiner)
{
    MPI_Count l[4];
    int rc = dt_get_envelope_c(dt, &l[0], &l[1], &l[2], &l[3], combiner);
    if (rc == MPI_SUCCESS && l[2] > 0)
        return MPI_ERR_TYPE; /* its counts do not fit: MPI_Type_get_envelope_c */
    *ni = (int)l[0];
    *na = (int)l[1];
    *nd = (int)l[3];
    return rc;
}

int dt_get_envelope_c(const dt_t *dt, MPI_Count *ni, MPI_Count *na, MPI_Count *nl,
                      MPI_Count *nd, int *combiner)
{
    const dt_env_t *e = dt->envelope;
    if (dt->predefined || !e) {
        *ni = *na = *nl = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *ni = e->ni;
    *na = e->na;
    *nl = e->nl;
    *nd = e->nd;
    *combiner = e->combiner;
    return MPI_SUCCESS;
}

int dt_get_contents(dt_t *dt, int max_i, int max_a, int max_d, int *ints, MPI_Aint *aints,
                    MPI_Datatype *types)
{
    const dt_env_t *e = dt->envelope;
    if (e && e->nl > 0)
        return MPI_ERR_TYPE; /* its counts do not fit: MPI_Type_get_contents_c */
    return dt_get_contents_c(dt, max_i, max_a, 0, max_d, ints, aints, NULL, types);
}

int dt_get_contents_c(dt_t *dt, MPI_Count max_i, MPI_Count max_a, MPI_Count max_l,
                      MPI_Count max_d, int *ints, MPI_Aint *aints, MPI_Count *counts,
                      MPI_Datatype *types)
{
    const dt_env_t *e = dt->envelope;
    if (dt->predefined || !e)
        return MPI_ERR_TYPE; /* MPI_COMBINER_NAMED has no contents */
    if (max_i < e->ni || max_a < e->na || max_l < e->nl || max_d < e->nd)
        return MPI_ERR_ARG;
    if ((e->ni && !ints) || (e->na && !aints) || (e->nl && !counts) || (e->nd && !types))
        return MPI_ERR_ARG;
    if (e->ni)
        memcpy(ints, e->ints, (size_t)e->ni * sizeof(int));
    if (e->na)
        memcpy(aints, e->aints, (size_t)e->na * sizeof(MPI_Aint));
    if (e->nl)
        memcpy(counts, e->counts, (size_t)e->nl * sizeof(MPI_Count));
    for (int i = 0; i < e->nd; i++) {
        dt_t *t = e->types[i];
        types[i] = t->handle;
        if (!t->predefined) {
            /* The caller owns a reference to each derived child. */
            t->urefs++;
            t->refcount++;
        }
    }
    return MPI_SUCCESS;
}

int dt_count_wrap_parts(const dt_t *dt, dt_t **child, size_t *n)
{
    const dt_env_t *e = dt->envelope;
    if (!dt->count_wrap || !e || e->combiner != MPI_COMBINER_CONTIGUOUS || e->nd != 1)
        return 0;
    *child = e->types[0];
    *n = e->nl ? (size_t)e->counts[0] : (size_t)e->ints[0];
    return 1;
}
