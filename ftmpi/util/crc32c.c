/*
 * CRC-32C (util/crc32c.h). Hardware: the SSE4.2 crc32 instruction, 8 bytes
 * at a time, selected once at run time with __builtin_cpu_supports, so the
 * library still runs on a CPU without it. Software: a byte table (built on
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

__attribute__((target("sse4.2"))) static uint32_t hw_update(uint32_t c, const unsigned char *p,
                                                            size_t len)
{
    uint64_t c64 = c;
    while (len && ((uintptr_t)p & 7)) {
        c64 = _mm_crc32_u8((uint32_t)c64, *p++);
        len--;
    }
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c64 = _mm_crc32_u64(c64, w);
        p += 8;
        len -= 8;
    }
    while (len--)
        c64 = _mm_crc32_u8((uint32_t)c64, *p++);
    return (uint32_t)c64;
}

__attribute__((target("sse4.2"))) static uint32_t hw_copy(uint32_t c, unsigned char *d,
                                                          const unsigned char *p, size_t len)
{
    uint64_t c64 = c;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        memcpy(d, &w, 8);
        c64 = _mm_crc32_u64(c64, w);
        p += 8;
        d += 8;
        len -= 8;
    }
    while (len--) {
        *d++ = *p;
        c64 = _mm_crc32_u8((uint32_t)c64, *p++);
    }
    return (uint32_t)c64;
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
