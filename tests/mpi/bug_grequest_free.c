/*
 * bug_grequest_free: reproducer for a library bug (not in the CTest list
 * until fixed; docs/testing.md "Known library bugs").
 *
 * MPI_Request_free on a generalized request never calls its free_fn
 * (MPI-2.2 section 12.2: free_fn is invoked when the request is freed by a
 * Wait/Test call or by MPI_Request_free). In api/p2p_wait.c,
 * PMPI_Request_free calls req_free() directly for a complete request, and
 * for an incomplete one marks it user_freed so that req_complete() (from
 * MPI_Grequest_complete) later calls req_free(); neither path calls r->gf.
 * The user's resources behind extra_state leak.
 * Also: MPI_Grequest_complete on the (copied) handle of a generalized
 * request that MPI_Request_free released returns MPI_ERR_REQUEST, because
 * Request_free dropped the handle (req_drop_handle). MPI-2.2 12.2 says the
 * request is freed "as soon as both calls MPI_REQUEST_FREE and
 * MPI_GREQUEST_COMPLETE have occurred", so that call is legal.
 *
 * Expected: "passed", exit 0. With the bug: "free_fn called 0 times".
 */
#include <mpi.h>
#include <stdio.h>

static int query_fn(void *extra, MPI_Status *st) { return MPI_SUCCESS; }
static int free_fn(void *extra)
{
    (*(int *)extra)++;
    return MPI_SUCCESS;
}
static int cancel_fn(void *extra, int complete) { return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    int freed_done = 0, freed_pending = 0, fails = 0;
    MPI_Request r, keep;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* 1: complete, then free */
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &freed_done, &r);
    MPI_Grequest_complete(r);
    MPI_Request_free(&r);
    if (freed_done != 1) {
        printf("bug_grequest_free: complete then MPI_Request_free: free_fn called %d times, expected 1\n",
               freed_done);
        fails++;
    }
    /* 2: free while pending, then complete */
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, &freed_pending, &r);
    keep = r;
    MPI_Request_free(&r);
    int rc = MPI_Grequest_complete(keep);
    if (rc != MPI_SUCCESS) {
        printf("bug_grequest_free: MPI_Grequest_complete after MPI_Request_free returned %d, expected MPI_SUCCESS\n",
               rc);
        fails++;
    }
    if (freed_pending != 1) {
        printf("bug_grequest_free: MPI_Request_free then complete: free_fn called %d times, expected 1\n",
               freed_pending);
        fails++;
    }
    MPI_Finalize();
    if (!fails)
        printf("bug_grequest_free: passed\n");
    return fails ? 1 : 0;
}
