/*
 * dckpt_rs.h - Reed-Solomon coding over GF(2^8) for the checkpoint layer.
 *
 * A code has k data fragments and m parity fragments, all of the same length.
 * The generator is the systematic (k + m) x k Cauchy matrix (identity on top,
 * parity row j, column i = 1 / ((k + j) ^ i)), so ANY k of the k + m
 * fragments determine the others: up to m erasures, of data or parity
 * fragments in any mix, are decodable.
 *
 * Every routine comes twice: the plain name runs ISA-L's optimized code, the
 * `_base` twin runs the project's own reference arithmetic (dckpt_gf.h). The
 * unit tests compare the two. No MPI here.
 *
 * Fragment indices: 0..k-1 are data, k..k+m-1 are parity.
 */
#ifndef DCKPT_RS_H
#define DCKPT_RS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DCKPT_RS_MAX_FRAGS 256 /* k + m <= 256 in GF(2^8) */

typedef struct dckpt_rs {
    int k;
    int m;
    uint8_t *gen;  /* (k + m) x k generator matrix, row-major */
    uint8_t *tbls; /* ISA-L expanded tables of the m parity rows, 32 * k * m bytes */
} dckpt_rs_t;

/* Set up a code; 1 <= k, 1 <= m, k + m <= 256. Returns 0, -EINVAL, -ENOMEM. */
int dckpt_rs_init(dckpt_rs_t *rs, int k, int m);
void dckpt_rs_fini(dckpt_rs_t *rs);

/* The k coefficients of parity row j (0 <= j < m). */
const uint8_t *dckpt_rs_parity_row(const dckpt_rs_t *rs, int j);

/* parity[j] = sum_i gen[k + j][i] * data[i], for j < m, each `len` bytes. */
void dckpt_rs_encode(const dckpt_rs_t *rs, size_t len, uint8_t *const *data,
                     uint8_t *const *parity);
void dckpt_rs_encode_base(const dckpt_rs_t *rs, size_t len, uint8_t *const *data,
                          uint8_t *const *parity);

/*
 * Incremental encode: parity[j] ^= gen[k + j][vec_i] * data, for every j < m.
 * Starting from zeroed parities and applying every source once, in any order,
 * gives the same result as dckpt_rs_encode.
 */
void dckpt_rs_encode_update(const dckpt_rs_t *rs, size_t len, int vec_i, const uint8_t *data,
                            uint8_t *const *parity);
void dckpt_rs_encode_update_base(const dckpt_rs_t *rs, size_t len, int vec_i,
                                 const uint8_t *data, uint8_t *const *parity);

/*
 * Decode plan for the erased fragments err[0..nerr-1] (distinct, in
 * [0, k + m), any order, 0 <= nerr <= m):
 *   src[0..k-1]   the surviving fragments to read: the k lowest-numbered
 *                 fragments not erased, ascending;
 *   rows[i * k + j]  coefficient of src[j] in the rebuilt fragment err[i].
 * Erased parity fragments are re-encoded from the same sources.
 * Returns 0, -EINVAL (bad indices or duplicates), -ERANGE (nerr > m: more
 * erasures than the code can correct), -EDOM (singular: cannot happen with a
 * Cauchy generator; reported, never ignored).
 */
int dckpt_rs_decode_plan(const dckpt_rs_t *rs, int nerr, const int *err, int *src,
                         uint8_t *rows);
int dckpt_rs_decode_plan_base(const dckpt_rs_t *rs, int nerr, const int *err, int *src,
                              uint8_t *rows);

/*
 * Rebuild the erased fragments in place: frags has k + m pointers of `len`
 * bytes; frags[err[i]] are written, the others are read. Returns as
 * dckpt_rs_decode_plan.
 */
int dckpt_rs_decode(const dckpt_rs_t *rs, size_t len, int nerr, const int *err,
                    uint8_t *const *frags);
int dckpt_rs_decode_base(const dckpt_rs_t *rs, size_t len, int nerr, const int *err,
                         uint8_t *const *frags);

/*
 * Column kernels, for streaming: one source fragment contributes to `rows`
 * outputs with the coefficients col[0..rows-1].
 * dckpt_rs_col_tables expands col into 32 * rows bytes of ISA-L tables.
 * dckpt_rs_col_apply: dst[r] (= or ^=) col[r] * src, accumulate selects ^=.
 */
void dckpt_rs_col_tables(int rows, const uint8_t *col, uint8_t *tbls);

/*
 * dckpt_simd_clean: VZEROUPPER where the CPU has AVX (a no-op elsewhere).
 * ISA-L 2.30's AVX-512 routines (crc32_gzip_refl, ec_encode_data and
 * ec_encode_data_update on CPUs with AVX-512) return with the upper halves
 * of the vector registers dirty; the caller's SSE code (the application's,
 * compiled for generic x86-64) then ran about 3x slower on the development
 * VM (AMD EPYC with AVX-512) until the next VZEROUPPER, i.e. for ever: a
 * CG solve was 40-60% slower after its first checkpoint. Every wrapper of
 * an ISA-L routine calls this before returning. Not inline: no vector
 * value can be live in a register across the call.
 */
void dckpt_simd_clean(void);
void dckpt_rs_col_apply(size_t len, int rows, const uint8_t *tbls, const uint8_t *src,
                        uint8_t *const *dst, int accumulate);
void dckpt_rs_col_apply_base(size_t len, int rows, const uint8_t *col, const uint8_t *src,
                             uint8_t *const *dst, int accumulate);

#ifdef __cplusplus
}
#endif

#endif /* DCKPT_RS_H */
