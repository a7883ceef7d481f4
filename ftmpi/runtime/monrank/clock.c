/* The offset of this process's CLOCK_MONOTONIC from the head's, measured
 * NTP-style through the runtime links (rank -> daemon -> head and back):
 * the head answers the key "ftmpi.clock" with its clock
 * (launcher/head_sync.c); of MONRANK_CLOCK_PINGS round trips the shortest
 * gives the offset, its half the error bound. For ftmpi-trace merge
 * (FTMPI_Clock_offset, docs/tools.md "Traces"). */
#include "runtime/monrank/monrank.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/rtc.h"

#define MONRANK_CLOCK_PINGS 8

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int monrank_clock_offset(double *offset_us, double *error_us)
{
    long long best = -1, off = 0;
    for (int i = 0; i < MONRANK_CLOCK_PINGS; i++) {
        char buf[32];
        size_t len = 0;
        long long t0 = now_ns();
        int rc = rtc_kv_get("ftmpi.clock", buf, sizeof buf - 1, &len);
        long long t1 = now_ns();
        if (rc < 0)
            return rc;
        if (len == 0 || len >= sizeof buf)
            return -EPROTO;
        buf[len] = 0;
        char *end;
        long long head = strtoll(buf, &end, 10);
        if (*end)
            return -EPROTO;
        if (best < 0 || t1 - t0 < best) {
            best = t1 - t0;
            off = head - t0 - (t1 - t0) / 2;
        }
    }
    *offset_us = (double)off / 1e3;
    *error_us = (double)best / 2e3;
    return 0;
}
