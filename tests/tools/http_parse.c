/* tools.http_parse: the monitor's HTTP request parser (runtime/monitor/
 * http.c), request by request: complete, incomplete, and each way a
 * request is refused (400), with its reason. */
#include "runtime/monitor/http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void expect(const char *req, size_t len, long want, const char *why_part,
                   const char *method, const char *path, const char *query)
{
    mon_http_req_t r;
    const char *why = NULL;
    long got = mon_http_parse(req, len, &r, &why);
    int ok = got == want;
    if (ok && want < 0 && why_part && (!why || !strstr(why, why_part)))
        ok = 0;
    if (ok && want > 0 && (strcmp(r.method, method) || strcmp(r.path, path) ||
                           strcmp(r.query, query)))
        ok = 0;
    if (!ok) {
        printf("FAIL: %.60s...: got %ld (%s), wanted %ld (%s)\n", req, got,
               why ? why : "-", want, why_part ? why_part : "-");
        failures++;
    }
}

#define S(x) x, sizeof(x) - 1

int main(void)
{
    const char ok1[] = "GET /api/state?token=ab HTTP/1.1\r\nHost: x\r\n\r\n";
    expect(S(ok1), (long)sizeof ok1 - 1, NULL, "GET", "/api/state", "token=ab");
    const char ok2[] = "POST /api/kill?rank=1&token=z HTTP/1.0\n\n";
    expect(S(ok2), (long)sizeof ok2 - 1, NULL, "POST", "/api/kill", "rank=1&token=z");
    const char ok3[] = "GET /a%20b HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\nGET";
    expect(S(ok3), (long)sizeof ok3 - 4, NULL, "GET", "/a b", "");
    /* incomplete: more is needed */
    expect(S("GET / HTTP/1.1\r\nHost: x\r\n"), 0, NULL, NULL, NULL, NULL);
    expect(S(""), 0, NULL, NULL, NULL, NULL);
    /* refused */
    expect(S("GARBAGE\r\n\r\n"), -1, "method", 0, 0, 0);
    expect(S("get / HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "method", 0, 0, 0);
    expect(S("GET / HTTP/2.0\r\nHost: x\r\n\r\n"), -1, "HTTP/1.0", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\n\r\n"), -1, "Host", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), -1, "Host", 0, 0, 0);
    expect(S("GET api HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "absolute", 0, 0, 0);
    expect(S("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "escape", 0, 0, 0);
    expect(S("GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "escape", 0, 0, 0);
    expect(S("GET /% HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "escape", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"), -1, "bodies", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"), -1, "bodies", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n"), -1, "header", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: x\r\nA\x01: b\r\n\r\n"), -1, "name", 0, 0, 0);
    expect(S("GET / HTTP/1.1\r\nHost: x\r\nA: b\x01\r\n\r\n"), -1, "control", 0, 0, 0);
    expect(S("GET /\x7f HTTP/1.1\r\nHost: x\r\n\r\n"), -1, "character", 0, 0, 0);
    expect(S("GET /a\0b HTTP/1.1\r\n"), -1, "NUL", 0, 0, 0);
    /* limits: an 8 KiB head without its end, a 2 KiB target, 65 fields */
    char *big = malloc(20000);
    memset(big, 'a', 9000);
    memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
    expect(big, 9000, -1, "8192", 0, 0, 0);
    int k = sprintf(big, "GET /");
    memset(big + k, 'b', 2100);
    k += 2100;
    k += sprintf(big + k, " HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(big, (size_t)k, -1, "2047", 0, 0, 0);
    k = sprintf(big, "GET / HTTP/1.1\r\nHost: x\r\n");
    for (int i = 0; i < 64; i++)
        k += sprintf(big + k, "X%d: y\r\n", i);
    k += sprintf(big + k, "\r\n");
    expect(big, (size_t)k, -1, "64", 0, 0, 0);
    free(big);
    /* query parameters */
    char v[16];
    if (mon_http_query("a=1&token=x%41y&b", "token", v, sizeof v) ||
        strcmp(v, "xAy") || mon_http_query("a=1&b", "b", v, sizeof v) ||
        v[0] || !mon_http_query("a=1", "token", v, sizeof v) ||
        !mon_http_query("token=%4", "token", v, sizeof v) ||
        !mon_http_query("token=0123456789abcdefX", "token", v, sizeof v)) {
        printf("FAIL: mon_http_query\n");
        failures++;
    }
    printf("%s (%d failure(s))\n", failures ? "FAIL" : "PASS", failures);
    return failures != 0;
}
