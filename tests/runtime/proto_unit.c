/* Unit tests of the runtime wire protocol (ftmpi/runtime/proto.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "runtime/proto.h"

static void test_roundtrip(void **state)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, 0xdeadbeef);
    proto_put_i32(&b, -7);
    proto_put_u64(&b, 0x0123456789abcdefull);
    proto_put_i64(&b, -1234567890123ll);
    proto_put_str(&b, "hello");
    proto_put_bytes(&b, "\0\1\2", 3);
    proto_put_str(&b, NULL);
    assert_int_equal(b.err, 0);
    /* little-endian on the wire */
    assert_int_equal(b.data[0], 0xef);
    assert_int_equal(b.data[3], 0xde);

    proto_rd_t r;
    proto_rd_init(&r, b.data, b.len);
    assert_true(proto_get_u32(&r) == 0xdeadbeef);
    assert_int_equal(proto_get_i32(&r), -7);
    assert_true(proto_get_u64(&r) == 0x0123456789abcdefull);
    assert_true(proto_get_i64(&r) == -1234567890123ll);
    char s[16];
    proto_get_str(&r, s, sizeof s);
    assert_string_equal(s, "hello");
    uint32_t n;
    const unsigned char *p = proto_get_bytes(&r, &n);
    assert_int_equal(n, 3);
    assert_int_equal(p[2], 2);
    char *e = proto_get_strdup(&r);
    assert_string_equal(e, "");
    free(e);
    assert_int_equal(proto_rd_status(&r), 0);
    assert_int_equal(r.off, b.len);
    proto_buf_free(&b);
}

static void test_underflow(void **state)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, 100); /* a string length with no string after it */
    proto_rd_t r;
    proto_rd_init(&r, b.data, b.len);
    char s[8];
    proto_get_str(&r, s, sizeof s);
    assert_int_equal(proto_rd_status(&r), -EPROTO);
    /* sticky */
    assert_int_equal(proto_get_u32(&r), 0);
    assert_int_equal(proto_rd_status(&r), -EPROTO);
    /* a string too long for the destination */
    proto_buf_reset(&b);
    proto_put_str(&b, "abcdefghij");
    proto_rd_init(&r, b.data, b.len);
    proto_get_str(&r, s, sizeof s);
    assert_int_equal(proto_rd_status(&r), -EPROTO);
    proto_buf_free(&b);
}

static void test_parse_partial(void **state)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_frame(&b, PR_KV_PUT, "abcdef", 6);
    uint32_t type, len;
    const void *payload;
    for (size_t cut = 0; cut < b.len; cut++)
        assert_int_equal(proto_parse(b.data, cut, &type, &payload, &len), 0);
    assert_int_equal(proto_parse(b.data, b.len, &type, &payload, &len),
                     (long)b.len);
    assert_int_equal(type, PR_KV_PUT);
    assert_int_equal(len, 6);
    assert_memory_equal(payload, "abcdef", 6);
    /* impossible length */
    unsigned char bad[8] = {1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(proto_parse(bad, 8, &type, &payload, &len), -EPROTO);
    proto_buf_free(&b);
}

static void test_conn_stream(void **state)
{
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    proto_conn_t a, b;
    proto_conn_init(&a, sv[0]);
    proto_conn_init(&b, sv[1]);
    /* many messages, one large: queued output and partial reads */
    static char big[1 << 20];
    memset(big, 'x', sizeof big);
    for (int i = 0; i < 100; i++)
        assert_int_equal(proto_conn_send(&a, PR_FENCE, &i, sizeof i), 0);
    assert_int_equal(proto_conn_send(&a, PR_KV_PUT, big, sizeof big), 0);
    assert_int_equal(proto_conn_send(&a, PR_FINALIZE, NULL, 0), 0);
    int got = 0, big_seen = 0, fin = 0;
    while (!fin) {
        if (proto_conn_pending(&a))
            assert_true(proto_conn_flush(&a) >= 0);
        long n = proto_conn_fill(&b);
        assert_true(n >= 0);
        uint32_t type, len;
        const void *p;
        while (proto_conn_next(&b, &type, &p, &len) == 1) {
            if (type == PR_FENCE) {
                assert_int_equal(len, sizeof(int));
                int v;
                memcpy(&v, p, sizeof v);
                assert_int_equal(v, got);
                got++;
            } else if (type == PR_KV_PUT) {
                assert_int_equal(len, sizeof big);
                big_seen = 1;
            } else if (type == PR_FINALIZE) {
                fin = 1;
            }
        }
    }
    assert_int_equal(got, 100);
    assert_true(big_seen);
    /* end of stream */
    close(sv[0]);
    assert_int_equal(proto_conn_fill(&b), -EPIPE);
    proto_conn_free(&a);
    proto_conn_free(&b);
    close(sv[1]);
}

static void test_blocking_send(void **state)
{
    int sv[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    assert_int_equal(proto_send_blocking(sv[0], PR_JOIN, "\7\0\0\0", 4), 0);
    char buf[64];
    ssize_t n = read(sv[1], buf, sizeof buf);
    assert_int_equal(n, 12);
    uint32_t type, len;
    const void *p;
    assert_int_equal(proto_parse(buf, (size_t)n, &type, &p, &len), 12);
    assert_int_equal(type, PR_JOIN);
    close(sv[1]);
    assert_int_equal(proto_send_blocking(sv[0], PR_JOIN, "x", 1), -EPIPE);
    close(sv[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_underflow),
        cmocka_unit_test(test_parse_partial),
        cmocka_unit_test(test_conn_stream),
        cmocka_unit_test(test_blocking_send),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
