/*
 * test_rs.c - Reed-Solomon kernels: ISA-L against the reference, streamed
 * (incremental) encode against one-shot encode, and decode of EVERY erasure
 * pattern of 1..m fragments for several (k, m), odd lengths, skewed pointers,
 * guard bytes on every buffer.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>

#include "dckpt_rs.h"
#include "test_util.h"

static const int cfgs[][2] = {{4, 1}, {4, 2}, {6, 3}, {8, 2}, {3, 3}, {1, 1}, {1, 3}, {2, 4}, {10, 4}};
#define NCFG (sizeof(cfgs) / sizeof(cfgs[0]))

static const size_t lens[] = {1, 15, 31, 32, 33, 63, 64, 65, 100, 127, 255, 1000, 4097, 65537 + 3};
#define NLEN (sizeof(lens) / sizeof(lens[0]))

/* A code's k + m fragments of `len` bytes, with guards, filled with data and parity. */
typedef struct frags {
    int k, m;
    size_t len;
    tu_buf_t b[DCKPT_RS_MAX_FRAGS];
    uint8_t *p[DCKPT_RS_MAX_FRAGS];
} frags_t;

static void frags_new(frags_t *f, int k, int m, size_t len, uint64_t seed)
{
    f->k = k;
    f->m = m;
    f->len = len;
    for (int i = 0; i < k + m; i++) {
        f->b[i] = tu_buf_new(len, (unsigned)(i * 7 + 3));
        f->p[i] = f->b[i].p;
        if (i < k)
            tu_fill(f->p[i], len, seed + (uint64_t)i);
        else
            memset(f->p[i], 0xCC, len);
    }
}

static void frags_check_guards(const frags_t *f)
{
    for (int i = 0; i < f->k + f->m; i++)
        assert_true(tu_buf_guards_ok(&f->b[i]));
}

static void frags_free(frags_t *f)
{
    for (int i = 0; i < f->k + f->m; i++)
        tu_buf_free(&f->b[i]);
}

static void test_init_errors(void **state)
{
    (void)state;
    dckpt_rs_t rs;
    assert_int_equal(dckpt_rs_init(&rs, 0, 1), -EINVAL);
    assert_int_equal(dckpt_rs_init(&rs, 1, 0), -EINVAL);
    assert_int_equal(dckpt_rs_init(&rs, 200, 57), -EINVAL);
    assert_int_equal(dckpt_rs_init(NULL, 4, 2), -EINVAL);
    assert_int_equal(dckpt_rs_init(&rs, 255, 1), 0);
    dckpt_rs_fini(&rs);
}

static void test_encode_isal_vs_base(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCFG; c++) {
        int k = cfgs[c][0], m = cfgs[c][1];
        dckpt_rs_t rs;
        assert_int_equal(dckpt_rs_init(&rs, k, m), 0);
        for (size_t l = 0; l < NLEN; l++) {
            frags_t f, g;
            frags_new(&f, k, m, lens[l], 100 + c);
            frags_new(&g, k, m, lens[l], 100 + c);
            dckpt_rs_encode(&rs, lens[l], f.p, f.p + k);
            dckpt_rs_encode_base(&rs, lens[l], g.p, g.p + k);
            for (int j = 0; j < m; j++)
                assert_memory_equal(f.p[k + j], g.p[k + j], lens[l]);
            frags_check_guards(&f);
            frags_check_guards(&g);
            frags_free(&f);
            frags_free(&g);
        }
        dckpt_rs_fini(&rs);
    }
}

/* Sources folded in one at a time, in a shuffled order, chunk by chunk. */
static void test_encode_update_streams(void **state)
{
    (void)state;
    static const size_t chunks[] = {7, 64, 1000, 1 << 20};
    uint64_t seed = 77;
    for (size_t c = 0; c < NCFG; c++) {
        int k = cfgs[c][0], m = cfgs[c][1];
        dckpt_rs_t rs;
        assert_int_equal(dckpt_rs_init(&rs, k, m), 0);
        for (size_t l = 0; l < NLEN; l++) {
            size_t len = lens[l];
            frags_t f, g, h;
            frags_new(&f, k, m, len, 200 + c);
            frags_new(&g, k, m, len, 200 + c);
            frags_new(&h, k, m, len, 200 + c);
            dckpt_rs_encode(&rs, len, f.p, f.p + k);
            size_t chunk = chunks[l % 4];
            int order[DCKPT_RS_MAX_FRAGS];
            for (int i = 0; i < k; i++)
                order[i] = i;
            for (int i = k - 1; i > 0; i--) {
                int j = (int)(tu_rand(&seed) % (uint64_t)(i + 1));
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (int j = 0; j < m; j++) {
                memset(g.p[k + j], 0, len);
                memset(h.p[k + j], 0, len);
            }
            for (size_t off = 0; off < len; off += chunk) {
                size_t n = len - off < chunk ? len - off : chunk;
                uint8_t *pg[DCKPT_RS_MAX_FRAGS], *ph[DCKPT_RS_MAX_FRAGS];
                for (int j = 0; j < m; j++) {
                    pg[j] = g.p[k + j] + off;
                    ph[j] = h.p[k + j] + off;
                }
                for (int i = 0; i < k; i++) {
                    dckpt_rs_encode_update(&rs, n, order[i], g.p[order[i]] + off, pg);
                    dckpt_rs_encode_update_base(&rs, n, order[i], h.p[order[i]] + off, ph);
                }
            }
            for (int j = 0; j < m; j++) {
                assert_memory_equal(f.p[k + j], g.p[k + j], len);
                assert_memory_equal(f.p[k + j], h.p[k + j], len);
            }
            frags_check_guards(&g);
            frags_check_guards(&h);
            frags_free(&f);
            frags_free(&g);
            frags_free(&h);
        }
        dckpt_rs_fini(&rs);
    }
}

/* Chain emulation with the column kernels: overwrite for the first source, accumulate after. */
static void test_column_kernels_chain(void **state)
{
    (void)state;
    for (size_t c = 0; c < NCFG; c++) {
        int k = cfgs[c][0], m = cfgs[c][1];
        dckpt_rs_t rs;
        assert_int_equal(dckpt_rs_init(&rs, k, m), 0);
        for (size_t l = 0; l < NLEN; l += 3) {
            size_t len = lens[l];
            frags_t f, g, h;
            frags_new(&f, k, m, len, 300 + c);
            frags_new(&g, k, m, len, 300 + c);
            frags_new(&h, k, m, len, 300 + c);
            dckpt_rs_encode(&rs, len, f.p, f.p + k);
            for (int i = 0; i < k; i++) {
                uint8_t col[DCKPT_RS_MAX_FRAGS], tbls[32 * DCKPT_RS_MAX_FRAGS];
                for (int j = 0; j < m; j++)
                    col[j] = dckpt_rs_parity_row(&rs, j)[i];
                dckpt_rs_col_tables(m, col, tbls);
                dckpt_rs_col_apply(len, m, tbls, g.p[i], g.p + k, i > 0);
                dckpt_rs_col_apply_base(len, m, col, h.p[i], h.p + k, i > 0);
            }
            for (int j = 0; j < m; j++) {
                assert_memory_equal(f.p[k + j], g.p[k + j], len);
                assert_memory_equal(f.p[k + j], h.p[k + j], len);
            }
            frags_check_guards(&g);
            frags_check_guards(&h);
            frags_free(&f);
            frags_free(&g);
            frags_free(&h);
        }
        dckpt_rs_fini(&rs);
    }
}

/* Every erasure pattern of 1..m fragments; ISA-L and base decoders; plans identical. */
static void test_decode_every_pattern(void **state)
{
    (void)state;
    static const size_t dlens[] = {1, 33, 127, 1000, 4097};
    long patterns = 0;
    for (size_t c = 0; c < NCFG; c++) {
        int k = cfgs[c][0], m = cfgs[c][1], n = k + m;
        dckpt_rs_t rs;
        assert_int_equal(dckpt_rs_init(&rs, k, m), 0);
        for (size_t l = 0; l < sizeof(dlens) / sizeof(dlens[0]); l++) {
            size_t len = dlens[l];
            frags_t orig, w1, w2;
            frags_new(&orig, k, m, len, 400 + c * 10 + l);
            dckpt_rs_encode(&rs, len, orig.p, orig.p + k);
            frags_new(&w1, k, m, len, 0);
            frags_new(&w2, k, m, len, 0);
            for (int r = 1; r <= m; r++) {
                int err[DCKPT_RS_MAX_FRAGS];
                for (int i = 0; i < r; i++)
                    err[i] = i;
                do {
                    int src1[DCKPT_RS_MAX_FRAGS], src2[DCKPT_RS_MAX_FRAGS];
                    uint8_t rows1[DCKPT_RS_MAX_FRAGS * 16], rows2[DCKPT_RS_MAX_FRAGS * 16];
                    assert_int_equal(dckpt_rs_decode_plan(&rs, r, err, src1, rows1), 0);
                    assert_int_equal(dckpt_rs_decode_plan_base(&rs, r, err, src2, rows2), 0);
                    assert_memory_equal(src1, src2, sizeof(int) * (size_t)k);
                    assert_memory_equal(rows1, rows2, (size_t)r * k);

                    for (int i = 0; i < n; i++) {
                        memcpy(w1.p[i], orig.p[i], len);
                        memcpy(w2.p[i], orig.p[i], len);
                    }
                    for (int i = 0; i < r; i++) {
                        tu_fill(w1.p[err[i]], len, 999 + (uint64_t)i); /* garbage */
                        memset(w2.p[err[i]], 0x5A, len);
                    }
                    assert_int_equal(dckpt_rs_decode(&rs, len, r, err, w1.p), 0);
                    assert_int_equal(dckpt_rs_decode_base(&rs, len, r, err, w2.p), 0);
                    for (int i = 0; i < n; i++) {
                        assert_memory_equal(w1.p[i], orig.p[i], len);
                        assert_memory_equal(w2.p[i], orig.p[i], len);
                    }
                    frags_check_guards(&w1);
                    frags_check_guards(&w2);
                    patterns++;
                } while (tu_next_combination(err, r, n));
            }
            frags_free(&orig);
            frags_free(&w1);
            frags_free(&w2);
        }
        dckpt_rs_fini(&rs);
    }
    print_message("decoded %ld erasure patterns\n", patterns);
}

/* Reversed erasure order gives the same reconstruction. */
static void test_decode_unsorted(void **state)
{
    (void)state;
    dckpt_rs_t rs;
    assert_int_equal(dckpt_rs_init(&rs, 6, 3), 0);
    frags_t orig, w;
    frags_new(&orig, 6, 3, 999, 5);
    dckpt_rs_encode(&rs, 999, orig.p, orig.p + 6);
    frags_new(&w, 6, 3, 999, 0);
    for (int i = 0; i < 9; i++)
        memcpy(w.p[i], orig.p[i], 999);
    int err[3] = {7, 2, 0};
    for (int i = 0; i < 3; i++)
        memset(w.p[err[i]], 0, 999);
    assert_int_equal(dckpt_rs_decode(&rs, 999, 3, err, w.p), 0);
    for (int i = 0; i < 9; i++)
        assert_memory_equal(w.p[i], orig.p[i], 999);
    frags_free(&orig);
    frags_free(&w);
    dckpt_rs_fini(&rs);
}

static void test_decode_errors(void **state)
{
    (void)state;
    dckpt_rs_t rs;
    int src[8];
    uint8_t rows[64];
    assert_int_equal(dckpt_rs_init(&rs, 4, 2), 0);
    int three[3] = {0, 1, 2};
    assert_int_equal(dckpt_rs_decode_plan(&rs, 3, three, src, rows), -ERANGE);
    assert_int_equal(dckpt_rs_decode_plan_base(&rs, 3, three, src, rows), -ERANGE);
    int dup[2] = {1, 1};
    assert_int_equal(dckpt_rs_decode_plan(&rs, 2, dup, src, rows), -EINVAL);
    int out[1] = {6};
    assert_int_equal(dckpt_rs_decode_plan(&rs, 1, out, src, rows), -EINVAL);
    int neg[1] = {-1};
    assert_int_equal(dckpt_rs_decode_plan(&rs, 1, neg, src, rows), -EINVAL);
    assert_int_equal(dckpt_rs_decode_plan(&rs, -1, neg, src, rows), -EINVAL);
    /* no erasure: sources are 0..k-1 */
    assert_int_equal(dckpt_rs_decode_plan(&rs, 0, NULL, src, rows), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(src[i], i);
    /* decode with too many erasures leaves the buffers alone */
    frags_t f;
    frags_new(&f, 4, 2, 100, 9);
    assert_int_equal(dckpt_rs_decode(&rs, 100, 3, three, f.p), -ERANGE);
    frags_free(&f);
    dckpt_rs_fini(&rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_init_errors),
        cmocka_unit_test(test_encode_isal_vs_base),
        cmocka_unit_test(test_encode_update_streams),
        cmocka_unit_test(test_column_kernels_chain),
        cmocka_unit_test(test_decode_every_pattern),
        cmocka_unit_test(test_decode_unsorted),
        cmocka_unit_test(test_decode_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
