/*
 * dtref.h: a reference model of datatypes for the tests, built only from
 * the standard's definitions and MPI_Type_get_envelope/get_contents: the
 * typemap of a type as a plain list of (displacement, bytes, basic type)
 * entries, enumerated element by element with no merging or compaction.
 * Packing by this list is the slow, obviously right path the library's
 * compacted engine is compared with.
 */
#ifndef FTMPI_TESTS_DTREF_H
#define FTMPI_TESTS_DTREF_H

#include "../mpi/mpitest.h"

#include <stddef.h>

typedef struct {
    MPI_Aint disp;
    int size;
    MPI_Datatype basic;
} ref_ent_t;

typedef struct {
    ref_ent_t *v;
    size_t n, cap;
} ref_map_t;

static inline void ref_push(ref_map_t *m, MPI_Aint disp, int size, MPI_Datatype basic)
{
    if (size == 0)
        return;
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->v = realloc(m->v, m->cap * sizeof(*m->v));
        if (!m->v) {
            fprintf(stderr, "dtref: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    m->v[m->n++] = (ref_ent_t){disp, size, basic};
}

static inline MPI_Aint ref_extent(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

typedef struct { float v; int i; } ref_float_int;
typedef struct { double v; int i; } ref_double_int;
typedef struct { long v; int i; } ref_long_int;
typedef struct { short v; int i; } ref_short_int;
typedef struct { long double v; int i; } ref_ldouble_int;

static inline void ref_named(ref_map_t *m, MPI_Datatype t, MPI_Aint d)
{
    if (t == MPI_LB || t == MPI_UB)
        return;
#define REF_PAIR(H, T, VT, VH)                                        \
    if (t == H) {                                                     \
        ref_push(m, d, (int)sizeof(VT), VH);                          \
        ref_push(m, d + (MPI_Aint)offsetof(T, i), (int)sizeof(int), MPI_INT); \
        return;                                                       \
    }
    REF_PAIR(MPI_FLOAT_INT, ref_float_int, float, MPI_FLOAT)
    REF_PAIR(MPI_DOUBLE_INT, ref_double_int, double, MPI_DOUBLE)
    REF_PAIR(MPI_LONG_INT, ref_long_int, long, MPI_LONG)
    REF_PAIR(MPI_SHORT_INT, ref_short_int, short, MPI_SHORT)
    REF_PAIR(MPI_LONG_DOUBLE_INT, ref_ldouble_int, long double, MPI_LONG_DOUBLE)
#undef REF_PAIR
    int sz;
    MPI_Type_size(t, &sz);
    ref_push(m, d, sz, t);
}

static inline void ref_flatten(ref_map_t *m, MPI_Datatype t, MPI_Aint d);

/* Process coordinates of darray, row-major. */
static inline void ref_darray_dim(int distrib, int g, int p, int c, int darg, int *own, int *nown)
{
    *nown = 0;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        for (int i = 0; i < g; i++)
            own[(*nown)++] = i;
    } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        for (int i = c * b; i < g && i < (c + 1) * b; i++)
            own[(*nown)++] = i;
    } else {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        for (int i = 0; i < g; i++)
            if ((i / b) % p == c)
                own[(*nown)++] = i;
    }
}

/* Visit every index of an n-dimensional selection in memory order (the
 * fastest dimension last for C order, first for Fortran order). lists[d]
 * holds the selected indices of dimension d. */
static inline void ref_nd(ref_map_t *m, MPI_Datatype old, MPI_Aint d, int nd, const int *sizes,
                   int order, int **lists, const int *nlist)
{
    MPI_Aint ext = ref_extent(old);
    int idx[16] = {0};
    for (int i = 0; i < nd; i++)
        if (nlist[i] == 0)
            return;
    for (;;) {
        /* linear index of the current selection */
        MPI_Aint lin = 0;
        if (order == MPI_ORDER_C)
            for (int i = 0; i < nd; i++)
                lin = lin * sizes[i] + lists[i][idx[i]];
        else
            for (int i = nd - 1; i >= 0; i--)
                lin = lin * sizes[i] + lists[i][idx[i]];
        ref_flatten(m, old, d + lin * ext);
        /* next: advance the fastest dimension */
        int k;
        for (k = 0; k < nd; k++) {
            int dim = order == MPI_ORDER_C ? nd - 1 - k : k;
            if (++idx[dim] < nlist[dim])
                break;
            idx[dim] = 0;
        }
        if (k == nd)
            return;
    }
}

static inline void ref_flatten(ref_map_t *m, MPI_Datatype t, MPI_Aint d)
{
    int ni, na, nd, comb;
    MPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
    if (comb == MPI_COMBINER_NAMED) {
        ref_named(m, t, d);
        return;
    }
    int *Iv = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *Av = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Datatype *Tv = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    MPI_Type_get_contents(t, ni, na, nd, Iv, Av, Tv);
    MPI_Aint ext = nd ? ref_extent(Tv[0]) : 0;
    switch (comb) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
        ref_flatten(m, Tv[0], d);
        break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int i = 0; i < Iv[0]; i++)
            ref_flatten(m, Tv[0], d + i * ext);
        break;
    case MPI_COMBINER_VECTOR:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1]; j++)
                ref_flatten(m, Tv[0], d + ((MPI_Aint)i * Iv[2] + j) * ext);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1]; j++)
                ref_flatten(m, Tv[0], d + i * Av[0] + j * ext);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1 + i]; j++)
                ref_flatten(m, Tv[0], d + ((MPI_Aint)Iv[1 + Iv[0] + i] + j) * ext);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1 + i]; j++)
                ref_flatten(m, Tv[0], d + Av[i] + j * ext);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1]; j++)
                ref_flatten(m, Tv[0], d + ((MPI_Aint)Iv[2 + i] + j) * ext);
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        for (int i = 0; i < Iv[0]; i++)
            for (int j = 0; j < Iv[1]; j++)
                ref_flatten(m, Tv[0], d + Av[i] + j * ext);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < Iv[0]; i++) {
            MPI_Aint e = ref_extent(Tv[i]);
            for (int j = 0; j < Iv[1 + i]; j++)
                ref_flatten(m, Tv[i], d + Av[i] + j * e);
        }
        break;
    case MPI_COMBINER_SUBARRAY: {
        int n = Iv[0];
        int *lists[16], nl[16] = {0};
        for (int k = 0; k < n; k++) {
            lists[k] = malloc(sizeof(int) * (size_t)(Iv[1 + n + k] + 1));
            nl[k] = Iv[1 + n + k];
            for (int j = 0; j < nl[k]; j++)
                lists[k][j] = Iv[1 + 2 * n + k] + j;
        }
        ref_nd(m, Tv[0], d, n, Iv + 1, Iv[3 * n + 1], lists, nl);
        for (int k = 0; k < n; k++)
            free(lists[k]);
        break;
    }
    case MPI_COMBINER_DARRAY: {
        int size = Iv[0], rank = Iv[1], n = Iv[2];
        const int *gs = Iv + 3, *di = Iv + 3 + n, *da = Iv + 3 + 2 * n, *ps = Iv + 3 + 3 * n;
        int coords[16], *lists[16], nl[16] = {0};
        (void)size;
        for (int k = n - 1, r = rank; k >= 0; k--) {
            coords[k] = r % ps[k];
            r /= ps[k];
        }
        for (int k = 0; k < n; k++) {
            lists[k] = malloc(sizeof(int) * (size_t)gs[k]);
            ref_darray_dim(di[k], gs[k], ps[k], coords[k], da[k], lists[k], &nl[k]);
        }
        ref_nd(m, Tv[0], d, n, gs, Iv[3 + 4 * n], lists, nl);
        for (int k = 0; k < n; k++)
            free(lists[k]);
        break;
    }
    default:
        fprintf(stderr, "dtref: combiner %d not modelled\n", comb);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    for (int i = 0; i < nd; i++) {
        int ci, ca, cd, cc;
        MPI_Type_get_envelope(Tv[i], &ci, &ca, &cd, &cc);
        if (cc != MPI_COMBINER_NAMED)
            MPI_Type_free(&Tv[i]);
    }
    free(Iv);
    free(Av);
    free(Tv);
}

/* The typemap of one element of t. */
static inline ref_map_t ref_map(MPI_Datatype t)
{
    ref_map_t m = {0};
    ref_flatten(&m, t, 0);
    return m;
}

static inline void ref_free(ref_map_t *m)
{
    free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

static inline size_t ref_size(const ref_map_t *m)
{
    size_t s = 0;
    for (size_t i = 0; i < m->n; i++)
        s += (size_t)m->v[i].size;
    return s;
}

/* Reference pack/unpack of count elements, extent ext apart. */
static inline void ref_pack(const ref_map_t *m, size_t count, MPI_Aint ext, const char *buf,
                            char *out)
{
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < m->n; i++) {
            memcpy(out, buf + (MPI_Aint)e * ext + m->v[i].disp, (size_t)m->v[i].size);
            out += m->v[i].size;
        }
}

static inline void ref_unpack(const ref_map_t *m, size_t count, MPI_Aint ext, const char *in,
                              char *buf)
{
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < m->n; i++) {
            memcpy(buf + (MPI_Aint)e * ext + m->v[i].disp, in, (size_t)m->v[i].size);
            in += m->v[i].size;
        }
}

/* The span of memory count elements touch: [lo, hi) relative to buf. */
static inline void ref_span(const ref_map_t *m, size_t count, MPI_Aint ext, MPI_Aint *lo,
                            MPI_Aint *hi)
{
    *lo = 0;
    *hi = 0;
    int first = 1;
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < m->n; i++) {
            MPI_Aint a = (MPI_Aint)e * ext + m->v[i].disp, b = a + m->v[i].size;
            if (first || a < *lo)
                *lo = a;
            if (first || b > *hi)
                *hi = b;
            first = 0;
        }
}

#endif
