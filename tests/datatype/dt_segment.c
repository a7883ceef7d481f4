/*
 * dt_segment: the library's internal packing interface (core/datatype.h),
 * which point-to-point uses to pack into transport fragments as they go
 * out and unpack as they arrive, against the reference typemap: random
 * byte segments of the packed stream (dt_pack/dt_unpack), iovec lists in
 * small pieces (dt_iov), typed and byte runs (dt_foreach_run/block), basic
 * element counts of partial data (dt_elements_in, dt_bytes_of_elements),
 * and the shape of the compacted programs for the cases compaction is
 * for.
 */
#include "dtzoo.h"

#include "core/datatype.h"

static unsigned rng = 12345;
static size_t rnd(size_t n)
{
    rng = rng * 1103515245u + 12345u;
    return n ? (rng >> 8) % n : 0;
}

typedef struct {
    char *mem, *base;
    size_t len;
} sbuf_t;

static void sbuf_alloc(sbuf_t *b, const ref_map_t *m, size_t count, MPI_Aint ext)
{
    MPI_Aint lo, hi;
    ref_span(m, count, ext, &lo, &hi);
    b->len = (size_t)(hi - lo) + 64;
    b->mem = t_malloc(b->len);
    b->base = b->mem + 32 - lo;
}

/* Reference element count of the first `bytes` of the stream. */
static MPI_Count ref_elements(const ref_map_t *m, size_t count, size_t bytes)
{
    MPI_Count n = 0;
    for (size_t e = 0; e < count; e++)
        for (size_t i = 0; i < m->n; i++) {
            if (bytes == 0)
                return n;
            if (bytes < (size_t)m->v[i].size)
                return MPI_UNDEFINED;
            bytes -= (size_t)m->v[i].size;
            n++;
        }
    return n;
}

typedef struct {
    const ref_map_t *m;
    size_t k;        /* next reference entry */
    int bad;
} runcheck_t;

static int check_block(void *arg, MPI_Aint disp, size_t len)
{
    runcheck_t *c = arg;
    /* A byte run covers consecutive reference entries exactly. */
    while (len > 0) {
        if (c->k >= c->m->n || c->m->v[c->k].disp != disp ||
            (size_t)c->m->v[c->k].size > len) {
            c->bad = 1;
            return 1;
        }
        disp += c->m->v[c->k].size;
        len -= (size_t)c->m->v[c->k].size;
        c->k++;
    }
    return 0;
}

static int check_run(void *arg, MPI_Aint disp, dt_kind_t kind, size_t n)
{
    runcheck_t *c = arg;
    MPI_Aint ext = dt_kind_extent(kind);
    for (size_t u = 0; u < n; u++, disp += ext) {
        if (c->k >= c->m->n || c->m->v[c->k].disp != disp ||
            (size_t)c->m->v[c->k].size != dt_kind_size(kind)) {
            c->bad = 1;
            return 1;
        }
        c->k++;
    }
    return 0;
}

static int has_pairs(const ref_map_t *m, MPI_Datatype t)
{
    dt_t *dt = dt_get(t);
    for (size_t i = 0; i < dt->typed.nops; i++)
        if (dt->typed.ops[i].code == DT_OP_LEAF && dt_kind_elems(dt->typed.ops[i].kind) == 2)
            return 1;
    (void)m;
    return 0;
}

static void check_type(const char *name, MPI_Datatype t)
{
    dt_t *dt = dt_get(t);
    ref_map_t m = ref_map(t);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    for (size_t count = 1; count <= 3; count += 2) {
        size_t total = count * dt->size;
        sbuf_t src, dst, exp;
        sbuf_alloc(&src, &m, count, ext);
        sbuf_alloc(&dst, &m, count, ext);
        sbuf_alloc(&exp, &m, count, ext);
        t_fill(src.mem, src.len, (unsigned)count);
        char *want = t_malloc(total + 1), *got = t_malloc(total + 1);
        ref_pack(&m, count, ext, src.base, want);

        /* random segments, packed and unpacked */
        memset(dst.mem, 0xcc, dst.len);
        memset(exp.mem, 0xcc, exp.len);
        ref_unpack(&m, count, ext, want, exp.base);
        for (int r = 0; r < 40 && total; r++) {
            size_t off = rnd(total), len = 1 + rnd(total - off);
            memset(got, 0, total + 1);
            size_t n = dt_pack(dt, count, src.base, off, got, len + 7);
            size_t expect = total - off < len + 7 ? total - off : len + 7;
            T_CHECK(n == expect && memcmp(got, want + off, n) == 0,
                    "%s x%zu: dt_pack [%zu, +%zu) wrong (%zu bytes)", name, count, off, len, n);
        }
        /* unpack the stream in random pieces, out of order */
        size_t cuts[9] = {0};
        for (int i = 1; i < 8; i++)
            cuts[i] = rnd(total + 1);
        cuts[8] = total;
        for (int i = 1; i < 9; i++) /* insertion sort */
            for (int j = i; j > 0 && cuts[j] < cuts[j - 1]; j--) {
                size_t x = cuts[j];
                cuts[j] = cuts[j - 1];
                cuts[j - 1] = x;
            }
        for (int i = 7; i >= 0; i--)
            dt_unpack(dt, count, dst.base, cuts[i], want + cuts[i], cuts[i + 1] - cuts[i]);
        T_CHECK(memcmp(dst.mem, exp.mem, dst.len) == 0, "%s x%zu: pieced dt_unpack differs",
                name, count);

        /* iovecs, three at a time, from a random start */
        size_t start = total ? rnd(total) : 0, off = start, covered = 0;
        struct iovec iov[3];
        int calls = 0;
        while (off < total && calls < 100000) {
            size_t bytes = 0, lim = 1 + rnd(total - off);
            int k = dt_iov(dt, count, src.base, off, lim, iov, 3, &bytes);
            T_CHECK(k > 0 && k <= 3 && bytes > 0 && bytes <= lim,
                    "%s: dt_iov returned %d, %zu bytes of at most %zu", name, k, bytes, lim);
            T_CHECK(k == 3 || bytes == lim, "%s: dt_iov stopped at %zu of %zu with room left",
                    name, bytes, lim);
            if (k <= 0 || bytes == 0)
                break;
            size_t sum = 0;
            for (int i = 0; i < k; i++) {
                T_CHECK(memcmp(iov[i].iov_base, want + off + sum, iov[i].iov_len) == 0,
                        "%s: iov %d at stream %zu does not hold the stream", name, i, off + sum);
                sum += iov[i].iov_len;
            }
            T_CHECK(sum == bytes, "%s: iov lengths %zu, reported %zu", name, sum, bytes);
            off += bytes;
            covered += bytes;
            calls++;
        }
        T_CHECK(covered == total - start, "%s: iovecs covered %zu of %zu", name, covered,
                total - start);

        /* element counts of every prefix */
        for (size_t b = 0; b <= total; b++) {
            MPI_Count e = dt_elements_in(dt, b), re = ref_elements(&m, count, b);
            T_CHECK(e == re, "%s x%zu: elements in %zu bytes: %lld, expected %lld", name,
                    count, b, (long long)e, (long long)re);
            if (re != MPI_UNDEFINED) {
                size_t back = dt_bytes_of_elements(dt, re);
                /* the least bytes holding re elements */
                size_t least = b;
                while (least > 0 && ref_elements(&m, count, least - 1) == re)
                    least--;
                T_CHECK(back == least, "%s: bytes of %lld elements: %zu, expected %zu", name,
                        (long long)re, back, least);
            }
        }
        free(want);
        free(got);
        free(src.mem);
        free(dst.mem);
        free(exp.mem);
    }
    /* runs in typemap order */
    runcheck_t c = {&m, 0, 0};
    dt_foreach_block(dt, 1, check_block, &c);
    T_CHECK(!c.bad && c.k == m.n, "%s: byte runs do not follow the typemap", name);
    if (!has_pairs(&m, t)) {
        runcheck_t c2 = {&m, 0, 0};
        dt_foreach_run(dt, 1, check_run, &c2);
        T_CHECK(!c2.bad && c2.k == m.n, "%s: typed runs do not follow the typemap", name);
    }
    ref_free(&m);
}

/* Compaction: the programs the common cases must reduce to. */
static void check_shapes(void)
{
    MPI_Datatype t, a, b;
    dt_t *dt;

    /* vector of doubles, stride 2: one strided leaf */
    MPI_Type_vector(1000, 1, 2, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->raw.nops == 1 && dt->raw.ops[0].code == DT_OP_LEAF &&
                dt->raw.ops[0].count == 1000 && dt->raw.ops[0].bytes == 8 &&
                dt->raw.ops[0].stride == 16,
            "vector(1000,1,2,double): %zu ops", dt->raw.nops);
    MPI_Type_free(&t);

    /* contiguous of contiguous of a vector whose blocks touch: one block */
    MPI_Type_vector(4, 3, 3, MPI_INT, &a);
    MPI_Type_contiguous(5, a, &b);
    MPI_Type_contiguous(2, b, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->contig && dt->raw.nops == 1 && dt->raw.ops[0].bytes == 480,
            "contig(contig(vector with touching blocks)): contig %d, %zu ops", dt->contig,
            dt->raw.nops);
    MPI_Type_free(&a);
    MPI_Type_free(&b);
    MPI_Type_free(&t);

    /* struct of fields without padding: one block, elements contiguous */
    int bl[3] = {2, 1, 4};
    MPI_Aint d[3] = {0, 8, 12};
    MPI_Datatype ty[3] = {MPI_INT, MPI_FLOAT, MPI_SHORT};
    MPI_Type_create_struct(3, bl, d, ty, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->contig && dt->raw.nops == 1, "packed struct: contig %d, %zu ops", dt->contig,
            dt->raw.nops);
    T_CHECK(dt->typed.nops == 3, "packed struct keeps 3 typed runs (%zu)", dt->typed.nops);
    MPI_Type_free(&t);

    /* indexed with regular displacements: one strided leaf */
    int ib[4] = {2, 2, 2, 2}, id[4] = {1, 6, 11, 16};
    MPI_Type_indexed(4, ib, id, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->raw.nops == 1 && dt->raw.ops[0].count == 4 && dt->raw.ops[0].stride == 40 &&
                dt->raw.ops[0].disp == 8,
            "regular indexed: %zu ops", dt->raw.nops);
    MPI_Type_free(&t);

    /* 3-D face (subarray): a loop over a strided leaf, no deeper */
    int sz[3] = {64, 64, 64}, sub[3] = {64, 64, 1}, st[3] = {0, 0, 5};
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->raw.nops == 1 && dt->raw.ops[0].count == 4096 && dt->raw.ops[0].bytes == 8,
            "x-face of a 64^3 array: %zu ops, first count %zu", dt->raw.nops,
            dt->raw.ops[0].count);
    MPI_Type_free(&t);
    sub[0] = 1;
    sub[2] = 64;
    st[0] = 5;
    st[2] = 0;
    MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->dense1 && dt->raw.nops == 1, "z-face of a 64^3 array is one block (%zu ops)",
            dt->raw.nops);
    MPI_Type_free(&t);

    /* nested vectors whose patterns continue fold into one leaf */
    MPI_Type_vector(3, 1, 2, MPI_FLOAT, &a);
    MPI_Type_create_hvector(5, 1, 24, a, &t);
    MPI_Type_commit(&t);
    dt = dt_get(t);
    T_CHECK(dt->raw.nops == 1 && dt->raw.ops[0].count == 15 && dt->raw.ops[0].stride == 8,
            "hvector(vector) with a continuing pattern: %zu ops", dt->raw.nops);
    MPI_Type_free(&a);
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    for (int z = 0; z < ZOO_N; z++) {
        MPI_Datatype t;
        const char *name = zoo_build(z, &t);
        check_type(name, t);
        MPI_Type_free(&t);
    }
    check_shapes();
    return t_finish();
}
