/* util/crc32c.c: the known vectors (the check value of "123456789" and the
 * four 32-byte patterns of RFC 3720 appendix B.4, and two long buffers
 * whose values come from a bit-at-a-time implementation outside this
 * project), hardware against table at every length and alignment,
 * continuation, and copy-and-sum; the lengths around the three-chain
 * block sizes (3 x 256 and 3 x 4096 bytes) against a bit-at-a-time
 * reference. */
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

/* Long buffers: these take the three-chain path of the hardware version
 * (values from a bit-at-a-time CRC-32C outside this project). */
static void test_long_vectors(void **state)
{
    (void)state;
    enum { N = 40000 };
    unsigned char *b = malloc(N), *d = malloc(N);
    for (int i = 0; i < N; i++)
        b[i] = (unsigned char)(i * 7 + (i >> 8) * 13 + 3); /* no period of a block */
    check_both(b, N, 0x168E7E11u);
    check_both(b, 12289, 0x2658C59Bu);
    assert_int_equal(crc32c_copy(0, d, b, N), 0x168E7E11u);
    assert_memory_equal(d, b, N);
    free(b);
    free(d);
}

/* The definition, one bit at a time: no table, no instruction. */
static uint32_t crc_bits(const unsigned char *p, size_t len)
{
    uint32_t c = 0xFFFFFFFFu;
    while (len--) {
        c ^= *p++;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
    }
    return ~c;
}

/* Every length near a multiple of a block of the three chains, at two
 * alignments, whole, continued from a CRC, and copied. */
static void test_block_edges(void **state)
{
    (void)state;
    enum { N = 3 * 3 * 4096 + 3 * 256 + 64 };
    unsigned char *buf = malloc(N), *dst = malloc(N);
    srand(11);
    for (int i = 0; i < N; i++)
        buf[i] = (unsigned char)rand();
    static const size_t base[] = {3 * 256, 2 * 3 * 256, 3 * 4096, 3 * 4096 + 3 * 256,
                                  2 * 3 * 4096, 3 * 3 * 4096};
    for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
        for (size_t len = base[i] - 9; len <= base[i] + 9; len++)
            for (size_t off = 0; off < 2 && len + off + 1 < N; off++) {
                uint32_t want = crc_bits(buf + off, len);
                assert_int_equal(crc32c(0, buf + off, len), want);
                assert_int_equal(crc32c(crc32c(0, buf + off, 5), buf + off + 5, len - 5), want);
                assert_int_equal(crc32c_copy(0, dst + 1 - off, buf + off, len), want);
                assert_memory_equal(dst + 1 - off, buf + off, len);
            }
    free(buf);
    free(dst);
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
        cmocka_unit_test(test_long_vectors),
        cmocka_unit_test(test_block_edges),
        cmocka_unit_test(test_lengths_alignments),
        cmocka_unit_test(test_detects_flip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
