/* The datatype handle table and the predefined datatypes. */
#include "core/dt_internal.h"

#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <stdbool.h>


handle_table_t dt_table;
static dt_t dt_predef[FTMPI_DT_PREDEFINED_COUNT];
static dt_op_t predef_raw[FTMPI_DT_PREDEFINED_COUNT][2];
static dt_op_t predef_typed[FTMPI_DT_PREDEFINED_COUNT];

/* Per basic kind: data bytes, extent, basic elements of one unit. */
static size_t kind_size[DTK_COUNT_];
static MPI_Aint kind_ext[DTK_COUNT_];
static size_t kind_elems[DTK_COUNT_];

typedef struct { float v; int i; } float_int_t;
typedef struct { double v; int i; } double_int_t;
typedef struct { long v; int i; } long_int_t;
typedef struct { short v; int i; } short_int_t;
typedef struct { long double v; int i; } ldouble_int_t;
typedef struct { int v[2]; } int2_t;
typedef struct { float v[2]; } float2_t;
typedef struct { double v[2]; } double2_t;

static dt_op_t leaf_op(dt_kind_t kind, MPI_Aint disp, size_t n, size_t bytes)
{
    return (dt_op_t){.code = DT_OP_LEAF, .kind = (uint32_t)kind, .count = 1, .disp = disp,
                     .n = n, .bytes = bytes};
}

static void predef(int idx, const char *name, dt_kind_t kind, size_t size, size_t align)
{
    dt_t *dt = &dt_predef[idx];
    dt->handle = FTMPI_DT(idx);
    dt->refcount = 1;
    dt->urefs = 1;
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
    dt->align = align;
    dt->contig = 1;
    dt->dense1 = 1;
    dt->elem_count = 1;
    dt->ext_size = dt_kind_ext_size(kind);
    predef_raw[idx][0] = leaf_op(DTK_NONE, 0, size, size);
    dt->raw = (dt_prog_t){predef_raw[idx], size ? 1 : 0};
    predef_typed[idx] = leaf_op(kind, 0, 1, size);
    dt->typed = (dt_prog_t){&predef_typed[idx], size ? 1 : 0};
    dt->nruns = size ? 1 : 0;
    dt->min_run = size;
    strncpy(dt->name, name, sizeof(dt->name) - 1);
    handle_table_set(&dt_table, (size_t)idx, dt);
    kind_size[kind] = size;
    kind_ext[kind] = (MPI_Aint)size;
    kind_elems[kind] = 1;
}

#define P(idx, name, kind, T) predef(idx, name, kind, sizeof(T), _Alignof(T))

/* A pair type {value, int}: data size is the sum of the two members, the
 * extent includes the padding between and after them, so they are not
 * contiguous in general: two byte runs. */
static void predef_pair(int idx, const char *name, dt_kind_t kind, size_t extent,
                        size_t align, size_t vsize, size_t ioff, size_t isize)
{
    predef(idx, name, kind, vsize + isize, align);
    dt_t *dt = &dt_predef[idx];
    dt->extent = dt->ub = (MPI_Aint)extent;
    dt->true_ub = (MPI_Aint)(ioff + isize);
    dt->elem_count = 2;
    kind_ext[kind] = (MPI_Aint)extent;
    kind_elems[kind] = 2;
    if (ioff == vsize && extent == vsize + isize)
        return;
    dt->contig = 0;
    dt->dense1 = ioff == vsize;
    if (ioff != vsize) {
        predef_raw[idx][0] = leaf_op(DTK_NONE, 0, vsize, vsize);
        predef_raw[idx][1] = leaf_op(DTK_NONE, (MPI_Aint)ioff, isize, isize);
        dt->raw.nops = 2;
        dt->nruns = 2;
        dt->min_run = vsize < isize ? vsize : isize;
    }
}

#define PAIR(idx, name, kind, T, VT) \
    predef_pair(idx, name, kind, sizeof(T), _Alignof(T), sizeof(VT), offsetof(T, i), sizeof(int))

size_t dt_kind_size(dt_kind_t k) { return k == DTK_NONE ? 1 : kind_size[k]; }
MPI_Aint dt_kind_extent(dt_kind_t k) { return k == DTK_NONE ? 1 : kind_ext[k]; }
size_t dt_kind_elems(dt_kind_t k) { return k == DTK_NONE ? 1 : kind_elems[k]; }

int dt_module_init(void)
{
    handle_table_init(&dt_table, FTMPI_KIND_DATATYPE, FTMPI_DT_PREDEFINED_COUNT);
    P(1, "MPI_CHAR", DTK_CHAR, char);
    P(2, "MPI_SIGNED_CHAR", DTK_SCHAR, signed char);
    P(3, "MPI_UNSIGNED_CHAR", DTK_UCHAR, unsigned char);
    P(4, "MPI_BYTE", DTK_BYTE, unsigned char);
    P(5, "MPI_WCHAR", DTK_WCHAR, wchar_t);
    P(6, "MPI_SHORT", DTK_SHORT, short);
    P(7, "MPI_UNSIGNED_SHORT", DTK_USHORT, unsigned short);
    P(8, "MPI_INT", DTK_INT, int);
    P(9, "MPI_UNSIGNED", DTK_UINT, unsigned);
    P(10, "MPI_LONG", DTK_LONG, long);
    P(11, "MPI_UNSIGNED_LONG", DTK_ULONG, unsigned long);
    P(12, "MPI_LONG_LONG_INT", DTK_LLONG, long long);
    P(13, "MPI_UNSIGNED_LONG_LONG", DTK_ULLONG, unsigned long long);
    P(14, "MPI_FLOAT", DTK_FLOAT, float);
    P(15, "MPI_DOUBLE", DTK_DOUBLE, double);
    P(16, "MPI_LONG_DOUBLE", DTK_LDOUBLE, long double);
    P(17, "MPI_PACKED", DTK_PACKED, unsigned char);
    predef(18, "MPI_LB", DTK_LBUB, 0, 1);
    predef(19, "MPI_UB", DTK_LBUB, 0, 1);
    P(20, "MPI_INT8_T", DTK_INT8, int8_t);
    P(21, "MPI_INT16_T", DTK_INT16, int16_t);
    P(22, "MPI_INT32_T", DTK_INT32, int32_t);
    P(23, "MPI_INT64_T", DTK_INT64, int64_t);
    P(24, "MPI_UINT8_T", DTK_UINT8, uint8_t);
    P(25, "MPI_UINT16_T", DTK_UINT16, uint16_t);
    P(26, "MPI_UINT32_T", DTK_UINT32, uint32_t);
    P(27, "MPI_UINT64_T", DTK_UINT64, uint64_t);
    P(28, "MPI_C_BOOL", DTK_BOOL, bool);
    P(29, "MPI_C_FLOAT_COMPLEX", DTK_FCOMPLEX, float _Complex);
    P(30, "MPI_C_DOUBLE_COMPLEX", DTK_DCOMPLEX, double _Complex);
    P(31, "MPI_C_LONG_DOUBLE_COMPLEX", DTK_LDCOMPLEX, long double _Complex);
    P(32, "MPI_AINT", DTK_AINT, MPI_Aint);
    P(33, "MPI_OFFSET", DTK_OFFSET, MPI_Offset);
    P(34, "MPI_COUNT", DTK_COUNT, MPI_Count);
    PAIR(35, "MPI_FLOAT_INT", DTK_FLOAT_INT, float_int_t, float);
    PAIR(36, "MPI_DOUBLE_INT", DTK_DOUBLE_INT, double_int_t, double);
    PAIR(37, "MPI_LONG_INT", DTK_LONG_INT, long_int_t, long);
    predef_pair(38, "MPI_2INT", DTK_2INT, 2 * sizeof(int), _Alignof(int), sizeof(int),
                sizeof(int), sizeof(int));
    PAIR(39, "MPI_SHORT_INT", DTK_SHORT_INT, short_int_t, short);
    PAIR(40, "MPI_LONG_DOUBLE_INT", DTK_LDOUBLE_INT, ldouble_int_t, long double);
    P(41, "MPI_CHARACTER", DTK_CHAR, char);
    P(42, "MPI_LOGICAL", DTK_FLOGICAL, int32_t);
    P(43, "MPI_INTEGER", DTK_INT32, int32_t);
    P(44, "MPI_REAL", DTK_FLOAT, float);
    P(45, "MPI_DOUBLE_PRECISION", DTK_DOUBLE, double);
    P(46, "MPI_COMPLEX", DTK_FCOMPLEX, float _Complex);
    P(47, "MPI_DOUBLE_COMPLEX", DTK_DCOMPLEX, double _Complex);
    P(48, "MPI_2INTEGER", DTK_2FINT, int2_t);
    P(49, "MPI_2REAL", DTK_2FREAL, float2_t);
    P(50, "MPI_2DOUBLE_PRECISION", DTK_2FDOUBLE, double2_t);
    P(51, "MPI_INTEGER1", DTK_INT8, int8_t);
    P(52, "MPI_INTEGER2", DTK_INT16, int16_t);
    P(53, "MPI_INTEGER4", DTK_INT32, int32_t);
    P(54, "MPI_INTEGER8", DTK_INT64, int64_t);
    P(55, "MPI_REAL4", DTK_FLOAT, float);
    P(56, "MPI_REAL8", DTK_DOUBLE, double);
    P(57, "MPI_CXX_BOOL", DTK_BOOL, bool);
    P(58, "MPI_CXX_FLOAT_COMPLEX", DTK_FCOMPLEX, float _Complex);
    P(59, "MPI_CXX_DOUBLE_COMPLEX", DTK_DCOMPLEX, double _Complex);
    P(60, "MPI_CXX_LONG_DOUBLE_COMPLEX", DTK_LDCOMPLEX, long double _Complex);
    P(61, "MPI_COMPLEX8", DTK_FCOMPLEX, float _Complex);
    P(62, "MPI_COMPLEX16", DTK_DCOMPLEX, double _Complex);
    /* MPI_LB and MPI_UB are markers: no data, no extent. */
    dt_predef[18].has_lb = 1;
    dt_predef[19].has_ub = 1;
    dt_predef[18].elem_count = dt_predef[19].elem_count = 0;
    dt_predef[18].elem_kind = dt_predef[19].elem_kind = DTK_NONE;
    /* The 2-element Fortran pairs hold two basic elements. */
    for (int i = 48; i <= 50; i++)
        dt_predef[i].elem_count = 2;
    kind_elems[DTK_2FINT] = kind_elems[DTK_2FREAL] = kind_elems[DTK_2FDOUBLE] = 2;
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
