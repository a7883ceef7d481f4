/*
 * cg_mtx.c - Matrix Market reader. Every rank reads the file and keeps the
 * entries of its own rows (a replacement process reads it again, without
 * communication). Supported: "matrix coordinate real|integer|pattern
 * general|symmetric", square. Duplicate entries are summed; each row's
 * entries are sorted by column, so every run sums in the same order.
 */
#include "cg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return -1;
    }
    char line[1024], obj[64] = "", fmt[64] = "", field[64] = "", sym[64] = "";
    int rc = -1;
    mtx_entry_t *e = NULL;
    size_t ne = 0, cap = 0;
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix") || strcasecmp(fmt, "coordinate")) {
        snprintf(err, errlen, "%s: not a Matrix Market coordinate matrix", path);
        goto out;
    }
    int pattern = !strcasecmp(field, "pattern");
    int symmetric = !strcasecmp(sym, "symmetric");
    if (!pattern && strcasecmp(field, "real") && strcasecmp(field, "integer")) {
        snprintf(err, errlen, "%s: field '%s' not supported (real, integer, pattern)", path,
                 field);
        goto out;
    }
    if (!symmetric && strcasecmp(sym, "general")) {
        snprintf(err, errlen, "%s: symmetry '%s' not supported (general, symmetric)", path, sym);
        goto out;
    }
    long long nr = 0, nc = 0, nnz = 0;
    while (fgets(line, sizeof line, f)) {
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '%' || *s == '\0')
            continue;
        if (sscanf(s, "%lld %lld %lld", &nr, &nc, &nnz) != 3)
            nr = 0;
        break;
    }
    if (nr <= 0 || nr != nc || nnz < 0) {
        snprintf(err, errlen, "%s: bad size line (the matrix must be square)", path);
        goto out;
    }
    A->n = nr;
    cg_rows_of(A->n, p, r, &A->row0, &A->nloc);
    int64_t end = A->row0 + A->nloc;
    for (long long k = 0; k < nnz; k++) {
        long long i, j;
        double v = 1.0;
        if (!fgets(line, sizeof line, f) ||
            sscanf(line, pattern ? "%lld %lld" : "%lld %lld %lf", &i, &j, &v) != (pattern ? 2 : 3) ||
            i < 1 || i > nr || j < 1 || j > nr) {
            snprintf(err, errlen, "%s: bad entry %lld", path, k + 1);
            goto out;
        }
        i--;
        j--;
        if (i >= A->row0 && i < end && mtx_push(&e, &ne, &cap, i, j, v))
            goto nomem;
        if (symmetric && i != j && j >= A->row0 && j < end && mtx_push(&e, &ne, &cap, j, i, v))
            goto nomem;
    }
    qsort(e, ne, sizeof(*e), cmp_entry);
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
    fclose(f);
    return rc;
}
