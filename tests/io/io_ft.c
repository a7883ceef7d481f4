/*
 * io_ft DIR: a member of a file's group SIGKILLed (np 3, rank 2 the victim).
 * The survivors' collective file calls then fail with the failure class of
 * the mode (MPI_ERR_OTHER under FT-MPI's modes, MPIX_ERR_PROC_FAILED under
 * ULFM) through the file's error handler, instead of hanging; the close
 * of the dead file succeeds locally with the same error; after the
 * recovery the file opens again over the new communicator and the data
 * written before the failure reads back (REBUILD: the replacement joins
 * there). Every rank that finishes prints "io_ft: ok".
 */
#include "io_test.h"

#include <mpi-ext.h>
#include <signal.h>

#define VICTIM 2
#define N 8

static int handler_calls;
static void handler(MPI_File *f, int *code, ...) { (void)f; (void)code; handler_calls++; }

static void fill(int *b, int r)
{
    for (int i = 0; i < N; i++)
        b[i] = r * 100 + i;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    int rank, size, *mode, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag);
    int ulfm = *mode == FTMPI_COMM_MODE_ULFM;
    if (argc < 2) {
        fprintf(stderr, "usage: io_ft DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/io_ft.%d.dat", argv[1], *mode);
    MPI_Errhandler eh;
    MPI_File_create_errhandler(handler, &eh);
    MPI_Comm comm = MPI_COMM_WORLD;
    int buf[N], back[N];
    MPI_File fh;
    if (!restarted) {
        if (rank == 0)
            MPI_File_delete(path, MPI_INFO_NULL);
        MPI_Barrier(MPI_COMM_WORLD);
        rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh);
        CHECK(rc == MPI_SUCCESS, "open before the kill: %d", rc);
        if (rc != MPI_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
        MPI_File_set_errhandler(fh, eh);
        fill(buf, rank);
        rc = MPI_File_write_at_all(fh, rank * N * sizeof(int), buf, N, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "write_at_all before the kill: %d", rc);
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == VICTIM)
            raise(SIGKILL);
        /* the survivors learn of the death first (a receive from the
         * victim, which never sends, fails): deterministic */
        int dummy;
        CHECK(MPI_Recv(&dummy, 1, MPI_INT, VICTIM, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                  MPI_SUCCESS, "a receive from the dead victim succeeded");
        int want = ulfm ? MPIX_ERR_PROC_FAILED : MPI_ERR_OTHER, cls = -1;
        int before = handler_calls;
        rc = MPI_File_write_at_all(fh, rank * N * sizeof(int), buf, N, MPI_INT, MPI_STATUS_IGNORE);
        MPI_Error_class(rc, &cls);
        CHECK(cls == want, "write_at_all with a dead member gave class %d, want %d", cls, want);
        CHECK(handler_calls == before + 1, "the file's handler was not called");
        int v = rank;
        MPI_Error_class(MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE), &cls);
        CHECK(cls == want, "write_ordered with a dead member gave class %d", cls);
        MPI_Error_class(MPI_File_sync(fh), &cls);
        CHECK(cls == want, "sync with a dead member gave class %d", cls);
        /* independent I/O still works: it involves nobody else */
        rc = MPI_File_read_at(fh, rank * N * sizeof(int), back, N, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && !memcmp(back, buf, sizeof(buf)), "independent read: %d", rc);
        MPI_Error_class(MPI_File_close(&fh), &cls);
        CHECK(cls == want && fh == MPI_FILE_NULL, "close of the dead file: class %d", cls);
        if (ulfm) {
            MPIX_Comm_failure_ack(MPI_COMM_WORLD);
            CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &comm) == MPI_SUCCESS, "shrink");
        } else {
            MPI_Comm dup = FT_MPI_CHECK_RECOVER;
            CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "recovery");
            MPI_Comm_free(&dup);
        }
    }
    if (*mode == FTMPI_COMM_MODE_BLANK) {
        /* BLANK keeps the dead rank's place as a gap: a file cannot be
         * opened over a group with a gap (docs/io.md), so the survivors
         * open it over the live members (MPI_Comm_split skips the gap) */
        MPI_File gap = MPI_FILE_NULL;
        int cls = MPI_SUCCESS;
        MPI_Error_class(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &gap),
                        &cls);
        CHECK(cls == MPI_ERR_OTHER && gap == MPI_FILE_NULL, "open over the gap: class %d", cls);
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm) == MPI_SUCCESS, "split");
    }
    /* after the recovery: open over what it gave, check the old data */
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    rc = MPI_File_open(comm, path, MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    CHECK(rc == MPI_SUCCESS, "open after the recovery: %d", rc);
    if (rc == MPI_SUCCESS) {
        MPI_File_set_errhandler(fh, eh);
        for (int r = 0; r < 2; r++) { /* the survivors' blocks */
            rc = MPI_File_read_at_all(fh, r * N * sizeof(int), back, N, MPI_INT,
                                      MPI_STATUS_IGNORE);
            fill(buf, r);
            CHECK(rc == MPI_SUCCESS && !memcmp(back, buf, sizeof(buf)),
                  "block of rank %d after the recovery (rc %d)", r, rc);
        }
        int v = rank, got = -1;
        rc = MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "write_ordered after the recovery: %d", rc);
        MPI_File_sync(fh);
        MPI_Barrier(comm);
        MPI_File_read_at(fh, rank * sizeof(int), &got, 1, MPI_INT, MPI_STATUS_IGNORE);
        CHECK(got == rank, "ordered record %d: %d", rank, got);
        CHECK(MPI_File_close(&fh) == MPI_SUCCESS, "close after the recovery");
    }
    MPI_Errhandler_free(&eh);
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    if (!fails)
        (void)!write(1, "io_ft: ok\n", 10);
    MPI_Finalize();
    return fails ? 1 : 0;
}
