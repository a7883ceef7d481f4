/*
 * Helpers of the ULFM tests (docs/ulfm.md): programs written against the
 * ULFM interface only (mpi.h + mpi-ext.h), run by ../ft/run_ft.sh, which
 * wants one "rank N: ok" line per surviving rank and no "FAILED".
 */
#ifndef FTMPI_TESTS_ULFM_TEST_H
#define FTMPI_TESTS_ULFM_TEST_H

#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int u_rank, u_size, u_errors;

#define CHECK(cond, ...)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "FAILED rank %d %s:%d: ", u_rank, __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
            u_errors++;                                                         \
        }                                                                       \
    } while (0)

static inline int u_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

/* Expect the error class `cls` from an expression. */
#define EXPECT(call, cls)                                                       \
    do {                                                                        \
        int u_rc_ = (call);                                                     \
        CHECK(u_class(u_rc_) == (cls), "%s returned class %d, expected %s",     \
              #call, u_class(u_rc_), #cls);                                     \
    } while (0)

static inline void u_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &u_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &u_size);
}

/* A real SIGKILL of this process (what the tests' victims do). */
static inline void u_die(void)
{
    fflush(stdout);
    fflush(stderr);
    kill(getpid(), SIGKILL);
    pause();
}

/* Wait until the runtime has told this process that world rank `victim`
 * failed: a receive from it can only end with the failure. */
static inline void u_await_failure(MPI_Comm comm, int victim)
{
    int x;
    int rc = MPI_Recv(&x, 1, MPI_INT, victim, 999, comm, MPI_STATUS_IGNORE);
    CHECK(u_class(rc) == MPIX_ERR_PROC_FAILED || u_class(rc) == MPIX_ERR_REVOKED,
          "receive from failed rank %d: class %d", victim, u_class(rc));
}

/* The ULFM reaction to an error rc on *comm: check that it reports a
 * failure, revoke, shrink, and replace *comm by the survivors'. */
static inline void u_revoke_shrink(MPI_Comm *comm, int rc)
{
    int cls = u_class(rc);
    CHECK(cls == MPIX_ERR_PROC_FAILED || cls == MPIX_ERR_REVOKED, "error class %d", cls);
    MPIX_Comm_revoke(*comm);
    MPI_Comm nc;
    CHECK(MPIX_Comm_shrink(*comm, &nc) == MPI_SUCCESS, "shrink");
    MPI_Comm_free(comm);
    *comm = nc;
}

static inline int u_finish(void)
{
    int rc = MPI_Finalize();
    CHECK(rc == MPI_SUCCESS, "MPI_Finalize returned %d", rc);
    if (!u_errors)
        printf("rank %d: ok\n", u_rank);
    fflush(stdout);
    return u_errors ? 1 : 0;
}

#endif
