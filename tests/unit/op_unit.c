/*
 * Unit tests of the reduction kernels (ftmpi/core/op.c): op_apply of every
 * predefined operation on the types it is defined for (integers of several
 * widths, floating point, complex, C_BOOL, bytes, the pair types of
 * MINLOC/MAXLOC with ties), integer SUM/PROD overflow (wraps around),
 * MPI_REPLACE and MPI_NO_OP, a user operation,
 * a derived type with holes, and op_check's verdicts (e.g. MPI_BAND on
 * MPI_DOUBLE or MPI_MAXLOC on MPI_INT are refused).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <complex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/op.h"

static int setup(void **state)
{
    (void)state;
    return dt_module_init() || op_module_init();
}

static int teardown(void **state)
{
    (void)state;
    op_module_fini();
    dt_module_fini();
    return 0;
}

#define N 9

static void apply(MPI_Op o, MPI_Datatype t, const void *in, void *inout, int n)
{
    op_t *op = op_get(o);
    dt_t *dt = dt_get(t);
    assert_non_null(op);
    assert_non_null(dt);
    assert_int_equal(op_check(op, dt), MPI_SUCCESS);
    assert_int_equal(op_apply(op, in, inout, n, dt), MPI_SUCCESS);
}

/* Arithmetic ops on one C type, checked element by element. */
#define ARITH_CASE(T, MT, A, B)                                                     \
    do {                                                                            \
        static const MPI_Op ops[4] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};         \
        for (int o = 0; o < 4; o++) {                                               \
            T in[N], io[N], exp[N];                                                 \
            for (int i = 0; i < N; i++) {                                           \
                in[i] = (T)(A);                                                     \
                io[i] = (T)(B);                                                     \
                exp[i] = o == 0 ? (in[i] > io[i] ? in[i] : io[i])                  \
                       : o == 1 ? (in[i] < io[i] ? in[i] : io[i])                  \
                       : o == 2 ? (T)(io[i] + in[i]) : (T)(io[i] * in[i]);         \
            }                                                                       \
            apply(ops[o], MT, in, io, N);                                           \
            for (int i = 0; i < N; i++)                                             \
                if (io[i] != exp[i])                                                \
                    fail_msg("%s op %d element %d wrong", #MT, o, i);              \
        }                                                                           \
    } while (0)

static void test_arith(void **state)
{
    (void)state;
    ARITH_CASE(int, MPI_INT, i * 3 - 7, 5 - i * 2);
    ARITH_CASE(double, MPI_DOUBLE, i * 0.5 - 1.25, 2.0 - i * 0.75);
    ARITH_CASE(float, MPI_FLOAT, i * 1.5f - 3.0f, 4.0f - i);
    ARITH_CASE(long long, MPI_LONG_LONG, (long long)i * 3000000000LL - 7, 11 - (long long)i * 5000000LL);
    ARITH_CASE(unsigned char, MPI_UNSIGNED_CHAR, i * 20 + 3, 200 - i * 10);
    ARITH_CASE(short, MPI_SHORT, i * 100 - 300, 250 - i * 60);
    ARITH_CASE(unsigned, MPI_UNSIGNED, i * 4000000u, 3000000000u - i);
    ARITH_CASE(int64_t, MPI_INT64_T, (int64_t)i << 40, -((int64_t)i << 13));
    ARITH_CASE(uint16_t, MPI_UINT16_T, i * 1000u, 60000u - i);
    ARITH_CASE(long double, MPI_LONG_DOUBLE, i * 0.25L, 1.0L - i);
}

/* Integer SUM and PROD that overflow wrap around (two's complement), as
 * the hardware does, instead of being undefined behaviour in the library:
 * the ASan+UBSan build (.ci/sanitize.sh) fails here if they are computed in
 * the signed type, or in int for the types promoted to it. */
static void test_wrap(void **state)
{
    (void)state;
    int i_in[2] = {1, 2}, i_io[2] = {INT32_MAX, INT32_MAX};
    apply(MPI_SUM, MPI_INT, i_in, i_io, 1);
    apply(MPI_PROD, MPI_INT, i_in + 1, i_io + 1, 1);
    assert_int_equal(i_io[0], INT32_MIN);
    assert_int_equal(i_io[1], -2);
    long long l_in[2] = {INT64_MAX, 2}, l_io[2] = {INT64_MAX, INT64_MAX};
    apply(MPI_SUM, MPI_LONG_LONG, l_in, l_io, 1);
    apply(MPI_PROD, MPI_LONG_LONG, l_in + 1, l_io + 1, 1);
    assert_true(l_io[0] == -2);
    assert_true(l_io[1] == -2);
    int64_t q_in = INT64_MIN, q_io = -1;
    apply(MPI_SUM, MPI_INT64_T, &q_in, &q_io, 1);
    assert_true(q_io == INT64_MAX);
    uint16_t u_in = 65535, u_io = 65535; /* promoted to int: 65535^2 > INT_MAX */
    apply(MPI_PROD, MPI_UINT16_T, &u_in, &u_io, 1);
    assert_int_equal(u_io, 1);
    unsigned short s_in = 65535, s_io = 65535;
    apply(MPI_PROD, MPI_UNSIGNED_SHORT, &s_in, &s_io, 1);
    assert_int_equal(s_io, 1);
}

static void test_complex(void **state)
{
    (void)state;
    double _Complex in[N], io[N], s[N], p[N];
    for (int i = 0; i < N; i++) {
        in[i] = i + 2.0 * I;
        io[i] = 1.0 - i * I;
        s[i] = io[i] + in[i];
        p[i] = io[i] * in[i];
    }
    double _Complex io2[N];
    memcpy(io2, io, sizeof io);
    apply(MPI_SUM, MPI_C_DOUBLE_COMPLEX, in, io, N);
    apply(MPI_PROD, MPI_C_DOUBLE_COMPLEX, in, io2, N);
    for (int i = 0; i < N; i++) {
        assert_true(io[i] == s[i]);
        assert_true(io2[i] == p[i]);
    }
}

static void test_logical_bitwise(void **state)
{
    (void)state;
    int a[4] = {0, 0, 3, -1}, b[4] = {0, 5, 0, 2};
    int land[4] = {0, 0, 0, 1}, lor[4] = {0, 1, 1, 1}, lxor[4] = {0, 1, 1, 0};
    int io[4];
    memcpy(io, b, sizeof b);
    apply(MPI_LAND, MPI_INT, a, io, 4);
    assert_memory_equal(io, land, sizeof io);
    memcpy(io, b, sizeof b);
    apply(MPI_LOR, MPI_INT, a, io, 4);
    assert_memory_equal(io, lor, sizeof io);
    memcpy(io, b, sizeof b);
    apply(MPI_LXOR, MPI_INT, a, io, 4);
    assert_memory_equal(io, lxor, sizeof io);

    bool ba[4] = {false, false, true, true}, bb[4] = {false, true, false, true}, bio[4];
    bool band[4] = {false, false, false, true}, bor[4] = {false, true, true, true}, bxor[4] = {false, true, true, false};
    memcpy(bio, bb, sizeof bb);
    apply(MPI_LAND, MPI_C_BOOL, ba, bio, 4);
    assert_memory_equal(bio, band, sizeof bio);
    memcpy(bio, bb, sizeof bb);
    apply(MPI_LOR, MPI_C_BOOL, ba, bio, 4);
    assert_memory_equal(bio, bor, sizeof bio);
    memcpy(bio, bb, sizeof bb);
    apply(MPI_LXOR, MPI_C_BOOL, ba, bio, 4);
    assert_memory_equal(bio, bxor, sizeof bio);

    unsigned ua[3] = {0xf0f0f0f0u, 0xffffffffu, 0x12345678u}, ub[3] = {0x0ff00ff0u, 0u, 0x87654321u}, uio[3];
    memcpy(uio, ub, sizeof ub);
    apply(MPI_BAND, MPI_UNSIGNED, ua, uio, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(uio[i], ua[i] & ub[i]);
    memcpy(uio, ub, sizeof ub);
    apply(MPI_BOR, MPI_UNSIGNED, ua, uio, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(uio[i], ua[i] | ub[i]);
    memcpy(uio, ub, sizeof ub);
    apply(MPI_BXOR, MPI_UNSIGNED, ua, uio, 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(uio[i], ua[i] ^ ub[i]);

    unsigned char ca[5] = {0x0f, 0xf0, 0xaa, 0x55, 0xff}, cb[5] = {0xff, 0x0f, 0x55, 0x55, 0x00}, cio[5];
    memcpy(cio, cb, sizeof cb);
    apply(MPI_BXOR, MPI_BYTE, ca, cio, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cio[i], ca[i] ^ cb[i]);
    memcpy(cio, cb, sizeof cb);
    apply(MPI_BAND, MPI_BYTE, ca, cio, 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(cio[i], ca[i] & cb[i]);

    long la[2] = {0x7000000000000001L, 6}, lb[2] = {0x0100000000000003L, 3}, lio[2];
    memcpy(lio, lb, sizeof lb);
    apply(MPI_BOR, MPI_LONG, la, lio, 2);
    assert_true(lio[0] == (la[0] | lb[0]) && lio[1] == 7);
}

static void test_loc(void **state)
{
    (void)state;
    struct { double v; int i; } din[4] = {{1.0, 3}, {5.0, 1}, {2.0, 7}, {-1.0, 0}},
                                dio[4] = {{2.0, 0}, {5.0, 4}, {2.0, 2}, {-1.0, 9}}, d2[4];
    memcpy(d2, dio, sizeof dio);
    apply(MPI_MAXLOC, MPI_DOUBLE_INT, din, dio, 4);
    /* larger value wins; equal values: the lower index */
    assert_true(dio[0].v == 2.0 && dio[0].i == 0);
    assert_true(dio[1].v == 5.0 && dio[1].i == 1);
    assert_true(dio[2].v == 2.0 && dio[2].i == 2);
    assert_true(dio[3].v == -1.0 && dio[3].i == 0);
    apply(MPI_MINLOC, MPI_DOUBLE_INT, din, d2, 4);
    assert_true(d2[0].v == 1.0 && d2[0].i == 3);
    assert_true(d2[1].v == 5.0 && d2[1].i == 1);
    assert_true(d2[2].v == 2.0 && d2[2].i == 2);
    assert_true(d2[3].v == -1.0 && d2[3].i == 0);

    struct { int v; int i; } iin[3] = {{4, 1}, {-3, 2}, {8, 8}}, iio[3] = {{4, 0}, {-2, 1}, {7, 9}};
    apply(MPI_MAXLOC, MPI_2INT, iin, iio, 3);
    assert_true(iio[0].v == 4 && iio[0].i == 0);
    assert_true(iio[1].v == -2 && iio[1].i == 1);
    assert_true(iio[2].v == 8 && iio[2].i == 8);

    struct { short v; int i; } sin_[2] = {{3, 5}, {-7, 2}}, sio[2] = {{3, 6}, {1, 1}};
    apply(MPI_MINLOC, MPI_SHORT_INT, sin_, sio, 2);
    assert_true(sio[0].v == 3 && sio[0].i == 5);
    assert_true(sio[1].v == -7 && sio[1].i == 2);

    struct { float v; int i; } fin[2] = {{0.5f, 4}, {9.0f, 3}}, fio[2] = {{0.25f, 1}, {9.0f, 3}};
    apply(MPI_MAXLOC, MPI_FLOAT_INT, fin, fio, 2);
    assert_true(fio[0].v == 0.5f && fio[0].i == 4);
    assert_true(fio[1].v == 9.0f && fio[1].i == 3);
}

static void test_replace_noop_zero(void **state)
{
    (void)state;
    int in[4] = {1, 2, 3, 4}, io[4] = {9, 9, 9, 9}, keep[4] = {9, 9, 9, 9};
    apply(MPI_NO_OP, MPI_INT, in, io, 4);
    assert_memory_equal(io, keep, sizeof io);
    apply(MPI_REPLACE, MPI_INT, in, io, 4);
    assert_memory_equal(io, in, sizeof io);
    int z[2] = {5, 6};
    apply(MPI_SUM, MPI_INT, in, z, 0);
    assert_true(z[0] == 5 && z[1] == 6);
}

static int user_calls, user_len;
static MPI_Datatype user_type;

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_calls++;
    user_len = *len;
    user_type = *dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = b[i] * 10 + a[i];
}

static void test_user_op(void **state)
{
    (void)state;
    op_t *op = op_create(user_fn, 0);
    assert_non_null(op);
    assert_int_equal(op->commute, 0);
    assert_ptr_equal(op_get(op->handle), op);
    dt_t *dt = dt_get(MPI_INT);
    int in[3] = {1, 2, 3}, io[3] = {4, 5, 6};
    assert_int_equal(op_check(op, dt), MPI_SUCCESS);
    assert_int_equal(op_apply(op, in, io, 3, dt), MPI_SUCCESS);
    assert_int_equal(user_calls, 1);
    assert_int_equal(user_len, 3);
    assert_int_equal(user_type, MPI_INT);
    assert_true(io[0] == 41 && io[1] == 52 && io[2] == 63);
    int h = op->handle;
    op_release(op);
    assert_null(op_get(h));
}

static void test_derived(void **state)
{
    (void)state;
    /* vector of 3 blocks of 2 ints, stride 3: the third int of each
     * triple is a hole and must stay untouched */
    dt_t *vec = NULL;
    assert_int_equal(dt_create_vector(MPI_COMBINER_VECTOR, 3, 2, 3, dt_get(MPI_INT), &vec), MPI_SUCCESS);
    assert_int_equal(dt_commit(vec), MPI_SUCCESS);
    int in[9], io[9];
    for (int i = 0; i < 9; i++) {
        in[i] = i + 1;
        io[i] = 100 * (i + 1);
    }
    op_t *sum = op_get(MPI_SUM);
    assert_int_equal(op_check(sum, vec), MPI_SUCCESS);
    assert_int_equal(op_apply(sum, in, io, 1, vec), MPI_SUCCESS);
    for (int i = 0; i < 9; i++) {
        int hole = i % 3 == 2;
        assert_int_equal(io[i], hole ? 100 * (i + 1) : 101 * (i + 1));
    }
    assert_int_equal(op_check(op_get(MPI_BAND), vec), MPI_SUCCESS);
    dt_release(vec);
}

static void test_check(void **state)
{
    (void)state;
    struct { MPI_Op op; MPI_Datatype t; int ok; } cases[] = {
        {MPI_SUM, MPI_INT, 1},        {MPI_SUM, MPI_DOUBLE, 1},         {MPI_MAX, MPI_FLOAT, 1},
        {MPI_PROD, MPI_C_DOUBLE_COMPLEX, 1},                           {MPI_LAND, MPI_C_BOOL, 1},
        {MPI_LAND, MPI_INT, 1},       {MPI_BAND, MPI_BYTE, 1},          {MPI_BXOR, MPI_UNSIGNED_LONG, 1},
        {MPI_MAXLOC, MPI_DOUBLE_INT, 1}, {MPI_MINLOC, MPI_2INT, 1},     {MPI_REPLACE, MPI_DOUBLE, 1},
        {MPI_NO_OP, MPI_BYTE, 1},
        {MPI_BAND, MPI_DOUBLE, 0},    {MPI_BOR, MPI_FLOAT, 0},          {MPI_MAXLOC, MPI_INT, 0},
        {MPI_MINLOC, MPI_DOUBLE, 0},  {MPI_MAX, MPI_C_DOUBLE_COMPLEX, 0}, {MPI_SUM, MPI_BYTE, 0},
        {MPI_LAND, MPI_DOUBLE, 0},    {MPI_SUM, MPI_DOUBLE_INT, 0},     {MPI_BXOR, MPI_C_BOOL, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        op_t *op = op_get(cases[k].op);
        dt_t *dt = dt_get(cases[k].t);
        assert_non_null(op);
        assert_non_null(dt);
        int rc = op_check(op, dt);
        if (cases[k].ok && rc != MPI_SUCCESS)
            fail_msg("op_check case %zu: refused a legal combination (%d)", k, rc);
        if (!cases[k].ok && rc != MPI_ERR_OP && rc != MPI_ERR_TYPE)
            fail_msg("op_check case %zu: accepted an illegal combination (%d)", k, rc);
    }
    assert_int_equal(op_check(op_get(MPI_BAND), dt_get(MPI_DOUBLE)), MPI_ERR_OP);
    assert_null(op_get(MPI_OP_NULL));
    assert_null(op_get(MPI_INT)); /* a handle of another kind */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arith),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_complex),
        cmocka_unit_test(test_logical_bitwise),
        cmocka_unit_test(test_loc),
        cmocka_unit_test(test_replace_noop_zero),
        cmocka_unit_test(test_user_op),
        cmocka_unit_test(test_derived),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests_name("op", tests, setup, teardown);
}
