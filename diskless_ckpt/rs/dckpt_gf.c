/*
 * dckpt_gf.c - reference GF(2^8) arithmetic: log/exp tables, inverse,
 * Cauchy generator matrix, Gauss-Jordan inversion, byte-wise multiply-add.
 */
#include "dckpt_gf.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define GF_POLY 0x11d /* x^8 + x^4 + x^3 + x^2 + 1 */

static uint8_t gf_exp[512]; /* doubled so that exp[log a + log b] needs no modulo */
static uint8_t gf_log[256];
static pthread_once_t gf_once = PTHREAD_ONCE_INIT;

static void gf_tables_build(void)
{
    unsigned x = 1;
    for (int i = 0; i < 255; i++) {
        gf_exp[i] = (uint8_t)x;
        gf_log[x] = (uint8_t)i;
        x <<= 1;
        if (x & 0x100)
            x ^= GF_POLY;
    }
    for (int i = 255; i < 512; i++)
        gf_exp[i] = gf_exp[i - 255];
    gf_log[0] = 0; /* never used: callers test for zero first */
}

static inline void gf_tables_ensure(void)
{
    pthread_once(&gf_once, gf_tables_build);
}

uint8_t dckpt_gf_mul(uint8_t a, uint8_t b)
{
    gf_tables_ensure();
    if (a == 0 || b == 0)
        return 0;
    return gf_exp[gf_log[a] + gf_log[b]];
}

uint8_t dckpt_gf_inv(uint8_t a)
{
    gf_tables_ensure();
    if (a == 0)
        return 0;
    return gf_exp[255 - gf_log[a]];
}

int dckpt_gf_gen_cauchy(uint8_t *a, int k, int m)
{
    if (a == NULL || k < 1 || m < 1 || k + m > 256)
        return -EINVAL;
    memset(a, 0, (size_t)(k + m) * (size_t)k);
    for (int i = 0; i < k; i++)
        a[(size_t)i * k + i] = 1;
    for (int i = k; i < k + m; i++)
        for (int j = 0; j < k; j++)
            a[(size_t)i * k + j] = dckpt_gf_inv((uint8_t)(i ^ j));
    return 0;
}

static void gf_row_swap(uint8_t *mat, int n, int r1, int r2)
{
    for (int j = 0; j < n; j++) {
        uint8_t t = mat[(size_t)r1 * n + j];
        mat[(size_t)r1 * n + j] = mat[(size_t)r2 * n + j];
        mat[(size_t)r2 * n + j] = t;
    }
}

int dckpt_gf_invert(uint8_t *in, uint8_t *out, int n)
{
    if (in == NULL || out == NULL || n < 1)
        return -EINVAL;
    memset(out, 0, (size_t)n * n);
    for (int i = 0; i < n; i++)
        out[(size_t)i * n + i] = 1;

    for (int col = 0; col < n; col++) {
        int piv = col;
        while (piv < n && in[(size_t)piv * n + col] == 0)
            piv++;
        if (piv == n)
            return -EDOM;
        if (piv != col) {
            gf_row_swap(in, n, piv, col);
            gf_row_swap(out, n, piv, col);
        }
        /* scale the pivot row to a leading 1 */
        uint8_t s = dckpt_gf_inv(in[(size_t)col * n + col]);
        for (int j = 0; j < n; j++) {
            in[(size_t)col * n + j] = dckpt_gf_mul(s, in[(size_t)col * n + j]);
            out[(size_t)col * n + j] = dckpt_gf_mul(s, out[(size_t)col * n + j]);
        }
        /* clear the column in every other row (addition is XOR) */
        for (int r = 0; r < n; r++) {
            uint8_t f = in[(size_t)r * n + col];
            if (r == col || f == 0)
                continue;
            for (int j = 0; j < n; j++) {
                in[(size_t)r * n + j] ^= dckpt_gf_mul(f, in[(size_t)col * n + j]);
                out[(size_t)r * n + j] ^= dckpt_gf_mul(f, out[(size_t)col * n + j]);
            }
        }
    }
    return 0;
}

static void gf_mul_table(uint8_t c, uint8_t tbl[256])
{
    for (int x = 0; x < 256; x++)
        tbl[x] = dckpt_gf_mul(c, (uint8_t)x);
}

void dckpt_gf_mad_base(size_t len, uint8_t c, const uint8_t *src, uint8_t *dst)
{
    uint8_t tbl[256];
    if (c == 0)
        return;
    gf_mul_table(c, tbl);
    for (size_t i = 0; i < len; i++)
        dst[i] ^= tbl[src[i]];
}

void dckpt_gf_mul_vec_base(size_t len, uint8_t c, const uint8_t *src, uint8_t *dst)
{
    uint8_t tbl[256];
    gf_mul_table(c, tbl);
    for (size_t i = 0; i < len; i++)
        dst[i] = tbl[src[i]];
}
