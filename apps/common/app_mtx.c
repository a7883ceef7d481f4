/*
 * app_mtx.c - Matrix Market reader shared by the apps. Supported: "matrix
 * coordinate real|integer|pattern general|symmetric", square. app_mtx_open
 * and app_mtx_entry parse and check the file one line at a time: an app
 * checks the whole file once on world rank 0 before it starts, then every
 * rank reads it again and keeps its own entries (a replacement process too,
 * without communication).
 */
#include "app_common.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ parsing */

static char *mtx_line(app_mtx_t *m, char *buf, size_t cap)
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

int app_mtx_open(app_mtx_t *m, const char *path, char *err, size_t errlen)
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
    if (nr > APP_MTX_MAX_ROWS) {
        snprintf(err, errlen,
                 "%s: too large: %lld rows, at most %lld (local indices are 32-bit integers)",
                 path, nr, APP_MTX_MAX_ROWS);
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
    app_mtx_close(m);
    return -1;
}

int app_mtx_entry(app_mtx_t *m, long long k, int64_t *i, int64_t *j, double *v, char *err,
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

void app_mtx_close(app_mtx_t *m)
{
    if (m->f)
        fclose(m->f);
    m->f = NULL;
}


int app_mtx_each(app_mtx_t *m, app_mtx_fn fn, void *ctx, char *err, size_t errlen)
{
    for (long long k = 0; k < m->nnz; k++) {
        int64_t i, j;
        double v;
        if (app_mtx_entry(m, k, &i, &j, &v, err, errlen))
            return -1;
        if (fn)
            fn(ctx, i, j, v);
    }
    return 0;
}

int app_mtx_end(app_mtx_t *m, char *err, size_t errlen)
{
    char line[1024];
    while (fgets(line, sizeof line, m->f)) {
        m->line++;
        if (line[strspn(line, " \t\r\n")] != '\0') {
            snprintf(err, errlen, "%s: line %lld: more entries than the %lld of the size line",
                     m->path, m->line, m->nnz);
            return -1;
        }
    }
    return 0;
}
