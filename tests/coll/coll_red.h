/*
 * coll_red.h: reduction cases of the collective tests. Each case has a
 * datatype, an op, a fill function (the contribution of a rank) and a
 * local fold (the reference: the same op applied sequentially in rank
 * order). Results are compared byte for byte over whole extents, so holes
 * of derived types must keep their guard values.
 */
#ifndef FTMPI_TESTS_COLL_RED_H
#define FTMPI_TESTS_COLL_RED_H

#include "coll_test.h"

typedef struct rcase rcase_t;
struct rcase {
    const char *name;
    MPI_Datatype dt;
    MPI_Op op;
    size_t ext;                 /* bytes per element */
    void (*fill)(const rcase_t *rc, void *buf, long count, int seed, int rank);
    void (*fold)(const void *in, void *inout, long count); /* inout = in op inout */
    tb_t tb;                    /* layout (int based cases) */
};

static void rc_fill_ints(const rcase_t *rc, void *buf, long count, int seed, int rank)
{
    int *b = buf;
    for (long i = 0; i < count * rc->tb.ext; i++)
        b[i] = T_GUARD;
    tb_fill(&rc->tb, b, count, seed, rank, 0);
}

/* Sum over the data ints only (holes keep the guard of inout). */
static const tb_t *rc_sum_tb;
static void rc_fold_sum(const void *in, void *inout, long count)
{
    const int *a = in;
    int *b = inout;
    for (long k = 0; k < count * rc_sum_tb->ipe; k++) {
        long pos = tb_pos(rc_sum_tb, k);
        b[pos] = a[pos] + b[pos];
    }
}

/* Non-commutative: affine maps x -> m x + c, composed "in first, then
 * inout". Arithmetic mod 2^64. */
typedef struct { unsigned long long m, c; } aff_t;

static void aff_compose(const aff_t *a, aff_t *b, long n)
{
    for (long i = 0; i < n; i++) {
        aff_t r = {a[i].m * b[i].m, a[i].c * b[i].m + b[i].c};
        b[i] = r;
    }
}

static void aff_user(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    aff_compose(in, inout, *len);
}

static void rc_fill_aff(const rcase_t *rc, void *buf, long count, int seed, int rank)
{
    (void)rc;
    aff_t *b = buf;
    for (long i = 0; i < count; i++) {
        b[i].m = (unsigned long long)(t_val(seed, rank, 2 * i) | 1);
        b[i].c = (unsigned long long)t_val(seed, rank, 2 * i + 1);
    }
}

static void rc_fold_aff(const void *in, void *inout, long count)
{
    aff_compose(in, inout, count);
}

/* Sets up the cases: int SUM, vector-with-holes SUM, affine user op
 * (non-commutative). Returns how many. */
static inline int rc_setup(rcase_t rc[3])
{
    rc[0] = (rcase_t){"int-sum", MPI_INT, MPI_SUM, sizeof(int), rc_fill_ints, rc_fold_sum, {0}};
    tb_init_int(&rc[0].tb);
    rc[1] = (rcase_t){"vec-sum", MPI_DATATYPE_NULL, MPI_SUM, 0, rc_fill_ints, rc_fold_sum, {0}};
    tb_init_vec(&rc[1].tb);
    rc[1].dt = rc[1].tb.dt;
    rc[1].ext = (size_t)rc[1].tb.ext * sizeof(int);
    rc[2] = (rcase_t){"affine-noncommutative", MPI_DATATYPE_NULL, MPI_OP_NULL, sizeof(aff_t),
                      rc_fill_aff, rc_fold_aff, {0}};
    MPI_Type_contiguous(2, MPI_UNSIGNED_LONG_LONG, &rc[2].dt);
    MPI_Type_commit(&rc[2].dt);
    MPI_Op_create(aff_user, 0, &rc[2].op);
    return 3;
}

static inline void rc_teardown(rcase_t rc[3])
{
    tb_free(&rc[1].tb);
    MPI_Type_free(&rc[2].dt);
    MPI_Op_free(&rc[2].op);
}

static inline void *rc_alloc(const rcase_t *rc, long count)
{
    size_t n = rc->ext * (size_t)(count + 1);
    unsigned char *b = t_malloc(n);
    int *ib = (int *)b;
    for (size_t i = 0; i < n / sizeof(int); i++)
        ib[i] = T_GUARD;
    return b;
}

/* Expected reduction of ranks [lo, hi) into out (count elements). */
static inline void rc_expect(const rcase_t *rc, void *out, long count, int seed, int lo, int hi)
{
    rc_sum_tb = &rc->tb;
    void *tmp = rc_alloc(rc, count);
    rc->fill(rc, out, count, seed, hi - 1);
    for (int r = hi - 2; r >= lo; r--) {
        rc->fill(rc, tmp, count, seed, r);
        rc->fold(tmp, out, count);
    }
    free(tmp);
}

/* Compare count elements (and the guard element after them). */
static inline int rc_check(const rcase_t *rc, const void *got, const void *expect, long count,
                           const char *what)
{
    const unsigned char *g = got, *e = expect;
    for (size_t i = 0; i < rc->ext * (size_t)count; i++)
        if (g[i] != e[i]) {
            T_FAIL("%s: %s: byte %zu (element %zu) differs", what, rc->name, i, i / rc->ext);
            return 1;
        }
    const int *tail = (const int *)(g + rc->ext * (size_t)count);
    if (tail[0] != T_GUARD) {
        T_FAIL("%s: %s: wrote past the end", what, rc->name);
        return 1;
    }
    return 0;
}

#endif
