/*
 * coll_ops: every predefined reduction op on every type the standard
 * allows it for (C and Fortran integers, floating point, complex, C bool,
 * Fortran logical, byte, the MINLOC/MAXLOC pair types), through
 * MPI_Allreduce, MPI_Reduce (root p-1) and MPI_Reduce_local, compared with
 * the same op applied in a sequential loop; illegal (op, type) pairs fail
 * with MPI_ERR_OP; user ops (commutative or not) and Op_create / Op_free /
 * Op_commutative.
 */
#include "coll_test.h"

#include <complex.h>
#include <stdbool.h>

#define N 5
static int p_, me_;

/* value of rank r at index i, from a small range so no op overflows */
#define VAL(r, i) (((r) + (i)) % 3 - 1)
#define BITS(r, i) (((r) * 37 + (i) * 11) & 0x7f)

/* element-wise ==: long double has padding bytes that memcmp would see */
#define SAME(x, y) ({ int same_ = 1; for (int j_ = 0; j_ < N; j_++) same_ &= (x)[j_] == (y)[j_]; same_; })

#define CHECK_OP(T, MPIT, OPH, EXPR_INIT, EXPR_FOLD, GEN)                              \
    do {                                                                                \
        T in[N], out[N], exp[N], loc[N];                                                \
        for (int i = 0; i < N; i++) {                                                   \
            in[i] = (T)(GEN(me_, i));                                                   \
            out[i] = (T)0;                                                              \
        }                                                                               \
        for (int i = 0; i < N; i++) {                                                   \
            T acc = (T)(GEN(p_ - 1, i));                                                \
            for (int r = p_ - 2; r >= 0; r--) {                                         \
                T a = (T)(GEN(r, i)), b = acc;                                          \
                (void)a; (void)b;                                                       \
                acc = (T)(EXPR_FOLD);                                                   \
            }                                                                           \
            exp[i] = acc;                                                               \
        }                                                                               \
        T_MPI(MPI_Allreduce(in, out, N, MPIT, OPH, MPI_COMM_WORLD));                    \
        T_CHECK(SAME(out, exp), "Allreduce %s on %s wrong", #OPH, #MPIT);               \
        for (int i = 0; i < N; i++) out[i] = (T)0;                                      \
        T_MPI(MPI_Reduce(in, out, N, MPIT, OPH, p_ - 1, MPI_COMM_WORLD));              \
        if (me_ == p_ - 1)                                                              \
            T_CHECK(SAME(out, exp), "Reduce %s on %s wrong", #OPH, #MPIT);              \
        /* Reduce_local: loc = in(rank 0 values) op loc(rank 1 values) */               \
        T l0[N];                                                                        \
        for (int i = 0; i < N; i++) { l0[i] = (T)(GEN(0, i)); loc[i] = (T)(GEN(1, i)); }  \
        T_MPI(MPI_Reduce_local(l0, loc, N, MPIT, OPH));                                 \
        for (int i = 0; i < N; i++) {                                                   \
            T a = (T)(GEN(0, i)), b = (T)(GEN(1, i));                                   \
            (void)a; (void)b;                                                           \
            T e = (T)(EXPR_FOLD);                                                       \
            T_CHECK(loc[i] == e, "Reduce_local %s on %s wrong", #OPH, #MPIT);           \
        }                                                                               \
    } while (0)

#define ARITH_OPS(T, MPIT)                                                   \
    do {                                                                     \
        CHECK_OP(T, MPIT, MPI_MAX, 0, a > b ? a : b, VAL);                  \
        CHECK_OP(T, MPIT, MPI_MIN, 0, a < b ? a : b, VAL);                  \
        CHECK_OP(T, MPIT, MPI_SUM, 0, a + b, VAL);                          \
        CHECK_OP(T, MPIT, MPI_PROD, 0, a * b, VAL);                         \
    } while (0)
#define LOGIC_OPS(T, MPIT)                                                   \
    do {                                                                     \
        CHECK_OP(T, MPIT, MPI_LAND, 0, a && b, VAL);                        \
        CHECK_OP(T, MPIT, MPI_LOR, 0, a || b, VAL);                         \
        CHECK_OP(T, MPIT, MPI_LXOR, 0, !a != !b, VAL);                      \
    } while (0)
#define BIT_OPS(T, MPIT)                                                     \
    do {                                                                     \
        CHECK_OP(T, MPIT, MPI_BAND, 0, a & b, BITS);                        \
        CHECK_OP(T, MPIT, MPI_BOR, 0, a | b, BITS);                         \
        CHECK_OP(T, MPIT, MPI_BXOR, 0, a ^ b, BITS);                        \
    } while (0)
#define INT_TYPE(T, MPIT) do { ARITH_OPS(T, MPIT); LOGIC_OPS(T, MPIT); BIT_OPS(T, MPIT); } while (0)

#define CVAL(r, i) (VAL(r, i) + VAL(r, i + 1) * I)

typedef struct { float v; int i; } fi_t;
typedef struct { double v; int i; } di_t;
typedef struct { long v; int i; } li_t;
typedef struct { int v; int i; } ii_t;
typedef struct { short v; int i; } si_t;
typedef struct { long double v; int i; } ldi_t;

#define LOC_TYPE(T, MPIT)                                                                  \
    do {                                                                                   \
        for (int mx = 0; mx < 2; mx++) {                                                   \
            T in[N], out[N], exp[N];                                                       \
            memset(in, 0, sizeof(in));                                                     \
            memset(out, 0, sizeof(out));                                                   \
            memset(exp, 0, sizeof(exp));                                                   \
            for (int i = 0; i < N; i++) {                                                  \
                in[i].v = VAL(me_, i);                                                     \
                in[i].i = (me_ * 5 + i) % 7;                                               \
            }                                                                              \
            for (int i = 0; i < N; i++) {                                                  \
                for (int r = 0; r < p_; r++) {                                             \
                    T c;                                                                   \
                    memset(&c, 0, sizeof(c));                                              \
                    c.v = VAL(r, i);                                                       \
                    c.i = (r * 5 + i) % 7;                                                 \
                    int better = mx ? c.v > exp[i].v : c.v < exp[i].v;                    \
                    if (r == 0 || better || (c.v == exp[i].v && c.i < exp[i].i))          \
                        exp[i] = c;                                                        \
                }                                                                          \
            }                                                                              \
            MPI_Op o = mx ? MPI_MAXLOC : MPI_MINLOC;                                       \
            T_MPI(MPI_Allreduce(in, out, N, MPIT, o, MPI_COMM_WORLD));                     \
            for (int i = 0; i < N; i++)                                                    \
                T_CHECK(out[i].v == exp[i].v && out[i].i == exp[i].i,                      \
                        "%s on %s at %d: got (%g, %d) expected (%g, %d)",                 \
                        mx ? "MAXLOC" : "MINLOC", #MPIT, i, (double)out[i].v, (int)out[i].i, \
                        (double)exp[i].v, (int)exp[i].i);                                  \
        }                                                                                  \
    } while (0)

static void bad_pair(MPI_Datatype dt, MPI_Op op, const char *what)
{
    char in[64] = {0}, out[64] = {0};
    int rc = MPI_Allreduce(in, out, 1, dt, op, MPI_COMM_WORLD), cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_OP, "%s: expected MPI_ERR_OP, got %d (class %d)", what, rc, cls);
    rc = MPI_Reduce_local(in, out, 1, dt, op);
    cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_OP, "Reduce_local %s: expected MPI_ERR_OP, got %d", what, rc);
}

/* user ops */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* "keep the left operand": x0 op x1 op ... = x0; non-commutative */
static void user_first(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    memcpy(inout, in, (size_t)*len * sizeof(int));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    p_ = t_size;
    me_ = t_rank;

    INT_TYPE(int, MPI_INT);
    INT_TYPE(unsigned, MPI_UNSIGNED);
    INT_TYPE(short, MPI_SHORT);
    INT_TYPE(unsigned short, MPI_UNSIGNED_SHORT);
    INT_TYPE(long, MPI_LONG);
    INT_TYPE(unsigned long, MPI_UNSIGNED_LONG);
    INT_TYPE(long long, MPI_LONG_LONG);
    INT_TYPE(unsigned long long, MPI_UNSIGNED_LONG_LONG);
    INT_TYPE(signed char, MPI_SIGNED_CHAR);
    INT_TYPE(unsigned char, MPI_UNSIGNED_CHAR);
    INT_TYPE(int8_t, MPI_INT8_T);
    INT_TYPE(int16_t, MPI_INT16_T);
    INT_TYPE(int32_t, MPI_INT32_T);
    INT_TYPE(int64_t, MPI_INT64_T);
    INT_TYPE(uint8_t, MPI_UINT8_T);
    INT_TYPE(uint16_t, MPI_UINT16_T);
    INT_TYPE(uint32_t, MPI_UINT32_T);
    INT_TYPE(uint64_t, MPI_UINT64_T);
    INT_TYPE(int32_t, MPI_INTEGER);
    INT_TYPE(int64_t, MPI_INTEGER8);
    ARITH_OPS(MPI_Aint, MPI_AINT);
    ARITH_OPS(MPI_Offset, MPI_OFFSET);
    ARITH_OPS(MPI_Count, MPI_COUNT);
    BIT_OPS(unsigned char, MPI_BYTE);
    ARITH_OPS(float, MPI_FLOAT);
    ARITH_OPS(double, MPI_DOUBLE);
    ARITH_OPS(long double, MPI_LONG_DOUBLE);
    ARITH_OPS(float, MPI_REAL);
    ARITH_OPS(double, MPI_DOUBLE_PRECISION);
    LOGIC_OPS(bool, MPI_C_BOOL);
    LOGIC_OPS(int32_t, MPI_LOGICAL);
    CHECK_OP(float _Complex, MPI_C_FLOAT_COMPLEX, MPI_SUM, 0, a + b, CVAL);
    CHECK_OP(float _Complex, MPI_C_FLOAT_COMPLEX, MPI_PROD, 0, a * b, CVAL);
    CHECK_OP(double _Complex, MPI_C_DOUBLE_COMPLEX, MPI_SUM, 0, a + b, CVAL);
    CHECK_OP(double _Complex, MPI_C_DOUBLE_COMPLEX, MPI_PROD, 0, a * b, CVAL);
    CHECK_OP(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, MPI_SUM, 0, a + b, CVAL);
    CHECK_OP(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX, MPI_PROD, 0, a * b, CVAL);
    CHECK_OP(double _Complex, MPI_DOUBLE_COMPLEX, MPI_SUM, 0, a + b, CVAL);
    LOC_TYPE(fi_t, MPI_FLOAT_INT);
    LOC_TYPE(di_t, MPI_DOUBLE_INT);
    LOC_TYPE(li_t, MPI_LONG_INT);
    LOC_TYPE(ii_t, MPI_2INT);
    LOC_TYPE(si_t, MPI_SHORT_INT);
    LOC_TYPE(ldi_t, MPI_LONG_DOUBLE_INT);

    /* illegal combinations */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    bad_pair(MPI_DOUBLE, MPI_LAND, "LAND on DOUBLE");
    bad_pair(MPI_FLOAT, MPI_BXOR, "BXOR on FLOAT");
    bad_pair(MPI_INT, MPI_MAXLOC, "MAXLOC on INT");
    bad_pair(MPI_C_BOOL, MPI_SUM, "SUM on C_BOOL");
    bad_pair(MPI_C_DOUBLE_COMPLEX, MPI_MAX, "MAX on DOUBLE_COMPLEX");
    bad_pair(MPI_BYTE, MPI_SUM, "SUM on BYTE");
    bad_pair(MPI_2INT, MPI_SUM, "SUM on 2INT");
    {
        int x = 0, y = 0, rc = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
        int cls = -1;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        T_CHECK(cls == MPI_ERR_OP, "MPI_OP_NULL: class %d", cls);
    }

    /* user ops, Op_commutative, Op_free */
    MPI_Op usum, ufirst;
    int commute = -1;
    T_MPI(MPI_Op_create(user_sum, 1, &usum));
    T_MPI(MPI_Op_create(user_first, 0, &ufirst));
    T_MPI(MPI_Op_commutative(usum, &commute));
    T_CHECK(commute == 1, "user_sum commutative %d", commute);
    T_MPI(MPI_Op_commutative(ufirst, &commute));
    T_CHECK(commute == 0, "user_first commutative %d", commute);
    T_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    T_CHECK(commute == 1, "MPI_SUM commutative %d", commute);
    int v[N], out[N];
    for (int i = 0; i < N; i++)
        v[i] = t_rank * 10 + i;
    T_MPI(MPI_Allreduce(v, out, N, MPI_INT, usum, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        T_CHECK(out[i] == 10 * t_size * (t_size - 1) / 2 + t_size * i, "user sum at %d", i);
    for (int root = 0; root < t_size; root++) {
        memset(out, 0, sizeof(out));
        T_MPI(MPI_Reduce(v, out, N, MPI_INT, ufirst, root, MPI_COMM_WORLD));
        if (t_rank == root)
            for (int i = 0; i < N; i++)
                T_CHECK(out[i] == i, "non-commutative reduce at root %d: %d", root, out[i]);
    }
    T_MPI(MPI_Allreduce(v, out, N, MPI_INT, ufirst, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        T_CHECK(out[i] == i, "non-commutative allreduce: %d", out[i]);
    T_MPI(MPI_Scan(v, out, N, MPI_INT, ufirst, MPI_COMM_WORLD));
    for (int i = 0; i < N; i++)
        T_CHECK(out[i] == i, "non-commutative scan: %d", out[i]);
    T_MPI(MPI_Op_free(&usum));
    T_MPI(MPI_Op_free(&ufirst));
    T_CHECK(usum == MPI_OP_NULL, "Op_free did not reset the handle");
    int rc = MPI_Op_free(&usum), cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_OP, "Op_free(MPI_OP_NULL): class %d", cls);
    MPI_Op pre = MPI_SUM;
    rc = MPI_Op_free(&pre);
    cls = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    T_CHECK(cls == MPI_ERR_OP, "Op_free(MPI_SUM): class %d", cls);
    return t_finish();
}
