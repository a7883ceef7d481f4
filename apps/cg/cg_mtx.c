/*
 * cg_mtx.c - a rank's rows of a Matrix Market file (the reader, with its
 * checks, is apps/common/app_mtx.c; world rank 0 checks the whole file
 * before the solve, cg_input.c). Every computing rank reads the file and
 * keeps the entries of its own rows (a replacement process too, without
 * communication). Duplicate entries are summed; each row's entries are
 * sorted by column, so every run sums in the same order.
 */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ a rank's rows */

typedef struct mtx_entry {
    int64_t row, col;
    double val;
} mtx_entry_t;

static int cmp_entry(const void *a, const void *b)
{
    const mtx_entry_t *x = a, *y = b;
    if (x->row != y->row)
        return (x->row > y->row) - (x->row < y->row);
    return (x->col > y->col) - (x->col < y->col);
}

static int mtx_push(mtx_entry_t **e, size_t *n, size_t *cap, int64_t r, int64_t c, double v)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 1024;
        mtx_entry_t *ne = realloc(*e, nc * sizeof(*ne));
        if (!ne)
            return -1;
        *e = ne;
        *cap = nc;
    }
    (*e)[(*n)++] = (mtx_entry_t){r, c, v};
    return 0;
}

int cg_matrix_mtx(cg_matrix_t *A, const char *path, int p, int r, char *err, size_t errlen)
{
    memset(A, 0, sizeof(*A));
    app_mtx_t m;
    if (app_mtx_open(&m, path, err, errlen))
        return -1;
    int rc = -1;
    mtx_entry_t *e = NULL;
    size_t ne = 0, cap = 0;
    A->n = m.n;
    cg_rows_of(A->n, p, r, &A->row0, &A->nloc);
    int64_t end = A->row0 + A->nloc;
    for (long long k = 0; k < m.nnz; k++) {
        int64_t i, j;
        double v;
        if (app_mtx_entry(&m, k, &i, &j, &v, err, errlen))
            goto out;
        if (i >= A->row0 && i < end && mtx_push(&e, &ne, &cap, i, j, v))
            goto nomem;
        if (m.symmetric && i != j && j >= A->row0 && j < end && mtx_push(&e, &ne, &cap, j, i, v))
            goto nomem;
    }
    if (ne)
        qsort(e, ne, sizeof(*e), cmp_entry); /* e is NULL when this rank has no entry */
    A->rowptr = calloc((size_t)A->nloc + 1, sizeof(int64_t));
    A->gcol = malloc(sizeof(int64_t) * ne + 1);
    A->val = malloc(sizeof(double) * ne + 1);
    if (!A->rowptr || !A->gcol || !A->val)
        goto nomem;
    size_t k = 0;
    for (size_t t = 0; t < ne; t++) {
        if (k > 0 && e[t].row == e[t - 1].row && e[t].col == e[t - 1].col) {
            A->val[k - 1] += e[t].val; /* duplicate: summed */
            continue;
        }
        A->gcol[k] = e[t].col;
        A->val[k] = e[t].val;
        A->rowptr[e[t].row - A->row0 + 1]++;
        k++;
    }
    for (int i = 0; i < A->nloc; i++)
        A->rowptr[i + 1] += A->rowptr[i];
    rc = 0;
    goto out;
nomem:
    snprintf(err, errlen, "%s: out of memory", path);
out:
    free(e);
    app_mtx_close(&m);
    return rc;
}
