/*
 * dckpt_xor.h - XOR parity (RAID-5 style, one parity fragment) for the
 * checkpoint layer. Fragment indices: 0..k-1 data, k the parity.
 *
 * dckpt_xor_into is written in plain C that the compiler vectorizes; the
 * `_base` twins are the byte-at-a-time reference the unit tests compare with.
 * No MPI here.
 */
#ifndef DCKPT_XOR_H
#define DCKPT_XOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[i] ^= src[i] for i < len. dst and src must not overlap. */
void dckpt_xor_into(uint8_t *restrict dst, const uint8_t *restrict src, size_t len);
void dckpt_xor_into_base(uint8_t *dst, const uint8_t *src, size_t len);

/* parity = data[0] ^ ... ^ data[k-1], each `len` bytes; k >= 1. */
void dckpt_xor_encode(size_t len, int k, uint8_t *const *data, uint8_t *parity);
void dckpt_xor_encode_base(size_t len, int k, uint8_t *const *data, uint8_t *parity);

/*
 * Rebuild fragment `err` (0..k, data or parity) in place from the k others:
 * frags has k + 1 pointers. Returns 0 or -EINVAL.
 */
int dckpt_xor_decode(size_t len, int k, int err, uint8_t *const *frags);
int dckpt_xor_decode_base(size_t len, int k, int err, uint8_t *const *frags);

#ifdef __cplusplus
}
#endif

#endif /* DCKPT_XOR_H */
