/*
 * mpitest.h: tiny helpers shared by the MPI test programs (standard MPI
 * only, header-only so each test stays one C file).
 *
 *   T_CHECK(cond, fmt, ...)  record a failure (with rank, file, line) when
 *                            cond is false; the test goes on
 *   T_MPI(call)              record a failure when call != MPI_SUCCESS
 *   t_init(&argc, &argv)     MPI_Init + rank/size into t_rank/t_size
 *   t_need(n)                skip (exit 0 with a note) below n ranks
 *   t_finish()               combine failures over MPI_COMM_WORLD,
 *                            MPI_Finalize, return the exit code
 *
 * A test passes when every rank exits 0; the first failures are printed on
 * stderr so a failing CTest log says what was wrong.
 */
#ifndef FTMPI_TESTS_MPITEST_H
#define FTMPI_TESTS_MPITEST_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int t_rank = 0, t_size = 1;
static int t_errors = 0;
static const char *t_name = "test";

#define T_MAX_PRINTED 30

#define T_FAIL(...)                                                        \
    do {                                                                   \
        if (t_errors < T_MAX_PRINTED) {                                    \
            fprintf(stderr, "FAIL [%s rank %d] %s:%d: ", t_name, t_rank,   \
                    __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
            fflush(stderr);                                                \
        }                                                                  \
        t_errors++;                                                        \
    } while (0)

#define T_CHECK(cond, ...)                                                 \
    do {                                                                   \
        if (!(cond))                                                       \
            T_FAIL(__VA_ARGS__);                                           \
    } while (0)

static inline const char *t_errstr(int code)
{
    static char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", code);
    return s;
}

#define T_MPI(call)                                                        \
    do {                                                                   \
        int t_rc_ = (call);                                                \
        if (t_rc_ != MPI_SUCCESS)                                          \
            T_FAIL("%s returned %d (%s)", #call, t_rc_, t_errstr(t_rc_));  \
    } while (0)

/* Expect an error of class `cls` from call. */
#define T_MPI_CLASS(call, cls)                                             \
    do {                                                                   \
        int t_rc_ = (call), t_cl_ = -1;                                    \
        if (t_rc_ != MPI_SUCCESS)                                          \
            MPI_Error_class(t_rc_, &t_cl_);                                \
        if (t_rc_ == MPI_SUCCESS || t_cl_ != (cls))                        \
            T_FAIL("%s returned %d (class %d), expected class %s (%d)",    \
                   #call, t_rc_, t_cl_, #cls, (int)(cls));                 \
    } while (0)

static inline void t_set_name(const char *argv0)
{
    const char *s = strrchr(argv0, '/');
    t_name = s ? s + 1 : argv0;
}

static inline void t_init(int *argc, char ***argv)
{
    if (*argc > 0)
        t_set_name((*argv)[0]);
    int rc = MPI_Init(argc, argv);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "FAIL [%s] MPI_Init returned %d\n", t_name, rc);
        exit(2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
}

/* Collect failures from every rank; rank 0 reports. Returns exit status. */
static inline int t_finish(void)
{
    int total = 0;
    MPI_Allreduce(&t_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (t_rank == 0) {
        if (total)
            fprintf(stderr, "%s: %d failure(s) over %d rank(s)\n", t_name, total, t_size);
        else
            printf("%s: passed on %d rank(s)\n", t_name, t_size);
        fflush(stdout);
    }
    MPI_Finalize();
    return t_errors ? 1 : (total ? 1 : 0);
}

/* Skip (pass) when the job has fewer than n ranks. */
static inline void t_need(int n)
{
    if (t_size < n) {
        if (t_rank == 0)
            printf("%s: needs %d ranks, have %d: skipped\n", t_name, n, t_size);
        MPI_Finalize();
        exit(0);
    }
}

/* Deterministic byte pattern: depends on seed and position. */
static inline unsigned char t_pat(unsigned seed, size_t i)
{
    uint32_t x = seed * 2654435761u + (uint32_t)i * 40503u + (uint32_t)(i >> 12) * 97u;
    return (unsigned char)(x >> 13);
}

static inline void t_fill(void *buf, size_t n, unsigned seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = t_pat(seed, i);
}

/* Index of the first byte that differs from the pattern, or -1. */
static inline long t_verify(const void *buf, size_t n, unsigned seed)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        if (p[i] != t_pat(seed, i))
            return (long)i;
    return -1;
}

static inline void *t_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "FAIL [%s rank %d] out of memory (%zu bytes)\n", t_name, t_rank, n);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}

static inline void t_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Check a received status: source, tag and byte count. */
#define T_STATUS(st, src, tg, bytes)                                          \
    do {                                                                      \
        int t_cnt_ = -7;                                                      \
        MPI_Get_count(&(st), MPI_BYTE, &t_cnt_);                              \
        T_CHECK((st).MPI_SOURCE == (src), "status source %d, expected %d",   \
                (st).MPI_SOURCE, (int)(src));                                 \
        T_CHECK((st).MPI_TAG == (tg), "status tag %d, expected %d",          \
                (st).MPI_TAG, (int)(tg));                                     \
        T_CHECK(t_cnt_ == (int)(bytes), "status count %d bytes, expected %d", \
                t_cnt_, (int)(bytes));                                        \
    } while (0)

/* The message sizes of the eager/rendezvous boundary tests. */
static const int t_sizes[] = {0, 1, 4095, 4096, 4097, 65536, 1 << 20, 4 << 20};
#define T_NSIZES ((int)(sizeof t_sizes / sizeof t_sizes[0]))

#endif
