/*
 * io_shared DIR: the shared file pointer, ordered access, atomic mode and
 * data representations (np 3 or 4).
 *   - write_shared / iwrite_shared: every rank's records land once each,
 *     none overlapping; read_shared gives each record to exactly one rank
 *   - write_ordered with rank-dependent sizes lands in rank order;
 *     read_ordered, the split ordered forms, seek_shared and
 *     get_position_shared
 *   - atomic mode: overlapping concurrent writes leave one writer's data
 *   - external32: big-endian bytes in the file; a registered datarep whose
 *     conversion functions add 1000000 on the way out
 *   - MPI_MODE_SEQUENTIAL with MPI_DISPLACEMENT_CURRENT
 */
#include "io_test.h"

#include <stdint.h>

#define R 5 /* records per rank */

static int rank, size;

static void shared(const char *path)
{
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_size(fh, 0));
    int rec[2];
    for (int i = 0; i < R; i++) {
        rec[0] = rank;
        rec[1] = i;
        if (i % 2) {
            MPI_Request rq;
            OK(MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &rq));
            OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        } else {
            OK(MPI_File_write_shared(fh, rec, 2, MPI_INT, MPI_STATUS_IGNORE));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Offset sp;
    OK(MPI_File_get_position_shared(fh, &sp));
    CHECK(sp == (MPI_Offset)(size * R * 2 * sizeof(int)), "shared pointer %lld", (long long)sp);
    MPI_Barrier(MPI_COMM_WORLD); /* everyone read it before the seek moves it */
    if (rank == 0) {
        int n = size * R, *all = malloc(2 * n * sizeof(int)), *seen = calloc(n, sizeof(int));
        OK(MPI_File_read_at(fh, 0, all, 2 * n, MPI_INT, MPI_STATUS_IGNORE));
        for (int k = 0; k < n; k++) {
            int r = all[2 * k], i = all[2 * k + 1];
            CHECK(r >= 0 && r < size && i >= 0 && i < R, "record %d: (%d, %d)", k, r, i);
            if (r >= 0 && r < size && i >= 0 && i < R)
                seen[r * R + i]++;
        }
        for (int k = 0; k < n; k++)
            CHECK(seen[k] == 1, "record (%d, %d) written %d times", k / R, k % R, seen[k]);
        free(all);
        free(seen);
    }
    /* read_shared hands each record to one reader */
    OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int got = 0, mine = 0;
    for (;;) {
        MPI_Status st;
        int cnt;
        OK(MPI_File_read_shared(fh, rec, 2, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &cnt);
        if (cnt < 2)
            break;
        mine++;
    }
    MPI_Allreduce(&mine, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(got == size * R, "read_shared gave %d records, want %d", got, size * R);
    /* ordered: rank r writes r+1 ints of value r; the file holds them in order */
    OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int v[16];
    for (int i = 0; i <= rank; i++)
        v[i] = rank;
    OK(MPI_File_write_ordered(fh, v, rank + 1, MPI_INT, MPI_STATUS_IGNORE));
    OK(MPI_File_get_position_shared(fh, &sp));
    MPI_Offset want = (MPI_Offset)size * (size + 1) / 2 * sizeof(int);
    CHECK(sp == want, "after write_ordered: %lld, want %lld", (long long)sp, (long long)want);
    OK(MPI_File_write_ordered_begin(fh, v, rank + 1, MPI_INT));
    OK(MPI_File_write_ordered_end(fh, v, MPI_STATUS_IGNORE));
    OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    int back[16] = {0};
    OK(MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i <= rank; i++)
        CHECK(back[i] == rank, "read_ordered [%d] = %d", i, back[i]);
    memset(back, 0, sizeof(back));
    OK(MPI_File_read_ordered_begin(fh, back, rank + 1, MPI_INT));
    OK(MPI_File_read_ordered_end(fh, back, MPI_STATUS_IGNORE));
    for (int i = 0; i <= rank; i++)
        CHECK(back[i] == rank, "split read_ordered [%d] = %d", i, back[i]);
    /* seek relative to the end (the shared pointer is in etypes: bytes here) */
    MPI_Offset fsize;
    OK(MPI_File_get_size(fh, &fsize));
    OK(MPI_File_seek_shared(fh, -4, MPI_SEEK_END));
    OK(MPI_File_get_position_shared(fh, &sp));
    CHECK(sp == fsize - 4, "seek_shared end: %lld, want %lld", (long long)sp,
          (long long)fsize - 4);
    FAILS(MPI_ERR_NOT_SAME, MPI_File_seek_shared(fh, rank, MPI_SEEK_SET));
    OK(MPI_File_close(&fh));
}

static void atomic(const char *path)
{
    enum { M = 65536 };
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_atomicity(fh, 1));
    int flag = 0;
    OK(MPI_File_get_atomicity(fh, &flag));
    CHECK(flag == 1, "atomicity");
    /* everyone writes the same region (through a strided view: several
     * runs, so without the lock the writes could interleave) */
    MPI_Datatype vec;
    MPI_Type_vector(M / 64, 32, 64, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    OK(MPI_File_set_view(fh, 0, MPI_INT, vec, "native", MPI_INFO_NULL));
    int *buf = malloc(M / 2 * sizeof(int));
    for (int it = 0; it < 3; it++) {
        for (int i = 0; i < M / 2; i++)
            buf[i] = rank * 10 + it;
        OK(MPI_File_write_at(fh, 0, buf, M / 2, MPI_INT, MPI_STATUS_IGNORE));
        OK(MPI_File_read_at(fh, 0, buf, M / 2, MPI_INT, MPI_STATUS_IGNORE));
        int mixed = 0;
        for (int i = 1; i < M / 2; i++)
            mixed += buf[i] != buf[0];
        CHECK(mixed == 0, "atomic mode: %d ints differ from the first (%d)", mixed, buf[0]);
    }
    FAILS(MPI_ERR_NOT_SAME, MPI_File_set_atomicity(fh, rank % 2));
    free(buf);
    MPI_Type_free(&vec);
    OK(MPI_File_close(&fh));
}

/* A representation that stores int + 1000000 (so the file shows it ran). */
static int calls;
static int to_file(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset pos, void *x)
{
    (void)pos;
    calls += x == &calls;
    if (t != MPI_INT)
        return MPI_ERR_TYPE;
    for (int i = 0; i < count; i++)
        ((int *)fbuf)[i] = ((int *)ubuf)[i] + 1000000;
    return MPI_SUCCESS;
}
static int from_file(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset pos, void *x)
{
    (void)pos;
    (void)x;
    if (t != MPI_INT)
        return MPI_ERR_TYPE;
    for (int i = 0; i < count; i++)
        ((int *)ubuf)[i] = ((int *)fbuf)[i] - 1000000;
    return MPI_SUCCESS;
}
static int extent_fn(MPI_Datatype t, MPI_Aint *e, void *x)
{
    (void)x;
    MPI_Aint lb;
    return MPI_Type_get_extent(t, &lb, e);
}

static void datareps(const char *path)
{
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    int v[2] = {0x01020304 + rank, -2 - rank}, w[2] = {0, 0};
    OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL));
    OK(MPI_File_write_at_all(fh, 2 * rank, v, 2, MPI_INT, MPI_STATUS_IGNORE));
    OK(MPI_File_read_at_all(fh, 2 * rank, w, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(w[0] == v[0] && w[1] == v[1], "external32 round trip %d %d", w[0], w[1]);
    MPI_Aint ext;
    OK(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
    CHECK(ext == 4, "external32 extent of MPI_LONG %ld (4 bytes in external32)", (long)ext);
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char raw[8];
    OK(MPI_File_read_at_all(fh, 8 * rank, raw, 8, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(raw[0] == 1 && raw[1] == 2 && raw[2] == 3 && raw[3] == 4 + rank, "big-endian bytes");
    CHECK(raw[4] == 0xff && raw[7] == (unsigned char)(-2 - rank), "big-endian negative");
    /* a basic type that changes size in external32 (tests/io/io_external.c) */
    OK(MPI_File_set_view(fh, 0, MPI_WCHAR, MPI_WCHAR, "external32", MPI_INFO_NULL));
    OK(MPI_File_get_type_extent(fh, MPI_WCHAR, &ext));
    CHECK(ext == 2, "external32 extent of MPI_WCHAR %ld", (long)ext);
    /* a registered representation */
    OK(MPI_Register_datarep("plus1e6", from_file, to_file, extent_fn, &calls));
    FAILS(MPI_ERR_DUP_DATAREP, MPI_Register_datarep("plus1e6", from_file, to_file, extent_fn, NULL));
    OK(MPI_File_set_view(fh, 1024, MPI_INT, MPI_INT, "plus1e6", MPI_INFO_NULL));
    char rep[MPI_MAX_DATAREP_STRING];
    MPI_Offset d;
    MPI_Datatype et, ft;
    OK(MPI_File_get_view(fh, &d, &et, &ft, rep));
    CHECK(!strcmp(rep, "plus1e6"), "datarep %s", rep);
    OK(MPI_File_write_at_all(fh, 2 * rank, v, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(calls == 1, "write conversion called %d times", calls);
    w[0] = w[1] = 0;
    OK(MPI_File_read_at_all(fh, 2 * rank, w, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(w[0] == v[0] && w[1] == v[1], "registered round trip %d %d", w[0], w[1]);
    FAILS(MPI_ERR_CONVERSION, MPI_File_write_at(fh, 0, raw, 4, MPI_BYTE, MPI_STATUS_IGNORE));
    OK(MPI_File_set_view(fh, 1024, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    OK(MPI_File_read_at_all(fh, 2 * rank, w, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(w[0] == v[0] + 1000000 && w[1] == v[1] + 1000000, "stored form %d %d", w[0], w[1]);
    OK(MPI_File_close(&fh));
}

static void sequential(const char *path)
{
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                     MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    int v = rank;
    OK(MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_UNSUPPORTED_OPERATION, MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
    FAILS(MPI_ERR_UNSUPPORTED_OPERATION, MPI_File_seek(fh, 0, MPI_SEEK_SET));
    /* the view starts where the shared pointer is: past the ranks' ints */
    OK(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    MPI_Offset d;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    OK(MPI_File_get_view(fh, &d, &et, &ft, rep));
    CHECK(d == (MPI_Offset)(size * sizeof(int)), "MPI_DISPLACEMENT_CURRENT gave %lld", (long long)d);
    OK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(access(path, F_OK) != 0, "MPI_MODE_DELETE_ON_CLOSE left the file");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || size > 16) {
        fprintf(stderr, "usage: mpirun -np N io_shared DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    io_path(path, sizeof(path), argv[1], "io_shared.dat");
    shared(path);
    atomic(path);
    datareps(path);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        OK(MPI_File_delete(path, MPI_INFO_NULL));
    io_path(path, sizeof(path), argv[1], "io_sequential.dat");
    sequential(path);
    return io_finish("io_shared");
}
