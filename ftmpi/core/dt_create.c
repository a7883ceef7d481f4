/*
 * Datatype constructors: contiguous, (h)vector, (h)indexed(_block),
 * struct, resized, dup. Each records its arguments (the envelope) and
 * computes the new type's size, bounds and element counts from its parts;
 * the layout itself is built at commit (dt_build.c).
 *
 * Bounds follow MPI-1's typemap rules with sticky markers: a type's lower
 * bound is the least explicit lower-bound marker (MPI_LB, or resized) in
 * its typemap if there is one, else the least displacement of its entries;
 * the upper bound likewise. A struct without markers has its extent
 * rounded up to the largest alignment of its members (as C pads structs).
 */
#include "core/dt_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static inline MPI_Aint amin(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
static inline MPI_Aint amax(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

void dt_acc_init(dt_acc_t *a)
{
    memset(a, 0, sizeof(*a));
    a->align = 1;
}

static void acc_count(dt_acc_t *a, size_t *sum, size_t per, size_t n)
{
    size_t v;
    if (__builtin_mul_overflow(per, n, &v) || __builtin_add_overflow(*sum, v, sum))
        a->overflow = 1;
}

void dt_acc_add(dt_acc_t *a, const dt_t *c, MPI_Aint disp, size_t n1, MPI_Aint s1, size_t n2,
                MPI_Aint s2)
{
    if (n1 == 0 || n2 == 0 || c->empty)
        return;
    MPI_Aint r1 = (MPI_Aint)(n1 - 1) * s1, r2 = (MPI_Aint)(n2 - 1) * s2;
    MPI_Aint lo = disp + amin(0, r1) + amin(0, r2);
    MPI_Aint hi = disp + amax(0, r1) + amax(0, r2);
    int lb_marker_only = c->kind == DTK_LBUB && c->has_lb;  /* MPI_LB */
    int ub_marker_only = c->kind == DTK_LBUB && c->has_ub;  /* MPI_UB */
    a->any_entry = 1;
    if (c->has_lb) {
        a->mlb = a->has_lb ? amin(a->mlb, lo + c->lb) : lo + c->lb;
        a->has_lb = 1;
    } else if (!ub_marker_only) {
        a->plb = a->any_plain_lb ? amin(a->plb, lo + c->lb) : lo + c->lb;
        a->any_plain_lb = 1;
    }
    if (c->has_ub) {
        a->mub = a->has_ub ? amax(a->mub, hi + c->ub) : hi + c->ub;
        a->has_ub = 1;
    } else if (!lb_marker_only) {
        a->pub = a->any_plain_ub ? amax(a->pub, hi + c->ub) : hi + c->ub;
        a->any_plain_ub = 1;
    }
    if (c->size > 0) {
        MPI_Aint tl = lo + c->true_lb, tu = hi + c->true_ub;
        a->tlb = a->any_data ? amin(a->tlb, tl) : tl;
        a->tub = a->any_data ? amax(a->tub, tu) : tu;
        a->any_data = 1;
        if (c->elem_kind == DTK_NONE)
            a->mixed = 1;
        else if (a->elem_kind == DTK_NONE)
            a->elem_kind = c->elem_kind;
        else if (a->elem_kind != c->elem_kind)
            a->mixed = 1;
    }
    size_t n;
    if (__builtin_mul_overflow(n1, n2, &n))
        a->overflow = 1;
    acc_count(a, &a->size, c->size, n);
    acc_count(a, &a->elem_count, c->elem_count, n);
    acc_count(a, &a->ext_size, c->ext_size, n);
    if (c->align > a->align)
        a->align = c->align;
}

int dt_acc_finish(const dt_acc_t *a, dt_t *dt, int pad)
{
    if (a->overflow)
        return MPI_ERR_COUNT;
    dt->has_lb = a->has_lb;
    dt->has_ub = a->has_ub;
    dt->lb = a->has_lb ? a->mlb : (a->any_plain_lb ? a->plb : 0);
    dt->ub = a->has_ub ? a->mub : (a->any_plain_ub ? a->pub : dt->lb);
    if (pad && !a->has_lb && !a->has_ub && a->align > 1) {
        MPI_Aint ext = dt->ub - dt->lb, al = (MPI_Aint)a->align;
        if (ext > 0 && ext % al)
            dt->ub += al - ext % al;
    }
    dt->extent = dt->ub - dt->lb;
    dt->true_lb = a->any_data ? a->tlb : 0;
    dt->true_ub = a->any_data ? a->tub : 0;
    dt->size = a->size;
    dt->elem_count = a->elem_count;
    dt->ext_size = a->ext_size;
    dt->elem_kind = a->any_data && !a->mixed ? a->elem_kind : DTK_NONE;
    dt->align = a->align;
    dt->empty = !a->any_entry;
    dt->kind = DTK_NONE;
    return MPI_SUCCESS;
}

/* A new type with its record; the record's types are filled by the caller
 * through keep(). */
static dt_t *new_type_l(int combiner, int ni, int na, int nl, int nd)
{
    dt_t *dt = dt_alloc();
    if (!dt)
        return NULL;
    dt->envelope = dt_env_new_l(combiner, ni, na, nl, nd);
    if (!dt->envelope) {
        free(dt);
        return NULL;
    }
    return dt;
}

static dt_t *new_type(int combiner, int ni, int na, int nd)
{
    return new_type_l(combiner, ni, na, 0, nd);
}

static void keep(dt_t *dt, int i, dt_t *child)
{
    dt_env_t *e = dt->envelope;
    dt_retain(child);
    e->types[i] = child;
}

static int done(dt_t *dt, dt_acc_t *a, int pad, dt_t **out)
{
    int rc = dt_acc_finish(a, dt, pad);
    if (rc != MPI_SUCCESS) {
        dt_release(dt);
        return rc;
    }
    *out = dt;
    return MPI_SUCCESS;
}

/* Counts beyond int go to the record's large counts (Type_get_contents_c). */
static int beyond_int(size_t v) { return v > (size_t)INT_MAX; }

int dt_create_contiguous(size_t count, dt_t *old, dt_t **out)
{
    int big = beyond_int(count);
    dt_t *dt = new_type_l(MPI_COMBINER_CONTIGUOUS, !big, 0, big, 1);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    if (big)
        e->counts[0] = (MPI_Count)count;
    else
        e->ints[0] = (int)count;
    keep(dt, 0, old);
    dt_acc_t a;
    dt_acc_init(&a);
    dt_acc_add(&a, old, 0, count, old->extent, 1, 0);
    return done(dt, &a, 0, out);
}

dt_t *dt_count_wrap_new(size_t count, dt_t *old)
{
    dt_t *w = NULL;
    if (dt_create_contiguous(count, old, &w) != MPI_SUCCESS)
        return NULL;
    if (dt_commit(w) != MPI_SUCCESS) {
        dt_release(w);
        return NULL;
    }
    w->count_wrap = 1;
    return w;
}

int dt_create_vector(int combiner, size_t count, size_t blocklen, MPI_Aint stride, dt_t *old,
                     dt_t **out)
{
    int hv = combiner == MPI_COMBINER_HVECTOR;
    int big = beyond_int(count) || beyond_int(blocklen) ||
              (!hv && (stride > INT_MAX || stride < INT_MIN));
    dt_t *dt = big ? new_type_l(combiner, 0, 0, 3, 1)
                   : new_type(combiner, hv ? 2 : 3, hv ? 1 : 0, 1);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    if (big) {
        /* the _c layout: count, blocklength, stride all large counts */
        e->counts[0] = (MPI_Count)count;
        e->counts[1] = (MPI_Count)blocklen;
        e->counts[2] = (MPI_Count)stride;
    } else {
        e->ints[0] = (int)count;
        e->ints[1] = (int)blocklen;
        if (hv)
            e->aints[0] = stride;
        else
            e->ints[2] = (int)stride;
    }
    keep(dt, 0, old);
    MPI_Aint bstride = hv ? stride : stride * old->extent;
    dt_acc_t a;
    dt_acc_init(&a);
    dt_acc_add(&a, old, 0, blocklen, old->extent, count, bstride);
    return done(dt, &a, 0, out);
}

int dt_create_indexed(int combiner, size_t count, const int *blocklens, const int *idisps,
                      const MPI_Aint *adisps, dt_t *old, dt_t **out)
{
    int block = combiner == MPI_COMBINER_INDEXED_BLOCK ||
                combiner == MPI_COMBINER_HINDEXED_BLOCK;
    int c = (int)count, ni, na;
    switch (combiner) {
    case MPI_COMBINER_INDEXED: ni = 2 * c + 1; na = 0; break;
    case MPI_COMBINER_HINDEXED: ni = c + 1; na = c; break;
    case MPI_COMBINER_INDEXED_BLOCK: ni = c + 2; na = 0; break;
    case MPI_COMBINER_HINDEXED_BLOCK: ni = 2; na = c; break;
    default: return MPI_ERR_INTERN;
    }
    dt_t *dt = new_type(combiner, ni, na, 1);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    e->ints[0] = c;
    if (block)
        e->ints[1] = blocklens[0];
    else if (c)
        memcpy(e->ints + 1, blocklens, (size_t)c * sizeof(int));
    if (idisps && c)
        memcpy(e->ints + (block ? 2 : 1 + c), idisps, (size_t)c * sizeof(int));
    if (adisps && c)
        memcpy(e->aints, adisps, (size_t)c * sizeof(MPI_Aint));
    keep(dt, 0, old);
    dt_acc_t a;
    dt_acc_init(&a);
    for (size_t i = 0; i < count; i++) {
        size_t bl = (size_t)(block ? blocklens[0] : blocklens[i]);
        MPI_Aint d = idisps ? (MPI_Aint)idisps[i] * old->extent : adisps[i];
        dt_acc_add(&a, old, d, bl, old->extent, 1, 0);
    }
    return done(dt, &a, 0, out);
}

int dt_create_struct(size_t count, const int *blocklens, const MPI_Aint *disps,
                     dt_t *const *types, dt_t **out)
{
    int c = (int)count;
    dt_t *dt = new_type(MPI_COMBINER_STRUCT, c + 1, c, c);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    e->ints[0] = c;
    if (c) {
        memcpy(e->ints + 1, blocklens, (size_t)c * sizeof(int));
        memcpy(e->aints, disps, (size_t)c * sizeof(MPI_Aint));
    }
    dt_acc_t a;
    dt_acc_init(&a);
    for (size_t i = 0; i < count; i++) {
        keep(dt, (int)i, types[i]);
        dt_acc_add(&a, types[i], disps[i], (size_t)blocklens[i], types[i]->extent, 1, 0);
    }
    return done(dt, &a, 1, out);
}

int dt_create_resized(dt_t *old, MPI_Aint lb, MPI_Aint extent, dt_t **out)
{
    dt_t *dt = new_type(MPI_COMBINER_RESIZED, 0, 2, 1);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    e->aints[0] = lb;
    e->aints[1] = extent;
    keep(dt, 0, old);
    dt->size = old->size;
    dt->true_lb = old->true_lb;
    dt->true_ub = old->true_ub;
    dt->elem_kind = old->elem_kind;
    dt->elem_count = old->elem_count;
    dt->ext_size = old->ext_size;
    dt->align = old->align;
    dt->kind = DTK_NONE;
    dt->has_lb = dt->has_ub = 1;
    dt->lb = lb;
    dt->ub = lb + extent;
    dt->extent = extent;
    *out = dt;
    return MPI_SUCCESS;
}

/* dt takes old's layout (a dup, or a type that stands for old). */
static int same_layout(dt_t *dt, dt_t *old, dt_t **out)
{
    dt->size = old->size;
    dt->lb = old->lb;
    dt->ub = old->ub;
    dt->extent = old->extent;
    dt->true_lb = old->true_lb;
    dt->true_ub = old->true_ub;
    dt->has_lb = old->has_lb;
    dt->has_ub = old->has_ub;
    dt->empty = old->empty;
    dt->align = old->align;
    dt->elem_kind = old->elem_kind;
    dt->elem_count = old->elem_count;
    dt->ext_size = old->ext_size;
    dt->kind = DTK_NONE;
    if (old->committed) {
        int rc = dt_commit(dt);
        if (rc != MPI_SUCCESS) {
            dt_release(dt);
            return rc;
        }
    }
    *out = dt;
    return MPI_SUCCESS;
}

int dt_create_dup(dt_t *old, dt_t **out)
{
    dt_t *dt = new_type(MPI_COMBINER_DUP, 0, 0, 1);
    if (!dt)
        return MPI_ERR_NO_MEM;
    keep(dt, 0, old);
    return same_layout(dt, old, out);
}

int dt_create_f90(int combiner, int p, int r, dt_t *base, dt_t **out)
{
    int ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    dt_t *dt = new_type(combiner, ni, 0, 0);
    if (!dt)
        return MPI_ERR_NO_MEM;
    dt_env_t *e = dt->envelope;
    if (ni == 1) {
        e->ints[0] = r;
    } else {
        e->ints[0] = p;
        e->ints[1] = r;
    }
    dt_retain(base);
    e->impl = base; /* its layout is base's */
    return same_layout(dt, base, out);
}
