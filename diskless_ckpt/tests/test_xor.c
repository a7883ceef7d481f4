/*
 * test_xor.c - XOR parity kernels: the vectorized path against the byte
 * reference with every skew and odd lengths, guard bytes, and decode of every
 * single erasure (data or parity) for several k.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "dckpt_xor.h"
#include "test_util.h"

static void test_xor_into_vs_base(void **state)
{
    (void)state;
    for (size_t len = 0; len <= 300; len++) {
        for (unsigned skew = 0; skew < 16; skew += 5) {
            tu_buf_t s = tu_buf_new(len, skew), d1 = tu_buf_new(len, skew + 3),
                     d2 = tu_buf_new(len, 0);
            tu_fill(s.p, len, len);
            tu_fill(d1.p, len, len + 1000);
            memcpy(d2.p, d1.p, len);
            dckpt_xor_into(d1.p, s.p, len);
            dckpt_xor_into_base(d2.p, s.p, len);
            assert_memory_equal(d1.p, d2.p, len);
            assert_true(tu_buf_guards_ok(&s));
            assert_true(tu_buf_guards_ok(&d1));
            assert_true(tu_buf_guards_ok(&d2));
            tu_buf_free(&s);
            tu_buf_free(&d1);
            tu_buf_free(&d2);
        }
    }
}

static void test_xor_big(void **state)
{
    (void)state;
    size_t len = (1u << 20) + 13;
    tu_buf_t s = tu_buf_new(len, 1), d1 = tu_buf_new(len, 2), d2 = tu_buf_new(len, 3);
    tu_fill(s.p, len, 1);
    tu_fill(d1.p, len, 2);
    memcpy(d2.p, d1.p, len);
    dckpt_xor_into(d1.p, s.p, len);
    dckpt_xor_into_base(d2.p, s.p, len);
    assert_memory_equal(d1.p, d2.p, len);
    assert_true(tu_buf_guards_ok(&d1));
    tu_buf_free(&s);
    tu_buf_free(&d1);
    tu_buf_free(&d2);
}

static void test_encode_decode_every_erasure(void **state)
{
    (void)state;
    static const int ks[] = {1, 2, 4, 5, 7, 16};
    static const size_t lens[] = {1, 17, 63, 64, 65, 1000, 4097, 70001};
    for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++) {
        int k = ks[ki];
        for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
            size_t len = lens[li];
            tu_buf_t orig[17], work[17], pbase = tu_buf_new(len, 9);
            uint8_t *po[17] = {0}, *pw[17] = {0};
            for (int i = 0; i <= k; i++) {
                orig[i] = tu_buf_new(len, (unsigned)i);
                work[i] = tu_buf_new(len, (unsigned)(i * 3 + 1));
                po[i] = orig[i].p;
                pw[i] = work[i].p;
                if (i < k)
                    tu_fill(po[i], len, (uint64_t)(k * 100 + i));
            }
            dckpt_xor_encode(len, k, po, po[k]);
            dckpt_xor_encode_base(len, k, po, pbase.p);
            assert_memory_equal(po[k], pbase.p, len);
            for (int e = 0; e <= k; e++) {
                for (int base = 0; base < 2; base++) {
                    for (int i = 0; i <= k; i++)
                        memcpy(pw[i], po[i], len);
                    tu_fill(pw[e], len, 4242);
                    int rc = base ? dckpt_xor_decode_base(len, k, e, pw)
                                  : dckpt_xor_decode(len, k, e, pw);
                    assert_int_equal(rc, 0);
                    for (int i = 0; i <= k; i++) {
                        assert_memory_equal(pw[i], po[i], len);
                        assert_true(tu_buf_guards_ok(&work[i]));
                    }
                }
            }
            for (int i = 0; i <= k; i++) {
                assert_true(tu_buf_guards_ok(&orig[i]));
                tu_buf_free(&orig[i]);
                tu_buf_free(&work[i]);
            }
            tu_buf_free(&pbase);
        }
    }
}

static void test_decode_errors(void **state)
{
    (void)state;
    uint8_t a[4] = {0}, b[4] = {0}, c[4] = {0};
    uint8_t *f[3] = {a, b, c};
    assert_int_equal(dckpt_xor_decode(4, 2, 3, f), -EINVAL);
    assert_int_equal(dckpt_xor_decode(4, 2, -1, f), -EINVAL);
    assert_int_equal(dckpt_xor_decode(4, 0, 0, f), -EINVAL);
    assert_int_equal(dckpt_xor_decode(4, 2, 0, NULL), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xor_into_vs_base),
        cmocka_unit_test(test_xor_big),
        cmocka_unit_test(test_encode_decode_every_erasure),
        cmocka_unit_test(test_decode_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
