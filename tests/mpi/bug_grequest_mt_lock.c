/*
 * bug_grequest_mt_lock: reproducer for a library bug (not in the CTest
 * list until fixed; docs/testing.md "Known library bugs").
 *
 * Under MPI_THREAD_MULTIPLE, MPI_Wait on a completed generalized request
 * calls the user's query_fn while holding the library's global API lock
 * (api/p2p_wait.c PMPI_Wait -> finish -> api/api_common.c api_req_finish
 * -> r->gq). The standard expects query_fn to fill the status with
 * MPI_Status_set_elements / MPI_Status_set_cancelled; those take the same
 * non-recursive lock (api/p2p_status.c set_elements -> API_BEGIN ->
 * api_lock), so the process deadlocks in MPI_Wait. free_fn (same function,
 * api_common.c) and cancel_fn (api/p2p_status.c PMPI_Cancel) are called the
 * same way. (User error handlers are fine: core/errhandler.c errh_invoke
 * drops the lock around the call; the generalized-request callbacks need
 * the same treatment.)
 *
 * Expected: prints "passed" and exits 0 within a second. With the bug: hangs
 * (run it under `mpirun --timeout 10`).
 */
#include <mpi.h>
#include <stdio.h>

static int query_fn(void *extra, MPI_Status *st)
{
    st->MPI_SOURCE = 0;
    st->MPI_TAG = 1;
    MPI_Status_set_elements(st, MPI_INT, 5); /* deadlocks here */
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}

static int free_fn(void *extra) { return MPI_SUCCESS; }
static int cancel_fn(void *extra, int complete) { return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    int provided, count = -1;
    MPI_Request r;
    MPI_Status st;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    MPI_Finalize();
    if (count != 5) {
        printf("bug_grequest_mt_lock: count %d, expected 5\n", count);
        return 1;
    }
    printf("bug_grequest_mt_lock: passed\n");
    return 0;
}
