/*
 * crc32c_bw: throughput of util/crc32c.c (GB/s) per buffer size: the CRC
 * alone, the copy-and-sum (crc32c_copy), and memcpy for scale. Each point
 * is the best of REPS timings of 8 MiB worth of calls on one buffer (in
 * cache up to its size), so a descheduled moment on a loaded machine does
 * not count (short timings: a long one is more often cut by the scheduler,
 * which would favour the faster version). Not an MPI program;
 * bench/crc32c_cmp.sh builds it against two versions of crc32c.c and runs
 * them in turn.
 *   crc32c_bw [REPS]   (default 20)
 */
#include "util/crc32c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { TOTAL = 8 << 20, MAXLEN = 1 << 20 };

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps < 1) {
        fprintf(stderr, "crc32c_bw: REPS must be a positive number\n");
        return 2;
    }
    unsigned char *src = malloc(MAXLEN), *dst = malloc(MAXLEN);
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < MAXLEN; i++)
        src[i] = (unsigned char)(i * 31 + (i >> 9));
    memset(dst, 0, MAXLEN);
    volatile uint32_t sink = 0;
    printf("# crc32c_bw: GB/s, best of %d, hardware crc32: %s\n", reps, crc32c_hw() ? "yes" : "no");
    printf("%-8s %8s %8s %8s\n", "bytes", "crc", "copy+crc", "memcpy");
    for (size_t len = 1024; len <= MAXLEN; len *= 4) {
        size_t calls = TOTAL / len;
        double best[3] = {1e30, 1e30, 1e30};
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < 3; k++) {
                double t = now();
                for (size_t c = 0; c < calls; c++) {
                    if (k == 0)
                        sink ^= crc32c(0, src, len);
                    else if (k == 1)
                        sink ^= crc32c_copy(0, dst, src, len);
                    else {
                        memcpy(dst, src, len);
                        sink ^= dst[c % len];
                    }
                }
                t = now() - t;
                if (t < best[k])
                    best[k] = t;
            }
        }
        printf("%-8zu %8.2f %8.2f %8.2f\n", len, TOTAL * 1e-9 / best[0], TOTAL * 1e-9 / best[1],
               TOTAL * 1e-9 / best[2]);
    }
    free(src);
    free(dst);
    return sink == 0x12345678u; /* keeps the sums; never that value in practice */
}
