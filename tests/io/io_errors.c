/*
 * io_errors DIR: the error classes of MPI-IO, raised through the right
 * handler (np 2). Files start with the handler of MPI_FILE_NULL, which is
 * MPI_ERRORS_RETURN unless changed; errors with no file go to it.
 */
#include "io_test.h"

#include <sys/stat.h>

static int null_calls, file_calls;
static MPI_File last_file;
static void null_handler(MPI_File *f, int *code, ...)
{
    (void)code;
    last_file = *f;
    null_calls++;
}
static void file_handler(MPI_File *f, int *code, ...)
{
    (void)code;
    last_file = *f;
    file_calls++;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        fprintf(stderr, "usage: mpirun -np 2 io_errors DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096], missing[4096], dirp[4096];
    io_path(path, sizeof(path), argv[1], "io_errors.dat");
    io_path(missing, sizeof(missing), argv[1], "io_errors.missing");
    snprintf(dirp, sizeof(dirp), "%s", argv[1]);
    MPI_File fh;
    MPI_Errhandler eh;
    OK(MPI_File_get_errhandler(MPI_FILE_NULL, &eh));
    CHECK(eh == MPI_ERRORS_RETURN, "the default file handler is not MPI_ERRORS_RETURN");
    MPI_Errhandler_free(&eh);

    /* access modes */
    FAILS(MPI_ERR_AMODE, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                                       MPI_INFO_NULL, &fh));
    FAILS(MPI_ERR_AMODE, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_WRONLY,
                                       MPI_INFO_NULL, &fh));
    FAILS(MPI_ERR_AMODE, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                                       MPI_INFO_NULL, &fh));
    FAILS(MPI_ERR_NOT_SAME, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
                                          (rank ? MPI_MODE_RDWR : MPI_MODE_WRONLY),
                                          MPI_INFO_NULL, &fh));
    /* missing file, existing file with EXCL, a directory */
    FAILS(MPI_ERR_NO_SUCH_FILE, MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY,
                                              MPI_INFO_NULL, &fh));
    CHECK(fh == MPI_FILE_NULL, "a failed open left a handle");
    FAILS(MPI_ERR_BAD_FILE, MPI_File_open(MPI_COMM_WORLD, dirp, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    FAILS(MPI_ERR_COMM, MPI_File_open(MPI_COMM_NULL, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));

    /* the handler of MPI_FILE_NULL gets the errors of opens */
    MPI_Errhandler nh;
    OK(MPI_File_create_errhandler(null_handler, &nh));
    OK(MPI_File_set_errhandler(MPI_FILE_NULL, nh));
    FAILS(MPI_ERR_NO_SUCH_FILE, MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY,
                                              MPI_INFO_NULL, &fh));
    CHECK(null_calls == 1 && last_file == MPI_FILE_NULL, "MPI_FILE_NULL's handler: %d calls",
          null_calls);
    FAILS(MPI_ERR_NO_SUCH_FILE, MPI_File_delete(missing, MPI_INFO_NULL));
    CHECK(null_calls == 2, "delete's error on MPI_FILE_NULL's handler: %d calls", null_calls);
    FAILS(MPI_ERR_FILE, MPI_File_sync((MPI_File)12345));
    CHECK(null_calls == 3, "a bad handle on MPI_FILE_NULL's handler");

    /* a new file inherits MPI_FILE_NULL's handler */
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    OK(MPI_File_get_errhandler(fh, &eh));
    CHECK(eh == nh, "the new file's handler is not MPI_FILE_NULL's");
    MPI_Errhandler_free(&eh);
    OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_Errhandler fhh;
    OK(MPI_File_create_errhandler(file_handler, &fhh));
    OK(MPI_File_set_errhandler(fh, fhh));
    int buf[4] = {1, 2, 3, 4};
    FAILS(MPI_ERR_ACCESS, MPI_File_read_at(fh, 0, buf, 4, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(file_calls == 1 && last_file == fh, "the file's handler: %d calls", file_calls);
    FAILS(MPI_ERR_COUNT, MPI_File_write_at(fh, 0, buf, -1, MPI_INT, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_TYPE, MPI_File_write_at(fh, 0, buf, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_ARG, MPI_File_write_at(fh, -4, buf, 1, MPI_INT, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_REQUEST, MPI_File_iwrite_at(fh, 0, buf, 1, MPI_INT, NULL));
    FAILS(MPI_ERR_UNSUPPORTED_DATAREP,
          MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL));
    FAILS(MPI_ERR_ARG, MPI_File_set_view(fh, -8, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    FAILS(MPI_ERR_TYPE, MPI_File_set_view(fh, 0, MPI_INT, MPI_CHAR, "native", MPI_INFO_NULL));
    FAILS(MPI_ERR_NOT_SAME, MPI_File_set_view(fh, 0, rank ? MPI_INT : MPI_DOUBLE,
                                              rank ? MPI_INT : MPI_DOUBLE, "native", MPI_INFO_NULL));
    /* a file open for writing takes no overlapping filetype (MPI-4.0 14.3) */
    MPI_Datatype ovl, shrunk;
    int ovl_len[2] = {3, 1}, ovl_disp[2] = {0, 1};
    OK(MPI_Type_indexed(2, ovl_len, ovl_disp, MPI_INT, &ovl));
    OK(MPI_Type_commit(&ovl));
    FAILS(MPI_ERR_TYPE, MPI_File_set_view(fh, 0, MPI_INT, ovl, "native", MPI_INFO_NULL));
    OK(MPI_Type_create_resized(MPI_2INT, 0, sizeof(int), &shrunk)); /* tiles overlap */
    OK(MPI_Type_commit(&shrunk));
    FAILS(MPI_ERR_TYPE, MPI_File_set_view(fh, 0, MPI_INT, shrunk, "native", MPI_INFO_NULL));
    FAILS(MPI_ERR_ARG, MPI_File_seek(fh, 0, 12345));
    FAILS(MPI_ERR_NOT_SAME, MPI_File_set_size(fh, rank));
    FAILS(MPI_ERR_ARG, MPI_File_set_size(fh, -1));
    /* the view must hold whole etypes */
    OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    FAILS(MPI_ERR_ARG, MPI_File_write_at(fh, 0, buf, 3, MPI_BYTE, MPI_STATUS_IGNORE));
    /* one member's part refused in a collective call: the others go on, nobody hangs */
    if (rank == 0)
        FAILS(MPI_ERR_ARG, MPI_File_write_at_all(fh, 0, buf, 3, MPI_BYTE, MPI_STATUS_IGNORE));
    else
        OK(MPI_File_write_at_all(fh, 1, buf, 1, MPI_INT, MPI_STATUS_IGNORE));
    if (rank == 0)
        FAILS(MPI_ERR_TYPE, MPI_File_set_view(fh, 0, MPI_INT, MPI_CHAR, "native", MPI_INFO_NULL));
    else
        FAILS(MPI_ERR_OTHER, MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    FAILS(MPI_ERR_FILE_IN_USE, MPI_File_delete(path, MPI_INFO_NULL));
    /* the handler returns: the call succeeds (as MPI_Comm_call_errhandler) */
    int before = file_calls;
    OK(MPI_File_call_errhandler(fh, MPI_ERR_UNKNOWN));
    CHECK(file_calls == before + 1, "MPI_File_call_errhandler did not call the handler");
    before = file_calls;
    OK(MPI_File_call_errhandler(fh, MPI_SUCCESS));
    CHECK(file_calls == before, "MPI_SUCCESS called the handler");
    OK(MPI_File_close(&fh));
    MPI_Errhandler_free(&fhh);
    MPI_Errhandler_free(&nh);

    /* read-only: writes are MPI_ERR_READ_ONLY; create + excl: exists */
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    FAILS(MPI_ERR_READ_ONLY, MPI_File_write_at(fh, 0, buf, 1, MPI_INT, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_READ_ONLY, MPI_File_set_size(fh, 0));
    OK(MPI_File_set_view(fh, 0, MPI_INT, ovl, "native", MPI_INFO_NULL)); /* reading: allowed */
    OK(MPI_File_close(&fh));
    MPI_Type_free(&ovl);
    MPI_Type_free(&shrunk);
    FAILS(MPI_ERR_FILE_EXISTS, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
                                             MPI_MODE_EXCL | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    /* MPI_File_open on MPI_COMM_SELF: one rank alone */
    if (rank == 1) {
        OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
        OK(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        OK(MPI_File_delete(path, MPI_INFO_NULL));
        FAILS(MPI_ERR_NO_SUCH_FILE, MPI_File_delete(path, MPI_INFO_NULL));
    }
    return io_finish("io_errors");
}
