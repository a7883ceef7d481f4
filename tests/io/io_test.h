/* Helpers of the MPI-IO tests (tests/io). */
#ifndef IO_TEST_H
#define IO_TEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails;
#define CHECK(cond, ...)                                                           \
    do {                                                                           \
        if (!(cond)) {                                                             \
            int r_;                                                                \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                    \
            fprintf(stderr, "rank %d: %s:%d: check failed: ", r_, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                          \
            fprintf(stderr, "\n");                                                 \
            fails++;                                                               \
        }                                                                          \
    } while (0)
/* An MPI call that must succeed. */
#define OK(call)                                                                   \
    do {                                                                           \
        int rc_ = (call);                                                          \
        if (rc_ != MPI_SUCCESS) {                                                  \
            char s_[MPI_MAX_ERROR_STRING];                                         \
            int n_;                                                                \
            MPI_Error_string(rc_, s_, &n_);                                        \
            CHECK(0, "%s: %s", #call, s_);                                         \
        }                                                                          \
    } while (0)
/* An MPI call that must fail with error class cls. */
#define FAILS(cls, call)                                                           \
    do {                                                                           \
        int rc_ = (call), c_ = MPI_SUCCESS;                                        \
        MPI_Error_class(rc_, &c_);                                                 \
        CHECK(c_ == (cls), "%s gave class %d, want %s (%d)", #call, c_, #cls, (cls)); \
    } while (0)

/* dir/name (under the build directory the test is given). */
static inline void io_path(char *out, size_t cap, const char *dir, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

/* Print "NAME: ok" once per rank when nothing failed; the exit status. */
static inline int io_finish(const char *name)
{
    int rank, all = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!all) {
        char line[128];
        int n = snprintf(line, sizeof(line), "%s rank %d: ok\n", name, rank);
        (void)!write(1, line, (size_t)n);
    }
    MPI_Finalize();
    return all ? 1 : 0;
}

#endif
