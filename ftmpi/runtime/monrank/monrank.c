/* The rank's reporting thread for the monitor (monrank.h). Payload of
 * ftmpi.mon.R (little-endian, runtime/proto.h's helpers):
 *
 *   u32 version (1), u32 incarnation, u64 resident KiB, u64 bits of a
 *   double: CPU share of one core since the previous report (percent,
 *   negative for the first), u32 n, n x (u64 messages, u64 bytes) sent to
 *   world rank 0..n-1 by this process.
 */
#include "runtime/monrank/monrank.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/proc.h"
#include "runtime/proto.h"
#include "runtime/rtc.h"

#define MONRANK_PERIOD_S 1.0   /* usage and counters */
#define MONRANK_MIN_GAP_NS 50000000L /* between two communicator reports */

uint64_t *monrank_counts;
int monrank_nranks;

static struct {
    int on, stop;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    void *comms;          /* the newest description, not sent yet */
    size_t comms_len;
    char key[48], ckey[48];
    double cpu_prev, t_prev; /* CPU seconds and time of the last report */
} M = {.mu = PTHREAD_MUTEX_INITIALIZER};

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static uint64_t rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "re");
    unsigned long size = 0, resident = 0;
    if (!f)
        return 0;
    int ok = fscanf(f, "%lu %lu", &size, &resident) == 2;
    fclose(f);
    return ok ? (uint64_t)resident * (uint64_t)(sysconf(_SC_PAGESIZE) / 1024) : 0;
}

static void send_usage(void)
{
    double now = mono_now(), cpu = cpu_seconds();
    double pct = M.t_prev > 0 && now > M.t_prev ? 100.0 * (cpu - M.cpu_prev) / (now - M.t_prev)
                                                 : -1.0;
    M.cpu_prev = cpu;
    M.t_prev = now;
    uint64_t bits;
    memcpy(&bits, &pct, sizeof bits);
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, 1);
    proto_put_u32(&b, ftg.rt.incarnation);
    proto_put_u64(&b, rss_kib());
    proto_put_u64(&b, bits);
    proto_put_u32(&b, (uint32_t)monrank_nranks);
    for (int i = 0; i < 2 * monrank_nranks; i++)
        proto_put_u64(&b, __atomic_load_n(&monrank_counts[i], __ATOMIC_RELAXED));
    if (!b.err)
        (void)rtc_kv_put(M.key, b.data, b.len);
    proto_buf_free(&b);
}

/* Under M.mu: send the newest communicator description, if any. */
static void send_comms_locked(void)
{
    void *buf = M.comms;
    size_t len = M.comms_len;
    M.comms = NULL;
    pthread_mutex_unlock(&M.mu);
    if (buf)
        (void)rtc_kv_put(M.ckey, buf, len);
    free(buf);
    pthread_mutex_lock(&M.mu);
}

/* Sends the communicators when they changed (at most every 50 ms: a burst
 * of changes, a loop of MPI_Comm_dup, goes as its last state), the usage
 * and counters once a period. */
static void *reporter_main(void *arg)
{
    (void)arg;
    double next = mono_now() + MONRANK_PERIOD_S;
    pthread_mutex_lock(&M.mu);
    while (!M.stop) {
        if (M.comms) {
            send_comms_locked();
            pthread_mutex_unlock(&M.mu);
            nanosleep(&(struct timespec){0, MONRANK_MIN_GAP_NS}, NULL);
            pthread_mutex_lock(&M.mu);
            continue;
        }
        if (mono_now() >= next) {
            pthread_mutex_unlock(&M.mu);
            send_usage();
            pthread_mutex_lock(&M.mu);
            next = mono_now() + MONRANK_PERIOD_S;
            continue;
        }
        struct timespec until;
        until.tv_sec = (time_t)next;
        until.tv_nsec = (long)((next - (double)until.tv_sec) * 1e9);
        int rc = pthread_cond_timedwait(&M.cv, &M.mu, &until);
        if (rc != 0 && rc != ETIMEDOUT && rc != EINTR)
            break;
    }
    pthread_mutex_unlock(&M.mu);
    return NULL;
}

void monrank_comms_publish(void *buf, size_t len)
{
    pthread_mutex_lock(&M.mu);
    if (!M.on) {
        pthread_mutex_unlock(&M.mu);
        free(buf);
        return;
    }
    free(M.comms);
    M.comms = buf;
    M.comms_len = len;
    pthread_cond_signal(&M.cv);
    pthread_mutex_unlock(&M.mu);
}

void monrank_init(void)
{
    const char *v = getenv("FTMPI_MONITOR");
    if (!v || !*v || strcmp(v, "0") == 0 || ftg.singleton || M.on)
        return;
    uint64_t *counts = calloc(2 * (size_t)ftg.world_size, sizeof *counts);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&M.cv, &ca);
    pthread_condattr_destroy(&ca);
    if (!counts || rc != 0) {
        free(counts);
        fprintf(stderr, "ftmpi: rank %d: the monitor's report is off (out of memory)\n",
                ftg.world_rank);
        return;
    }
    snprintf(M.key, sizeof M.key, "ftmpi.mon.%d", ftg.world_rank);
    snprintf(M.ckey, sizeof M.ckey, "ftmpi.mon.%d.comms", ftg.world_rank);
    monrank_nranks = ftg.world_size;
    monrank_counts = counts;
    M.on = 1;
    M.stop = 0;
    M.t_prev = 0;
    send_usage(); /* the first sample, so that the head has a row at once */
    monrank_comms_changed();
    if (pthread_create(&M.th, NULL, reporter_main, NULL) != 0) {
        fprintf(stderr, "ftmpi: rank %d: the monitor's report is off (no thread)\n",
                ftg.world_rank);
        M.on = 0;
        monrank_counts = NULL;
        free(counts);
        free(M.comms);
        M.comms = NULL;
        pthread_cond_destroy(&M.cv);
        return;
    }
    comm_change_hook = monrank_comms_changed;
}

void monrank_fini(void)
{
    if (!M.on)
        return;
    comm_change_hook = NULL;
    pthread_mutex_lock(&M.mu);
    M.stop = 1;
    pthread_cond_signal(&M.cv);
    pthread_mutex_unlock(&M.mu);
    pthread_join(M.th, NULL);
    /* the last state: every message this process sent is in the matrix */
    pthread_mutex_lock(&M.mu);
    send_comms_locked();
    M.on = 0;
    pthread_mutex_unlock(&M.mu);
    send_usage();
    pthread_cond_destroy(&M.cv);
    uint64_t *counts = monrank_counts;
    monrank_counts = NULL;
    free(counts);
}
