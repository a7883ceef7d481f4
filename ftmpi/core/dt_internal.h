/*
 * Private to the datatype engine (core/datatype_predef.c, core/dt_*.c):
 * the constructor record and helpers shared between its files.
 */
#ifndef FTMPI_CORE_DT_INTERNAL_H
#define FTMPI_CORE_DT_INTERNAL_H

#include "core/datatype.h"
#include "util/handle.h"

extern handle_table_t dt_table;

/* What a constructor was called with (get_envelope/get_contents), in the
 * standard's layout of integers, addresses and types. Child types are
 * retained by the record. Subarray and darray keep, in `impl`, the type
 * they are built from (vectors, indexed and resized types): its layout is
 * theirs. */
typedef struct dt_env {
    int combiner;
    int ni, na, nd;
    int nl;              /* large counts (MPI-4.0 Type_get_contents_c): a
                          * constructor given a value beyond int keeps its
                          * counts here instead of in ints */
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;
    dt_t **types;
    dt_t *impl;
} dt_env_t;

/* A record with room for ni ints, na addresses and nd types (not yet set). */
dt_env_t *dt_env_new(int combiner, int ni, int na, int nd);
/* The same with room for nl large counts too. */
dt_env_t *dt_env_new_l(int combiner, int ni, int na, int nl, int nd);
void dt_env_free(dt_env_t *env);

/* A zeroed derived-type object, refcount 1, no handle. */
dt_t *dt_alloc(void);

/* Bounds, sizes and counts of a type from its parts (dt_create.c). */
typedef struct {
    int any_plain_lb, any_plain_ub, any_data;
    MPI_Aint plb, pub;        /* bounds from entries that are not markers */
    MPI_Aint mlb, mub;        /* explicit markers */
    int has_lb, has_ub;
    MPI_Aint tlb, tub;        /* data bounds */
    size_t size, elem_count, ext_size, align;
    dt_kind_t elem_kind;
    int mixed;                /* data of more than one basic kind */
    int any_entry;            /* some data or marker */
    int overflow;             /* a size does not fit */
} dt_acc_t;

void dt_acc_init(dt_acc_t *a);
/* Add child instances at disp + j*s1 + k*s2, j < n1, k < n2. */
void dt_acc_add(dt_acc_t *a, const dt_t *child, MPI_Aint disp, size_t n1, MPI_Aint s1,
                size_t n2, MPI_Aint s2);
/* Set dt's bounds and counts; pad the extent to the alignment (struct).
 * MPI_SUCCESS, or MPI_ERR_COUNT when a size overflows. */
int dt_acc_finish(const dt_acc_t *a, dt_t *dt, int pad);

/* The raw / typed programs of one element (dt_build.c). */
int dt_build_prog(const dt_t *dt, int typed, dt_prog_t *out);
void dt_prog_free(dt_prog_t *p);

#endif
