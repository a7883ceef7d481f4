/*
 * coll_test.h: helpers of the collective tests (header-only, standard MPI
 * plus one ftmpi hook).
 *
 * Every test computes the expected result of a collective locally, from
 * the deterministic input every rank would have contributed (t_val), with
 * a plain sequential loop: that is the reference implementation the
 * library's algorithms are compared with.
 *
 * Data layouts: a "typed buffer" (tb_t) describes a datatype as a list of
 * int positions inside one element; tests work on the logical int arrays
 * and move them in and out of the physical layout. Holes of derived types
 * are filled with a guard value and checked afterwards: a collective must
 * not write outside its datatype's data.
 *
 * Algorithms are forced with coll_select_set() (the library's run-time
 * form of FTMPI_COLL_<NAME>=alg[:seg]).
 */
#ifndef FTMPI_TESTS_COLL_TEST_H
#define FTMPI_TESTS_COLL_TEST_H

#include "../mpi/mpitest.h"

int coll_select_set(const char *spec); /* libftmpi: force algorithms */

#define T_GUARD (-77777777)

static inline int t_val(int seed, int src, long k)
{
    long v = (seed * 1000003L + src * 7919L + k * 31L) % 100003L;
    return (int)(v - 50000);
}

typedef struct {
    const char *name;
    MPI_Datatype dt;
    int ipe;        /* data ints per element */
    int ext;        /* extent in ints */
    int map[8];     /* int position of each data int inside an element */
} tb_t;

/* MPI_INT, and a vector with holes: 3 blocks of 2 ints, stride 3
 * (positions 0 1 3 4 6 7 of 8). */
static inline void tb_init_int(tb_t *t)
{
    *t = (tb_t){"int", MPI_INT, 1, 1, {0}};
}

static inline void tb_init_vec(tb_t *t)
{
    *t = (tb_t){"vec", MPI_DATATYPE_NULL, 6, 8, {0, 1, 3, 4, 6, 7}};
    MPI_Type_vector(3, 2, 3, MPI_INT, &t->dt);
    MPI_Type_commit(&t->dt);
}

static inline void tb_free(tb_t *t)
{
    if (t->dt != MPI_INT)
        MPI_Type_free(&t->dt);
}

static inline long tb_len(const tb_t *t, long count) { return count * t->ipe; }

/* A buffer for count elements, guards everywhere. */
static inline int *tb_alloc(const tb_t *t, long count)
{
    long n = count * t->ext + 1;
    int *b = t_malloc((size_t)n * sizeof(int));
    for (long i = 0; i < n; i++)
        b[i] = T_GUARD;
    return b;
}

static inline long tb_pos(const tb_t *t, long k)
{
    return (k / t->ipe) * t->ext + t->map[k % t->ipe];
}

/* logical [0, count*ipe) -> physical */
static inline void tb_put(const tb_t *t, int *phys, const int *logical, long count)
{
    for (long k = 0; k < count * t->ipe; k++)
        phys[tb_pos(t, k)] = logical[k];
}

/* Fill count elements at phys with t_val(seed, src, k0 + k). */
static inline void tb_fill(const tb_t *t, int *phys, long count, int seed, int src, long k0)
{
    for (long k = 0; k < count * t->ipe; k++)
        phys[tb_pos(t, k)] = t_val(seed, src, k0 + k);
}

/* Compare count elements at phys with expected logical values; holes and
 * the int after the last element must still be guards. Returns the number
 * of mismatches (first few reported). */
static inline int tb_check(const tb_t *t, const int *phys, const int *expect, long count,
                           const char *what)
{
    int bad = 0;
    for (long k = 0; k < count * t->ipe; k++) {
        int got = phys[tb_pos(t, k)];
        if (got != expect[k]) {
            if (bad++ < 3)
                T_FAIL("%s: type %s: data int %ld is %d, expected %d", what, t->name, k, got,
                       expect[k]);
        }
    }
    for (long e = 0; e < count; e++)
        for (int i = 0; i < t->ext; i++) {
            int hole = 1;
            for (int m = 0; m < t->ipe; m++)
                hole &= t->map[m] != i;
            if (hole && phys[e * t->ext + i] != T_GUARD && bad++ < 3)
                T_FAIL("%s: type %s: hole at element %ld int %d overwritten", what, t->name, e,
                       i);
        }
    if (phys[count * t->ext] != T_GUARD && bad++ < 3)
        T_FAIL("%s: type %s: int past the end overwritten", what, t->name);
    return bad;
}

/* Every value of a "src" block: expect[k] = t_val(seed, src, k0 + k). */
static inline void t_expect_block(int *expect, long n, int seed, int src, long k0)
{
    for (long k = 0; k < n; k++)
        expect[k] = t_val(seed, src, k0 + k);
}

/* Force an algorithm, failing the test if the library refuses. */
static inline void t_force(const char *spec)
{
    if (coll_select_set(spec) != 0)
        T_FAIL("coll_select_set(\"%s\") refused", spec ? spec : "(null)");
}

/* Roots to try on p ranks: 0, p-1 and one in the middle. */
static inline int t_roots(int p, int roots[3])
{
    int n = 0;
    roots[n++] = 0;
    if (p > 1)
        roots[n++] = p - 1;
    if (p > 2)
        roots[n++] = p / 2;
    return n;
}

#endif
