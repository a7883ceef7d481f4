/*
 * dckpt_rs.c - Reed-Solomon (Cauchy) encode/decode on ISA-L, with reference
 * twins on the project's own GF(2^8) arithmetic.
 */
#include "dckpt_rs.h"
#include "dckpt_gf.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

/* ISA-L takes int lengths: feed it slices of at most this many bytes. */
#define RS_SLICE ((size_t)1 << 30)

__attribute__((noinline)) void dckpt_simd_clean(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    static int has_avx = -1; /* benign race: every thread computes the same */
    if (has_avx < 0)
        has_avx = __builtin_cpu_supports("avx") ? 1 : 0;
    if (has_avx)
        __asm__ volatile("vzeroupper" ::: "memory");
#endif
}

int dckpt_rs_init(dckpt_rs_t *rs, int k, int m)
{
    if (rs == NULL || k < 1 || m < 1 || k + m > DCKPT_RS_MAX_FRAGS)
        return -EINVAL;
    memset(rs, 0, sizeof(*rs));
    rs->gen = malloc((size_t)(k + m) * (size_t)k);
    rs->tbls = malloc((size_t)32 * (size_t)k * (size_t)m);
    if (rs->gen == NULL || rs->tbls == NULL) {
        free(rs->gen);
        free(rs->tbls);
        rs->gen = rs->tbls = NULL;
        return -ENOMEM;
    }
    rs->k = k;
    rs->m = m;
    /* ISA-L's generator; dckpt_gf_gen_cauchy builds the same one (unit-tested) */
    gf_gen_cauchy1_matrix(rs->gen, k + m, k);
    ec_init_tables(k, m, rs->gen + (size_t)k * k, rs->tbls);
    dckpt_simd_clean();
    return 0;
}

void dckpt_rs_fini(dckpt_rs_t *rs)
{
    if (rs == NULL)
        return;
    free(rs->gen);
    free(rs->tbls);
    memset(rs, 0, sizeof(*rs));
}

const uint8_t *dckpt_rs_parity_row(const dckpt_rs_t *rs, int j)
{
    return rs->gen + (size_t)(rs->k + j) * rs->k;
}

/* ------------------------------------------------------------------ encode */

void dckpt_rs_encode(const dckpt_rs_t *rs, size_t len, uint8_t *const *data,
                     uint8_t *const *parity)
{
    uint8_t *src[DCKPT_RS_MAX_FRAGS];
    uint8_t *dst[DCKPT_RS_MAX_FRAGS];
    for (size_t off = 0; off < len; off += RS_SLICE) {
        size_t n = len - off < RS_SLICE ? len - off : RS_SLICE;
        for (int i = 0; i < rs->k; i++)
            src[i] = data[i] + off;
        for (int j = 0; j < rs->m; j++)
            dst[j] = parity[j] + off;
        ec_encode_data((int)n, rs->k, rs->m, rs->tbls, src, dst);
    }
    dckpt_simd_clean();
}

void dckpt_rs_encode_base(const dckpt_rs_t *rs, size_t len, uint8_t *const *data,
                          uint8_t *const *parity)
{
    for (int j = 0; j < rs->m; j++) {
        const uint8_t *row = dckpt_rs_parity_row(rs, j);
        memset(parity[j], 0, len);
        for (int i = 0; i < rs->k; i++)
            dckpt_gf_mad_base(len, row[i], data[i], parity[j]);
    }
}

void dckpt_rs_encode_update(const dckpt_rs_t *rs, size_t len, int vec_i, const uint8_t *data,
                            uint8_t *const *parity)
{
    uint8_t *dst[DCKPT_RS_MAX_FRAGS];
    for (size_t off = 0; off < len; off += RS_SLICE) {
        size_t n = len - off < RS_SLICE ? len - off : RS_SLICE;
        for (int j = 0; j < rs->m; j++)
            dst[j] = parity[j] + off;
        ec_encode_data_update((int)n, rs->k, rs->m, vec_i, rs->tbls, (uint8_t *)data + off,
                              dst);
    }
    dckpt_simd_clean();
}

void dckpt_rs_encode_update_base(const dckpt_rs_t *rs, size_t len, int vec_i,
                                 const uint8_t *data, uint8_t *const *parity)
{
    for (int j = 0; j < rs->m; j++)
        dckpt_gf_mad_base(len, dckpt_rs_parity_row(rs, j)[vec_i], data, parity[j]);
}

/* ------------------------------------------------------------------ decode */

typedef int (*rs_invert_fn)(uint8_t *in, uint8_t *out, int n);
typedef uint8_t (*rs_mul_fn)(uint8_t a, uint8_t b);

static int rs_isal_invert(uint8_t *in, uint8_t *out, int n)
{
    return gf_invert_matrix(in, out, n) == 0 ? 0 : -EDOM;
}

static uint8_t rs_isal_mul(uint8_t a, uint8_t b)
{
    return gf_mul(a, b);
}

/* Shared plan logic; the field arithmetic is passed in. */
static int rs_plan(const dckpt_rs_t *rs, int nerr, const int *err, int *src, uint8_t *rows,
                   rs_invert_fn inv_fn, rs_mul_fn mul_fn)
{
    int k = rs->k, n = rs->k + rs->m;
    uint8_t erased[DCKPT_RS_MAX_FRAGS] = {0};

    if (nerr < 0 || (nerr > 0 && (err == NULL || rows == NULL)) || src == NULL)
        return -EINVAL;
    if (nerr > rs->m)
        return -ERANGE;
    for (int i = 0; i < nerr; i++) {
        if (err[i] < 0 || err[i] >= n || erased[err[i]])
            return -EINVAL;
        erased[err[i]] = 1;
    }
    for (int f = 0, s = 0; s < k; f++)
        if (!erased[f])
            src[s++] = f;
    if (nerr == 0)
        return 0;

    size_t kk = (size_t)k * k;
    uint8_t *b = malloc(kk);
    uint8_t *binv = malloc(kk);
    if (b == NULL || binv == NULL) {
        free(b);
        free(binv);
        return -ENOMEM;
    }
    for (int s = 0; s < k; s++)
        memcpy(b + (size_t)s * k, rs->gen + (size_t)src[s] * k, (size_t)k);
    int rc = inv_fn(b, binv, k);
    if (rc == 0) {
        /* binv maps the sources back to the data: data = binv * sources. */
        for (int i = 0; i < nerr; i++) {
            uint8_t *row = rows + (size_t)i * k;
            if (err[i] < k) {
                memcpy(row, binv + (size_t)err[i] * k, (size_t)k);
                continue;
            }
            /* parity e = gen[e] * data = (gen[e] * binv) * sources */
            const uint8_t *g = rs->gen + (size_t)err[i] * k;
            for (int j = 0; j < k; j++) {
                uint8_t acc = 0;
                for (int t = 0; t < k; t++)
                    acc ^= mul_fn(g[t], binv[(size_t)t * k + j]);
                row[j] = acc;
            }
        }
    }
    free(b);
    free(binv);
    return rc;
}

int dckpt_rs_decode_plan(const dckpt_rs_t *rs, int nerr, const int *err, int *src,
                         uint8_t *rows)
{
    if (rs == NULL)
        return -EINVAL;
    return rs_plan(rs, nerr, err, src, rows, rs_isal_invert, rs_isal_mul);
}

int dckpt_rs_decode_plan_base(const dckpt_rs_t *rs, int nerr, const int *err, int *src,
                              uint8_t *rows)
{
    if (rs == NULL)
        return -EINVAL;
    return rs_plan(rs, nerr, err, src, rows, dckpt_gf_invert, dckpt_gf_mul);
}

int dckpt_rs_decode(const dckpt_rs_t *rs, size_t len, int nerr, const int *err,
                    uint8_t *const *frags)
{
    int src[DCKPT_RS_MAX_FRAGS];
    uint8_t *in[DCKPT_RS_MAX_FRAGS], *out[DCKPT_RS_MAX_FRAGS];
    if (rs == NULL || frags == NULL)
        return -EINVAL;
    uint8_t *rows = malloc((size_t)(nerr > 0 ? nerr : 1) * rs->k);
    uint8_t *tbls = malloc((size_t)32 * rs->k * (nerr > 0 ? nerr : 1));
    int rc = (rows && tbls) ? dckpt_rs_decode_plan(rs, nerr, err, src, rows) : -ENOMEM;
    if (rc == 0 && nerr > 0) {
        ec_init_tables(rs->k, nerr, rows, tbls);
        for (size_t off = 0; off < len; off += RS_SLICE) {
            size_t n = len - off < RS_SLICE ? len - off : RS_SLICE;
            for (int j = 0; j < rs->k; j++)
                in[j] = frags[src[j]] + off;
            for (int i = 0; i < nerr; i++)
                out[i] = frags[err[i]] + off;
            ec_encode_data((int)n, rs->k, nerr, tbls, in, out);
        }
        dckpt_simd_clean();
    }
    free(rows);
    free(tbls);
    return rc;
}

int dckpt_rs_decode_base(const dckpt_rs_t *rs, size_t len, int nerr, const int *err,
                         uint8_t *const *frags)
{
    int src[DCKPT_RS_MAX_FRAGS];
    if (rs == NULL || frags == NULL)
        return -EINVAL;
    uint8_t *rows = malloc((size_t)(nerr > 0 ? nerr : 1) * rs->k);
    int rc = rows ? dckpt_rs_decode_plan_base(rs, nerr, err, src, rows) : -ENOMEM;
    for (int i = 0; rc == 0 && i < nerr; i++) {
        memset(frags[err[i]], 0, len);
        for (int j = 0; j < rs->k; j++)
            dckpt_gf_mad_base(len, rows[(size_t)i * rs->k + j], frags[src[j]], frags[err[i]]);
    }
    free(rows);
    return rc;
}

/* ------------------------------------------------------------------ columns */

void dckpt_rs_col_tables(int rows, const uint8_t *col, uint8_t *tbls)
{
    /* a rows x 1 matrix: ec_init_tables lays out 32 bytes per coefficient */
    ec_init_tables(1, rows, (uint8_t *)col, tbls);
    dckpt_simd_clean();
}

void dckpt_rs_col_apply(size_t len, int rows, const uint8_t *tbls, const uint8_t *src,
                        uint8_t *const *dst, int accumulate)
{
    uint8_t *d[DCKPT_RS_MAX_FRAGS];
    for (size_t off = 0; off < len; off += RS_SLICE) {
        size_t n = len - off < RS_SLICE ? len - off : RS_SLICE;
        uint8_t *s = (uint8_t *)src + off;
        for (int r = 0; r < rows; r++)
            d[r] = dst[r] + off;
        if (accumulate)
            ec_encode_data_update((int)n, 1, rows, 0, (uint8_t *)tbls, s, d);
        else
            ec_encode_data((int)n, 1, rows, (uint8_t *)tbls, &s, d);
    }
    dckpt_simd_clean();
}

void dckpt_rs_col_apply_base(size_t len, int rows, const uint8_t *col, const uint8_t *src,
                             uint8_t *const *dst, int accumulate)
{
    for (int r = 0; r < rows; r++) {
        if (accumulate)
            dckpt_gf_mad_base(len, col[r], src, dst[r]);
        else
            dckpt_gf_mul_vec_base(len, col[r], src, dst[r]);
    }
}
