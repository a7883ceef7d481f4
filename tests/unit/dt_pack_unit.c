/*
 * Unit tests of segment packing (ftmpi/core/dt_pack.c): dt_pack/dt_unpack
 * of any byte range [offset, offset+len) of the packed stream, compared
 * with a reference that walks an explicit list of (displacement, length)
 * blocks, for
 *   - predefined types: MPI_INT (contiguous), MPI_SHORT_INT (two blocks
 *     with a hole), MPI_DOUBLE_INT (one block, padded extent);
 *   - hand-built dt_t objects: a 2-block raw program, and a loop over a
 *     block and a strided leaf followed by a trailing block;
 *   - types made by the constructors + dt_commit: a vector and a struct.
 * Packing in chunks of every size must give the reference stream; unpacking
 * must write exactly the data bytes and leave the holes alone; ranges past
 * the end are clamped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/datatype.h"

typedef struct {
    MPI_Aint disp;
    size_t len;
} blk_t;

typedef struct {
    const char *name;
    dt_t *dt;
    const blk_t *blocks;
    size_t nblocks;
    MPI_Aint extent;
} tcase_t;

/* Reference: the packed stream of count elements. */
static size_t ref_pack(const tcase_t *tc, size_t count, const char *buf, char *out)
{
    size_t n = 0;
    for (size_t e = 0; e < count; e++)
        for (size_t b = 0; b < tc->nblocks; b++) {
            memcpy(out + n, buf + (MPI_Aint)e * tc->extent + tc->blocks[b].disp, tc->blocks[b].len);
            n += tc->blocks[b].len;
        }
    return n;
}

/* Is byte `off` of the buffer covered by data of count elements? */
static int is_data(const tcase_t *tc, size_t count, MPI_Aint off)
{
    for (size_t e = 0; e < count; e++)
        for (size_t b = 0; b < tc->nblocks; b++) {
            MPI_Aint d = (MPI_Aint)e * tc->extent + tc->blocks[b].disp;
            if (off >= d && off < d + (MPI_Aint)tc->blocks[b].len)
                return 1;
        }
    return 0;
}

static size_t buf_bytes(const tcase_t *tc, size_t count)
{
    MPI_Aint end = 0;
    for (size_t b = 0; b < tc->nblocks; b++)
        if (tc->blocks[b].disp + (MPI_Aint)tc->blocks[b].len > end)
            end = tc->blocks[b].disp + (MPI_Aint)tc->blocks[b].len;
    return (size_t)((MPI_Aint)(count ? count - 1 : 0) * tc->extent + end) + 1;
}

static void check_case(const tcase_t *tc)
{
    static const size_t counts[] = {1, 2, 7, 33};
    static const size_t chunks[] = {1, 2, 3, 5, 7, 8, 13, 64, 1000};
    size_t per = 0;
    for (size_t b = 0; b < tc->nblocks; b++)
        per += tc->blocks[b].len;
    assert_int_equal(tc->dt->size, per);
    assert_int_equal(tc->dt->extent, tc->extent);
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        size_t count = counts[ci];
        size_t nb = buf_bytes(tc, count);
        char *src = malloc(nb), *dst = malloc(nb);
        size_t total = count * per;
        char *ref = malloc(total + 1), *got = malloc(total + 16);
        for (size_t i = 0; i < nb; i++)
            src[i] = (char)(i * 7 + 3);
        assert_int_equal(ref_pack(tc, count, src, ref), total);

        for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
            size_t c = chunks[k];
            /* pack in chunks */
            memset(got, 0x5a, total + 16);
            for (size_t off = 0; off < total; off += c) {
                size_t want = c < total - off ? c : total - off;
                size_t n = dt_pack(tc->dt, count, src, off, got + off, c);
                if (n != want)
                    fail_msg("%s count %zu: dt_pack(offset %zu, len %zu) = %zu, expected %zu", tc->name,
                             count, off, c, n, want);
            }
            if (memcmp(got, ref, total) != 0) {
                size_t i = 0;
                while (got[i] == ref[i])
                    i++;
                fail_msg("%s count %zu chunks of %zu: packed byte %zu differs", tc->name, count, c, i);
            }
            assert_int_equal((unsigned char)got[total], 0x5a); /* nothing past the end */

            /* unpack in chunks into a buffer full of sentinels */
            memset(dst, (char)0xab, nb);
            for (size_t off = 0; off < total; off += c) {
                size_t want = c < total - off ? c : total - off;
                size_t n = dt_unpack(tc->dt, count, dst, off, ref + off, c);
                if (n != want)
                    fail_msg("%s count %zu: dt_unpack(offset %zu, len %zu) = %zu", tc->name, count, off, c, n);
            }
            for (size_t i = 0; i < nb; i++) {
                int data = is_data(tc, count, (MPI_Aint)i);
                if (data && dst[i] != src[i])
                    fail_msg("%s count %zu chunks of %zu: unpacked byte %zu wrong", tc->name, count, c, i);
                if (!data && (unsigned char)dst[i] != 0xab)
                    fail_msg("%s count %zu chunks of %zu: unpack wrote hole byte %zu", tc->name, count, c, i);
            }
        }
        /* arbitrary ranges */
        uint32_t seed = 7;
        for (int r = 0; r < 200; r++) {
            seed = seed * 1103515245u + 12345u;
            size_t off = (seed >> 8) % total;
            seed = seed * 1103515245u + 12345u;
            size_t len = (seed >> 8) % (total - off) + 1;
            memset(got, 0, total);
            assert_int_equal(dt_pack(tc->dt, count, src, off, got, len), len);
            if (memcmp(got, ref + off, len) != 0)
                fail_msg("%s count %zu: dt_pack(offset %zu, len %zu) differs", tc->name, count, off, len);
        }
        /* clamping at the end */
        assert_int_equal(dt_pack(tc->dt, count, src, total - 1, got, 10), 1);
        assert_int_equal(got[0], ref[total - 1]);
        assert_int_equal(dt_pack(tc->dt, count, src, total, got, 10), 0);
        assert_int_equal(dt_pack(tc->dt, count, src, total + 5, got, 10), 0);
        assert_int_equal(dt_unpack(tc->dt, count, dst, total, ref, 10), 0);
        assert_int_equal(dt_pack(tc->dt, count, src, 0, got, 0), 0);
        assert_int_equal(dt_pack(tc->dt, 0, src, 0, got, 10), 0);
        free(src);
        free(dst);
        free(ref);
        free(got);
    }
}

static int setup(void **state)
{
    (void)state;
    return dt_module_init();
}

static int teardown(void **state)
{
    (void)state;
    dt_module_fini();
    return 0;
}

static void test_predefined(void **state)
{
    (void)state;
    static const blk_t b_int[] = {{0, sizeof(int)}};
    tcase_t t_int = {"MPI_INT", dt_get(MPI_INT), b_int, 1, sizeof(int)};
    assert_non_null(t_int.dt);
    check_case(&t_int);

    struct si { short v; int i; };
    static const blk_t b_si[] = {{0, sizeof(short)}, {offsetof(struct si, i), sizeof(int)}};
    tcase_t t_si = {"MPI_SHORT_INT", dt_get(MPI_SHORT_INT), b_si, 2, sizeof(struct si)};
    assert_non_null(t_si.dt);
    check_case(&t_si);

    struct di { double v; int i; };
    static const blk_t b_di[] = {{0, sizeof(double) + sizeof(int)}};
    tcase_t t_di = {"MPI_DOUBLE_INT", dt_get(MPI_DOUBLE_INT), b_di, 1, sizeof(struct di)};
    assert_non_null(t_di.dt);
    check_case(&t_di);

    static const blk_t b_dbl[] = {{0, sizeof(double)}};
    tcase_t t_dbl = {"MPI_DOUBLE", dt_get(MPI_DOUBLE), b_dbl, 1, sizeof(double)};
    check_case(&t_dbl);
}

static dt_op_t leaf(MPI_Aint disp, size_t bytes, size_t count, MPI_Aint stride)
{
    dt_op_t o;
    memset(&o, 0, sizeof o);
    o.code = DT_OP_LEAF;
    o.kind = DTK_NONE;
    o.count = count;
    o.disp = disp;
    o.stride = stride;
    o.n = bytes;
    o.bytes = bytes;
    return o;
}

/* A dt_t made by hand: only what the packer reads. */
static void hand_type(dt_t *dt, dt_op_t *ops, size_t nops, size_t size, MPI_Aint extent)
{
    memset(dt, 0, sizeof *dt);
    dt->handle = MPI_DATATYPE_NULL;
    dt->refcount = 1;
    dt->committed = 1;
    dt->size = size;
    dt->lb = 0;
    dt->ub = dt->extent = extent;
    dt->true_lb = 0;
    dt->true_ub = extent;
    dt->contig = 0;
    dt->dense1 = 0;
    dt->raw.ops = ops;
    dt->raw.nops = nops;
    dt->typed.ops = ops;
    dt->typed.nops = nops;
    dt->nruns = nops;
}

static void test_hand_two_blocks(void **state)
{
    (void)state;
    /* {4 bytes at 0, 8 bytes at 8}, extent 24 (a hole inside, one after) */
    dt_op_t ops[2] = {leaf(0, 4, 1, 0), leaf(8, 8, 1, 0)};
    dt_t dt;
    hand_type(&dt, ops, 2, 12, 24);
    static const blk_t b[] = {{0, 4}, {8, 8}};
    tcase_t tc = {"hand-built 2 blocks", &dt, b, 2, 24};
    check_case(&tc);
}

static void test_hand_loop(void **state)
{
    (void)state;
    /* 3 iterations, 40 bytes apart, of {2 bytes at 0, 2 x 2 bytes at 4
     * stride 8}, then 5 bytes at 130; extent 144 */
    dt_op_t ops[4];
    memset(&ops[0], 0, sizeof ops[0]);
    ops[0].code = DT_OP_LOOP;
    ops[0].body = 2;
    ops[0].count = 3;
    ops[0].disp = 0;
    ops[0].stride = 40;
    ops[0].bytes = 6;
    ops[1] = leaf(0, 2, 1, 0);
    ops[2] = leaf(4, 2, 2, 8);
    ops[3] = leaf(130, 5, 1, 0);
    dt_t dt;
    hand_type(&dt, ops, 4, 23, 144);
    static const blk_t b[] = {{0, 2},  {4, 2},  {12, 2}, {40, 2}, {44, 2},
                              {52, 2}, {80, 2}, {84, 2}, {92, 2}, {130, 5}};
    tcase_t tc = {"hand-built loop", &dt, b, 10, 144};
    check_case(&tc);
}

static void test_constructed(void **state)
{
    (void)state;
    dt_t *vec = NULL, *st = NULL;
    /* vector: 5 blocks of 3 ints, stride 7 ints */
    assert_int_equal(dt_create_vector(MPI_COMBINER_VECTOR, 5, 3, 7, dt_get(MPI_INT), &vec), MPI_SUCCESS);
    assert_int_equal(dt_commit(vec), MPI_SUCCESS);
    blk_t bv[5];
    for (int i = 0; i < 5; i++) {
        bv[i].disp = i * 7 * (MPI_Aint)sizeof(int);
        bv[i].len = 3 * sizeof(int);
    }
    tcase_t tv = {"vector(5, 3, 7, MPI_INT)", vec, bv, 5, (4 * 7 + 3) * (MPI_Aint)sizeof(int)};
    check_case(&tv);

    /* struct { char c; double d[2]; int i[3] } at 0, 8, 28 */
    int bl[3] = {1, 2, 3};
    MPI_Aint disps[3] = {0, 8, 28};
    dt_t *types[3] = {dt_get(MPI_CHAR), dt_get(MPI_DOUBLE), dt_get(MPI_INT)};
    assert_int_equal(dt_create_struct(3, bl, disps, types, &st), MPI_SUCCESS);
    assert_int_equal(dt_commit(st), MPI_SUCCESS);
    static const blk_t bs[] = {{0, 1}, {8, 16}, {28, 12}};
    tcase_t ts = {"struct {char, 2 double, 3 int}", st, bs, 3, 40}; /* padded to 8 */
    check_case(&ts);
    dt_release(vec);
    dt_release(st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_predefined),
        cmocka_unit_test(test_hand_two_blocks),
        cmocka_unit_test(test_hand_loop),
        cmocka_unit_test(test_constructed),
    };
    return cmocka_run_group_tests_name("dt_pack", tests, setup, teardown);
}
