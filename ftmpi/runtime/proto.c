/* Runtime wire protocol: encoding, decoding, framing, buffered connections. */
#include "proto.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---------------------------------------------------------------- buffers */

void proto_buf_init(proto_buf_t *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = 0;
}

void proto_buf_free(proto_buf_t *b)
{
    free(b->data);
    proto_buf_init(b);
}

int proto_buf_reserve(proto_buf_t *b, size_t extra)
{
    if (b->err)
        return b->err;
    if (b->len + extra <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    uint8_t *d = realloc(b->data, cap);
    if (!d) {
        b->err = -ENOMEM;
        return b->err;
    }
    b->data = d;
    b->cap = cap;
    return 0;
}

void proto_put_raw(proto_buf_t *b, const void *p, size_t n)
{
    if (n == 0 || proto_buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void proto_put_u32(proto_buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
                    (uint8_t)(v >> 24)};
    proto_put_raw(b, x, 4);
}

void proto_put_i32(proto_buf_t *b, int32_t v) { proto_put_u32(b, (uint32_t)v); }

void proto_put_u64(proto_buf_t *b, uint64_t v)
{
    proto_put_u32(b, (uint32_t)v);
    proto_put_u32(b, (uint32_t)(v >> 32));
}

void proto_put_i64(proto_buf_t *b, int64_t v) { proto_put_u64(b, (uint64_t)v); }

void proto_put_bytes(proto_buf_t *b, const void *p, size_t n)
{
    proto_put_u32(b, (uint32_t)n);
    proto_put_raw(b, p, n);
}

void proto_put_str(proto_buf_t *b, const char *s)
{
    proto_put_bytes(b, s ? s : "", s ? strlen(s) : 0);
}

void proto_frame(proto_buf_t *b, uint32_t type, const void *payload,
                 size_t len)
{
    proto_put_u32(b, type);
    proto_put_u32(b, (uint32_t)len);
    proto_put_raw(b, payload, len);
}

/* ---------------------------------------------------------------- reading */

void proto_rd_init(proto_rd_t *r, const void *p, size_t len)
{
    r->p = p;
    r->len = len;
    r->off = 0;
    r->err = 0;
}

static const uint8_t *rd_take(proto_rd_t *r, size_t n)
{
    if (r->err || r->len - r->off < n) {
        r->err = -EPROTO;
        return NULL;
    }
    const uint8_t *p = r->p + r->off;
    r->off += n;
    return p;
}

static uint32_t le32(const uint8_t *x)
{
    return (uint32_t)x[0] | (uint32_t)x[1] << 8 | (uint32_t)x[2] << 16 |
           (uint32_t)x[3] << 24;
}

uint32_t proto_get_u32(proto_rd_t *r)
{
    const uint8_t *x = rd_take(r, 4);
    return x ? le32(x) : 0;
}

int32_t proto_get_i32(proto_rd_t *r) { return (int32_t)proto_get_u32(r); }

uint64_t proto_get_u64(proto_rd_t *r)
{
    uint64_t lo = proto_get_u32(r);
    uint64_t hi = proto_get_u32(r);
    return lo | hi << 32;
}

int64_t proto_get_i64(proto_rd_t *r) { return (int64_t)proto_get_u64(r); }

const void *proto_get_bytes(proto_rd_t *r, uint32_t *n)
{
    uint32_t len = proto_get_u32(r);
    const uint8_t *p = rd_take(r, len);
    *n = p ? len : 0;
    return p ? (const void *)p : (const void *)"";
}

void proto_get_str(proto_rd_t *r, char *dst, size_t cap)
{
    uint32_t n;
    const void *p = proto_get_bytes(r, &n);
    if (cap == 0)
        return;
    if (r->err || n >= cap) {
        r->err = -EPROTO;
        dst[0] = 0;
        return;
    }
    memcpy(dst, p, n);
    dst[n] = 0;
}

char *proto_get_strdup(proto_rd_t *r)
{
    uint32_t n;
    const void *p = proto_get_bytes(r, &n);
    if (r->err)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->err = -ENOMEM;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

long proto_parse(const void *buf, size_t avail, uint32_t *type_p,
                 const void **payload_p, uint32_t *len_p)
{
    const uint8_t *b = buf;
    if (avail < PROTO_HDR_BYTES)
        return 0;
    uint32_t len = le32(b + 4);
    if (len > PROTO_MAX_PAYLOAD)
        return -EPROTO;
    if (avail - PROTO_HDR_BYTES < len)
        return 0;
    *type_p = le32(b);
    *len_p = len;
    *payload_p = b + PROTO_HDR_BYTES;
    return (long)(PROTO_HDR_BYTES + len);
}

/* ------------------------------------------------------------ connections */

void proto_conn_init(proto_conn_t *c, int fd)
{
    c->fd = fd;
    proto_buf_init(&c->in);
    proto_buf_init(&c->out);
    c->in_off = c->out_off = 0;
}

void proto_conn_free(proto_conn_t *c)
{
    proto_buf_free(&c->in);
    proto_buf_free(&c->out);
    c->in_off = c->out_off = 0;
}

long proto_conn_fill(proto_conn_t *c)
{
    /* Compact: drop consumed bytes. */
    if (c->in_off > 0) {
        memmove(c->in.data, c->in.data + c->in_off, c->in.len - c->in_off);
        c->in.len -= c->in_off;
        c->in_off = 0;
    }
    long total = 0;
    for (;;) {
        if (proto_buf_reserve(&c->in, 16384))
            return -ENOMEM;
        ssize_t n = read(c->fd, c->in.data + c->in.len, c->in.cap - c->in.len);
        if (n > 0) {
            c->in.len += (size_t)n;
            total += n;
            if (c->in.len < c->in.cap)
                return total; /* short read: drained for now */
            continue;
        }
        if (n == 0)
            return total > 0 ? total : -EPIPE;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return total;
        return total > 0 ? total : -errno;
    }
}

int proto_conn_next(proto_conn_t *c, uint32_t *type_p, const void **payload_p,
                    uint32_t *len_p)
{
    long n = proto_parse(c->in.data + c->in_off, c->in.len - c->in_off, type_p,
                         payload_p, len_p);
    if (n < 0)
        return (int)n;
    if (n == 0)
        return 0;
    c->in_off += (size_t)n;
    return 1;
}

int proto_conn_flush(proto_conn_t *c)
{
    while (c->out_off < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->out_off,
                         c->out.len - c->out_off, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == ENOTSOCK)
            n = write(c->fd, c->out.data + c->out_off,
                      c->out.len - c->out_off);
        if (n > 0) {
            c->out_off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        return n < 0 ? -errno : -EPIPE;
    }
    c->out.len = c->out_off = 0;
    return 1;
}

int proto_conn_send(proto_conn_t *c, uint32_t type, const void *payload,
                    size_t len)
{
    if (len > PROTO_MAX_PAYLOAD)
        return -EMSGSIZE;
    proto_frame(&c->out, type, payload, len);
    if (c->out.err) {
        int e = c->out.err;
        c->out.err = 0;
        return e;
    }
    int rc = proto_conn_flush(c);
    return rc < 0 ? rc : 0;
}

int proto_send_blocking(int fd, uint32_t type, const void *payload, size_t len)
{
    if (len > PROTO_MAX_PAYLOAD)
        return -EMSGSIZE;
    uint8_t hdr[PROTO_HDR_BYTES];
    uint32_t v[2] = {type, (uint32_t)len};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            hdr[i * 4 + j] = (uint8_t)(v[i] >> (8 * j));
    struct iovec_like { const uint8_t *p; size_t n; } parts[2] = {
        {hdr, sizeof hdr}, {payload, len}};
    for (int i = 0; i < 2; i++) {
        const uint8_t *p = parts[i].p;
        size_t n = parts[i].n;
        while (n > 0) {
            ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
            if (w < 0 && errno == ENOTSOCK)
                w = write(fd, p, n);
            if (w > 0) {
                p += w;
                n -= (size_t)w;
                continue;
            }
            if (w < 0 && errno == EINTR)
                continue;
            if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                struct pollfd pf = {.fd = fd, .events = POLLOUT};
                poll(&pf, 1, -1);
                continue;
            }
            return w < 0 ? -errno : -EPIPE;
        }
    }
    return 0;
}

void proto_put_strv(proto_buf_t *b, char *const *v)
{
    uint32_t n = 0;
    while (v && v[n])
        n++;
    proto_put_u32(b, n);
    for (uint32_t i = 0; i < n; i++)
        proto_put_str(b, v[i]);
}

void proto_strv_free(char **v)
{
    for (char **a = v; a && *a; a++)
        free(*a);
    free(v);
}

char **proto_get_strv(proto_rd_t *r, uint32_t max)
{
    uint32_t n = proto_get_u32(r);
    if (r->err || n > max)
        return NULL;
    char **v = calloc(n + 1, sizeof *v);
    for (uint32_t i = 0; v && i < n; i++)
        if (!(v[i] = proto_get_strdup(r))) {
            proto_strv_free(v);
            return NULL;
        }
    return v;
}
