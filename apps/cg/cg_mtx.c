/*
 * cg_mtx.c - Matrix Market reader. Supported: "matrix coordinate
 * real|integer|pattern general|symmetric", square. cg_mtx_open and
 * cg_mtx_entry parse and check the file one line at a time (world rank 0
 * checks the whole file with them before the solve, cg_input.c); every
 * computing rank then reads the file again and keeps the entries of its own
 * rows (a replacement process too, without communication). Duplicate
 * entries are summed; each row's entries are sorted by column, so every run
 * sums in the same order.
 */
#include "cg.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ parsing */

static char *mtx_line(cg_mtx_t *m, char *buf, size_t cap)
{
    if (!fgets(buf, (int)cap, m->f))
        return NULL;
    m->line++;
    buf[strcspn(buf, "\r\n")] = '\0';
    return buf;
}

/* the first word of s, for messages */
static const char *mtx_show(const char *s, char *out, size_t cap)
{
    snprintf(out, cap, "%.40s%s", s, strlen(s) > 40 ? "..." : "");
    return out;
}

int cg_mtx_open(cg_mtx_t *m, const char *path, char *err, size_t errlen)
{
    memset(m, 0, sizeof(*m));
    m->path = path;
    m->f = fopen(path, "r");
    if (!m->f) {
        snprintf(err, errlen, "cannot open %s", path);
        return -1;
    }
    char line[1024], obj[64] = "", fmt[64] = "", field[64] = "", sym[64] = "", show[64];
    if (!mtx_line(m, line, sizeof line) ||
        sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) != 4 ||
        strcasecmp(obj, "matrix")) {
        snprintf(err, errlen,
                 "%s: not a Matrix Market matrix (the first line must be "
                 "'%%%%MatrixMarket matrix coordinate FIELD SYMMETRY')",
                 path);
        goto bad;
    }
    if (strcasecmp(fmt, "coordinate")) {
        snprintf(err, errlen, "%s: format '%s' not supported (coordinate only)", path, fmt);
        goto bad;
    }
    m->pattern = !strcasecmp(field, "pattern");
    m->symmetric = !strcasecmp(sym, "symmetric");
    if (!m->pattern && strcasecmp(field, "real") && strcasecmp(field, "integer")) {
        snprintf(err, errlen, "%s: field '%s' not supported (real, integer, pattern)", path,
                 field);
        goto bad;
    }
    if (!m->symmetric && strcasecmp(sym, "general")) {
        snprintf(err, errlen, "%s: symmetry '%s' not supported (general, symmetric)", path, sym);
        goto bad;
    }
    char *s = NULL;
    while (mtx_line(m, line, sizeof line)) {
        s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (*s != '%' && *s != '\0')
            break;
        s = NULL;
    }
    long long nr, nc, nnz;
    char extra;
    if (!s) {
        snprintf(err, errlen, "%s: no size line (ROWS COLUMNS ENTRIES) after the header", path);
        goto bad;
    }
    if (sscanf(s, "%lld %lld %lld %c", &nr, &nc, &nnz, &extra) != 3) {
        snprintf(err, errlen, "%s: line %lld: bad size line '%s' (want ROWS COLUMNS ENTRIES)",
                 path, m->line, mtx_show(s, show, sizeof show));
        goto bad;
    }
    if (nr <= 0 || nc <= 0) {
        snprintf(err, errlen, "%s: the size line says %lld x %lld: rows and columns must be >= 1",
                 path, nr, nc);
        goto bad;
    }
    if (nr != nc) {
        snprintf(err, errlen, "%s: the matrix must be square (the size line says %lld x %lld)",
                 path, nr, nc);
        goto bad;
    }
    if (nnz < 0) {
        snprintf(err, errlen,
                 "%s: the number of entries must be >= 0 (the size line says %lld)", path, nnz);
        goto bad;
    }
    if (nr > CG_MAX_ROWS) {
        snprintf(err, errlen,
                 "%s: too large: %lld rows, at most %lld (local indices are 32-bit integers)",
                 path, nr, CG_MAX_ROWS);
        goto bad;
    }
    /* at most n*n entries (a symmetric file stores one triangle) */
    long long most = nr > 3037000499LL ? -1 : m->symmetric ? nr * (nr + 1) / 2 : nr * nr;
    if (most >= 0 && nnz > most) {
        snprintf(err, errlen, "%s: %lld entries declared, more than a %s %lld x %lld matrix holds",
                 path, nnz, m->symmetric ? "symmetric" : "general", nr, nr);
        goto bad;
    }
    m->n = nr;
    m->nnz = nnz;
    return 0;
bad:
    cg_mtx_close(m);
    return -1;
}

int cg_mtx_entry(cg_mtx_t *m, long long k, int64_t *i, int64_t *j, double *v, char *err,
                 size_t errlen)
{
    char line[1024], show[64], extra;
    long long r, c;
    double x = 1.0;
    if (!mtx_line(m, line, sizeof line)) {
        snprintf(err, errlen, "%s: the file ends after %lld of the %lld entries (truncated?)",
                 m->path, k, m->nnz);
        return -1;
    }
    int want = m->pattern ? 2 : 3;
    int got = m->pattern ? sscanf(line, "%lld %lld %c", &r, &c, &extra)
                         : sscanf(line, "%lld %lld %lf %c", &r, &c, &x, &extra);
    if (got != want) {
        snprintf(err, errlen, "%s: line %lld: bad entry '%s' (want ROW COLUMN%s)", m->path,
                 m->line, mtx_show(line, show, sizeof show), m->pattern ? "" : " VALUE");
        return -1;
    }
    if (r < 1 || r > m->n || c < 1 || c > m->n) {
        snprintf(err, errlen, "%s: line %lld: entry (%lld, %lld) is outside the %lld x %lld matrix",
                 m->path, m->line, r, c, m->n, m->n);
        return -1;
    }
    if (!isfinite(x)) {
        snprintf(err, errlen, "%s: line %lld: entry (%lld, %lld) is %s (NaN and Inf are not allowed)",
                 m->path, m->line, r, c, isnan(x) ? "NaN" : x > 0 ? "+Inf" : "-Inf");
        return -1;
    }
    *i = r - 1;
    *j = c - 1;
    *v = x;
    return 0;
}

void cg_mtx_close(cg_mtx_t *m)
{
    if (m->f)
        fclose(m->f);
    m->f = NULL;
}

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
    cg_mtx_t m;
    if (cg_mtx_open(&m, path, err, errlen))
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
        if (cg_mtx_entry(&m, k, &i, &j, &v, err, errlen))
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
    cg_mtx_close(&m);
    return rc;
}
