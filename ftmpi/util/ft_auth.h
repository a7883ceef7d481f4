/*
 * Challenge-response proof that a peer holds the job's secret
 * (docs/runtime.md, "Security"). Each side sends a fresh random nonce; each
 * then proves itself with
 *
 *     proof = HMAC-SHA256(secret, "ftmpi-auth-1" | role | verifier_nonce |
 *                                 prover_nonce)
 *
 * where role is one byte naming the prover's side (FT_AUTH_ACCEPTOR for
 * the side that accepted the connection, FT_AUTH_CONNECTOR for the one that
 * connected), so a proof can neither be replayed on another connection
 * (fresh nonces) nor reflected back to its sender (the role differs). The
 * secret itself never crosses the wire. Used by the runtime's control
 * links (runtime/link.c) and meant for any transport between ranks (the
 * rank side gets the secret from rtc_job_secret()).
 */
#ifndef FTMPI_UTIL_FT_AUTH_H
#define FTMPI_UTIL_FT_AUTH_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define FT_AUTH_NONCE_BYTES 32
#define FT_AUTH_PROOF_BYTES 32
#define FT_AUTH_SECRET_MAX 128 /* secret is a string of at most this */

enum { FT_AUTH_ACCEPTOR = 'A', FT_AUTH_CONNECTOR = 'C' };

/* Fresh random nonce (getrandom). 0 or -errno. */
int ft_auth_nonce(uint8_t nonce[FT_AUTH_NONCE_BYTES]);

void ft_auth_proof(const char *secret, int role,
                   const uint8_t verifier_nonce[FT_AUTH_NONCE_BYTES],
                   const uint8_t prover_nonce[FT_AUTH_NONCE_BYTES],
                   uint8_t proof[FT_AUTH_PROOF_BYTES]);

/* 1 when proof is the one a holder of secret in role would send. */
int ft_auth_check(const char *secret, int role,
                  const uint8_t verifier_nonce[FT_AUTH_NONCE_BYTES],
                  const uint8_t prover_nonce[FT_AUTH_NONCE_BYTES],
                  const uint8_t proof[FT_AUTH_PROOF_BYTES]);

/* A new job secret: 64 hexadecimal characters from 32 random bytes, into
 * out (at least 65 bytes). 0 or -errno. */
int ft_auth_new_secret(char *out, size_t cap);

#pragma GCC visibility pop

#endif
