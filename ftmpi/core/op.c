/*
 * Reduction kernels. Each predefined op is defined on the type classes the
 * standard allows: MAX/MIN on integers and reals; SUM/PROD also on
 * complex; logical ops on integers and C_BOOL/LOGICAL; bitwise ops on
 * integers and bytes; MINLOC/MAXLOC on the pair types; REPLACE/NO_OP on
 * everything. Derived datatypes are reduced element by element through
 * their single basic kind.
 */
#include "op.h"

#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/proc.h"
#include "util/handle.h"

static handle_table_t op_table;
static op_t predef_ops[FTMPI_OP_PREDEFINED_COUNT];

enum { OPX_MAX = 1, OPX_MIN, OPX_SUM, OPX_PROD, OPX_LAND, OPX_BAND, OPX_LOR, OPX_BOR,
       OPX_LXOR, OPX_BXOR, OPX_MINLOC, OPX_MAXLOC, OPX_REPLACE, OPX_NO_OP };

int op_module_init(void)
{
    handle_table_init(&op_table, FTMPI_KIND_OP, FTMPI_OP_PREDEFINED_COUNT);
    for (int i = 1; i < FTMPI_OP_PREDEFINED_COUNT; i++) {
        predef_ops[i].handle = FTMPI_HANDLE(FTMPI_KIND_OP, i);
        predef_ops[i].refcount = 1;
        predef_ops[i].predefined = 1;
        predef_ops[i].commute = 1;
        predef_ops[i].index = i;
        handle_table_set(&op_table, (size_t)i, &predef_ops[i]);
    }
    return 0;
}

void op_module_fini(void)
{
    handle_table_fini(&op_table);
}

op_t *op_get(MPI_Op h)
{
    return handle_get(&op_table, h);
}

op_t *op_create(MPI_User_function *fn, int commute)
{
    op_t *op = calloc(1, sizeof(*op));
    if (!op)
        return NULL;
    op->refcount = 1;
    op->commute = commute != 0;
    op->user = fn;
    op->handle = handle_alloc(&op_table, op);
    if (op->handle < 0) {
        free(op);
        return NULL;
    }
    return op;
}

void op_release(op_t *op)
{
    if (op->predefined || --op->refcount > 0)
        return;
    handle_release(&op_table, op->handle);
    free(op);
}

typedef enum { CL_NONE, CL_INT, CL_REAL, CL_COMPLEX, CL_LOGICAL, CL_BYTE, CL_PAIR } tclass_t;

static tclass_t kind_class(dt_kind_t k)
{
    switch (k) {
    case DTK_CHAR: case DTK_SCHAR: case DTK_UCHAR: case DTK_WCHAR:
    case DTK_SHORT: case DTK_USHORT: case DTK_INT: case DTK_UINT: case DTK_LONG:
    case DTK_ULONG: case DTK_LLONG: case DTK_ULLONG: case DTK_INT8: case DTK_INT16:
    case DTK_INT32: case DTK_INT64: case DTK_UINT8: case DTK_UINT16: case DTK_UINT32:
    case DTK_UINT64: case DTK_AINT: case DTK_OFFSET: case DTK_COUNT:
        return CL_INT;
    case DTK_FLOAT: case DTK_DOUBLE: case DTK_LDOUBLE:
        return CL_REAL;
    case DTK_FCOMPLEX: case DTK_DCOMPLEX: case DTK_LDCOMPLEX:
        return CL_COMPLEX;
    case DTK_BOOL: case DTK_FLOGICAL:
        return CL_LOGICAL;
    case DTK_BYTE:
        return CL_BYTE;
    case DTK_FLOAT_INT: case DTK_DOUBLE_INT: case DTK_LONG_INT: case DTK_2INT:
    case DTK_SHORT_INT: case DTK_LDOUBLE_INT: case DTK_2FINT: case DTK_2FREAL:
    case DTK_2FDOUBLE:
        return CL_PAIR;
    default:
        return CL_NONE;
    }
}

int op_check(const op_t *op, const dt_t *dt)
{
    if (!op->predefined)
        return MPI_SUCCESS;
    if (op->index == OPX_REPLACE || op->index == OPX_NO_OP)
        return MPI_SUCCESS;
    tclass_t cl = kind_class(dt->elem_kind);
    int ok;
    switch (op->index) {
    case OPX_MAX: case OPX_MIN: ok = cl == CL_INT || cl == CL_REAL; break;
    case OPX_SUM: case OPX_PROD: ok = cl == CL_INT || cl == CL_REAL || cl == CL_COMPLEX; break;
    case OPX_LAND: case OPX_LOR: case OPX_LXOR: ok = cl == CL_INT || cl == CL_LOGICAL; break;
    case OPX_BAND: case OPX_BOR: case OPX_BXOR: ok = cl == CL_INT || cl == CL_BYTE; break;
    case OPX_MINLOC: case OPX_MAXLOC: ok = cl == CL_PAIR; break;
    default: ok = 0;
    }
    return ok ? MPI_SUCCESS : (cl == CL_NONE && dt->elem_kind == DTK_NONE ? MPI_ERR_TYPE : MPI_ERR_OP);
}

/* restrict: in and inout never overlap (MPI forbids aliased buffers),
 * which lets the compiler vectorize the loop at -O2. */
#define LOOP(T, EXPR)                                     \
    do {                                                  \
        const T *restrict a = in;                         \
        T *restrict b = inout;                            \
        for (size_t i = 0; i < n; i++)                    \
            b[i] = (EXPR);                                \
    } while (0)

/* SUM and PROD compute in AT: for the integer types an unsigned type at
 * least as wide as int, so that an overflow wraps around (two's complement)
 * instead of being undefined behaviour, also for the types that C promotes
 * to int (uint16_t * uint16_t can overflow int). */
#define ARITH(T, AT)                                                     \
    switch (op) {                                                        \
    case OPX_MAX: LOOP(T, a[i] > b[i] ? a[i] : b[i]); return 0;          \
    case OPX_MIN: LOOP(T, a[i] < b[i] ? a[i] : b[i]); return 0;          \
    case OPX_SUM: LOOP(T, (T)((AT)b[i] + (AT)a[i])); return 0;           \
    case OPX_PROD: LOOP(T, (T)((AT)b[i] * (AT)a[i])); return 0;          \
    case OPX_LAND: LOOP(T, (T)(a[i] && b[i])); return 0;                 \
    case OPX_LOR: LOOP(T, (T)(a[i] || b[i])); return 0;                  \
    case OPX_LXOR: LOOP(T, (T)(!a[i] != !b[i])); return 0;               \
    }

#define BITS(T)                                                          \
    switch (op) {                                                        \
    case OPX_BAND: LOOP(T, b[i] & a[i]); return 0;                       \
    case OPX_BOR: LOOP(T, b[i] | a[i]); return 0;                        \
    case OPX_BXOR: LOOP(T, b[i] ^ a[i]); return 0;                       \
    }

#define INTK(T, UT) do { ARITH(T, UT) BITS(T) return -1; } while (0)
#define LOGK(T)                                                          \
    do {                                                                 \
        switch (op) {                                                    \
        case OPX_LAND: LOOP(T, (T)(a[i] && b[i])); return 0;             \
        case OPX_LOR: LOOP(T, (T)(a[i] || b[i])); return 0;              \
        case OPX_LXOR: LOOP(T, (T)(!a[i] != !b[i])); return 0;           \
        }                                                                \
        return -1;                                                       \
    } while (0)
#define REALK(T) do { ARITH(T, T) return -1; } while (0)
#define CPLXK(T)                                                         \
    do {                                                                 \
        switch (op) {                                                    \
        case OPX_SUM: LOOP(T, b[i] + a[i]); return 0;                    \
        case OPX_PROD: LOOP(T, b[i] * a[i]); return 0;                   \
        }                                                                \
        return -1;                                                       \
    } while (0)

/* MINLOC/MAXLOC: smaller index wins ties. */
#define PAIRK(VT, IT, ST)                                                \
    do {                                                                 \
        const ST *a = in;                                                \
        ST *b = inout;                                                   \
        for (size_t i = 0; i < n; i++) {                                 \
            int take = op == OPX_MAXLOC ? a[i].v > b[i].v : a[i].v < b[i].v; \
            if (take || (a[i].v == b[i].v && a[i].i < b[i].i))           \
                b[i].v = a[i].v, b[i].i = a[i].i; /* not the padding */ \
        }                                                                \
        return 0;                                                        \
    } while (0)

typedef struct { float v; int i; } p_float_int;
typedef struct { double v; int i; } p_double_int;
typedef struct { long v; int i; } p_long_int;
typedef struct { int v; int i; } p_2int;
typedef struct { short v; int i; } p_short_int;
typedef struct { long double v; int i; } p_ldouble_int;
typedef struct { float v; float i; } p_2real;
typedef struct { double v; double i; } p_2double;

static inline __attribute__((always_inline)) int kernel_body(int op, dt_kind_t k, const void *in,
                                                            void *inout, size_t n)
{
    switch (k) {
    case DTK_CHAR: INTK(char, unsigned);
    case DTK_SCHAR: case DTK_INT8: INTK(int8_t, unsigned);
    case DTK_UCHAR: case DTK_UINT8: case DTK_BYTE: INTK(uint8_t, unsigned);
    case DTK_WCHAR: INTK(wchar_t, uint32_t);
    case DTK_SHORT: case DTK_INT16: INTK(int16_t, unsigned);
    case DTK_USHORT: case DTK_UINT16: INTK(uint16_t, unsigned);
    case DTK_INT: case DTK_INT32: INTK(int32_t, uint32_t);
    case DTK_UINT: case DTK_UINT32: INTK(uint32_t, uint32_t);
    case DTK_LONG: INTK(long, unsigned long);
    case DTK_ULONG: INTK(unsigned long, unsigned long);
    case DTK_LLONG: case DTK_INT64: case DTK_OFFSET: case DTK_COUNT: INTK(int64_t, uint64_t);
    case DTK_ULLONG: case DTK_UINT64: INTK(uint64_t, uint64_t);
    case DTK_AINT: INTK(intptr_t, uintptr_t);
    case DTK_FLOAT: REALK(float);
    case DTK_DOUBLE: REALK(double);
    case DTK_LDOUBLE: REALK(long double);
    case DTK_BOOL: LOGK(bool);
    case DTK_FLOGICAL: LOGK(int32_t);
    case DTK_FCOMPLEX: CPLXK(float _Complex);
    case DTK_DCOMPLEX: CPLXK(double _Complex);
    case DTK_LDCOMPLEX: CPLXK(long double _Complex);
    case DTK_FLOAT_INT: PAIRK(float, int, p_float_int);
    case DTK_DOUBLE_INT: PAIRK(double, int, p_double_int);
    case DTK_LONG_INT: PAIRK(long, int, p_long_int);
    case DTK_2INT: case DTK_2FINT: PAIRK(int, int, p_2int);
    case DTK_SHORT_INT: PAIRK(short, int, p_short_int);
    case DTK_LDOUBLE_INT: PAIRK(long double, int, p_ldouble_int);
    case DTK_2FREAL: PAIRK(float, float, p_2real);
    case DTK_2FDOUBLE: PAIRK(double, double, p_2double);
    default: return -1;
    }
}

/* Long vectors: the same loops vectorized with the dynamic cost model
 * (-O2's "very cheap" one leaves most of them scalar) and, on x86-64, also
 * built for AVX2, chosen at load time where the CPU has it. Short ones keep
 * the plain build: its entry costs less. Not under ThreadSanitizer: the
 * clones' resolver runs while the library is relocated, before TSan's
 * runtime is set up, and crashed every MT test (SIGSEGV in
 * _dl_relocate_object). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default"), optimize("vect-cost-model=dynamic")))
#endif
static int kernel_wide(int op, dt_kind_t k, const void *in, void *inout, size_t n)
{
    return kernel_body(op, k, in, inout, n);
}

static int kernel(int op, dt_kind_t k, const void *in, void *inout, size_t n)
{
    return n >= 64 ? kernel_wide(op, k, in, inout, n) : kernel_body(op, k, in, inout, n);
}

/* Reduce element by element over a derived type's runs of basic units. */
typedef struct {
    int op;
    const char *in;
    char *inout;
} derived_arg_t;

static int derived_run(void *arg, MPI_Aint disp, dt_kind_t kind, size_t n)
{
    derived_arg_t *d = arg;
    return kernel(d->op, kind, d->in + disp, d->inout + disp, n) != 0 ? MPI_ERR_OP : 0;
}

static int apply_derived(int op, const dt_t *dt, const char *in, char *inout, int count)
{
    derived_arg_t d = {op, in, inout};
    return dt_foreach_run(dt, (size_t)count, derived_run, &d);
}

static int replace_block(void *arg, MPI_Aint disp, size_t len)
{
    derived_arg_t *d = arg;
    memcpy(d->inout + disp, d->in + disp, len);
    return 0;
}

static int apply_user(const op_t *op, const char *in, char *inout, int count, dt_t *dt)
{
    dt_t *el;
    size_t n;
    if (!dt_count_wrap_parts(dt, &el, &n)) {
        el = dt;
        n = 1;
    }
    size_t total = (size_t)count * n;
    MPI_Aint ext = el->extent;
    MPI_Datatype h = el->handle;
    MPI_User_function *fn = op->user;
    MPI_User_function_c *fn_c = op->user_c;
    /* User code runs without the library lock: it may call MPI. */
    int relock = proc_user_enter();
    if (fn_c) {
        MPI_Count len = (MPI_Count)total;
        fn_c((void *)in, inout, &len, &h);
    } else {
        while (total > 0) {
            int len = total > (size_t)INT_MAX ? INT_MAX : (int)total;
            fn((void *)in, inout, &len, &h);
            in += (size_t)len * ext;
            inout += (size_t)len * ext;
            total -= (size_t)len;
        }
    }
    proc_user_leave(relock);
    return MPI_SUCCESS;
}

int op_apply(const op_t *op, const void *in, void *inout, int count, dt_t *dt)
{
    if (count <= 0)
        return MPI_SUCCESS;
    if (!op->predefined)
        return apply_user(op, in, inout, count, dt);
    if (op->index == OPX_NO_OP)
        return MPI_SUCCESS;
    if (op->index == OPX_REPLACE) {
        /* inout takes in's values, through the type's layout. */
        derived_arg_t d = {0, in, inout};
        dt_foreach_block(dt, (size_t)count, replace_block, &d);
        return MPI_SUCCESS;
    }
    if (dt->predefined && dt->contig)
        return kernel(op->index, dt->kind, in, inout, (size_t)count) == 0 ? MPI_SUCCESS : MPI_ERR_OP;
    if (dt->predefined) /* pair types with padding: one element at a time */
        return kernel(op->index, dt->kind, in, inout, (size_t)count) == 0 ? MPI_SUCCESS : MPI_ERR_OP;
    if (dt->elem_kind == DTK_NONE)
        return MPI_ERR_TYPE;
    return apply_derived(op->index, dt, in, inout, count);
}
