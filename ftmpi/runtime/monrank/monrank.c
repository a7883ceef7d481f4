/* The rank's reporting thread for the monitor (monrank.h). Payload of
 * ftmpi.mon.R (little-endian, runtime/proto.h's helpers):
 *
 *   u32 version (2), u32 incarnation, u32 n, n x (u64 messages, u64 bytes)
 *   sent to world rank 0..n-1 by this process.
 *
 * (CPU and memory come from the rank's daemon: runtime/daemon/daemon_usage.c.)
 */
#include "runtime/monrank/monrank.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/proc.h"
#include "runtime/proto.h"
#include "runtime/rtc.h"

#define MONRANK_PERIOD_S 1.0   /* counters */
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
} M = {.mu = PTHREAD_MUTEX_INITIALIZER};

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void send_counts(void)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, 2);
    proto_put_u32(&b, ftg.rt.incarnation);
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
 * of changes, a loop of MPI_Comm_dup, goes as its last state), the
 * counters once a period. */
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
            send_counts();
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

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* Start the reporting thread; 0 or -1 (with a message). */
static int reporter_start(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(&M.cv, &ca);
    pthread_condattr_destroy(&ca);
    if (rc != 0) {
        fprintf(stderr, "ftmpi: rank %d: the monitor's report is off (%s)\n",
                ftg.world_rank, strerror(rc));
        return -1;
    }
    snprintf(M.key, sizeof M.key, "ftmpi.mon.%d", ftg.world_rank);
    snprintf(M.ckey, sizeof M.ckey, "ftmpi.mon.%d.comms", ftg.world_rank);
    M.on = 1;
    M.stop = 0;
    send_counts(); /* the first row, so that the head has one at once */
    monrank_comms_changed();
    if ((rc = pthread_create(&M.th, NULL, reporter_main, NULL)) != 0) {
        fprintf(stderr, "ftmpi: rank %d: the monitor's report is off (no thread: %s)\n",
                ftg.world_rank, strerror(rc));
        M.on = 0;
        free(M.comms);
        M.comms = NULL;
        pthread_cond_destroy(&M.cv);
        return -1;
    }
    comm_change_hook = monrank_comms_changed;
    return 0;
}

void monrank_init(void)
{
    int mon = env_on("FTMPI_MONITOR");
    /* the trace library (ftmpirun --trace) writes the counters too */
    if ((!mon && !env_on("FTMPI_TRACE_DIR")) || ftg.singleton || monrank_counts)
        return;
    uint64_t *counts = calloc(2 * (size_t)ftg.world_size, sizeof *counts);
    if (!counts) {
        fprintf(stderr, "ftmpi: rank %d: no message counters (out of memory)\n",
                ftg.world_rank);
        return;
    }
    monrank_nranks = ftg.world_size;
    monrank_counts = counts;
    if (mon)
        (void)reporter_start(); /* the counters stay on for a trace */
}

void monrank_fini(void)
{
    if (M.on) {
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
        send_counts();
        pthread_cond_destroy(&M.cv);
    }
    uint64_t *counts = monrank_counts;
    monrank_counts = NULL;
    free(counts);
}

int monrank_counts_read(uint64_t *msgs, uint64_t *bytes, int n)
{
    const uint64_t *c = monrank_counts;
    if (!c)
        return -1;
    for (int i = 0; i < n && i < monrank_nranks; i++) {
        msgs[i] = __atomic_load_n(&c[2 * i], __ATOMIC_RELAXED);
        bytes[i] = __atomic_load_n(&c[2 * i + 1], __ATOMIC_RELAXED);
    }
    return monrank_nranks;
}

monrank_observer_fn *monrank_observer;
