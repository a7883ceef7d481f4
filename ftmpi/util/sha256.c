/* SHA-256 and HMAC-SHA256 (see sha256.h). */
#include "sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) +
                      ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) +
                      ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

void ft_sha256_init(ft_sha256_t *c)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                   0xa54ff53a, 0x510e527f, 0x9b05688c,
                                   0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->nbytes = 0;
    c->nbuf = 0;
}

void ft_sha256_update(ft_sha256_t *c, const void *data, size_t n)
{
    const uint8_t *p = data;
    c->nbytes += n;
    if (c->nbuf) {
        size_t take = FT_SHA256_BLOCK - c->nbuf;
        if (take > n)
            take = n;
        memcpy(c->buf + c->nbuf, p, take);
        c->nbuf += take;
        p += take;
        n -= take;
        if (c->nbuf < FT_SHA256_BLOCK)
            return;
        block(c->h, c->buf);
        c->nbuf = 0;
    }
    for (; n >= FT_SHA256_BLOCK; p += FT_SHA256_BLOCK, n -= FT_SHA256_BLOCK)
        block(c->h, p);
    memcpy(c->buf, p, n);
    c->nbuf = n;
}

void ft_sha256_final(ft_sha256_t *c, uint8_t out[FT_SHA256_BYTES])
{
    uint64_t bits = c->nbytes * 8;
    uint8_t pad[FT_SHA256_BLOCK + 8] = {0x80};
    size_t padlen = (c->nbuf < 56 ? 56 : 120) - c->nbuf;
    for (int i = 0; i < 8; i++)
        pad[padlen + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    ft_sha256_update(c, pad, padlen + 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->h[i];
    }
    memset(c, 0, sizeof *c);
}

void ft_sha256(const void *p, size_t n, uint8_t out[FT_SHA256_BYTES])
{
    ft_sha256_t c;
    ft_sha256_init(&c);
    ft_sha256_update(&c, p, n);
    ft_sha256_final(&c, out);
}

void ft_hmac_init(ft_hmac_t *c, const void *key, size_t keylen)
{
    uint8_t k[FT_SHA256_BLOCK] = {0}, pad[FT_SHA256_BLOCK];
    if (keylen > FT_SHA256_BLOCK)
        ft_sha256(key, keylen, k);
    else
        memcpy(k, key, keylen);
    for (int i = 0; i < FT_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x36;
    ft_sha256_init(&c->inner);
    ft_sha256_update(&c->inner, pad, sizeof pad);
    for (int i = 0; i < FT_SHA256_BLOCK; i++)
        pad[i] = k[i] ^ 0x5c;
    ft_sha256_init(&c->outer);
    ft_sha256_update(&c->outer, pad, sizeof pad);
    memset(k, 0, sizeof k);
}

void ft_hmac_update(ft_hmac_t *c, const void *p, size_t n)
{
    ft_sha256_update(&c->inner, p, n);
}

void ft_hmac_final(ft_hmac_t *c, uint8_t out[FT_SHA256_BYTES])
{
    uint8_t ih[FT_SHA256_BYTES];
    ft_sha256_final(&c->inner, ih);
    ft_sha256_update(&c->outer, ih, sizeof ih);
    ft_sha256_final(&c->outer, out);
}

void ft_hmac_sha256(const void *key, size_t keylen, const void *msg,
                    size_t n, uint8_t out[FT_SHA256_BYTES])
{
    ft_hmac_t c;
    ft_hmac_init(&c, key, keylen);
    ft_hmac_update(&c, msg, n);
    ft_hmac_final(&c, out);
}

int ft_ct_equal(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = a, *y = b;
    uint8_t d = 0;
    for (size_t i = 0; i < n; i++)
        d |= x[i] ^ y[i];
    return d == 0;
}
