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
        if (app_mtx_each(&m, NULL, NULL, err, errlen)) {
            app_mtx_close(&m);
            return -1;
        }
        int rc = app_mtx_end(&m, err, errlen);
        app_mtx_close(&m);
        if (rc)
            return -1;
        snprintf(what, sizeof what, "%s", o->matrix);
    } else {
        snprintf(what, sizeof what, "random n=%lld", (long long)o->n);
    }
    char size[96];
    snprintf(size, sizeof size, "a %.0f x %.0f matrix needs", n, n);
    return app_memory_check(what, size, n * n * c->bytes_per_entry, err, errlen);
}

int dense_input_verdict(const dense_opts_t *o, double bytes_per_entry, int rank, int nprocs)
{
    input_ctx_t c = {o, bytes_per_entry};
    return app_input_verdict(o->prog, input_check, &c, rank, nprocs) ? DENSE_EXIT_INPUT : 0;
}
