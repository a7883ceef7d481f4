/*
 * dt_pack: MPI_Pack/MPI_Unpack/MPI_Pack_size of every zoo type at several
 * counts against the reference typemap (dtref.h): the packed stream, the
 * bytes unpacking writes (and that it writes nothing else: holes and
 * guard bytes keep their values), position chaining, truncation errors,
 * and the size and true bounds of each type.
 */
#include "dtzoo.h"

#define GUARD 64

typedef struct {
    char *mem;       /* allocation */
    char *base;      /* the buffer address passed to MPI */
    size_t len;      /* allocation bytes */
} span_buf_t;

static void span_alloc(span_buf_t *b, const ref_map_t *m, size_t count, MPI_Aint ext)
{
    MPI_Aint lo, hi;
    ref_span(m, count, ext, &lo, &hi);
    b->len = (size_t)(hi - lo) + 2 * GUARD;
    b->mem = t_malloc(b->len);
    b->base = b->mem + GUARD - lo;
}

static void check_type(int z, const char *name, MPI_Datatype t)
{
    ref_map_t m = ref_map(t);
    int size;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_size(t, &size);
    MPI_Type_get_extent(t, &lb, &ext);
    MPI_Type_get_true_extent(t, &tlb, &text);
    T_CHECK((size_t)size == ref_size(&m), "%s: size %d, typemap has %zu bytes", name, size,
            ref_size(&m));
    if (m.n) {
        MPI_Aint lo, hi;
        ref_span(&m, 1, ext, &lo, &hi);
        T_CHECK(tlb == lo && text == hi - lo, "%s: true lb/extent %ld/%ld, expected %ld/%ld",
                name, (long)tlb, (long)text, (long)lo, (long)(hi - lo));
    }
    static const size_t counts[] = {0, 1, 2, 5};
    for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
        size_t count = counts[ci];
        size_t bytes = count * (size_t)size;
        span_buf_t src, dst, exp;
        span_alloc(&src, &m, count, ext);
        span_alloc(&dst, &m, count, ext);
        span_alloc(&exp, &m, count, ext);
        t_fill(src.mem, src.len, (unsigned)(z * 7 + ci));
        char *packed = t_malloc(bytes + 16), *want = t_malloc(bytes + 16);
        memset(packed, 0x5a, bytes + 16);
        memset(want, 0x5a, bytes + 16);

        int psize = -1;
        MPI_Pack_size((int)count, t, MPI_COMM_WORLD, &psize);
        T_CHECK((size_t)psize == bytes, "%s x%zu: Pack_size %d, expected %zu", name, count,
                psize, bytes);

        /* Pack at position 3 of a buffer, as a second item would be. */
        int pos = 3;
        T_MPI(MPI_Pack(src.base, (int)count, t, packed, (int)bytes + 3, &pos, MPI_COMM_WORLD));
        T_CHECK((size_t)pos == bytes + 3, "%s x%zu: position %d after Pack, expected %zu",
                name, count, pos, bytes + 3);
        ref_pack(&m, count, ext, src.base, want + 3);
        T_CHECK(memcmp(packed, want, bytes + 16) == 0, "%s x%zu: packed bytes differ", name,
                count);

        /* Unpack: the same bytes land where the reference puts them. */
        memset(dst.mem, 0xee, dst.len);
        memset(exp.mem, 0xee, exp.len);
        pos = 3;
        T_MPI(MPI_Unpack(packed, (int)bytes + 3, &pos, dst.base, (int)count, t,
                         MPI_COMM_WORLD));
        T_CHECK((size_t)pos == bytes + 3, "%s x%zu: position %d after Unpack", name, count,
                pos);
        ref_unpack(&m, count, ext, want + 3, exp.base);
        T_CHECK(memcmp(dst.mem, exp.mem, dst.len) == 0, "%s x%zu: unpacked memory differs",
                name, count);

        /* Too small a buffer. */
        if (bytes) {
            pos = 0;
            T_MPI_CLASS(MPI_Pack(src.base, (int)count, t, packed, (int)bytes - 1, &pos,
                                 MPI_COMM_WORLD),
                        MPI_ERR_TRUNCATE);
            pos = 1;
            T_MPI_CLASS(MPI_Unpack(packed, (int)bytes, &pos, dst.base, (int)count, t,
                                   MPI_COMM_WORLD),
                        MPI_ERR_TRUNCATE);
        }
        free(packed);
        free(want);
        free(src.mem);
        free(dst.mem);
        free(exp.mem);
    }
    ref_free(&m);
}

/* Several items in one buffer, as a message of mixed contents is built. */
static void check_chain(void)
{
    MPI_Datatype v;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    int a[6] = {1, 2, 3, 4, 5, 6}, n = 42, a2[6] = {0};
    double x = 2.5, x2 = 0;
    char buf[64];
    int pos = 0, size = 0, s;
    MPI_Pack_size(1, MPI_DOUBLE, MPI_COMM_WORLD, &s);
    size += s;
    MPI_Pack_size(1, v, MPI_COMM_WORLD, &s);
    size += s;
    MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &s);
    size += s;
    T_CHECK(size == 8 + 12 + 4, "Pack_size sum %d", size);
    T_MPI(MPI_Pack(&x, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    T_MPI(MPI_Pack(a, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    T_MPI(MPI_Pack(&n, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    T_CHECK(pos == size, "position %d after three items, expected %d", pos, size);
    int n2 = 0;
    pos = 0;
    T_MPI(MPI_Unpack(buf, size, &pos, &x2, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    T_MPI(MPI_Unpack(buf, size, &pos, a2, 3, MPI_INT, MPI_COMM_WORLD));
    T_MPI(MPI_Unpack(buf, size, &pos, &n2, 1, MPI_INT, MPI_COMM_WORLD));
    T_CHECK(x2 == 2.5 && n2 == 42 && a2[0] == 1 && a2[1] == 3 && a2[2] == 5 && a2[3] == 0,
            "chained unpack: %g %d [%d %d %d %d]", x2, n2, a2[0], a2[1], a2[2], a2[3]);
    /* Errors: uncommitted type, negative count. */
    MPI_Datatype u;
    MPI_Type_contiguous(2, MPI_INT, &u);
    pos = 0;
    T_MPI_CLASS(MPI_Pack(a, 1, u, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Pack(a, -1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MPI_Type_free(&u);
    MPI_Type_free(&v);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int z = 0; z < ZOO_N; z++) {
        MPI_Datatype t;
        const char *name = zoo_build(z, &t);
        check_type(z, name, t);
        MPI_Type_free(&t);
    }
    check_chain();
    return t_finish();
}
