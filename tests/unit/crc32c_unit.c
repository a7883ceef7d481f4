/* util/crc32c.c: the known vectors (the check value of "123456789" and the
 * four 32-byte patterns of RFC 3720 appendix B.4), hardware against table
 * at every length and alignment, continuation, and copy-and-sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/crc32c.h"

static void check_both(const void *buf, size_t len, uint32_t want)
{
    assert_int_equal(crc32c(0, buf, len), want);
    assert_int_equal(crc32c_sw(0, buf, len), want);
}

static void test_vectors(void **state)
{
    (void)state;
    unsigned char b[32];
    check_both("123456789", 9, 0xE3069283u);
    check_both("", 0, 0);
    memset(b, 0, 32);
    check_both(b, 32, 0x8A9136AAu);
    memset(b, 0xff, 32);
    check_both(b, 32, 0x62A8AB43u);
    for (int i = 0; i < 32; i++)
        b[i] = (unsigned char)i;
    check_both(b, 32, 0x46DD794Eu);
    for (int i = 0; i < 32; i++)
        b[i] = (unsigned char)(31 - i);
    check_both(b, 32, 0x113FDB5Cu);
}

static void test_lengths_alignments(void **state)
{
    (void)state;
    enum { N = 4096 + 16 };
    unsigned char *buf = malloc(N), *dst = malloc(N);
    srand(7);
    for (int i = 0; i < N; i++)
        buf[i] = (unsigned char)rand();
    for (size_t off = 0; off < 9; off++)
        for (size_t len = 0; len + off < N; len += (len < 70 ? 1 : 97)) {
            uint32_t want = crc32c_sw(0, buf + off, len);
            assert_int_equal(crc32c(0, buf + off, len), want);
            /* in two pieces */
            size_t h = len / 3;
            assert_int_equal(crc32c(crc32c(0, buf + off, h), buf + off + h, len - h), want);
            memset(dst, 0, N);
            assert_int_equal(crc32c_copy(0, dst + (off ^ 3), buf + off, len), want);
            assert_memory_equal(dst + (off ^ 3), buf + off, len);
        }
    free(buf);
    free(dst);
}

static void test_detects_flip(void **state)
{
    (void)state;
    unsigned char b[1024];
    for (int i = 0; i < 1024; i++)
        b[i] = (unsigned char)(i * 7);
    uint32_t good = crc32c(0, b, sizeof(b));
    for (int bit = 0; bit < 1024 * 8; bit += 13) {
        b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        assert_int_not_equal(crc32c(0, b, sizeof(b)), good);
        b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_lengths_alignments),
        cmocka_unit_test(test_detects_flip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
