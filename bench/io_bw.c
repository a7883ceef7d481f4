/*
 * io_bw: MPI-IO bandwidth of collective writes and reads (docs/io.md).
 *   io_bw [--quick] [--dir DIR]
 * Every rank moves SIZE bytes per call, two patterns:
 *   contig   MPI_File_write_at_all / read_at_all of one block per rank
 *   strided  a vector view of 4 KiB blocks interleaved across the ranks,
 *            MPI_File_write_all / read_all
 * Prints "<metric> <SIZE> <MB/s>" (aggregate over the ranks, median of the
 * repetitions; the time of a call is the slowest rank's), the format
 * bench/compare.sh reads. The file is DIR/io_bw.<pid of rank 0>.dat, deleted at
 * the end. Data is checked after each read.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPS 7
#define BLOCK 4096

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int rank, np, bad;

/* One timed collective call: the slowest rank's seconds. */
static double timed(MPI_File fh, int write, int strided, char *buf, int size)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (strided)
        write ? MPI_File_write_at_all(fh, 0, buf, size, MPI_BYTE, MPI_STATUS_IGNORE)
              : MPI_File_read_at_all(fh, 0, buf, size, MPI_BYTE, MPI_STATUS_IGNORE);
    else
        write ? MPI_File_write_at_all(fh, (MPI_Offset)rank * size, buf, size, MPI_BYTE,
                                      MPI_STATUS_IGNORE)
              : MPI_File_read_at_all(fh, (MPI_Offset)rank * size, buf, size, MPI_BYTE,
                                     MPI_STATUS_IGNORE);
    t = MPI_Wtime() - t;
    double all;
    MPI_Allreduce(&t, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

static void run(MPI_File fh, int strided, int size)
{
    char *buf = malloc(size), *back = malloc(size);
    for (int i = 0; i < size; i++)
        buf[i] = (char)(rank * 31 + i);
    MPI_Datatype vec = MPI_BYTE, ft = MPI_BYTE;
    if (strided) {
        MPI_Type_vector(size / BLOCK, BLOCK, BLOCK * np, MPI_BYTE, &vec);
        MPI_Type_create_resized(vec, 0, (MPI_Aint)size * np, &ft);
        MPI_Type_commit(&ft);
    }
    MPI_File_set_view(fh, strided ? (MPI_Offset)rank * BLOCK : 0, MPI_BYTE, ft, "native",
                      MPI_INFO_NULL);
    double tw[REPS], tr[REPS];
    for (int r = 0; r < REPS; r++) {
        tw[r] = timed(fh, 1, strided, buf, size);
        memset(back, 0, size);
        tr[r] = timed(fh, 0, strided, back, size);
        if (memcmp(buf, back, size))
            bad++;
    }
    qsort(tw, REPS, sizeof(double), cmp);
    qsort(tr, REPS, sizeof(double), cmp);
    double mb = (double)size * np / 1e6;
    if (rank == 0) {
        printf("write_%s %d %.1f\n", strided ? "strided" : "contig", size, mb / tw[REPS / 2]);
        printf("read_%s %d %.1f\n", strided ? "strided" : "contig", size, mb / tr[REPS / 2]);
    }
    if (strided) {
        MPI_Type_free(&ft);
        MPI_Type_free(&vec);
    }
    free(buf);
    free(back);
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    int quick = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
    }
    char path[4096];
    int id = (int)getpid();
    MPI_Bcast(&id, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof(path), "%s/io_bw.%d.dat", dir, id);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                      MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) != MPI_SUCCESS) {
        fprintf(stderr, "io_bw: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) {
        printf("# unit write_contig MB/s higher\n# unit read_contig MB/s higher\n");
        printf("# unit write_strided MB/s higher\n# unit read_strided MB/s higher\n");
    }
    int sizes[] = {65536, 1 << 20, 8 << 20};
    for (int k = quick ? 1 : 0; k < (quick ? 2 : 3); k++) {
        run(fh, 0, sizes[k]);
        run(fh, 1, sizes[k]);
    }
    MPI_File_close(&fh);
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all)
        printf("io_bw: FAILED: %d reads gave wrong data\n", all);
    MPI_Finalize();
    return all != 0;
}
