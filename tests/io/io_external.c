/*
 * io_external DIR: file views whose basic types have another size in the
 * file than in memory (MPI-4.0 14.5): "external32" (MPI_LONG and
 * MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2 on LP64) and a registered
 * representation that stores MPI_INT in 8 bytes.
 *   - MPI_LONG view: round trip, the file holds 4-byte big-endian values,
 *     MPI_File_get_type_extent gives the file sizes
 *   - a portable filetype (subarray of MPI_LONG) is scaled to the file's
 *     sizes: each rank's block lands at rank * 2 * 4 bytes
 *   - interop: bytes made by MPI_Pack_external read back through the view
 *     of a mixed-size struct type (file displacements), and what the view
 *     writes unpacks with MPI_Unpack_external
 *   - a value that does not fit its external32 size: MPI_ERR_CONVERSION,
 *     nothing written
 *   - the registered representation: the conversion functions get the
 *     file extent from the extent function
 *   - a filetype whose lower bound is above 0 (its blocks start after a
 *     pad) is no overlap: the view takes it, natively and in external32
 */
#include "io_test.h"

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

static int rank, size;

static int64_t be_get(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    if (n < 8 && (p[0] & 0x80))
        v |= ~(uint64_t)0 << (8 * n); /* sign */
    return (int64_t)v;
}

static void longs(const char *path)
{
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_size(fh, 0));
    OK(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL));
    MPI_Aint ext;
    OK(MPI_File_get_type_extent(fh, MPI_LONG, &ext));
    CHECK(ext == 4, "extent of MPI_LONG in external32: %ld", (long)ext);
    long v[3] = {-5 - rank, 2147483647L - rank, -2147483647L - 1 + rank}, w[3] = {0};
    OK(MPI_File_write_at_all(fh, 3 * rank, v, 3, MPI_LONG, MPI_STATUS_IGNORE));
    MPI_Status st;
    OK(MPI_File_read_at_all(fh, 3 * rank, w, 3, MPI_LONG, &st));
    int n = -1;
    MPI_Get_count(&st, MPI_LONG, &n);
    CHECK(n == 3 && w[0] == v[0] && w[1] == v[1] && w[2] == v[2],
          "MPI_LONG round trip: %d read, %ld %ld %ld", n, w[0], w[1], w[2]);
    MPI_Offset fsize;
    OK(MPI_File_get_size(fh, &fsize));
    CHECK(fsize == (MPI_Offset)size * 12, "file size %lld, want 4 bytes a value",
          (long long)fsize);
    /* out of range: refused, nothing written */
    long big[2] = {7, 1L << 40};
    FAILS(MPI_ERR_CONVERSION, MPI_File_write_at(fh, 0, big, 2, MPI_LONG, MPI_STATUS_IGNORE));
    unsigned long ubig = 1UL << 33;
    FAILS(MPI_ERR_CONVERSION,
          MPI_File_write_at(fh, 0, &ubig, 1, MPI_UNSIGNED_LONG, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_File_read_at(fh, 3 * rank, w, 1, MPI_LONG, MPI_STATUS_IGNORE));
    CHECK(w[0] == v[0], "a refused write changed the file: %ld", w[0]);
    /* the bytes in the file: 4-byte big-endian */
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char raw[12];
    OK(MPI_File_read_at_all(fh, 12 * rank, raw, 12, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(be_get(raw, 4) == v[0] && be_get(raw + 4, 4) == v[1] && be_get(raw + 8, 4) == v[2],
          "stored form of MPI_LONG");
    /* a portable filetype is scaled: a subarray of MPI_LONG */
    int gsz = 2 * size, sub = 2, start = 2 * rank;
    MPI_Datatype sa;
    OK(MPI_Type_create_subarray(1, &gsz, &sub, &start, MPI_ORDER_C, MPI_LONG, &sa));
    OK(MPI_Type_commit(&sa));
    OK(MPI_File_set_view(fh, 64, MPI_LONG, sa, "external32", MPI_INFO_NULL));
    OK(MPI_File_get_type_extent(fh, sa, &ext));
    CHECK(ext == 4 * gsz, "external32 extent of the subarray %ld, want %d", (long)ext, 4 * gsz);
    long s2[4] = {100 * rank, 100 * rank + 1, 100 * rank + 2, 100 * rank + 3};
    OK(MPI_File_write_all(fh, s2, 4, MPI_LONG, MPI_STATUS_IGNORE)); /* two tiles */
    long r2[4] = {0};
    OK(MPI_File_read_at_all(fh, 0, r2, 4, MPI_LONG, MPI_STATUS_IGNORE));
    CHECK(!memcmp(r2, s2, sizeof r2), "subarray view round trip %ld %ld %ld %ld", r2[0], r2[1],
          r2[2], r2[3]);
    OK(MPI_File_set_view(fh, 64, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    unsigned char all[2 * 4 * 128];
    OK(MPI_File_read_at_all(fh, 0, all, 2 * 4 * gsz, MPI_BYTE, MPI_STATUS_IGNORE));
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < size; r++)
            for (int k = 0; k < 2; k++) {
                int64_t got = be_get(all + 4 * (t * gsz + 2 * r + k), 4);
                CHECK(got == 100 * r + 2 * t + k, "tile %d rank %d [%d]: %lld", t, r, k,
                      (long long)got);
            }
    MPI_Type_free(&sa);
    OK(MPI_File_close(&fh));
}

/* A record with members whose external32 size differs from memory. */
typedef struct {
    int i;
    long l;
    double d;
    short s;
    wchar_t c;
} rec_t;

static void make_types(MPI_Datatype *mem, MPI_Datatype *file)
{
    int bl[5] = {1, 1, 1, 1, 1};
    MPI_Datatype ty[5] = {MPI_INT, MPI_LONG, MPI_DOUBLE, MPI_SHORT, MPI_WCHAR};
    MPI_Aint md[5] = {offsetof(rec_t, i), offsetof(rec_t, l), offsetof(rec_t, d),
                      offsetof(rec_t, s), offsetof(rec_t, c)};
    MPI_Aint fd[5] = {0, 4, 8, 16, 18}; /* external32 sizes 4 4 8 2 2, packed */
    MPI_Datatype m;
    OK(MPI_Type_create_struct(5, bl, md, ty, &m));
    OK(MPI_Type_create_resized(m, 0, sizeof(rec_t), mem));
    OK(MPI_Type_commit(mem));
    MPI_Type_free(&m);
    OK(MPI_Type_create_struct(5, bl, fd, ty, file));
    OK(MPI_Type_commit(file));
}

static void records(const char *path)
{
    MPI_Datatype mem, file;
    make_types(&mem, &file);
    enum { N = 3 };
    rec_t v[N], w[N];
    memset(v, 0, sizeof v);
    memset(w, 0, sizeof w);
    for (int k = 0; k < N; k++)
        v[k] = (rec_t){.i = -k - rank, .l = 70000L * (rank + 1) - k, .d = 0.5 + k + rank,
                       .s = (short)(-300 - k), .c = (wchar_t)(0x263a + k)};
    /* the external32 bytes, made by MPI_Pack_external, written as bytes */
    MPI_Aint psize = 0, pos = 0;
    OK(MPI_Pack_external_size("external32", N, mem, &psize));
    CHECK(psize == 20 * N, "external32 size of the record %ld", (long)psize);
    unsigned char packed[20 * N], back[20 * N];
    OK(MPI_Pack_external("external32", v, N, mem, packed, sizeof packed, &pos));
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_write_at_all(fh, (MPI_Offset)sizeof packed * rank, packed, (int)psize, MPI_BYTE,
                             MPI_STATUS_IGNORE));
    /* read back through a view of the struct with file displacements */
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, file, "external32", MPI_INFO_NULL));
    MPI_Aint ext;
    OK(MPI_File_get_type_extent(fh, file, &ext));
    CHECK(ext == 20, "external32 extent of the record type %ld", (long)ext);
    OK(MPI_File_read_at_all(fh, (MPI_Offset)sizeof packed * rank, w, N, mem, MPI_STATUS_IGNORE));
    for (int k = 0; k < N; k++)
        CHECK(w[k].i == v[k].i && w[k].l == v[k].l && w[k].d == v[k].d && w[k].s == v[k].s &&
                  w[k].c == v[k].c,
              "record %d read through the view: %d %ld %g %d %x", k, w[k].i, w[k].l, w[k].d,
              w[k].s, (unsigned)w[k].c);
    /* written through the view: MPI_Unpack_external reads it */
    MPI_Offset at = (MPI_Offset)sizeof packed * (size + rank);
    OK(MPI_File_write_at_all(fh, at, v, N, mem, MPI_STATUS_IGNORE));
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    OK(MPI_File_read_at_all(fh, at, back, (int)psize, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(!memcmp(back, packed, sizeof packed), "the view's bytes differ from MPI_Pack_external's");
    memset(w, 0, sizeof w);
    pos = 0;
    OK(MPI_Unpack_external("external32", back, psize, &pos, w, N, mem));
    CHECK(w[N - 1].l == v[N - 1].l && w[N - 1].c == v[N - 1].c, "unpacked %ld %x", w[N - 1].l,
          (unsigned)w[N - 1].c);
    /* a wchar_t beyond 2 bytes does not fit */
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, file, "external32", MPI_INFO_NULL));
    v[1].c = (wchar_t)0x1f600;
    FAILS(MPI_ERR_CONVERSION, MPI_File_write_at(fh, 0, v, N, mem, MPI_STATUS_IGNORE));
    OK(MPI_File_close(&fh));
    MPI_Type_free(&mem);
    MPI_Type_free(&file);
}

/* "wide": MPI_INT stored as 8-byte little-endian two's complement. */
static int conv_calls;
static int wide_extent(MPI_Datatype t, MPI_Aint *e, void *x)
{
    (void)x;
    if (t != MPI_INT)
        return MPI_ERR_TYPE;
    *e = 8;
    return MPI_SUCCESS;
}
/* Both directions: int <-> int64_t, 8 bytes in the file. */
static int wide_copy(int to_file, void *ubuf, MPI_Datatype t, int count, void *fbuf)
{
    if (t != MPI_INT)
        return MPI_ERR_TYPE;
    conv_calls++;
    for (int i = 0; i < count; i++) {
        int64_t v = ((int *)ubuf)[i];
        if (to_file) {
            memcpy((char *)fbuf + 8 * i, &v, 8);
        } else {
            memcpy(&v, (char *)fbuf + 8 * i, 8);
            ((int *)ubuf)[i] = (int)v;
        }
    }
    return MPI_SUCCESS;
}
static int wide_write(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset pos, void *x)
{
    (void)pos, (void)x;
    return wide_copy(1, ubuf, t, count, fbuf);
}
static int wide_read(void *ubuf, MPI_Datatype t, int count, void *fbuf, MPI_Offset pos, void *x)
{
    (void)pos, (void)x;
    return wide_copy(0, ubuf, t, count, fbuf);
}

static void registered(const char *path)
{
    OK(MPI_Register_datarep("wide", wide_read, wide_write, wide_extent, NULL));
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "wide", MPI_INFO_NULL));
    MPI_Aint ext;
    OK(MPI_File_get_type_extent(fh, MPI_INT, &ext));
    CHECK(ext == 8, "extent from the extent function %ld", (long)ext);
    int v[2] = {-7 - rank, 1 << 30}, w[2] = {0, 0};
    OK(MPI_File_write_at_all(fh, 2 * rank, v, 2, MPI_INT, MPI_STATUS_IGNORE));
    OK(MPI_File_read_at_all(fh, 2 * rank, w, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(w[0] == v[0] && w[1] == v[1], "wide round trip %d %d", w[0], w[1]);
    CHECK(conv_calls == 2, "conversion functions called %d times", conv_calls);
    OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int64_t raw[2];
    OK(MPI_File_read_at_all(fh, 16 * rank, raw, 16, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(raw[0] == v[0] && raw[1] == v[1], "stored form %lld %lld", (long long)raw[0],
          (long long)raw[1]);
    OK(MPI_File_close(&fh));
}

/* hindexed_block of 2 blocks of 8 bytes at 16 and 24: lb 16, extent 16 */
static void lb_above_zero(const char *path)
{
    MPI_Aint disp[2] = {16, 24};
    MPI_Datatype ft;
    OK(MPI_Type_create_hindexed_block(2, 8, disp, MPI_BYTE, &ft));
    OK(MPI_Type_commit(&ft));
    MPI_File fh;
    OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR |
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    const char *rep[2] = {"native", "external32"};
    for (int r = 0; r < 2; r++) {
        OK(MPI_File_set_view(fh, 0, MPI_BYTE, ft, rep[r], MPI_INFO_NULL));
        char out[32], in[32] = {0};
        for (int i = 0; i < 32; i++)
            out[i] = (char)(i + 7 * r);
        OK(MPI_File_write_at(fh, 0, out, 32, MPI_BYTE, MPI_STATUS_IGNORE)); /* two tiles */
        OK(MPI_File_read_at(fh, 0, in, 32, MPI_BYTE, MPI_STATUS_IGNORE));
        CHECK(!memcmp(in, out, sizeof in), "%s: a view with lb 16 round trip", rep[r]);
        OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
        OK(MPI_File_read_at(fh, 32, in, 16, MPI_BYTE, MPI_STATUS_IGNORE));
        CHECK(!memcmp(in, out + 16, 16), "%s: the second tile at 16 + 16", rep[r]);
    }
    OK(MPI_File_close(&fh));
    MPI_Type_free(&ft);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    OK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    if (size > 64) {
        MPI_Finalize();
        return 0;
    }
    const char *dir = argc > 1 ? argv[1] : ".";
    char p1[512], p2[512], p3[512], p4[512];
    io_path(p1, sizeof p1, dir, "external_longs");
    io_path(p2, sizeof p2, dir, "external_records");
    io_path(p3, sizeof p3, dir, "external_wide");
    snprintf(p4, sizeof p4, "%s/external_lb.%d", dir, rank);
    longs(p1);
    records(p2);
    registered(p3);
    lb_above_zero(p4);
    return io_finish("io_external");
}
