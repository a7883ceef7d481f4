/*
 * dtzoo.h: a collection of datatypes that covers every constructor and
 * the awkward cases (negative strides and displacements, zero counts,
 * markers, resized types with holes, nesting several levels deep,
 * subarrays and darrays in both orders, pairs, mixed structs). Each test
 * walks the whole zoo.
 */
#ifndef FTMPI_TESTS_DTZOO_H
#define FTMPI_TESTS_DTZOO_H

#include "dtref.h"

#include <stdbool.h>
#include <complex.h>

typedef struct {
    char c;
    double d;
    int i[3];
    short s;
} zoo_s1;

static inline MPI_Datatype zoo_struct1(void)
{
    MPI_Datatype t;
    int bl[4] = {1, 1, 3, 1};
    MPI_Aint d[4] = {offsetof(zoo_s1, c), offsetof(zoo_s1, d), offsetof(zoo_s1, i),
                     offsetof(zoo_s1, s)};
    MPI_Datatype ty[4] = {MPI_CHAR, MPI_DOUBLE, MPI_INT, MPI_SHORT};
    MPI_Type_create_struct(4, bl, d, ty, &t);
    return t;
}

typedef struct {
    long double ld;
    double _Complex z;
    bool b;
    int8_t i8;
    int16_t i16;
    uint64_t u64;
    wchar_t w;
    float _Complex fz;
    long l;
    unsigned long long ull;
} zoo_s2;

static inline MPI_Datatype zoo_struct2(void)
{
    MPI_Datatype t;
    int bl[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    MPI_Aint d[10] = {offsetof(zoo_s2, ld), offsetof(zoo_s2, z), offsetof(zoo_s2, b),
                      offsetof(zoo_s2, i8), offsetof(zoo_s2, i16), offsetof(zoo_s2, u64),
                      offsetof(zoo_s2, w), offsetof(zoo_s2, fz), offsetof(zoo_s2, l),
                      offsetof(zoo_s2, ull)};
    MPI_Datatype ty[10] = {MPI_LONG_DOUBLE, MPI_C_DOUBLE_COMPLEX, MPI_C_BOOL, MPI_INT8_T,
                           MPI_INT16_T, MPI_UINT64_T, MPI_WCHAR, MPI_C_FLOAT_COMPLEX,
                           MPI_LONG, MPI_UNSIGNED_LONG_LONG};
    MPI_Type_create_struct(10, bl, d, ty, &t);
    return t;
}

#define ZOO_N 30

/* Build zoo type i (committed); returns its name. The caller frees *t. */
static inline const char *zoo_build(int i, MPI_Datatype *t)
{
    MPI_Datatype a, b, c;
    switch (i) {
    case 0:
        MPI_Type_vector(5, 2, 3, MPI_DOUBLE, t);
        break;
    case 1:
        MPI_Type_vector(4, 1, -2, MPI_INT, t);
        break;
    case 2: /* hvector of vector, negative byte stride */
        MPI_Type_vector(3, 2, 4, MPI_FLOAT, &a);
        MPI_Type_create_hvector(3, 2, -100, a, t);
        MPI_Type_free(&a);
        break;
    case 3: {
        int bl[4] = {3, 0, 2, 1}, d[4] = {5, -2, 0, 9};
        MPI_Type_indexed(4, bl, d, MPI_FLOAT, t);
        break;
    }
    case 4: {
        int bl[2] = {2, 1};
        MPI_Aint d[2] = {-16, 24};
        MPI_Type_create_hindexed(2, bl, d, MPI_DOUBLE, t);
        break;
    }
    case 5: {
        int d[3] = {4, 0, 8};
        MPI_Type_create_indexed_block(3, 2, d, MPI_SHORT, t);
        break;
    }
    case 6: {
        MPI_Aint d[3] = {0, 100, -50};
        MPI_Type_create_hindexed_block(3, 3, d, MPI_CHAR, t);
        break;
    }
    case 7:
        *t = zoo_struct1();
        break;
    case 8: { /* MPI-1 markers */
        int bl[4] = {1, 1, 1, 1};
        MPI_Aint d[4] = {-8, 0, 8, 32};
        MPI_Datatype ty[4] = {MPI_LB, MPI_INT, MPI_DOUBLE, MPI_UB};
        MPI_Type_struct(4, bl, d, ty, t);
        break;
    }
    case 9: /* resized with holes */
        MPI_Type_contiguous(3, MPI_INT, &a);
        MPI_Type_create_resized(a, -4, 20, t);
        MPI_Type_free(&a);
        break;
    case 10:
        MPI_Type_contiguous(0, MPI_INT, t);
        break;
    case 11: { /* struct with a zero-count block and a zero-size member */
        MPI_Type_contiguous(0, MPI_DOUBLE, &a);
        int bl[3] = {2, 0, 1};
        MPI_Aint d[3] = {0, 8, 16};
        MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, a};
        MPI_Type_create_struct(3, bl, d, ty, t);
        MPI_Type_free(&a);
        break;
    }
    case 12: { /* five levels deep */
        MPI_Datatype s = zoo_struct1();
        MPI_Type_vector(3, 1, 2, s, &a);
        MPI_Type_create_resized(a, 0, 7 * (MPI_Aint)sizeof(zoo_s1), &b);
        MPI_Type_contiguous(2, b, &c);
        int bl[2] = {1, 2};
        MPI_Aint d[2] = {0, -3 * (MPI_Aint)sizeof(zoo_s1)};
        MPI_Type_create_hindexed(2, bl, d, c, t);
        MPI_Type_free(&s);
        MPI_Type_free(&a);
        MPI_Type_free(&b);
        MPI_Type_free(&c);
        break;
    }
    case 13: {
        int sz[3] = {6, 5, 4}, sub[3] = {2, 3, 2}, st[3] = {1, 2, 1};
        MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, t);
        break;
    }
    case 14: {
        int sz[3] = {6, 5, 4}, sub[3] = {2, 3, 2}, st[3] = {1, 2, 1};
        MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, t);
        break;
    }
    case 15: {
        int gs[2] = {10, 9}, di[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
            da[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 3};
        MPI_Type_create_darray(6, 4, 2, gs, di, da, ps, MPI_ORDER_C, MPI_FLOAT, t);
        break;
    }
    case 16: {
        int gs[3] = {7, 4, 5}, di[3] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE,
                                        MPI_DISTRIBUTE_BLOCK},
            da[3] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 3}, ps[3] = {2, 1, 2};
        MPI_Type_create_darray(4, 3, 3, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_DOUBLE, t);
        break;
    }
    case 17: {
        MPI_Datatype s = zoo_struct1();
        MPI_Type_dup(s, t);
        MPI_Type_free(&s);
        break;
    }
    case 18:
        MPI_Type_contiguous(3, MPI_DOUBLE_INT, t);
        break;
    case 19:
        MPI_Type_vector(3, 2, 3, MPI_SHORT_INT, t);
        break;
    case 20:
        *t = zoo_struct2();
        break;
    case 21: /* resized doubles: every other one; elements continue the pattern */
        MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &a);
        MPI_Type_contiguous(4, a, t);
        MPI_Type_free(&a);
        break;
    case 22: { /* indexed with regular displacements: compacts into a vector */
        int bl[5] = {2, 2, 2, 2, 2}, d[5] = {0, 5, 10, 15, 20};
        MPI_Type_indexed(5, bl, d, MPI_INT, t);
        break;
    }
    case 23: { /* only markers: size 0, extent 16 */
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {0, 16};
        MPI_Datatype ty[2] = {MPI_LB, MPI_UB};
        MPI_Type_struct(2, bl, d, ty, t);
        break;
    }
    case 24: { /* struct of adjacent fields: one run */
        int bl[3] = {2, 1, 4};
        MPI_Aint d[3] = {0, 8, 12};
        MPI_Datatype ty[3] = {MPI_INT, MPI_FLOAT, MPI_SHORT};
        MPI_Type_create_struct(3, bl, d, ty, t);
        break;
    }
    case 25: /* vector of vectors whose pattern continues: one strided run */
        MPI_Type_vector(4, 1, 2, MPI_DOUBLE, &a);
        MPI_Type_create_resized(a, 0, 8 * sizeof(double), &b);
        MPI_Type_contiguous(3, b, t);
        MPI_Type_free(&a);
        MPI_Type_free(&b);
        break;
    case 26: /* vector with zero count and with zero blocklength */
        MPI_Type_vector(0, 3, 5, MPI_INT, t);
        break;
    case 27:
        MPI_Type_vector(3, 0, 5, MPI_INT, t);
        break;
    case 28: { /* hindexed of a struct with markers, nested in a negative vector */
        int bl[2] = {1, 1};
        MPI_Aint d[2] = {4, 24};
        MPI_Datatype ty[2] = {MPI_INT, MPI_UB};
        MPI_Type_struct(2, bl, d, ty, &a);
        MPI_Type_vector(3, 2, -3, a, t);
        MPI_Type_free(&a);
        break;
    }
    case 29: /* dup of a predefined type */
        MPI_Type_dup(MPI_LONG_DOUBLE, t);
        break;
    default:
        return NULL;
    }
    MPI_Type_commit(t);
    static char name[32];
    snprintf(name, sizeof name, "zoo%d", i);
    return name;
}

#endif
