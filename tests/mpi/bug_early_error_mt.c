/*
 * bug_early_error_mt: regression test (issue 11, "every API function
 * leaving through its common exit").
 *
 * A non-blocking call given a NULL request (MPI_Isend, MPI_Irecv,
 * MPI_Ibarrier, MPI_Iallreduce, ...) used to report the error before its
 * body took the library lock: the error handler was invoked outside
 * API_BEGIN/API_END. Under MPI_THREAD_MULTIPLE, errh_invoke releases the
 * lock around a user handler and takes it again afterwards, so the call
 * returned still holding the lock and the next MPI call of the same thread
 * deadlocked. Now these errors go through the common exit too.
 *
 * Expected: every bad call returns its error class, the handler sees each
 * once, later calls work; prints "passed". With the bug: hangs in the MPI
 * call after the first bad one (run it under `mpirun --timeout`).
 */
#include <mpi.h>
#include <stdio.h>

static int handled, last_class;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    MPI_Error_class(*code, &last_class);
    handled++;
}

static int errors;

static void expect(const char *what, int rc, int cls)
{
    int got = -1, rank = -1;
    MPI_Error_class(rc, &got);
    if (got != cls || last_class != cls) {
        printf("bug_early_error_mt: %s returned class %d (handler saw %d), expected %d\n", what,
               got, last_class, cls);
        errors++;
    }
    /* The next call must not find the lock held. */
    if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0)
        errors++;
    last_class = -1;
}

int main(int argc, char **argv)
{
    int provided, x = 1, y = 0;
    MPI_Errhandler eh;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("bug_early_error_mt: MPI_THREAD_MULTIPLE not provided\n");
        return 1;
    }
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);

    expect("MPI_Isend", MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    expect("MPI_Irecv", MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    expect("MPI_Ibarrier", MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    expect("MPI_Ibcast", MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    expect("MPI_Iallreduce",
           MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    expect("MPI_Ialltoall", MPI_Ialltoall(&x, 1, MPI_INT, &y, 1, MPI_INT, MPI_COMM_WORLD, NULL),
           MPI_ERR_REQUEST);
    if (handled != 6) {
        printf("bug_early_error_mt: the handler ran %d times, expected 6\n", handled);
        errors++;
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    int all = 0;
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    if (all) {
        printf("bug_early_error_mt: %d error(s)\n", all);
        return 1;
    }
    if (rank == 0)
        printf("bug_early_error_mt: passed\n");
    return 0;
}
