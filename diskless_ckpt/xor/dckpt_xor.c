/*
 * dckpt_xor.c - XOR parity kernels.
 *
 * The fast path works on 64-byte blocks through 64-bit words loaded with
 * memcpy (no alignment or aliasing assumptions); GCC turns the block body
 * into vector loads/stores. Multi-source encode walks the fragments in
 * cache-sized stripes so the parity stripe stays in L1/L2 while every source
 * is folded in.
 */
#include "dckpt_xor.h"

#include <errno.h>
#include <string.h>

#define XOR_STRIPE ((size_t)16 * 1024)

void dckpt_xor_into(uint8_t *restrict dst, const uint8_t *restrict src, size_t len)
{
    size_t i = 0;
    for (; i + 64 <= len; i += 64) {
        uint64_t a[8], b[8];
        memcpy(a, dst + i, sizeof(a));
        memcpy(b, src + i, sizeof(b));
        for (int w = 0; w < 8; w++)
            a[w] ^= b[w];
        memcpy(dst + i, a, sizeof(a));
    }
    for (; i < len; i++)
        dst[i] ^= src[i];
}

void dckpt_xor_into_base(uint8_t *dst, const uint8_t *src, size_t len)
{
    for (size_t i = 0; i < len; i++)
        dst[i] = (uint8_t)(dst[i] ^ src[i]);
}

void dckpt_xor_encode(size_t len, int k, uint8_t *const *data, uint8_t *parity)
{
    for (size_t off = 0; off < len; off += XOR_STRIPE) {
        size_t n = len - off < XOR_STRIPE ? len - off : XOR_STRIPE;
        memcpy(parity + off, data[0] + off, n);
        for (int i = 1; i < k; i++)
            dckpt_xor_into(parity + off, data[i] + off, n);
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
