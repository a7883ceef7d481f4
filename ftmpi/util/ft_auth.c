/* Challenge-response proofs over HMAC-SHA256 (see ft_auth.h). */
#include "ft_auth.h"
#include "sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

static const char LABEL[] = "ftmpi-auth-1";

static int random_bytes(uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = getrandom(p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k < 0 ? -errno : -EIO;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int ft_auth_nonce(uint8_t nonce[FT_AUTH_NONCE_BYTES])
{
    return random_bytes(nonce, FT_AUTH_NONCE_BYTES);
}

void ft_auth_proof(const char *secret, int role,
                   const uint8_t verifier_nonce[FT_AUTH_NONCE_BYTES],
                   const uint8_t prover_nonce[FT_AUTH_NONCE_BYTES],
                   uint8_t proof[FT_AUTH_PROOF_BYTES])
{
    ft_hmac_t c;
    uint8_t r = (uint8_t)role;
    ft_hmac_init(&c, secret, strlen(secret));
    ft_hmac_update(&c, LABEL, sizeof LABEL - 1);
    ft_hmac_update(&c, &r, 1);
    ft_hmac_update(&c, verifier_nonce, FT_AUTH_NONCE_BYTES);
    ft_hmac_update(&c, prover_nonce, FT_AUTH_NONCE_BYTES);
    ft_hmac_final(&c, proof);
}

int ft_auth_check(const char *secret, int role,
                  const uint8_t verifier_nonce[FT_AUTH_NONCE_BYTES],
                  const uint8_t prover_nonce[FT_AUTH_NONCE_BYTES],
                  const uint8_t proof[FT_AUTH_PROOF_BYTES])
{
    uint8_t want[FT_AUTH_PROOF_BYTES];
    ft_auth_proof(secret, role, verifier_nonce, prover_nonce, want);
    return ft_ct_equal(want, proof, FT_AUTH_PROOF_BYTES);
}

int ft_auth_new_secret(char *out, size_t cap)
{
    uint8_t rnd[32];
    if (cap < 2 * sizeof rnd + 1)
        return -EINVAL;
    int rc = random_bytes(rnd, sizeof rnd);
    if (rc)
        return rc;
    for (size_t i = 0; i < sizeof rnd; i++)
        snprintf(out + 2 * i, 3, "%02x", rnd[i]);
    memset(rnd, 0, sizeof rnd);
    return 0;
}
