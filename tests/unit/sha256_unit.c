/* util/sha256.c: SHA-256 (FIPS 180-4 examples) and HMAC-SHA256 (the seven
 * test cases of RFC 4231), whole and fed in pieces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/sha256.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static void check_sha(const char *msg, const char *want)
{
    uint8_t d[32];
    char got[65];
    ft_sha256(msg, strlen(msg), d);
    hex(d, 32, got);
    assert_string_equal(got, want);
    /* the same, one byte at a time */
    ft_sha256_t c;
    ft_sha256_init(&c);
    for (size_t i = 0; msg[i]; i++)
        ft_sha256_update(&c, msg + i, 1);
    ft_sha256_final(&c, d);
    hex(d, 32, got);
    assert_string_equal(got, want);
}

static void test_sha256(void **state)
{
    (void)state;
    check_sha("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    check_sha("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a' */
    ft_sha256_t c;
    char a[1000];
    memset(a, 'a', sizeof a);
    ft_sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        ft_sha256_update(&c, a, sizeof a);
    uint8_t d[32];
    char got[65];
    ft_sha256_final(&c, d);
    hex(d, 32, got);
    assert_string_equal(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

typedef struct {
    uint8_t key[131];
    size_t keylen;
    uint8_t data[160];
    size_t datalen;
    const char *mac;      /* hex; test case 5 is truncated to 128 bits */
} tc_t;

static void fill(uint8_t *p, size_t *n, int byte, size_t count)
{
    memset(p, byte, count);
    *n = count;
}

static void text(uint8_t *p, size_t *n, const char *s)
{
    *n = strlen(s);
    memcpy(p, s, *n);
}

static void test_hmac_rfc4231(void **state)
{
    (void)state;
    static tc_t tc[7];
    fill(tc[0].key, &tc[0].keylen, 0x0b, 20);
    text(tc[0].data, &tc[0].datalen, "Hi There");
    tc[0].mac = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7";
    text(tc[1].key, &tc[1].keylen, "Jefe");
    text(tc[1].data, &tc[1].datalen, "what do ya want for nothing?");
    tc[1].mac = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    fill(tc[2].key, &tc[2].keylen, 0xaa, 20);
    fill(tc[2].data, &tc[2].datalen, 0xdd, 50);
    tc[2].mac = "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe";
    for (int i = 0; i < 25; i++)
        tc[3].key[i] = (uint8_t)(i + 1);
    tc[3].keylen = 25;
    fill(tc[3].data, &tc[3].datalen, 0xcd, 50);
    tc[3].mac = "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b";
    fill(tc[4].key, &tc[4].keylen, 0x0c, 20);
    text(tc[4].data, &tc[4].datalen, "Test With Truncation");
    tc[4].mac = "a3b6167473100ee06e0c796c2955552b";
    fill(tc[5].key, &tc[5].keylen, 0xaa, 131);
    text(tc[5].data, &tc[5].datalen,
         "Test Using Larger Than Block-Size Key - Hash Key First");
    tc[5].mac = "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54";
    fill(tc[6].key, &tc[6].keylen, 0xaa, 131);
    text(tc[6].data, &tc[6].datalen,
         "This is a test using a larger than block-size key and a larger "
         "than block-size data. The key needs to be hashed before being "
         "used by the HMAC algorithm.");
    tc[6].mac = "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2";
    for (int i = 0; i < 7; i++) {
        uint8_t mac[32];
        char got[65];
        ft_hmac_sha256(tc[i].key, tc[i].keylen, tc[i].data, tc[i].datalen, mac);
        hex(mac, 32, got);
        got[strlen(tc[i].mac)] = 0;
        assert_string_equal(got, tc[i].mac);
        /* fed in two pieces */
        ft_hmac_t c;
        ft_hmac_init(&c, tc[i].key, tc[i].keylen);
        ft_hmac_update(&c, tc[i].data, tc[i].datalen / 3);
        ft_hmac_update(&c, tc[i].data + tc[i].datalen / 3,
                       tc[i].datalen - tc[i].datalen / 3);
        ft_hmac_final(&c, mac);
        hex(mac, 32, got);
        got[strlen(tc[i].mac)] = 0;
        assert_string_equal(got, tc[i].mac);
    }
}

static void test_ct_equal(void **state)
{
    (void)state;
    uint8_t a[32] = {1, 2, 3}, b[32] = {1, 2, 3};
    assert_true(ft_ct_equal(a, b, 32));
    b[31] = 1;
    assert_false(ft_ct_equal(a, b, 32));
    assert_true(ft_ct_equal(a, b, 31));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_hmac_rfc4231),
        cmocka_unit_test(test_ct_equal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
