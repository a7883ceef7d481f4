/* libftmpi_trace's recorder (trace.h). */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int trace_fd = -1;
static int trace_rank = -1;
static __thread int depth; /* calls made from inside a traced call */

#define COUNTER_PERIOD_US 100000.0 /* the message counters, at most this often */
static struct {
    int n;                         /* world size; 0: the library does not count */
    unsigned long long *cur, *last; /* [2n]: messages then bytes, per rank */
    double t_last;
} C;
static double begin_ts[2]; /* an open recovery, restore (observer) */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void put(const char *line, size_t n)
{
    while (n > 0) {
        ssize_t w = write(trace_fd, line, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        line += w;
        n -= (size_t)w;
    }
}

/* keys and values as JSON members into buf (cap); its length or -1. */
static int event_args(char *buf, size_t cap, int n, const char *const keys[],
                      const double values[])
{
    size_t k = 0;
    for (int i = 0; i < n && k < cap; i++) {
        char key[40];
        snprintf(key, sizeof key, "%s", keys[i] ? keys[i] : "?");
        for (char *c = key; *c; c++)
            if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
                *c = '_';
        k += (size_t)snprintf(buf + k, cap - k, "%s\"%s\":%.17g", i ? "," : "", key,
                              values[i] == values[i] ? values[i] : -1.0);
    }
    return k < cap ? (int)k : -1;
}

/* FTMPI_Observe's callback: recoveries and restores (the recovery
 * callbacks) as complete events, the rest (failures detected, rounds,
 * the program's notes: checkpoints) as instant events, category "ft". */
static void observe(const char *what, int n, const char *const keys[],
                    const double values[])
{
    double t = now_us();
    int fd = trace_fd;
    if (fd < 0 || !what)
        return;
    char name[48], args[1024], buf[1400];
    snprintf(name, sizeof name, "%s", what);
    for (char *c = name; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            *c = '_';
    if (event_args(args, sizeof args, n, keys, values) < 0)
        return;
    size_t len = strlen(name);
    int which = strncmp(name, "recovery_", 9) == 0 ? 0 : strncmp(name, "restore_", 8) == 0 ? 1 : -1;
    if (which >= 0 && len > 6 && strcmp(name + len - 6, "_begin") == 0) {
        begin_ts[which] = t;
        return;
    }
    int k;
    if (which >= 0 && len > 4 && strcmp(name + len - 4, "_end") == 0 && begin_ts[which] > 0) {
        k = snprintf(buf, sizeof buf,
                     "{\"name\":\"%s\",\"cat\":\"ft\",\"ph\":\"X\",\"ts\":%.3f,"
                     "\"dur\":%.3f,\"pid\":%d,\"tid\":%ld,\"args\":{%s}},\n",
                     which ? "restore" : "recovery", begin_ts[which], t - begin_ts[which],
                     trace_rank, (long)syscall(SYS_gettid), args);
        begin_ts[which] = 0;
    } else {
        k = snprintf(buf, sizeof buf,
                     "{\"name\":\"%s\",\"cat\":\"ft\",\"ph\":\"i\",\"s\":\"p\","
                     "\"ts\":%.3f,\"pid\":%d,\"tid\":%ld,\"args\":{%s}},\n",
                     name, t, trace_rank, (long)syscall(SYS_gettid), args);
    }
    if (k > 0 && (size_t)k < sizeof buf)
        put(buf, (size_t)k);
}

/* The counters of messages and bytes sent to each rank (FTMPI_Msg_counts)
 * as two counter events ("ph":"C"), when they moved since the last ones. */
static void counters(double t)
{
    if (C.n <= 0 || trace_fd < 0)
        return;
    C.t_last = t;
    int size;
    if (FTMPI_Msg_counts(C.n, C.cur, C.cur + C.n, &size) != MPI_SUCCESS ||
        memcmp(C.cur, C.last, 2 * (size_t)C.n * sizeof *C.cur) == 0)
        return;
    memcpy(C.last, C.cur, 2 * (size_t)C.n * sizeof *C.cur);
    size_t cap = 160 + (size_t)C.n * 32;
    char *buf = malloc(cap);
    for (int w = 0; buf && w < 2; w++) {
        size_t k = (size_t)snprintf(buf, cap, "{\"name\":\"%s\",\"cat\":\"counters\","
                                    "\"ph\":\"C\",\"ts\":%.3f,\"pid\":%d,\"tid\":%d,"
                                    "\"args\":{", w ? "bytes_sent" : "msgs_sent", t, trace_rank,
                                    (int)getpid());
        for (int r = 0; r < C.n; r++)
            k += (size_t)snprintf(buf + k, cap - k, "%s\"to %d\":%llu", r ? "," : "", r,
                                  C.cur[w * C.n + r]);
        k += (size_t)snprintf(buf + k, cap - k, "}},\n");
        if (k < cap)
            put(buf, k);
    }
    free(buf);
}

static void counters_open(void)
{
    int size;
    if (FTMPI_Msg_counts(0, NULL, NULL, &size) != MPI_SUCCESS || size <= 0)
        return; /* not counting: no counter events */
    C.cur = calloc(2 * (size_t)size, sizeof *C.cur);
    C.last = calloc(2 * (size_t)size, sizeof *C.last);
    if (C.cur && C.last)
        C.n = size;
}

static void trace_open(void)
{
    const char *dir = getenv("FTMPI_TRACE_DIR");
    if (!dir || !*dir)
        return;
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &trace_rank) != MPI_SUCCESS)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/rank%d.pid%d.json", dir, trace_rank,
             (int)getpid());
    trace_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
                    0644);
    if (trace_fd < 0) {
        fprintf(stderr, "ftmpi trace: cannot write %s: %s\n", path,
                strerror(errno));
        return;
    }
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (char *c = host; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
            *c = '_';
    /* against the head's clock: ftmpi-trace merge aligns hosts with it */
    double off = 0, err = -1;
    char offs[96] = "";
    if (FTMPI_Clock_offset(&off, &err) == MPI_SUCCESS)
        snprintf(offs, sizeof offs, ",\"head_offset_us\":%.3f,\"head_offset_err_us\":%.3f",
                 off, err);
    char buf[1024];
    int n = snprintf(buf, sizeof buf,
                     "[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,"
                     "\"tid\":0,\"args\":{\"name\":\"rank %d (pid %d)\"}},\n"
                     "{\"name\":\"ftmpi_clock\",\"ph\":\"M\",\"pid\":%d,"
                     "\"tid\":0,\"args\":{\"monotonic_us\":%.3f,"
                     "\"realtime_us\":%.3f,\"pid\":%d,\"host\":\"%s\"%s}},\n",
                     trace_rank, trace_rank, (int)getpid(), trace_rank,
                     now_us(), (double)rt.tv_sec * 1e6 +
                     (double)rt.tv_nsec / 1e3, (int)getpid(), host, offs);
    put(buf, (size_t)n);
    counters_open();
    FTMPI_Observe(observe);
}

/* The collectives whose algorithm the library names
 * (FTMPI_Coll_last_algorithm): MPI name without "MPI_", its kind. */
static const struct {
    const char *fn, *kind;
} colls[] = {
    {"Barrier", "barrier"}, {"Ibarrier", "barrier"}, {"Bcast", "bcast"},
    {"Ibcast", "bcast"}, {"Reduce", "reduce"}, {"Ireduce", "reduce"},
    {"Allreduce", "allreduce"}, {"Iallreduce", "allreduce"},
    {"Gather", "gather"}, {"Igather", "gather"}, {"Scatter", "scatter"},
    {"Iscatter", "scatter"}, {"Allgather", "allgather"},
    {"Iallgather", "allgather"}, {"Allgatherv", "allgatherv"},
    {"Iallgatherv", "allgatherv"}, {"Alltoall", "alltoall"},
    {"Ialltoall", "alltoall"}, {"Alltoallv", "alltoallv"},
    {"Ialltoallv", "alltoallv"}, {"Reduce_scatter", "reduce_scatter"},
    {"Ireduce_scatter", "reduce_scatter"},
    {"Reduce_scatter_block", "reduce_scatter"},
    {"Ireduce_scatter_block", "reduce_scatter"}, {"Scan", "scan"},
    {"Iscan", "scan"}, {"Exscan", "scan"}, {"Iexscan", "scan"},
};
#define NCOLLS (sizeof colls / sizeof colls[0])
static __thread unsigned long seen[NCOLLS]; /* choices seen per entry */

/* ,"alg":"NAME" when the call `name` made the library choose an algorithm
 * (its count of choices of that kind moved since this entry's last call),
 * else "". */
static void coll_alg(const char *name, char *out, size_t cap)
{
    out[0] = 0;
    if (strncmp(name, "MPI_", 4) != 0)
        return;
    for (size_t i = 0; i < NCOLLS; i++) {
        if (strcmp(name + 4, colls[i].fn) != 0)
            continue;
        char alg[64];
        unsigned long n;
        if (FTMPI_Coll_last_algorithm(colls[i].kind, alg, sizeof alg, &n) ==
                MPI_SUCCESS && n != seen[i] && alg[0])
            snprintf(out, cap, ",\"alg\":\"%s\"", alg);
        seen[i] = n;
        return;
    }
}

double ftrace_begin(int kind)
{
    double t = now_us();
    if (kind == 2 && depth == 0)
        counters(t); /* the last ones, while the library still counts */
    depth++;
    return now_us();
}

void ftrace_end(const char *name, double t0, int rc, MPI_Comm comm, int kind)
{
    double t1 = now_us();
    depth--;
    if (kind == 1 && trace_fd < 0)
        trace_open();
    if (trace_fd < 0 || depth > 0)
        return;
    if (kind == 0 && t1 - C.t_last >= COUNTER_PERIOD_US)
        counters(t1);
    char buf[600], cname[64] = "", alg[96];
    if (comm != MPI_COMM_NULL && comm == MPI_COMM_WORLD)
        snprintf(cname, sizeof cname, ",\"comm\":\"WORLD\"");
    else if (comm != MPI_COMM_NULL)
        snprintf(cname, sizeof cname, ",\"comm\":%d", (int)comm);
    coll_alg(name, alg, sizeof alg);
    int n = snprintf(buf, sizeof buf,
                     "{\"name\":\"%s\",\"cat\":\"mpi\",\"ph\":\"X\","
                     "\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%ld,"
                     "\"args\":{\"rc\":%d%s%s}},\n", name, t0, t1 - t0,
                     trace_rank, (long)syscall(SYS_gettid), rc, cname, alg);
    put(buf, (size_t)n);
    if (rc != MPI_SUCCESS) {
        /* a failure seen: an instant event, easy to find */
        n = snprintf(buf, sizeof buf,
                     "{\"name\":\"error in %s\",\"cat\":\"ft\",\"ph\":\"i\","
                     "\"s\":\"p\",\"ts\":%.3f,\"pid\":%d,\"tid\":%ld,"
                     "\"args\":{\"rc\":%d}},\n", name, t1, trace_rank,
                     (long)syscall(SYS_gettid), rc);
        put(buf, (size_t)n);
    }
    if (kind == 2) {
        FTMPI_Observe(NULL);
        put("{}]\n", 4);
        close(trace_fd);
        trace_fd = -1;
    }
}
