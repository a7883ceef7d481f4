/*
 * cg_input.c - the input check before the solve.
 *
 * World rank 0 reads the whole Matrix Market file (or sizes the Poisson
 * problem), checks it, and broadcasts the verdict; every rank then ends with
 * the same exit status, and the line that names the problem is printed
 * before anything else can happen (no MPI_Abort racing with it). What is
 * checked:
 *  - the header and every entry (cg_mtx.c): banner, square size, entries
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
#include <unistd.h>

static double host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && psize > 0 ? (double)pages * (double)psize : INFINITY;
}

static int size_check(const char *what, double rows, double entries, char *err, size_t errlen)
{
    double need = rows * CG_BYTES_PER_ROW + entries * CG_BYTES_PER_ENTRY;
    double have = host_memory_bytes();
    if (need > have) {
        snprintf(err, errlen,
                 "%s: too large: %.0f rows and %.0f stored entries need about %.1f GiB, more "
                 "than this host's %.1f GiB of memory",
                 what, rows, entries, need / 1073741824.0, have / 1073741824.0);
        return -1;
    }
    return 0;
}

static int mtx_check(const char *path, char *err, size_t errlen)
{
    cg_mtx_t m;
    if (cg_mtx_open(&m, path, err, errlen))
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
    for (long long k = 0; k < m.nnz; k++) {
        int64_t i, j;
        double v;
        if (cg_mtx_entry(&m, k, &i, &j, &v, err, errlen))
            goto out;
        if (i == j)
            diag[i] += v;
        rowsum[i] += v;
        if (m.symmetric && i != j)
            rowsum[j] += v;
    }
    char line[1024];
    while (fgets(line, sizeof line, m.f)) {
        m.line++;
        if (line[strspn(line, " \t\r\n")] != '\0') {
            snprintf(err, errlen, "%s: line %lld: more entries than the %lld of the size line",
                     path, m.line, m.nnz);
            goto out;
        }
    }
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
    cg_mtx_close(&m);
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

int cg_input_verdict(const cg_opts_t *o, int rank, int nprocs)
{
    char err[512] = "";
    int bad = 0;
    if (rank == 0) {
        bad = cg_input_check(o, err, sizeof err) != 0;
        if (bad) {
            fprintf(stderr, "cg: bad input: %s\n", err);
            fflush(stderr);
        }
    }
    if (nprocs == 1)
        return bad ? CG_EXIT_INPUT : 0;
    int rc = MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS && rank != 0) {
        /* a process failed during the start-up (the skeleton recovers from
           it next): the verdict may be lost, so decide alone; the check is
           deterministic, every rank that gets here agrees with rank 0 */
        bad = cg_input_check(o, err, sizeof err) != 0;
        if (bad) {
            fprintf(stderr, "cg: rank %d: bad input: %s\n", rank, err);
            fflush(stderr);
        }
    }
    return bad ? CG_EXIT_INPUT : 0;
}
