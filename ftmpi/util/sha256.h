/*
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the runtime's
 * challenge-response authentication (docs/runtime.md, "Security") and for
 * any transport that wants to prove it holds the job's secret.
 */
#ifndef FTMPI_UTIL_SHA256_H
#define FTMPI_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define FT_SHA256_BYTES 32
#define FT_SHA256_BLOCK 64

typedef struct {
    uint32_t h[8];
    uint64_t nbytes;      /* message length so far */
    uint8_t buf[FT_SHA256_BLOCK];
    size_t nbuf;
} ft_sha256_t;

void ft_sha256_init(ft_sha256_t *c);
void ft_sha256_update(ft_sha256_t *c, const void *p, size_t n);
void ft_sha256_final(ft_sha256_t *c, uint8_t out[FT_SHA256_BYTES]);
void ft_sha256(const void *p, size_t n, uint8_t out[FT_SHA256_BYTES]);

typedef struct {
    ft_sha256_t inner, outer;
} ft_hmac_t;

void ft_hmac_init(ft_hmac_t *c, const void *key, size_t keylen);
void ft_hmac_update(ft_hmac_t *c, const void *p, size_t n);
void ft_hmac_final(ft_hmac_t *c, uint8_t out[FT_SHA256_BYTES]);
void ft_hmac_sha256(const void *key, size_t keylen, const void *msg,
                    size_t n, uint8_t out[FT_SHA256_BYTES]);

/* 1 when a and b are equal; the time taken does not depend on where they
 * differ. */
int ft_ct_equal(const void *a, const void *b, size_t n);

#pragma GCC visibility pop

#endif
