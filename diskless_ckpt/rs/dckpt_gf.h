/*
 * dckpt_gf.h - portable reference arithmetic in GF(2^8).
 *
 * This is the project's own "_base" implementation of the field that ISA-L
 * uses (primitive polynomial x^8 + x^4 + x^3 + x^2 + 1, 0x11d, generator 2).
 * It is the reference the unit tests hold ISA-L's optimized routines against,
 * and it is what the library uses where speed does not matter (matrix set-up).
 * No MPI, no ISA-L here.
 */
#ifndef DCKPT_GF_H
#define DCKPT_GF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Product of a and b. */
uint8_t dckpt_gf_mul(uint8_t a, uint8_t b);

/* Multiplicative inverse of a; 0 for a == 0 (as ISA-L's gf_inv). */
uint8_t dckpt_gf_inv(uint8_t a);

/*
 * Systematic Cauchy generator matrix, (k + m) rows of k columns, row-major:
 * rows 0..k-1 are the identity, row i >= k column j is 1 / (i ^ j).
 * Every square submatrix of the parity part is invertible, so any k of the
 * k + m rows form an invertible matrix. Needs 1 <= k, 1 <= m, k + m <= 256.
 * Returns 0 or -EINVAL.
 */
int dckpt_gf_gen_cauchy(uint8_t *a, int k, int m);

/*
 * Invert the n x n matrix `in` (row-major) into `out` by Gauss-Jordan
 * elimination. `in` is destroyed. Returns 0, -EDOM when singular, -EINVAL on
 * bad arguments.
 */
int dckpt_gf_invert(uint8_t *in, uint8_t *out, int n);

/* dst[i] ^= c * src[i] for i < len (byte-at-a-time reference). */
void dckpt_gf_mad_base(size_t len, uint8_t c, const uint8_t *src, uint8_t *dst);

/* dst[i] = c * src[i] for i < len (byte-at-a-time reference). */
void dckpt_gf_mul_vec_base(size_t len, uint8_t c, const uint8_t *src, uint8_t *dst);

#ifdef __cplusplus
}
#endif

#endif /* DCKPT_GF_H */
