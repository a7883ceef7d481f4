/*
 * Test program for the runtime: uses rtc.h directly (no MPI). Run under
 * ftmpirun by rt_driver.sh; the first argument picks the scenario.
 */
#include "runtime/rtc.h"
#include "transport/shm/shm_seg.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static rtc_info_t info;
static shmseg_slot_t *me;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "rank %d: %s: %s\n", info.rank, what, strerror(-rc));
    exit(3);
}

static void init(void)
{
    int rc = rtc_init(&info);
    if (rc)
        die("rtc_init", rc);
    if (info.shm_base && info.local_slot >= 0)
        me = shmseg_slot(info.shm_base, (uint32_t)info.local_slot);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* Wait for the next event the way the MPI library does: check, then sleep
 * on the slot's doorbell. 1 with *ev, 0 on timeout. */
static int wait_event(rtc_event_t *ev, double timeout_s)
{
    double end = now() + timeout_s;
    for (;;) {
        int rc = rtc_next_event(ev, 0);
        if (rc < 0)
            die("rtc_next_event", rc);
        if (rc == 1)
            return 1;
        if (now() >= end)
            return 0;
        if (!me) {
            usleep(1000);
            continue;
        }
        atomic_fetch_add(&me->sleepers, 1);
        uint32_t v = atomic_load(&me->doorbell);
        if (!rtc_event_ready())
            ft_futex_wait(&me->doorbell, v, 100000000L);
        atomic_fetch_sub(&me->sleepers, 1);
    }
}

static void print_recovery(const char *tag, const rtc_recovery_t *r)
{
    char buf[4096];
    size_t k = 0;
    k += (size_t)snprintf(buf + k, sizeof buf - k, "gen=%u size=%d failed=",
                          r->generation, r->size);
    for (int i = 0; i < r->nfailed; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", i ? "," : "",
                              r->failed[i]);
    k += (size_t)snprintf(buf + k, sizeof buf - k, " procs=");
    for (int i = 0; i < r->size && k < sizeof buf - 64; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d:%d:%d:%u",
                              i ? "," : "", i, r->alive[i], r->pid[i],
                              r->incarnation[i]);
    k += (size_t)snprintf(buf + k, sizeof buf - k, " hosts=");
    for (int i = 0; i < r->size && k < sizeof buf - 16; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%d", i ? "," : "",
                              r->host[i]);
    printf("%s rank %d inc %u: %s\n", tag, info.rank, info.incarnation, buf);
}

/* ---------------------------------------------------------- scenarios */

static int sc_exit(int code)
{
    init();
    rtc_fence();
    rtc_finalize();
    return info.rank == info.size - 1 ? code : 0;
}

static int sc_kv(void)
{
    init();
    char key[64], val[128], got[128];
    snprintf(key, sizeof key, "ep-%d", info.rank);
    snprintf(val, sizeof val, "endpoint of %d pid %d", info.rank,
             (int)getpid());
    int rc = rtc_kv_put(key, val, strlen(val) + 1);
    if (rc)
        die("kv_put", rc);
    if ((rc = rtc_fence()))
        die("fence", rc);
    for (int r = 0; r < info.size; r++) {
        size_t len;
        snprintf(key, sizeof key, "ep-%d", r);
        if ((rc = rtc_kv_get(key, got, sizeof got, &len)))
            die("kv_get", rc);
        snprintf(val, sizeof val, "endpoint of %d pid %d", r,
                 info.pid_of_rank[r]);
        if (strcmp(got, val) != 0 || len != strlen(val) + 1) {
            fprintf(stderr, "rank %d: kv mismatch for %d: '%s' vs '%s'\n",
                    info.rank, r, got, val);
            return 4;
        }
    }
    /* A get that waits for a later put. */
    if (info.rank == 0) {
        usleep(20000);
        rtc_kv_put("late", "x", 2);
    } else {
        size_t len;
        if ((rc = rtc_kv_get("late", got, sizeof got, &len)) || len != 2)
            die("kv_get late", rc ? rc : -EPROTO);
    }
    /* Too small a buffer. */
    size_t len = 0;
    snprintf(key, sizeof key, "ep-%d", info.rank);
    if (rtc_kv_get(key, got, 4, &len) != -EMSGSIZE || len < 5) {
        fprintf(stderr, "rank %d: short buffer not reported\n", info.rank);
        return 4;
    }
    /* Nothing pending: a forced look returns at once, and so does the
     * fast path. */
    rtc_event_t ev;
    double t = now();
    if (rtc_next_event(&ev, 1) != 0 || rtc_next_event(&ev, 0) != 0 ||
        now() - t > 1.0) {
        fprintf(stderr, "rank %d: an event out of nowhere\n", info.rank);
        return 4;
    }
    /* Suspecting a live process is cleared, not a failure. */
    if (info.rank == 0 && info.size > 1)
        rtc_suspect(info.size - 1);
    for (int i = 0; i < 5; i++)
        if ((rc = rtc_fence()))
            die("fence", rc);
    /* Info consistency. */
    if (info.slot_of_rank[info.rank] != info.local_slot ||
        info.pid_of_rank[info.rank] != (int)getpid()) {
        fprintf(stderr, "rank %d: info mismatch\n", info.rank);
        return 4;
    }
    if ((rc = rtc_finalize()))
        die("finalize", rc);
    printf("kv ok rank %d of %d\n", info.rank, info.size);
    return 0;
}

static int __attribute__((noreturn)) sc_hang(void)
{
    init();
    printf("pid %d rank %d ppid %d host %d\n", (int)getpid(), info.rank,
           (int)getppid(), info.hostid);
    for (;;)
        pause();
}

/* Wait for `n` failure events; print each. Then finalize. */
static int sc_events(int n)
{
    init();
    printf("pid %d rank %d ppid %d host %d\n", (int)getpid(), info.rank,
           (int)getppid(), info.hostid);
    rtc_fence();
    int seen = 0;
    while (seen < n) {
        rtc_event_t ev;
        if (!wait_event(&ev, 20.0)) {
            fprintf(stderr, "rank %d: no event\n", info.rank);
            return 5;
        }
        if (ev.kind == RTC_EV_FAILURE) {
            printf("event rank %d: failure of %d sig %d code %d at %.6f\n",
                   info.rank, ev.rank, ev.signal, ev.exit_code, now());
            seen++;
        }
        rtc_event_free(&ev);
    }
    rtc_finalize();
    return 0;
}

/* The victim(s) die by themselves or are killed; every survivor prints
 * the failure and when it learned of it relative to the fence. */
/* Loop over fault point NAME; survivors (not replacements) then wait for
 * `wait_failures` failure events before they finalize. */
static int sc_fault(const char *name, int iters, int wait_failures)
{
    init();
    rtc_fence();
    for (int i = 0; i < iters; i++) {
        rtc_fault_point(name, i);
        usleep(1000);
    }
    for (int seen = 0; seen < wait_failures && !info.restarted;) {
        rtc_event_t ev;
        if (!wait_event(&ev, 20.0))
            return 5;
        seen += ev.kind == RTC_EV_FAILURE;
        rtc_event_free(&ev);
    }
    printf("rank %d inc %u done\n", info.rank, info.incarnation);
    rtc_finalize();
    return 0;
}

static int __attribute__((noreturn)) sc_abort(int code)
{
    init();
    if (info.rank == info.size - 1) {
        usleep(50000);
        rtc_abort(code, "test abort");
    }
    rtc_fence(); /* never completes: the job is killed */
    for (;;)
        pause();
}

/* Recovery: survivors wait for a failure, join, print the result.
 * Replacements join from init. `rounds` failures are expected. */
static int sc_recover(int rounds)
{
    init();
    if (info.restarted)
        printf("restarted rank %d inc %u gen %u host %d\n", info.rank,
               info.incarnation, info.generation, info.hostid);
    else {
        rtc_fence();
        printf("ready rank %d host %d\n", info.rank, info.hostid);
    }
    uint32_t gen = info.generation;
    int need_join = info.restarted, joined = 0;
    int done = 0;
    while (done < rounds) {
        if (need_join) {
            /* RT_JOIN_DELAY_MS: rank 0 joins its first round late, so that
             * a test can kill a process while the round waits. */
            const char *d = getenv("RT_JOIN_DELAY_MS");
            if (d && info.rank == 0 && !info.restarted && gen == info.generation)
                usleep((useconds_t)atoi(d) * 1000);
            rtc_recovery_join(gen);
            need_join = 0;
            joined = 1;
            rtc_fault_point("joined", (long)gen); /* --kill-at joined=G@R */
        }
        rtc_event_t ev;
        if (!wait_event(&ev, 30.0)) {
            fprintf(stderr, "rank %d: no event\n", info.rank);
            return 5;
        }
        if (ev.kind == RTC_EV_FAILURE) {
            /* A failure seen after joining and before RECOVERED is part of
             * the round joined: join only when not waiting already. */
            if (!joined)
                need_join = 1;
        } else if (ev.kind == RTC_EV_RECOVERED) {
            rtc_recovery_t *r = ev.data;
            print_recovery("recovered", r);
            gen = r->generation;
            done = (int)gen;
            need_join = joined = 0;
            rtc_fault_point("recovered", (long)gen); /* --kill-at recovered=G@R */
        }
        rtc_event_free(&ev);
    }
    rtc_finalize();
    return 0;
}

/* Does any process's command line or environment hold s? (root reads
 * every /proc/PID; a leak is printed) */
static int secret_leaks(const char *s)
{
    int leaks = 0;
    char path[300];
    static char buf[1 << 16];
    DIR *dir = opendir("/proc");
    struct dirent *de;
    while (dir && (de = readdir(dir))) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        for (int f = 0; f < 2; f++) {
            snprintf(path, sizeof path, "/proc/%s/%s", de->d_name,
                     f ? "environ" : "cmdline");
            FILE *fp = fopen(path, "r");
            if (!fp)
                continue;
            size_t n = fread(buf, 1, sizeof buf, fp);
            fclose(fp);
            if (memmem(buf, n, s, strlen(s))) {
                printf("leak: %s\n", path);
                leaks++;
            }
        }
    }
    if (dir)
        closedir(dir);
    return leaks;
}

/* The job's secret reached the rank (rtc_job_secret) and is in no
 * process's command line or environment; also print the host table. */
static int sc_secret(int plant)
{
    init();
    const char *s = rtc_job_secret();
    if (!s || strlen(s) != 64) {
        printf("rank %d: no secret\n", info.rank);
        return 1;
    }
    pid_t child = -1;
    if (plant && info.rank == 0) {
        /* the detector's own check: a process with the secret in argv */
        child = fork();
        if (child == 0) {
            execlp("sh", "sh", "-c", "sleep 10; true", s, (char *)NULL);
            _exit(127);
        }
        usleep(100000);
    }
    rtc_fence(); /* every daemon and rank exists now */
    int leaks = secret_leaks(s);
    printf("secret rank %d: %s hosts", info.rank, leaks ? "LEAKED" : "ok");
    for (int r = 0; r < info.size; r++)
        printf(" %d", info.host_of_rank[r]);
    printf("\n");
    fflush(stdout);
    if (child > 0)
        kill(child, SIGKILL);
    rtc_fence();
    rtc_finalize();
    return leaks ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *sc = argc > 1 ? argv[1] : "";
    int a = argc > 2 ? atoi(argv[2]) : 0;
    if (!strcmp(sc, "exit"))
        return sc_exit(a);
    if (!strcmp(sc, "plain-exit")) {
        const char *r = getenv("FTMPI_RANK");
        return r && atoi(r) == 1 ? a : 0;
    }
    if (!strcmp(sc, "echo")) {
        const char *r = getenv("FTMPI_RANK");
        printf("hello from rank %s\nsecond line %s\n", r ? r : "?",
               r ? r : "?");
        fprintf(stderr, "err line %s\n", r ? r : "?");
        return 0;
    }
    if (!strcmp(sc, "env")) {
        for (int i = 2; i < argc; i++) {
            const char *v = getenv(argv[i]);
            printf("%s=%s\n", argv[i], v ? v : "(unset)");
        }
        return 0;
    }
    if (!strcmp(sc, "kv"))
        return sc_kv();
    if (!strcmp(sc, "secret"))
        return sc_secret(a);
    if (!strcmp(sc, "hang"))
        return sc_hang();
    if (!strcmp(sc, "events"))
        return sc_events(a);
    if (!strcmp(sc, "fault"))
        return sc_fault(argc > 2 ? argv[2] : "iter",
                        argc > 3 ? atoi(argv[3]) : 10,
                        argc > 4 ? atoi(argv[4]) : 0);
    if (!strcmp(sc, "closectl")) {
        /* The last rank closes its control connection and lives on. */
        init();
        rtc_fence();
        if (info.rank == info.size - 1)
            close(info.ctl_fd);
        sleep(20);
        return 0;
    }
    if (!strcmp(sc, "abort"))
        return sc_abort(a);
    if (!strcmp(sc, "recover"))
        return sc_recover(a ? a : 1);
    if (!strcmp(sc, "singleton")) {
        int rc = rtc_init(&info);
        rtc_event_t ev;
        size_t len;
        char buf[8];
        if (rc != -ENOENT || info.size != 1 || rtc_fence() ||
            rtc_kv_put("a", "b", 2) || rtc_kv_get("a", buf, 8, &len) ||
            rtc_next_event(&ev, 1) != 0 || rtc_recovery_join(0) ||
            rtc_next_event(&ev, 0) != 1 || ev.kind != RTC_EV_RECOVERED ||
            rtc_finalize()) {
            fprintf(stderr, "singleton: unexpected result\n");
            return 1;
        }
        rtc_event_free(&ev);
        printf("singleton ok\n");
        return 0;
    }
    fprintf(stderr, "rt_prog: unknown scenario '%s'\n", sc);
    return 2;
}
