/* Constructor records of derived datatypes (get_envelope/get_contents). */
#include "core/dt_internal.h"

#include <stdlib.h>
#include <string.h>

dt_env_t *dt_env_new(int combiner, int ni, int na, int nd)
{
    /* One allocation: the record, then addresses, types and ints. */
    size_t bytes = sizeof(dt_env_t) + (size_t)na * sizeof(MPI_Aint) +
                   (size_t)nd * sizeof(dt_t *) + (size_t)ni * sizeof(int);
    dt_env_t *e = calloc(1, bytes);
    if (!e)
        return NULL;
    char *p = (char *)(e + 1);
    e->combiner = combiner;
    e->ni = ni;
    e->na = na;
    e->nd = nd;
    e->aints = (MPI_Aint *)p;
    p += (size_t)na * sizeof(MPI_Aint);
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

int dt_get_envelope(const dt_t *dt, int *ni, int *na, int *nd, int *combiner)
{
    const dt_env_t *e = dt->envelope;
    if (dt->predefined || !e) {
        *ni = *na = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *ni = e->ni;
    *na = e->na;
    *nd = e->nd;
    *combiner = e->combiner;
    return MPI_SUCCESS;
}

int dt_get_contents(dt_t *dt, int max_i, int max_a, int max_d, int *ints, MPI_Aint *aints,
                    MPI_Datatype *types)
{
    const dt_env_t *e = dt->envelope;
    if (dt->predefined || !e)
        return MPI_ERR_TYPE; /* MPI_COMBINER_NAMED has no contents */
    if (max_i < e->ni || max_a < e->na || max_d < e->nd)
        return MPI_ERR_ARG;
    if ((e->ni && !ints) || (e->na && !aints) || (e->nd && !types))
        return MPI_ERR_ARG;
    if (e->ni)
        memcpy(ints, e->ints, (size_t)e->ni * sizeof(int));
    if (e->na)
        memcpy(aints, e->aints, (size_t)e->na * sizeof(MPI_Aint));
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
