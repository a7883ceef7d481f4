/*
 * cg_input.c - the input check before the solve.
 *
 * World rank 0 reads the whole Matrix Market file (or sizes the Poisson
 * problem), checks it, and broadcasts the verdict; every rank then ends with
 * the same exit status, and the line that names the problem is printed
 * before anything else can happen (no MPI_Abort racing with it). What is
 * checked:
 *  - the header and every entry (apps/common/app_mtx.c): banner, square size, entries
 *    >= 0, indices in range, no NaN or Inf, no more and no fewer entries
 *    than the size line says;
 *  - every row has a positive diagonal (summing duplicates): a symmetric
 *    positive definite matrix, which CG needs, has one; this also rejects
 *    a header that declares fewer entries than rows;
 *  - the right-hand side b = A * ones is finite (row sums do not overflow);
 *  - the size: rows <= CG_MAX_ROWS (local indices are int), and the memory
 *    the whole job needs (CG_BYTES_PER_ROW, CG_BYTES_PER_ENTRY) fits in the
 *    host's physical memory: the transport is shared memory, so every rank
 *    runs on this host, and a larger problem would only be killed by the
 *    kernel (or swap for ever) long after the start.
 */
#include "cg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int size_check(const char *what, double rows, double entries, char *err, size_t errlen)
{
    char size[128];
    snprintf(size, sizeof size, "%.0f rows and %.0f stored entries need", rows, entries);
    return app_memory_check(what, size, rows * CG_BYTES_PER_ROW + entries * CG_BYTES_PER_ENTRY,
                            err, errlen);
}

typedef struct check_ctx {
    double *diag, *rowsum;
    int symmetric;
} check_ctx_t;

static void check_entry(void *ctx, int64_t i, int64_t j, double v)
{
    check_ctx_t *c = ctx;
    if (i == j)
        c->diag[i] += v;
    c->rowsum[i] += v;
    if (c->symmetric && i != j)
        c->rowsum[j] += v;
}

static int mtx_check(const char *path, char *err, size_t errlen)
{
    app_mtx_t m;
    if (app_mtx_open(&m, path, err, errlen))
        return -1;
    int rc = -1;
    double *diag = NULL, *rowsum = NULL;
    /* a symmetric file's off-diagonal entries are stored once, used twice */
    double stored = m.symmetric ? 2.0 * (double)m.nnz : (double)m.nnz;
    if (size_check(path, (double)m.n, stored, err, errlen))
        goto out;
    if (m.nnz < m.n) {
        snprintf(err, errlen,
                 "%s: %lld entries for %lld rows: some row has no diagonal entry (CG needs a "
                 "symmetric positive definite matrix, whose diagonal is positive)",
                 path, m.nnz, m.n);
        goto out;
    }
    diag = calloc((size_t)m.n, sizeof(double));
    rowsum = calloc((size_t)m.n, sizeof(double));
    if (!diag || !rowsum) {
        snprintf(err, errlen, "%s: out of memory checking the matrix", path);
        goto out;
    }
    check_ctx_t cc = {diag, rowsum, m.symmetric};
    if (app_mtx_each(&m, check_entry, &cc, err, errlen))
        goto out;
    if (app_mtx_end(&m, err, errlen))
        goto out;
    for (long long i = 0; i < m.n; i++) {
        if (!(diag[i] > 0)) {
            snprintf(err, errlen,
                     "%s: row %lld: the diagonal entry is %s (CG needs a symmetric positive "
                     "definite matrix, whose diagonal is positive)",
                     path, i + 1, diag[i] == 0 ? "missing or zero" : "negative");
            goto out;
        }
        if (!isfinite(rowsum[i]) || !isfinite(diag[i])) {
            snprintf(err, errlen,
                     "%s: row %lld: the right-hand side b = A * ones is not finite (the "
                     "entries' sum overflows)",
                     path, i + 1);
            goto out;
        }
    }
    rc = 0;
out:
    free(diag);
    free(rowsum);
    app_mtx_close(&m);
    return rc;
}

int cg_input_check(const cg_opts_t *o, char *err, size_t errlen)
{
    if (o->matrix)
        return mtx_check(o->matrix, err, errlen);
    double rows = (double)o->n * o->n * o->n;
    char what[64];
    snprintf(what, sizeof what, "poisson3d n=%d", o->n);
    if (rows > (double)CG_MAX_ROWS) {
        snprintf(err, errlen, "%s: too large: %.0f rows, at most %lld (local indices are 32-bit "
                              "integers)", what, rows, CG_MAX_ROWS);
        return -1;
    }
    return size_check(what, rows, 7.0 * rows, err, errlen);
}

static int cg_check(const void *ctx, char *err, size_t errlen)
{
    return cg_input_check(ctx, err, errlen);
}

int cg_input_verdict(const cg_opts_t *o, int rank, int nprocs)
{
    return app_input_verdict("cg", cg_check, o, rank, nprocs) ? CG_EXIT_INPUT : 0;
}
