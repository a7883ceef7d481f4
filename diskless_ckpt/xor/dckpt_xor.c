/*
 * dckpt_xor.c - XOR parity kernels.
 *
 * The fast path is a plain counted loop over restrict pointers that the
 * compiler vectorizes (the file is built with -O3); the reference twin is
 * kept scalar. Multi-source encode walks the fragments in cache-sized stripes
 * so the parity stripe stays in L1/L2 while every source is folded in.
 */
#include "dckpt_xor.h"

#include <errno.h>
#include <string.h>

#define XOR_STRIPE ((size_t)16 * 1024)

void dckpt_xor_into(uint8_t *restrict dst, const uint8_t *restrict src, size_t len)
{
    /* restrict + a counted loop: vectorized at -O3 (16/32-byte lanes) */
    for (size_t i = 0; i < len; i++)
        dst[i] ^= src[i];
}

/* The reference must stay scalar whatever the flags, or it proves nothing. */
__attribute__((noinline)) void dckpt_xor_into_base(uint8_t *dst, const uint8_t *src, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        dst[i] = (uint8_t)(dst[i] ^ src[i]);
        __asm__ volatile("" ::: "memory"); /* keeps the vectorizer out */
    }
}

/* dst = a ^ b, and dst ^= a ^ b ^ c: fewer passes over the parity stripe */
static void xor_set2(uint8_t *restrict dst, const uint8_t *restrict a, const uint8_t *restrict b,
                     size_t len)
{
    for (size_t i = 0; i < len; i++)
        dst[i] = a[i] ^ b[i];
}

static void xor_into3(uint8_t *restrict dst, const uint8_t *restrict a,
                      const uint8_t *restrict b, const uint8_t *restrict c, size_t len)
{
    for (size_t i = 0; i < len; i++)
        dst[i] ^= a[i] ^ b[i] ^ c[i];
}

void dckpt_xor_encode(size_t len, int k, uint8_t *const *data, uint8_t *parity)
{
    for (size_t off = 0; off < len; off += XOR_STRIPE) {
        size_t n = len - off < XOR_STRIPE ? len - off : XOR_STRIPE;
        uint8_t *p = parity + off;
        int i;
        if (k >= 2) {
            xor_set2(p, data[0] + off, data[1] + off, n);
            i = 2;
        } else {
            memcpy(p, data[0] + off, n);
            i = 1;
        }
        for (; i + 3 <= k; i += 3)
            xor_into3(p, data[i] + off, data[i + 1] + off, data[i + 2] + off, n);
        for (; i < k; i++)
            dckpt_xor_into(p, data[i] + off, n);
    }
}

void dckpt_xor_encode_base(size_t len, int k, uint8_t *const *data, uint8_t *parity)
{
    memset(parity, 0, len);
    for (int i = 0; i < k; i++)
        dckpt_xor_into_base(parity, data[i], len);
}

/* XOR of all fragments but `err` is fragment `err`: the same for data and parity. */
static int xor_decode(size_t len, int k, int err, uint8_t *const *frags, int base)
{
    if (k < 1 || err < 0 || err > k || frags == NULL)
        return -EINVAL;
    uint8_t *src[k];
    for (int f = 0, s = 0; f <= k; f++)
        if (f != err)
            src[s++] = frags[f];
    if (base)
        dckpt_xor_encode_base(len, k, src, frags[err]);
    else
        dckpt_xor_encode(len, k, src, frags[err]);
    return 0;
}

int dckpt_xor_decode(size_t len, int k, int err, uint8_t *const *frags)
{
    return xor_decode(len, k, err, frags, 0);
}

int dckpt_xor_decode_base(size_t len, int k, int err, uint8_t *const *frags)
{
    return xor_decode(len, k, err, frags, 1);
}
