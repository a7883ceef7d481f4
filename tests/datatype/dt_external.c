/*
 * dt_external: MPI_Pack_external/Unpack_external/Pack_external_size in
 * "external32": the exact big-endian bytes of each predefined type
 * (sizes from the standard's table: MPI_LONG 4, MPI_WCHAR 2, long double
 * as IEEE binary128, pairs without padding), values back after a round
 * trip, derived types in typemap order, and every zoo type round-tripped.
 */
#include "dtzoo.h"

static void expect_bytes(const char *what, MPI_Datatype t, const void *val, const char *hex)
{
    unsigned char want[64], got[64];
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        want[i] = (unsigned char)v;
    }
    MPI_Aint size = -1, pos = 0;
    MPI_Pack_external_size("external32", 1, t, &size);
    T_CHECK(size == (MPI_Aint)n, "%s: external32 size %ld, expected %zu", what, (long)size, n);
    memset(got, 0xa5, sizeof got);
    T_MPI(MPI_Pack_external("external32", val, 1, t, got, sizeof got, &pos));
    T_CHECK(pos == (MPI_Aint)n, "%s: position %ld after pack, expected %zu", what, (long)pos, n);
    if (memcmp(got, want, n) != 0) {
        char s[160] = {0};
        for (size_t i = 0; i < n && i < 64; i++)
            sprintf(s + 2 * i, "%02x", got[i]);
        T_FAIL("%s: external32 bytes %s, expected %s", what, s, hex);
    }
}

/* Pack one value, unpack it into out; both sizes `sz` bytes native. */
static void round_trip(const void *val, void *out, MPI_Datatype t)
{
    unsigned char buf[64];
    MPI_Aint pos = 0;
    MPI_Pack_external("external32", val, 1, t, buf, sizeof buf, &pos);
    MPI_Aint in = pos;
    pos = 0;
    T_MPI(MPI_Unpack_external("external32", buf, in, &pos, out, 1, t));
    T_CHECK(pos == in, "unpack position %ld, expected %ld", (long)pos, (long)in);
}

static void check_predefined(void)
{
    int i = 0x01020304;
    expect_bytes("MPI_INT", MPI_INT, &i, "01020304");
    unsigned u = 0xfedcba98u;
    expect_bytes("MPI_UNSIGNED", MPI_UNSIGNED, &u, "fedcba98");
    short s = -2;
    expect_bytes("MPI_SHORT", MPI_SHORT, &s, "fffe");
    long l = -5;
    expect_bytes("MPI_LONG", MPI_LONG, &l, "fffffffb");
    long l2 = 0;
    round_trip(&l, &l2, MPI_LONG);
    T_CHECK(l2 == -5, "MPI_LONG round trip: %ld", l2);
    unsigned long ul = 0x89abcdefUL, ul2 = 1;
    expect_bytes("MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, &ul, "89abcdef");
    round_trip(&ul, &ul2, MPI_UNSIGNED_LONG);
    T_CHECK(ul2 == 0x89abcdefUL, "MPI_UNSIGNED_LONG round trip: %lx", ul2);
    long long ll = 0x0102030405060708LL;
    expect_bytes("MPI_LONG_LONG", MPI_LONG_LONG, &ll, "0102030405060708");
    int64_t i64 = -2;
    expect_bytes("MPI_INT64_T", MPI_INT64_T, &i64, "fffffffffffffffe");
    uint16_t u16 = 0xbeef;
    expect_bytes("MPI_UINT16_T", MPI_UINT16_T, &u16, "beef");
    int8_t i8 = -1;
    expect_bytes("MPI_INT8_T", MPI_INT8_T, &i8, "ff");
    char c = 'A';
    expect_bytes("MPI_CHAR", MPI_CHAR, &c, "41");
    wchar_t w = L'Z';
    expect_bytes("MPI_WCHAR", MPI_WCHAR, &w, "005a");
    bool b = true;
    expect_bytes("MPI_C_BOOL", MPI_C_BOOL, &b, "01");
    float f = 1.0f;
    expect_bytes("MPI_FLOAT", MPI_FLOAT, &f, "3f800000");
    double d = -2.5;
    expect_bytes("MPI_DOUBLE", MPI_DOUBLE, &d, "c004000000000000");
    long double ld = 1.0L;
    expect_bytes("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, &ld, "3fff0000000000000000000000000000");
    ld = -2.5L;
    expect_bytes("MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, &ld, "c0004000000000000000000000000000");
    long double vals[] = {3.141592653589793238L, -1e-4000L, 1e4000L, 0.0L,
                          (long double)1 / 3};
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
        long double back = 0;
        round_trip(&vals[k], &back, MPI_LONG_DOUBLE);
        T_CHECK(back == vals[k], "long double %Lg round trip: %Lg", vals[k], back);
    }
    float _Complex fz = 1.0f + 2.0f * _Complex_I;
    expect_bytes("MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, &fz, "3f80000040000000");
    double _Complex dz = 1.0 - 1.0 * _Complex_I;
    expect_bytes("MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, &dz,
                 "3ff0000000000000bff0000000000000");
    MPI_Aint a = 0x1234;
    expect_bytes("MPI_AINT", MPI_AINT, &a, "0000000000001234");
    MPI_Offset o = -1;
    expect_bytes("MPI_OFFSET", MPI_OFFSET, &o, "ffffffffffffffff");
    MPI_Count cnt = 7;
    expect_bytes("MPI_COUNT", MPI_COUNT, &cnt, "0000000000000007");
    struct { double v; int i; } di = {1.0, 7};
    expect_bytes("MPI_DOUBLE_INT", MPI_DOUBLE_INT, &di, "3ff000000000000000000007");
    struct { short v; int i; } si = {-1, 3}, si2 = {0, 0};
    expect_bytes("MPI_SHORT_INT", MPI_SHORT_INT, &si, "ffff00000003");
    round_trip(&si, &si2, MPI_SHORT_INT);
    T_CHECK(si2.v == -1 && si2.i == 3, "MPI_SHORT_INT round trip: %d %d", si2.v, si2.i);
    struct { long v; int i; } li = {-3, 9};
    expect_bytes("MPI_LONG_INT", MPI_LONG_INT, &li, "fffffffd00000009");
    int two[2] = {1, -1};
    expect_bytes("MPI_2INT", MPI_2INT, two, "00000001ffffffff");
    struct { float v; int i; } fi = {0.5f, 2};
    expect_bytes("MPI_FLOAT_INT", MPI_FLOAT_INT, &fi, "3f00000000000002");
    struct { long double v; int i; } ldi = {1.0L, 1};
    expect_bytes("MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, &ldi,
                 "3fff000000000000000000000000000000000001");
}

static void check_derived(void)
{
    /* vector with a negative stride: typemap order, not memory order */
    int v[5] = {10, 11, 12, 13, 14};
    MPI_Datatype t;
    MPI_Type_vector(3, 1, -2, MPI_INT, &t);
    MPI_Type_commit(&t);
    expect_bytes("vector(3,1,-2,int)", t, &v[4], "0000000e0000000c0000000a");
    MPI_Type_free(&t);
    /* struct with padding: no padding in external32 */
    zoo_s1 s = {'x', 2.0, {1, 2, 3}, -4};
    t = zoo_struct1();
    MPI_Type_commit(&t);
    expect_bytes("struct{char,double,int[3],short}", t, &s,
                 "78" "4000000000000000" "000000010000000200000003" "fffc");
    MPI_Type_free(&t);

    /* errors */
    MPI_Aint pos = 0, size;
    char buf[8];
    T_MPI_CLASS(MPI_Pack_external("native", v, 1, MPI_INT, buf, 8, &pos),
                MPI_ERR_UNSUPPORTED_DATAREP);
    T_MPI_CLASS(MPI_Pack_external("external32", v, 3, MPI_INT, buf, 8, &pos),
                MPI_ERR_TRUNCATE);
    pos = 4;
    T_MPI_CLASS(MPI_Unpack_external("external32", buf, 8, &pos, v, 2, MPI_INT),
                MPI_ERR_TRUNCATE);
    MPI_Pack_external_size("external32", 3, MPI_LONG, &size);
    T_CHECK(size == 12, "3 MPI_LONG take %ld bytes in external32", (long)size);
}

/* Every zoo type: external32 of (unpacked external32) is the same stream,
 * and types of exactly representable kinds come back bit for bit. */
static void check_zoo(void)
{
    for (int z = 0; z < ZOO_N; z++) {
        MPI_Datatype t;
        const char *name = zoo_build(z, &t);
        ref_map_t m = ref_map(t);
        MPI_Aint lb, ext, esz, lo, hi;
        MPI_Type_get_extent(t, &lb, &ext);
        const int count = 3;
        MPI_Pack_external_size("external32", count, t, &esz);
        ref_span(&m, count, ext, &lo, &hi);
        size_t span = (size_t)(hi - lo);
        char *src = t_malloc(span + 1), *dst = t_malloc(span + 1);
        char *e1 = t_malloc((size_t)esz + 1), *e2 = t_malloc((size_t)esz + 1);
        t_fill(src, span + 1, (unsigned)z);
        memcpy(dst, src, span + 1);
        MPI_Aint p1 = 0, p2 = 0, p3 = 0;
        T_MPI(MPI_Pack_external("external32", src - lo, count, t, e1, esz, &p1));
        /* scramble the data part of dst, then unpack into it */
        for (size_t e = 0; e < (size_t)count; e++)
            for (size_t i = 0; i < m.n; i++)
                memset(dst - lo + (MPI_Aint)e * ext + m.v[i].disp, 0x77, (size_t)m.v[i].size);
        T_MPI(MPI_Unpack_external("external32", e1, esz, &p2, dst - lo, count, t));
        T_MPI(MPI_Pack_external("external32", dst - lo, count, t, e2, esz, &p3));
        T_CHECK(p1 == esz && p2 == esz && p3 == esz, "%s: positions %ld %ld %ld, size %ld",
                name, (long)p1, (long)p2, (long)p3, (long)esz);
        T_CHECK(memcmp(e1, e2, (size_t)esz) == 0, "%s: external32 round trip differs", name);
        if (z != 20 && z != 29) /* long double padding, long and wchar truncation */
            T_CHECK(memcmp(src, dst, span) == 0, "%s: data differs after the round trip",
                    name);
        free(src);
        free(dst);
        free(e1);
        free(e2);
        ref_free(&m);
        MPI_Type_free(&t);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_predefined();
    check_derived();
    check_zoo();
    return t_finish();
}
