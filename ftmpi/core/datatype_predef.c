/* The datatype handle table and the predefined datatypes. */
#include "datatype.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <stdbool.h>

#include "util/handle.h"

handle_table_t dt_table;
static dt_t dt_predef[FTMPI_DT_PREDEFINED_COUNT];
static dt_block_t dt_predef_block[FTMPI_DT_PREDEFINED_COUNT];
static size_t dt_predef_prefix[FTMPI_DT_PREDEFINED_COUNT][2];

typedef struct { float v; int i; } float_int_t;
typedef struct { double v; int i; } double_int_t;
typedef struct { long v; int i; } long_int_t;
typedef struct { short v; int i; } short_int_t;
typedef struct { long double v; int i; } ldouble_int_t;

/* Pair types: data size is the sum of the two members, extent includes the
 * padding between and after them, so they are not contiguous in general. */
#define PAIR(T, VT) { sizeof(T), sizeof(VT), offsetof(T, i) }

static void predef(int idx, const char *name, dt_kind_t kind, size_t size)
{
    dt_t *dt = &dt_predef[idx];
    dt->handle = FTMPI_DT(idx);
    dt->refcount = 1;
    dt->predefined = 1;
    dt->committed = 1;
    dt->kind = kind;
    dt->elem_kind = kind;
    dt->size = size;
    dt->lb = 0;
    dt->ub = (MPI_Aint)size;
    dt->extent = (MPI_Aint)size;
    dt->true_lb = 0;
    dt->true_ub = (MPI_Aint)size;
    dt->contig = 1;
    dt->elem_count = 1;
    dt_predef_block[idx].disp = 0;
    dt_predef_block[idx].len = size;
    dt->blocks = &dt_predef_block[idx];
    dt->nblocks = size ? 1 : 0;
    dt_predef_prefix[idx][0] = 0;
    dt_predef_prefix[idx][1] = size;
    dt->prefix = dt_predef_prefix[idx];
    strncpy(dt->name, name, sizeof(dt->name) - 1);
    handle_table_set(&dt_table, (size_t)idx, dt);
}

/* A pair type {value, int}: two blocks (value at 0, int at ioff). */
static dt_block_t pair_blocks[6][2];
static size_t pair_prefix[6][3];
static void predef_pair(int idx, int pi, const char *name, dt_kind_t kind,
                        size_t extent, size_t vsize, size_t ioff, size_t isize)
{
    predef(idx, name, kind, vsize + isize);
    dt_t *dt = &dt_predef[idx];
    dt->extent = dt->ub = (MPI_Aint)extent;
    dt->true_ub = (MPI_Aint)(ioff + isize);
    dt->elem_count = 2;
    if (ioff == vsize && extent == vsize + isize) {
        dt->contig = 1;
        return;
    }
    dt->contig = 0;
    pair_blocks[pi][0] = (dt_block_t){0, vsize};
    pair_blocks[pi][1] = (dt_block_t){(MPI_Aint)ioff, isize};
    dt->blocks = pair_blocks[pi];
    dt->nblocks = 2;
    pair_prefix[pi][0] = 0;
    pair_prefix[pi][1] = vsize;
    pair_prefix[pi][2] = vsize + isize;
    dt->prefix = pair_prefix[pi];
}

int dt_module_init(void)
{
    handle_table_init(&dt_table, FTMPI_KIND_DATATYPE, FTMPI_DT_PREDEFINED_COUNT);
    predef(1, "MPI_CHAR", DTK_CHAR, sizeof(char));
    predef(2, "MPI_SIGNED_CHAR", DTK_SCHAR, sizeof(signed char));
    predef(3, "MPI_UNSIGNED_CHAR", DTK_UCHAR, sizeof(unsigned char));
    predef(4, "MPI_BYTE", DTK_BYTE, 1);
    predef(5, "MPI_WCHAR", DTK_WCHAR, sizeof(wchar_t));
    predef(6, "MPI_SHORT", DTK_SHORT, sizeof(short));
    predef(7, "MPI_UNSIGNED_SHORT", DTK_USHORT, sizeof(unsigned short));
    predef(8, "MPI_INT", DTK_INT, sizeof(int));
    predef(9, "MPI_UNSIGNED", DTK_UINT, sizeof(unsigned));
    predef(10, "MPI_LONG", DTK_LONG, sizeof(long));
    predef(11, "MPI_UNSIGNED_LONG", DTK_ULONG, sizeof(unsigned long));
    predef(12, "MPI_LONG_LONG_INT", DTK_LLONG, sizeof(long long));
    predef(13, "MPI_UNSIGNED_LONG_LONG", DTK_ULLONG, sizeof(unsigned long long));
    predef(14, "MPI_FLOAT", DTK_FLOAT, sizeof(float));
    predef(15, "MPI_DOUBLE", DTK_DOUBLE, sizeof(double));
    predef(16, "MPI_LONG_DOUBLE", DTK_LDOUBLE, sizeof(long double));
    predef(17, "MPI_PACKED", DTK_PACKED, 1);
    predef(18, "MPI_LB", DTK_LBUB, 0);
    predef(19, "MPI_UB", DTK_LBUB, 0);
    predef(20, "MPI_INT8_T", DTK_INT8, 1);
    predef(21, "MPI_INT16_T", DTK_INT16, 2);
    predef(22, "MPI_INT32_T", DTK_INT32, 4);
    predef(23, "MPI_INT64_T", DTK_INT64, 8);
    predef(24, "MPI_UINT8_T", DTK_UINT8, 1);
    predef(25, "MPI_UINT16_T", DTK_UINT16, 2);
    predef(26, "MPI_UINT32_T", DTK_UINT32, 4);
    predef(27, "MPI_UINT64_T", DTK_UINT64, 8);
    predef(28, "MPI_C_BOOL", DTK_BOOL, sizeof(bool));
    predef(29, "MPI_C_FLOAT_COMPLEX", DTK_FCOMPLEX, sizeof(float _Complex));
    predef(30, "MPI_C_DOUBLE_COMPLEX", DTK_DCOMPLEX, sizeof(double _Complex));
    predef(31, "MPI_C_LONG_DOUBLE_COMPLEX", DTK_LDCOMPLEX, sizeof(long double _Complex));
    predef(32, "MPI_AINT", DTK_AINT, sizeof(MPI_Aint));
    predef(33, "MPI_OFFSET", DTK_OFFSET, sizeof(MPI_Offset));
    predef(34, "MPI_COUNT", DTK_COUNT, sizeof(MPI_Count));
    predef_pair(35, 0, "MPI_FLOAT_INT", DTK_FLOAT_INT, sizeof(float_int_t), sizeof(float),
                offsetof(float_int_t, i), sizeof(int));
    predef_pair(36, 1, "MPI_DOUBLE_INT", DTK_DOUBLE_INT, sizeof(double_int_t), sizeof(double),
                offsetof(double_int_t, i), sizeof(int));
    predef_pair(37, 2, "MPI_LONG_INT", DTK_LONG_INT, sizeof(long_int_t), sizeof(long),
                offsetof(long_int_t, i), sizeof(int));
    predef_pair(38, 3, "MPI_2INT", DTK_2INT, 2 * sizeof(int), sizeof(int), sizeof(int), sizeof(int));
    predef_pair(39, 4, "MPI_SHORT_INT", DTK_SHORT_INT, sizeof(short_int_t), sizeof(short),
                offsetof(short_int_t, i), sizeof(int));
    predef_pair(40, 5, "MPI_LONG_DOUBLE_INT", DTK_LDOUBLE_INT, sizeof(ldouble_int_t),
                sizeof(long double), offsetof(ldouble_int_t, i), sizeof(int));
    predef(41, "MPI_CHARACTER", DTK_CHAR, 1);
    predef(42, "MPI_LOGICAL", DTK_FLOGICAL, 4);
    predef(43, "MPI_INTEGER", DTK_INT32, 4);
    predef(44, "MPI_REAL", DTK_FLOAT, 4);
    predef(45, "MPI_DOUBLE_PRECISION", DTK_DOUBLE, 8);
    predef(46, "MPI_COMPLEX", DTK_FCOMPLEX, 8);
    predef(47, "MPI_DOUBLE_COMPLEX", DTK_DCOMPLEX, 16);
    predef(48, "MPI_2INTEGER", DTK_2FINT, 8);
    predef(49, "MPI_2REAL", DTK_2FREAL, 8);
    predef(50, "MPI_2DOUBLE_PRECISION", DTK_2FDOUBLE, 16);
    predef(51, "MPI_INTEGER1", DTK_INT8, 1);
    predef(52, "MPI_INTEGER2", DTK_INT16, 2);
    predef(53, "MPI_INTEGER4", DTK_INT32, 4);
    predef(54, "MPI_INTEGER8", DTK_INT64, 8);
    predef(55, "MPI_REAL4", DTK_FLOAT, 4);
    predef(56, "MPI_REAL8", DTK_DOUBLE, 8);
    predef(57, "MPI_CXX_BOOL", DTK_BOOL, sizeof(bool));
    predef(58, "MPI_CXX_FLOAT_COMPLEX", DTK_FCOMPLEX, sizeof(float _Complex));
    predef(59, "MPI_CXX_DOUBLE_COMPLEX", DTK_DCOMPLEX, sizeof(double _Complex));
    predef(60, "MPI_CXX_LONG_DOUBLE_COMPLEX", DTK_LDCOMPLEX, sizeof(long double _Complex));
    /* MPI_LB and MPI_UB are markers: no data, no extent. */
    dt_predef[18].nblocks = dt_predef[19].nblocks = 0;
    /* The 2-element Fortran pairs hold two basic elements. */
    dt_predef[48].elem_count = dt_predef[49].elem_count = dt_predef[50].elem_count = 2;
    return 0;
}

void dt_module_fini(void)
{
    handle_table_fini(&dt_table);
}

dt_t *dt_get(MPI_Datatype h)
{
    return handle_get(&dt_table, h);
}

dt_t *dt_get_predef(MPI_Datatype h)
{
    size_t i = handle_index(h);
    if (handle_kind(h) != FTMPI_KIND_DATATYPE || i == 0 || i >= FTMPI_DT_PREDEFINED_COUNT)
        return NULL;
    return &dt_predef[i];
}
