/* HTTP/1.1 request head parser with limits (monitor). */
#include "http.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* %-decode src[0..n) into out (NUL-terminated); '+' is a space when
 * plus_space. -1 on a bad escape, a NUL byte or no room. */
static int pct_decode(const char *src, size_t n, char *out, size_t cap,
                      int plus_space)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)src[i];
        if (c == '%') {
            if (i + 2 >= n)
                return -1; /* fewer than two digits follow */
            int hi = hexval((unsigned char)src[i + 1]);
            int lo = hexval((unsigned char)src[i + 2]);
            if (hi < 0 || lo < 0)
                return -1;
            c = hi * 16 + lo;
            i += 2;
        } else if (c == '+' && plus_space) {
            c = ' ';
        }
        if (c == 0 || k + 1 >= cap)
            return -1;
        out[k++] = (char)c;
    }
    out[k] = 0;
    return 0;
}

static int is_tchar(int c)
{
    return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* One line [p, eol) ending in CRLF (a bare LF is accepted). */
static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl;
}

long mon_http_parse(const char *buf, size_t len, mon_http_req_t *req,
                    const char **why)
{
    /* complete? the head ends with an empty line */
    size_t scan = len < MON_HTTP_MAX_HEAD ? len : MON_HTTP_MAX_HEAD;
    const char *endh = NULL;
    size_t hlen = 0;
    for (size_t i = 0; i < scan; i++) {
        if (buf[i] != '\n')
            continue;
        if (i >= 1 && buf[i - 1] == '\n') {
            endh = buf + i + 1;
            break;
        }
        if (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n') {
            endh = buf + i + 1;
            break;
        }
    }
    if (!endh) {
        if (len >= MON_HTTP_MAX_HEAD) {
            *why = "request head longer than 8192 bytes";
            return -1;
        }
        for (size_t i = 0; i < len; i++)
            if (buf[i] == 0) {
                *why = "NUL byte in the request";
                return -1;
            }
        return 0;
    }
    hlen = (size_t)(endh - buf);
    memset(req, 0, sizeof *req);
    const char *p = buf, *end = endh;

    /* request line: METHOD SP TARGET SP HTTP/1.x */
    const char *eol = line_end(p, end);
    const char *le = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
    const char *sp1 = memchr(p, ' ', (size_t)(le - p));
    if (!sp1 || sp1 == p || sp1 - p >= (long)sizeof req->method) {
        *why = "bad request line (method)";
        return -1;
    }
    for (const char *q = p; q < sp1; q++)
        if (!isupper((unsigned char)*q)) {
            *why = "bad request line (method)";
            return -1;
        }
    memcpy(req->method, p, (size_t)(sp1 - p));
    const char *tgt = sp1 + 1;
    const char *sp2 = memchr(tgt, ' ', (size_t)(le - tgt));
    if (!sp2 || sp2 == tgt) {
        *why = "bad request line (target)";
        return -1;
    }
    if (le - (sp2 + 1) != 8 || memcmp(sp2 + 1, "HTTP/1.", 7) != 0 ||
        (sp2[8] != '0' && sp2[8] != '1')) {
        *why = "bad request line (not HTTP/1.0 or HTTP/1.1)";
        return -1;
    }
    req->minor = sp2[8] - '0';
    req->keep_alive = req->minor == 1;
    size_t tlen = (size_t)(sp2 - tgt);
    if (tlen >= MON_HTTP_MAX_TARGET) {
        *why = "request target longer than 2047 bytes";
        return -1;
    }
    if (tgt[0] != '/') {
        *why = "request target is not an absolute path";
        return -1;
    }
    for (size_t i = 0; i < tlen; i++)
        if ((unsigned char)tgt[i] <= 0x20 || (unsigned char)tgt[i] >= 0x7f) {
            *why = "bad character in the request target";
            return -1;
        }
    const char *qm = memchr(tgt, '?', tlen);
    size_t plen = qm ? (size_t)(qm - tgt) : tlen;
    if (pct_decode(tgt, plen, req->path, sizeof req->path, 0)) {
        *why = "bad %-escape in the path";
        return -1;
    }
    if (qm) {
        memcpy(req->query, qm + 1, tlen - plen - 1);
        req->query[tlen - plen - 1] = 0;
    }

    /* headers: NAME ":" OWS VALUE OWS */
    int nh = 0, host = 0;
    for (p = eol + 1; p < end;) {
        eol = line_end(p, end);
        le = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
        if (le == p)
            break; /* the empty line */
        if (++nh > MON_HTTP_MAX_HEADERS) {
            *why = "more than 64 header fields";
            return -1;
        }
        const char *colon = memchr(p, ':', (size_t)(le - p));
        if (!colon || colon == p) {
            *why = "bad header field (no name)";
            return -1;
        }
        for (const char *q = p; q < colon; q++)
            if (!is_tchar((unsigned char)*q)) {
                *why = "bad header field name";
                return -1;
            }
        const char *v = colon + 1;
        while (v < le && (*v == ' ' || *v == '\t'))
            v++;
        for (const char *q = v; q < le; q++)
            if ((unsigned char)*q < 0x20 && *q != '\t') {
                *why = "control character in a header value";
                return -1;
            }
        size_t nlen = (size_t)(colon - p), vlen = (size_t)(le - v);
        while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
            vlen--;
        if (nlen == 4 && strncasecmp(p, "host", 4) == 0)
            host++;
        else if (nlen == 14 && strncasecmp(p, "content-length", 14) == 0) {
            if (vlen != 1 || v[0] != '0') {
                *why = "request bodies are not accepted";
                return -1;
            }
        } else if (nlen == 17 && strncasecmp(p, "transfer-encoding", 17) == 0) {
            *why = "request bodies are not accepted";
            return -1;
        } else if (nlen == 10 && strncasecmp(p, "connection", 10) == 0) {
            if (vlen == 5 && strncasecmp(v, "close", 5) == 0)
                req->keep_alive = 0;
            else if (vlen == 10 && strncasecmp(v, "keep-alive", 10) == 0)
                req->keep_alive = 1;
        }
        p = eol + 1;
    }
    if (req->minor == 1 && host != 1) {
        *why = "HTTP/1.1 request without exactly one Host field";
        return -1;
    }
    return (long)hlen;
}

int mon_http_query(const char *query, const char *name, char *out, size_t cap)
{
    size_t nlen = strlen(name);
    for (const char *p = query; p && *p;) {
        const char *amp = strchr(p, '&');
        size_t n = amp ? (size_t)(amp - p) : strlen(p);
        if (n > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=')
            return pct_decode(p + nlen + 1, n - nlen - 1, out, cap, 1);
        if (n == nlen && strncmp(p, name, nlen) == 0) {
            if (cap < 1)
                return -1;
            out[0] = 0;
            return 0;
        }
        p = amp ? amp + 1 : NULL;
    }
    return -1;
}
