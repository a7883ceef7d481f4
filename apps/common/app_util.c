/* app_util.c - small pieces the apps share (app_common.h). */
#include "app_common.h"

#include <math.h>
#include <stdlib.h>

const char *app_code_name(dckpt_code_t c)
{
    return c == DCKPT_CODE_XOR ? "xor" : "rs";
}

uint64_t app_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) {
        h ^= c[i];
        h *= 1099511628211ull;
    }
    return h;
}

void app_json_dbl(FILE *out, const char *key, double v, int comma)
{
    if (isfinite(v))
        fprintf(out, "\"%s\": %.9g%s", key, v, comma ? ", " : "");
    else
        fprintf(out, "\"%s\": null%s", key, comma ? ", " : "");
}

int app_ftiter_fail(const char *prog, int rank, int rc, const char *err)
{
    if (err && err[0] && (rank == 0 || rc != FTITER_ERR_APP))
        fprintf(stderr, "%s: rank %d: %s\n", prog, rank, err);
    if (rank == 0 || rc != FTITER_ERR_UNRECOVERABLE)
        fprintf(stderr, "%s: rank %d cannot continue: %s\n", prog, rank, ftiter_strerror(rc));
    fflush(stderr);
    if (rc == FTITER_ERR_UNRECOVERABLE && rank != 0) {
        /* every rank knows; rank 0 has said why and ends the job: wait for it */
        MPI_Finalize();
        return APP_EXIT_UNRECOVERABLE;
    }
    MPI_Abort(MPI_COMM_WORLD,
              rc == FTITER_ERR_UNRECOVERABLE ? APP_EXIT_UNRECOVERABLE : APP_EXIT_ERROR);
    return APP_EXIT_ERROR; /* not reached */
}
