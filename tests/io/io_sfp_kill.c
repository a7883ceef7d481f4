/*
 * io_sfp_kill DIR: the shared pointer's hidden counter file leaves nothing
 * behind. Every rank opens DIR/sfp.dat, moves the shared pointer
 * (MPI_File_write_shared, then MPI_File_get_position_shared, which must
 * see every rank's write), and rank 0 checks that DIR holds no ".sfp.dat.sfp-"
 * name while the file is open. Then every rank SIGKILLs itself with the
 * file still open; tests/io/io_sfp_kill.sh checks DIR afterwards.
 * Prints "io_sfp_kill: open, no counter name" before the kill.
 */
#include "io_test.h"

#include <dirent.h>
#include <signal.h>

static int counter_names(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".sfp-"))
            n++;
    closedir(d);
    return n;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        fprintf(stderr, "usage: io_sfp_kill DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/sfp.dat", argv[1]);
    MPI_File fh;
    int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                           &fh);
    CHECK(rc == MPI_SUCCESS, "open: %d", rc);
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    int v = rank;
    OK(MPI_File_write_shared(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset sp = -1;
    OK(MPI_File_get_position_shared(fh, &sp));
    CHECK(sp == (MPI_Offset)size * (MPI_Offset)sizeof(int), "shared pointer %lld, want %lld",
          (long long)sp, (long long)(size * sizeof(int)));
    if (rank == 0) {
        int n = counter_names(argv[1]);
        CHECK(n == 0, "%d counter name(s) in %s while the file is open", n, argv[1]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (fails == 0 && rank == 0)
        printf("io_sfp_kill: open, no counter name\n");
    MPI_Barrier(MPI_COMM_WORLD);
    raise(SIGKILL);
    return 1;
}
