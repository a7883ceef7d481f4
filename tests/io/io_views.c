/*
 * io_views DIR: write then read back through views (np 4).
 *   - explicit offsets, contiguous blocks (write_at / read_at)
 *   - an interleaved vector view (write_all), read back flat by rank 0
 *   - a 2-D array: each rank writes its block through a subarray view,
 *     everyone reads its block again through the matching darray view
 *   - individual pointer: seek, get_position, get_byte_offset, read
 *   - non-blocking (iwrite_at, iread, iread_at_all) and split collectives
 *   - the large-count forms (write_at_c, read_all_c, Get_count_c)
 *   - size, preallocate, amode, group, info, type extent, sync
 */
#include "io_test.h"

#define N 16   /* ints per rank in the flat parts */
#define G 8    /* the 2-D array is G x G ints */

static int rank, size;

static void flat(MPI_File fh)
{
    int buf[N], back[N];
    MPI_Status st;
    for (int i = 0; i < N; i++)
        buf[i] = rank * 1000 + i;
    OK(MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), buf, N, MPI_INT, &st));
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "write_at count %d", cnt);
    OK(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_File_sync(fh));
    int peer = (rank + 1) % size;
    OK(MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), back, N, MPI_INT, &st));
    for (int i = 0; i < N; i++)
        CHECK(back[i] == peer * 1000 + i, "read_at [%d] = %d", i, back[i]);
    MPI_Offset sz;
    OK(MPI_File_get_size(fh, &sz));
    CHECK(sz == (MPI_Offset)(size * N * sizeof(int)), "size %lld", (long long)sz);
    /* reading past the end: a short count */
    OK(MPI_File_read_at(fh, sz - 2 * sizeof(int), back, N, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == 2, "read at the end gave %d ints, want 2", cnt);
}

/* rank r owns ints r, r+size, r+2*size, ... of the file (after 64 bytes) */
static void interleaved(MPI_File fh)
{
    MPI_Datatype vec, ft;
    MPI_Type_vector(N, 1, size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)size * N * sizeof(int), &ft);
    MPI_Type_commit(&ft);
    OK(MPI_File_set_view(fh, 64 + rank * sizeof(int), MPI_INT, ft, "native", MPI_INFO_NULL));
    int buf[N];
    for (int i = 0; i < N; i++)
        buf[i] = rank + size * i;
    OK(MPI_File_write_all(fh, buf, N, MPI_INT, MPI_STATUS_IGNORE));
    MPI_Offset pos, byte;
    OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == N, "position after write_all %lld", (long long)pos);
    OK(MPI_File_get_byte_offset(fh, 3, &byte));
    CHECK(byte == (MPI_Offset)(64 + (rank + 3 * size) * sizeof(int)), "byte offset %lld",
          (long long)byte);
    MPI_Offset disp;
    MPI_Datatype et, ft2;
    char rep[MPI_MAX_DATAREP_STRING];
    OK(MPI_File_get_view(fh, &disp, &et, &ft2, rep));
    int sz2;
    MPI_Type_size(ft2, &sz2);
    CHECK(disp == 64 + rank * (MPI_Offset)sizeof(int) && et == MPI_INT && sz2 == N * 4 &&
              !strcmp(rep, "native"), "get_view");
    MPI_Type_free(&ft2);
    /* individual pointer: seek back and read the 5th..8th own ints */
    OK(MPI_File_seek(fh, 4, MPI_SEEK_SET));
    int four[4];
    OK(MPI_File_read(fh, four, 4, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < 4; i++)
        CHECK(four[i] == rank + size * (4 + i), "read via pointer [%d]=%d", i, four[i]);
    OK(MPI_File_seek(fh, -2, MPI_SEEK_CUR));
    OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == 6, "seek cur: %lld", (long long)pos);
    OK(MPI_File_seek(fh, 0, MPI_SEEK_END));
    OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == N, "seek end: %lld", (long long)pos);
    FAILS(MPI_ERR_ARG, MPI_File_seek(fh, -1, MPI_SEEK_SET));
    /* rank 0 reads the whole region flat */
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    if (rank == 0) {
        int all[N * 16];
        OK(MPI_File_read_at(fh, 64, all, N * size, MPI_INT, MPI_STATUS_IGNORE));
        for (int i = 0; i < N * size; i++)
            CHECK(all[i] == i, "interleaved file [%d] = %d", i, all[i]);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&ft);
}

/* A G x G array of ints on a 2 x (size/2) process grid, block distributed. */
static void array2d(MPI_File fh)
{
    int pr = 2, pc = size / 2;
    int gs[2] = {G, G}, ls[2] = {G / pr, G / pc}, st[2] = {(rank / pc) * ls[0], (rank % pc) * ls[1]};
    MPI_Datatype sub, dar;
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    int n = ls[0] * ls[1];
    int *mine = malloc(n * sizeof(int)), *back = malloc(n * sizeof(int));
    for (int i = 0; i < ls[0]; i++)
        for (int j = 0; j < ls[1]; j++)
            mine[i * ls[1] + j] = (st[0] + i) * G + st[1] + j;
    OK(MPI_File_set_view(fh, 4096, MPI_INT, sub, "native", MPI_INFO_NULL));
    OK(MPI_File_write_at_all(fh, 0, mine, n, MPI_INT, MPI_STATUS_IGNORE));
    int dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {pr, pc};
    MPI_Type_create_darray(size, rank, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &dar);
    MPI_Type_commit(&dar);
    OK(MPI_File_set_view(fh, 4096, MPI_INT, dar, "native", MPI_INFO_NULL));
    memset(back, 0xff, n * sizeof(int));
    OK(MPI_File_read_all(fh, back, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        CHECK(back[i] == mine[i], "darray read [%d] = %d, want %d", i, back[i], mine[i]);
    /* the whole array flat: row-major 0..G*G-1 */
    OK(MPI_File_set_view(fh, 4096, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    int all[G * G];
    OK(MPI_File_read_at_all(fh, 0, all, G * G, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < G * G; i++)
        CHECK(all[i] == i, "2-D file [%d] = %d", i, all[i]);
    MPI_Type_free(&sub);
    MPI_Type_free(&dar);
    free(mine);
    free(back);
}

static void nonblocking(MPI_File fh)
{
    OK(MPI_File_set_view(fh, 8192, MPI_DOUBLE, MPI_DOUBLE, "native", MPI_INFO_NULL));
    double d[4] = {rank + 0.5, rank + 1.5, rank + 2.5, rank + 3.5}, e[4];
    MPI_Request rq;
    MPI_Status st;
    OK(MPI_File_iwrite_at(fh, rank * 4, d, 4, MPI_DOUBLE, &rq));
    OK(MPI_Wait(&rq, &st));
    int cnt;
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(cnt == 4, "iwrite_at count %d", cnt);
    OK(MPI_File_iread_at_all(fh, rank * 4, e, 4, MPI_DOUBLE, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(!memcmp(d, e, sizeof(d)), "iread_at_all");
    OK(MPI_File_seek(fh, rank * 4 + 1, MPI_SEEK_SET));
    OK(MPI_File_iread(fh, e, 2, MPI_DOUBLE, &rq));
    OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(e[0] == d[1] && e[1] == d[2], "iread via pointer");
    /* split collective: write doubles, read back */
    double s[2] = {-rank, -rank - 0.25}, t[2] = {0, 0};
    OK(MPI_File_write_at_all_begin(fh, 100 + 2 * rank, s, 2, MPI_DOUBLE));
    FAILS(MPI_ERR_OTHER, MPI_File_read_all_begin(fh, t, 2, MPI_DOUBLE));
    OK(MPI_File_write_at_all_end(fh, s, &st));
    MPI_Get_count(&st, MPI_DOUBLE, &cnt);
    CHECK(cnt == 2, "split write count %d", cnt);
    OK(MPI_File_seek(fh, 100 + 2 * rank, MPI_SEEK_SET));
    OK(MPI_File_read_all_begin(fh, t, 2, MPI_DOUBLE));
    OK(MPI_File_read_all_end(fh, t, MPI_STATUS_IGNORE));
    CHECK(t[0] == s[0] && t[1] == s[1], "split read %g %g", t[0], t[1]);
    FAILS(MPI_ERR_OTHER, MPI_File_read_all_end(fh, t, MPI_STATUS_IGNORE));
    /* large-count forms */
    MPI_Count cc = -1;
    OK(MPI_File_write_at_c(fh, 200 + rank * 4, d, (MPI_Count)4, MPI_DOUBLE, &st));
    MPI_Get_count_c(&st, MPI_DOUBLE, &cc);
    CHECK(cc == 4, "write_at_c count %lld", (long long)cc);
    OK(MPI_File_seek(fh, 200 + rank * 4, MPI_SEEK_SET));
    memset(e, 0, sizeof(e));
    OK(MPI_File_read_all_c(fh, e, (MPI_Count)4, MPI_DOUBLE, &st));
    CHECK(!memcmp(d, e, sizeof(d)), "read_all_c");
}

static void manipulation(MPI_File fh, const char *path)
{
    int amode;
    OK(MPI_File_get_amode(fh, &amode));
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
    MPI_Group g, wg;
    int cmp;
    OK(MPI_File_get_group(fh, &g));
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT, "file group");
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    MPI_Info in, used;
    MPI_Info_create(&in);
    MPI_Info_set(in, "access_style", "write_once");
    OK(MPI_File_set_info(fh, in));
    OK(MPI_File_get_info(fh, &used));
    char v[64];
    int flag = 0;
    MPI_Info_get(used, "access_style", sizeof(v) - 1, v, &flag);
    CHECK(flag && !strcmp(v, "write_once"), "info hint");
    MPI_Info_free(&in);
    MPI_Info_free(&used);
    MPI_Aint ext;
    OK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext));
    CHECK(ext == 8, "type extent %ld", (long)ext);
    OK(MPI_File_set_size(fh, 100000));
    MPI_Offset sz;
    OK(MPI_File_get_size(fh, &sz));
    CHECK(sz == 100000, "set_size %lld", (long long)sz);
    OK(MPI_File_set_size(fh, 50000));
    OK(MPI_File_preallocate(fh, 20000)); /* never shrinks */
    OK(MPI_File_get_size(fh, &sz));
    CHECK(sz == 50000, "preallocate shrank: %lld", (long long)sz);
    OK(MPI_File_preallocate(fh, 70000));
    OK(MPI_File_get_size(fh, &sz));
    CHECK(sz == 70000, "preallocate %lld", (long long)sz);
    int at = -1;
    OK(MPI_File_get_atomicity(fh, &at));
    CHECK(at == 0, "default atomicity");
    (void)path;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || size % 2 || size > 16) {
        fprintf(stderr, "usage: mpirun -np 2|4|.. io_views DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    io_path(path, sizeof(path), argv[1], "io_views.dat");
    if (rank == 0)
        MPI_File_delete(path, MPI_INFO_NULL); /* a left-over of an earlier run */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    flat(fh);
    interleaved(fh);
    array2d(fh);
    nonblocking(fh);
    manipulation(fh, path);
    OK(MPI_File_close(&fh));
    CHECK(fh == MPI_FILE_NULL, "close sets MPI_FILE_NULL");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        OK(MPI_File_delete(path, MPI_INFO_NULL));
        CHECK(access(path, F_OK) != 0, "the file is still there after MPI_File_delete");
    }
    return io_finish("io_views");
}
