/*
 * dense_input.c - the input check before a fresh start (dense.h): the
 * Matrix Market file (header, every entry, nothing after the last one) and
 * the memory the run needs; world rank 0 checks, the verdict is broadcast
 * (app_input_verdict).
 */
#include "dense.h"

typedef struct input_ctx {
    const dense_opts_t *o;
    double bytes_per_entry;
} input_ctx_t;

static int input_check(const void *arg, char *err, size_t errlen)
{
    const input_ctx_t *c = arg;
    const dense_opts_t *o = c->o;
    double n = (double)o->n;
    char what[600];
    if (o->matrix) {
        app_mtx_t m;
        if (app_mtx_open(&m, o->matrix, err, errlen))
            return -1;
        n = (double)m.n;
        for (long long k = 0; k < m.nnz; k++) {
            int64_t i, j;
            double v;
            if (app_mtx_entry(&m, k, &i, &j, &v, err, errlen)) {
                app_mtx_close(&m);
                return -1;
            }
        }
        int rc = app_mtx_end(&m, err, errlen);
        app_mtx_close(&m);
        if (rc)
            return -1;
        snprintf(what, sizeof what, "%s", o->matrix);
    } else {
        snprintf(what, sizeof what, "random n=%lld", (long long)o->n);
    }
    double need = n * n * c->bytes_per_entry, have = app_host_memory_bytes();
    if (need > have) {
        snprintf(err, errlen,
                 "%s: too large: a %.0f x %.0f matrix needs about %.1f GiB in all, more than "
                 "this host's %.1f GiB of memory",
                 what, n, n, need / 1073741824.0, have / 1073741824.0);
        return -1;
    }
    return 0;
}

int dense_input_verdict(const dense_opts_t *o, double bytes_per_entry, int rank, int nprocs)
{
    input_ctx_t c = {o, bytes_per_entry};
    return app_input_verdict(o->prog, input_check, &c, rank, nprocs) ? DENSE_EXIT_INPUT : 0;
}
