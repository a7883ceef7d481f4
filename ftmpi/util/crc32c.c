/*
 * CRC-32C (util/crc32c.h). Hardware: the SSE4.2 crc32 instruction, 8 bytes
 * at a time in three interleaved chains (below), selected once at run time
 * with __builtin_cpu_supports, so the library still runs on a CPU without
 * it. Software: a byte table (built on
 * first use) processing 8 bytes per step ("slicing by 8").
 */
#include "util/crc32c.h"

#include <pthread.h>
#include <string.h>

#define POLY 0x82F63B78u /* 0x1EDC6F41 reflected */

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (POLY & (0u - (c & 1)));
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int s = 1; s < 8; s++)
            table[s][i] = (table[s - 1][i] >> 8) ^ table[0][table[s - 1][i] & 0xff];
}

static uint32_t sw_update(uint32_t c, const unsigned char *p, size_t len)
{
    while (len && ((uintptr_t)p & 7)) {
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
        len--;
    }
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= c;
        c = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^ table[5][(w >> 16) & 0xff] ^
            table[4][(w >> 24) & 0xff] ^ table[3][(w >> 32) & 0xff] ^
            table[2][(w >> 40) & 0xff] ^ table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
    return c;
}

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
    pthread_once(&table_once, table_init);
    return ~sw_update(~crc, buf, len);
}

#if defined(__x86_64__)
#include <nmmintrin.h>

/*
 * Three streams. One crc32 instruction takes 3 cycles before the next one
 * of the same chain may start, but the CPU starts one per cycle: a buffer
 * of 3 blocks of B bytes is summed as three independent chains (the first
 * continuing the CRC so far, the others from 0) and combined at the end.
 * The raw CRC (without the inversions) is linear: the state after X then Y
 * is crc(0, Y) xor Z(state after X), Z advancing a state over |Y| zero
 * bytes, a linear map of 32 bits, kept as 4 tables of 256 (one per byte
 * of the state). Two block sizes: large buffers, then the rest of them
 * and fragments of 1-12 KiB; what is left (under 3 short blocks) is one
 * chain.
 */
enum { BLK_LONG = 4096, BLK_SHORT = 256 };
static uint32_t zadv_long[4][256], zadv_short[4][256];
static pthread_once_t zadv_once = PTHREAD_ONCE_INIT;

/* The tables of Z for n zero bytes (n a multiple of 8), from the images of
 * the 32 single bits (advanced 8 zero bytes per instruction). */
__attribute__((target("sse4.2"))) static void zadv_build(uint32_t z[4][256], size_t n)
{
    uint32_t img[32];
    for (int i = 0; i < 32; i++) {
        uint64_t c = 1u << i;
        for (size_t k = 0; k < n; k += 8)
            c = _mm_crc32_u64(c, 0);
        img[i] = (uint32_t)c;
    }
    for (int byte = 0; byte < 4; byte++) {
        z[byte][0] = 0;
        for (uint32_t v = 1; v < 256; v++) /* v without its lowest bit, plus that bit */
            z[byte][v] = z[byte][v & (v - 1)] ^ img[8 * byte + __builtin_ctz(v)];
    }
}

static void zadv_init(void)
{
    zadv_build(zadv_long, BLK_LONG);
    zadv_build(zadv_short, BLK_SHORT);
}

static inline uint32_t zadv(uint32_t z[4][256], uint32_t c)
{
    return z[0][c & 0xff] ^ z[1][(c >> 8) & 0xff] ^ z[2][(c >> 16) & 0xff] ^ z[3][c >> 24];
}

/* 3 blocks of blk bytes at p (copied to d unless d is NULL). */
__attribute__((target("sse4.2"), always_inline)) static inline uint32_t
hw_three(uint32_t c, unsigned char *d, const unsigned char *p, size_t blk, uint32_t z[4][256])
{
    uint64_t c0 = c, c1 = 0, c2 = 0;
    for (size_t i = 0; i < blk; i += 8) {
        uint64_t w0, w1, w2;
        /* Cold data (a sender's user buffer): each chain waits for memory
         * at every line; the lines of the next three blocks are asked for
         * now (past the end of the buffer a prefetch is harmless). A 1 GiB
         * buffer in 512 KiB pieces: 3.1 -> 4.3 GB/s (medians, loaded). */
        if (!(i & 63)) {
            __builtin_prefetch(p + 3 * blk + i);
            __builtin_prefetch(p + 4 * blk + i);
            __builtin_prefetch(p + 5 * blk + i);
        }
        memcpy(&w0, p + i, 8);
        memcpy(&w1, p + blk + i, 8);
        memcpy(&w2, p + 2 * blk + i, 8);
        if (d) {
            memcpy(d + i, &w0, 8);
            memcpy(d + blk + i, &w1, 8);
            memcpy(d + 2 * blk + i, &w2, 8);
        }
        c0 = _mm_crc32_u64(c0, w0);
        c1 = _mm_crc32_u64(c1, w1);
        c2 = _mm_crc32_u64(c2, w2);
    }
    return zadv(z, zadv(z, (uint32_t)c0) ^ (uint32_t)c1) ^ (uint32_t)c2;
}

/* The raw CRC of len bytes at p, continued from c, copying them to d
 * unless d is NULL (one function: the compiler makes both forms). */
__attribute__((target("sse4.2"), always_inline)) static inline uint32_t
hw_run(uint32_t c, unsigned char *d, const unsigned char *p, size_t len)
{
    if (len >= 3 * BLK_SHORT)
        pthread_once(&zadv_once, zadv_init);
    for (; len >= 3 * BLK_LONG; len -= 3 * BLK_LONG) {
        c = hw_three(c, d, p, BLK_LONG, zadv_long);
        p += 3 * BLK_LONG;
        d = d ? d + 3 * BLK_LONG : NULL;
    }
    for (; len >= 3 * BLK_SHORT; len -= 3 * BLK_SHORT) {
        c = hw_three(c, d, p, BLK_SHORT, zadv_short);
        p += 3 * BLK_SHORT;
        d = d ? d + 3 * BLK_SHORT : NULL;
    }
    uint64_t c64 = c;
    for (; len >= 8; len -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (d) {
            memcpy(d, &w, 8);
            d += 8;
        }
        c64 = _mm_crc32_u64(c64, w);
    }
    for (; len; len--, p++) {
        if (d)
            *d++ = *p;
        c64 = _mm_crc32_u8((uint32_t)c64, *p);
    }
    return (uint32_t)c64;
}

__attribute__((target("sse4.2"))) static uint32_t hw_update(uint32_t c, const unsigned char *p,
                                                            size_t len)
{
    return hw_run(c, NULL, p, len);
}

__attribute__((target("sse4.2"))) static uint32_t hw_copy(uint32_t c, unsigned char *d,
                                                          const unsigned char *p, size_t len)
{
    return hw_run(c, d, p, len);
}

static int have_hw = -1;

int crc32c_hw(void)
{
    if (have_hw < 0) {
        __builtin_cpu_init();
        have_hw = __builtin_cpu_supports("sse4.2") ? 1 : 0;
    }
    return have_hw;
}
#else
int crc32c_hw(void) { return 0; }
#endif

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
    if (crc32c_hw())
        return ~hw_update(~crc, buf, len);
#endif
    return crc32c_sw(crc, buf, len);
}

uint32_t crc32c_copy(uint32_t crc, void *dst, const void *src, size_t len)
{
#if defined(__x86_64__)
    if (crc32c_hw())
        return ~hw_copy(~crc, dst, src, len);
#endif
    memcpy(dst, src, len);
    return crc32c_sw(crc, dst, len);
}
