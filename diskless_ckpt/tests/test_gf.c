/*
 * test_gf.c - the reference GF(2^8) arithmetic against ISA-L's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <isa-l/erasure_code.h>

#include "dckpt_gf.h"
#include "test_util.h"

static void test_mul_all_pairs(void **state)
{
    (void)state;
    for (int a = 0; a < 256; a++)
        for (int b = 0; b < 256; b++)
            assert_int_equal(dckpt_gf_mul((uint8_t)a, (uint8_t)b), gf_mul((uint8_t)a, (uint8_t)b));
}

static void test_inv_all(void **state)
{
    (void)state;
    assert_int_equal(dckpt_gf_inv(0), 0);
    for (int a = 1; a < 256; a++) {
        uint8_t i = dckpt_gf_inv((uint8_t)a);
        assert_int_equal(i, gf_inv((uint8_t)a));
        assert_int_equal(dckpt_gf_mul((uint8_t)a, i), 1);
    }
}

static void test_cauchy_matches_isal(void **state)
{
    (void)state;
    static const int km[][2] = {{1, 1}, {4, 1}, {4, 2}, {6, 3}, {8, 2}, {3, 3},
                                {10, 4}, {32, 8}, {200, 56}, {255, 1}, {1, 255}};
    for (size_t t = 0; t < sizeof(km) / sizeof(km[0]); t++) {
        int k = km[t][0], m = km[t][1];
        size_t n = (size_t)(k + m) * k;
        uint8_t *mine = malloc(n), *isal = malloc(n);
        assert_int_equal(dckpt_gf_gen_cauchy(mine, k, m), 0);
        gf_gen_cauchy1_matrix(isal, k + m, k);
        assert_memory_equal(mine, isal, n);
        free(mine);
        free(isal);
    }
    uint8_t dummy[4];
    assert_int_equal(dckpt_gf_gen_cauchy(dummy, 0, 1), -EINVAL);
    assert_int_equal(dckpt_gf_gen_cauchy(dummy, 1, 0), -EINVAL);
    assert_int_equal(dckpt_gf_gen_cauchy(NULL, 1, 1), -EINVAL);
    uint8_t *big = malloc(257 * 200);
    assert_int_equal(dckpt_gf_gen_cauchy(big, 200, 57), -EINVAL);
    free(big);
}

/* Random matrices: the same inverse (or the same verdict "singular"). */
static void test_invert_matches_isal(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    int singular = 0;
    for (int n = 1; n <= 12; n++) {
        for (int rep = 0; rep < 200; rep++) {
            size_t nn = (size_t)n * n;
            uint8_t a[144], a2[144], out1[144], out2[144], chk[144];
            for (size_t i = 0; i < nn; i++) {
                uint64_t r = tu_rand(&seed);
                /* sparse sometimes, so that singular matrices occur */
                a[i] = (rep % 4 == 0 && (r & 3) != 0) ? 0 : (uint8_t)(r >> 56);
            }
            memcpy(a2, a, nn);
            memcpy(chk, a, nn);
            int r1 = dckpt_gf_invert(a, out1, n);
            int r2 = gf_invert_matrix(a2, out2, n);
            assert_int_equal(r1 == 0, r2 == 0);
            if (r1 != 0) {
                assert_int_equal(r1, -EDOM);
                singular++;
                continue;
            }
            assert_memory_equal(out1, out2, nn);
            /* chk * out1 == I */
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    uint8_t acc = 0;
                    for (int t = 0; t < n; t++)
                        acc ^= dckpt_gf_mul(chk[i * n + t], out1[t * n + j]);
                    assert_int_equal(acc, i == j ? 1 : 0);
                }
        }
    }
    assert_true(singular > 0); /* the singular branch was exercised */
}

static void test_mad_and_mul_vec(void **state)
{
    (void)state;
    uint8_t src[300], dst[300], ref[300];
    tu_fill(src, sizeof(src), 1);
    for (int c = 0; c < 256; c += 17) {
        tu_fill(dst, sizeof(dst), 2);
        memcpy(ref, dst, sizeof(ref));
        dckpt_gf_mad_base(sizeof(src), (uint8_t)c, src, dst);
        for (size_t i = 0; i < sizeof(src); i++)
            assert_int_equal(dst[i], ref[i] ^ gf_mul((uint8_t)c, src[i]));
        dckpt_gf_mul_vec_base(sizeof(src), (uint8_t)c, src, dst);
        for (size_t i = 0; i < sizeof(src); i++)
            assert_int_equal(dst[i], gf_mul((uint8_t)c, src[i]));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mul_all_pairs),
        cmocka_unit_test(test_inv_all),
        cmocka_unit_test(test_cauchy_matches_isal),
        cmocka_unit_test(test_invert_matches_isal),
        cmocka_unit_test(test_mad_and_mul_vec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
