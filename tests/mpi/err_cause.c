/* FTMPI_Error_cause (docs/ftmpi.md, "Errors"): the cause of the last error
 * a call raised names what was wrong; the code returned stays the class.
 * With argument "fatal": the MPI_ERRORS_ARE_FATAL message carries the
 * cause (the test checks stderr). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad;

static void expect(const char *what, int rc, int cls, const char *want)
{
    char cause[MPI_MAX_ERROR_STRING];
    int len = -1;
    FTMPI_Error_cause(cause, &len);
    if (rc != cls || (int)strlen(cause) != len || !strstr(cause, want)) {
        printf("FAIL %s: rc %d (want %d), cause \"%s\" (want \"%s\")\n", what, rc, cls, cause,
               want);
        bad = 1;
    }
}

int main(int argc, char **argv)
{
    char cause[MPI_MAX_ERROR_STRING];
    int len = -1;
    FTMPI_Error_cause(cause, &len); /* before MPI_Init: allowed, empty */
    if (len != 0 || cause[0]) {
        printf("FAIL: cause before any error: \"%s\"\n", cause);
        bad = 1;
    }
    MPI_Init(&argc, &argv);
    int rank, size, x = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && !strcmp(argv[1], "fatal")) {
        MPI_Send(&x, 1, MPI_INT, size + 6, 0, MPI_COMM_WORLD); /* aborts the job */
        return 0;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char want[96];
    snprintf(want, sizeof(want), "MPI_Send: MPI_ERR_RANK: invalid rank: rank %d is outside 0..%d",
             size + 6, size - 1);
    expect("bad rank", MPI_Send(&x, 1, MPI_INT, size + 6, 0, MPI_COMM_WORLD), MPI_ERR_RANK, want);
    expect("bad tag", MPI_Send(&x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG,
           "MPI_Send: MPI_ERR_TAG: invalid tag: tag -5 is outside 0..MPI_TAG_UB");
    /* a successful call leaves the last cause alone (like errno) */
    MPI_Barrier(MPI_COMM_WORLD);
    expect("after success", MPI_ERR_TAG, MPI_ERR_TAG, "tag -5");
    MPI_Request rq;
    expect("negative count", MPI_Irecv(&x, -3, MPI_INT, 0, 0, MPI_COMM_WORLD, &rq), MPI_ERR_COUNT,
           "MPI_Irecv: MPI_ERR_COUNT: invalid count argument: count -3 is negative");
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    int y[2];
    expect("uncommitted type", MPI_Bcast(y, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
           "MPI_Bcast: MPI_ERR_TYPE: invalid datatype: the datatype is not committed");
    MPI_Type_free(&t);
    expect("bad comm", MPI_Barrier((MPI_Comm)12345), MPI_ERR_COMM,
           "MPI_Barrier: MPI_ERR_COMM: invalid communicator: 12345 is not a communicator handle");
    /* an error with no more to say than its class (the call itself
     * returns MPI_SUCCESS once the handler has returned) */
    expect("call_errhandler", MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_BUFFER),
           MPI_SUCCESS, "MPI_Comm_call_errhandler: MPI_ERR_BUFFER: invalid buffer pointer");
    if (FTMPI_Error_cause(NULL, &len) != MPI_ERR_ARG) {
        printf("FAIL: NULL string accepted\n");
        bad = 1;
    }
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "FAIL\n" : "PASS\n");
    MPI_Finalize();
    return all;
}
