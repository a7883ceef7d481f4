/*
 * test_util.h - helpers shared by the kernel unit tests: a deterministic
 * PRNG and buffers with guard bytes on both ends to catch overruns.
 */
#ifndef DCKPT_TEST_UTIL_H
#define DCKPT_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TU_GUARD 64
#define TU_GUARD_BYTE 0xA5

static inline uint64_t tu_rand(uint64_t *s)
{
    /* xorshift64* */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static inline void tu_fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(tu_rand(&s) >> 56);
}

/* A buffer of n usable bytes starting `skew` bytes after an aligned address. */
typedef struct tu_buf {
    uint8_t *raw;
    uint8_t *p;
    size_t n;
} tu_buf_t;

static inline tu_buf_t tu_buf_new(size_t n, unsigned skew)
{
    tu_buf_t b;
    b.raw = malloc(n + 2 * TU_GUARD + 64);
    b.n = n;
    b.p = b.raw + TU_GUARD + (skew % 64);
    memset(b.raw, TU_GUARD_BYTE, n + 2 * TU_GUARD + 64);
    return b;
}

/* 1 when both guard zones are intact */
static inline int tu_buf_guards_ok(const tu_buf_t *b)
{
    for (uint8_t *q = b->raw; q < b->p; q++)
        if (*q != TU_GUARD_BYTE)
            return 0;
    for (uint8_t *q = b->p + b->n; q < b->p + b->n + TU_GUARD; q++)
        if (*q != TU_GUARD_BYTE)
            return 0;
    return 1;
}

static inline void tu_buf_free(tu_buf_t *b)
{
    free(b->raw);
    b->raw = b->p = NULL;
}

/* Visit every subset of {0..n-1} of size 1..maxsz: next_subset style counter. */
static inline int tu_next_combination(int *idx, int r, int n)
{
    int i = r - 1;
    while (i >= 0 && idx[i] == n - r + i)
        i--;
    if (i < 0)
        return 0;
    idx[i]++;
    for (int j = i + 1; j < r; j++)
        idx[j] = idx[j - 1] + 1;
    return 1;
}

#endif /* DCKPT_TEST_UTIL_H */
