/*
 * sw_grid.c - the Gaussian grid, the associated Legendre functions and the
 * decomposition.
 *
 * Latitudes: the nlat roots of P_nlat(mu), by Newton's method from
 * Tricomi's estimate, and the Gauss weights 2 / ((1 - mu^2) P'_nlat(mu)^2)
 * (they sum to 2). Legendre functions normalized to unit integral of P^2 on
 * [-1, 1], by the standard stable three-term recurrence in n:
 *
 *   P_0^0 = 1/sqrt(2),  P_m^m = sqrt((2m+1)/(2m)) sqrt(1-mu^2) P_{m-1}^{m-1},
 *   P_{m+1}^m = sqrt(2m+3) mu P_m^m,
 *   P_n^m = (mu P_{n-1}^m - eps_{n-1}^m P_{n-2}^m) / eps_n^m,
 *   eps_n^m = sqrt((n^2 - m^2) / (4n^2 - 1)),
 *
 * and H_n^m = (1 - mu^2) dP_n^m/dmu = (n+1) eps_n^m P_{n-1}^m - n eps_{n+1}^m P_{n+1}^m.
 * Values below 1e-250 (high m near the poles, where the true value is below
 * any double's use) are stored as 0, so that no transform multiplies
 * subnormals.
 *
 * Hemispheric symmetry: the Gaussian latitudes come in pairs mu, -mu, and
 * P_n^m(-mu) = (-1)^(n-m) P_n^m(mu), H_n^m(-mu) = -(-1)^(n-m) H_n^m(mu), so
 * the tables hold the northern half only (nlat / 2 latitudes, n = m .. M);
 * the transforms (sw_legendre.c) fold the southern half onto it. The tables
 * are filled row by row (one n for all latitudes at once) with the
 * recurrence coefficients computed once per wavenumber: the same operations
 * on the same numbers as sw_legendre() at each point, so the same values,
 * in a fraction of the time (a replacement process builds its tables while
 * the survivors wait for it in the restore).
 *
 * Decomposition (the transpose algorithm of PSTSWM): latitudes in balanced
 * blocks for the grid-point work and the FFTs; zonal wavenumbers for the
 * Legendre transforms and the spectral update, dealt out back and forth
 * (0..P-1, P-1..0, ...) so that every rank gets short and long columns
 * (the column of m has M+1-m coefficients).
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void sw_grid_size(int M, int *nlon, int *nlat)
{
    /* the smallest 2^a 3^b 5^c >= 3M + 1 that is even and makes nlat even */
    int n = 3 * M + 1;
    for (;; n++) {
        int k = n;
        if (n % 4)
            continue;
        while (k % 2 == 0)
            k /= 2;
        while (k % 3 == 0)
            k /= 3;
        while (k % 5 == 0)
            k /= 5;
        if (k == 1)
            break;
    }
    *nlon = n;
    *nlat = n / 2;
}

/* P_n(x) (unnormalized Legendre polynomial) and its derivative */
static double legendre_pn(int n, double x, double *dp)
{
    double p0 = 1.0, p1 = x;
    for (int l = 2; l <= n; l++) {
        double p2 = ((2.0 * l - 1.0) * x * p1 - (l - 1.0) * p0) / l;
        p0 = p1;
        p1 = p2;
    }
    if (n == 1)
        p0 = 1.0;
    *dp = n * (x * p1 - p0) / (x * x - 1.0);
    return p1;
}

void sw_gauss(int n, double *mu, double *w)
{
    for (int k = 0; k < (n + 1) / 2; k++) {
        double x = cos(M_PI * (k + 0.75) / (n + 0.5)), dp;
        for (int it = 0; it < 100; it++) {
            double dx = legendre_pn(n, x, &dp) / dp;
            x -= dx;
            if (fabs(dx) < 1e-16)
                break;
        }
        legendre_pn(n, x, &dp); /* the derivative at the converged root, for the weight */
        mu[k] = x;
        mu[n - 1 - k] = -x;
        w[k] = w[n - 1 - k] = 2.0 / ((1.0 - x * x) * dp * dp);
    }
}

static double eps(int n, int m)
{
    return sqrt(((double)n * n - (double)m * m) / (4.0 * n * n - 1.0));
}

/* the factor of P_k^k = pmm_fac(k) sqrt(1 - mu^2) P_{k-1}^{k-1} */
static double pmm_fac(int k)
{
    return sqrt((2.0 * k + 1.0) / (2.0 * k));
}

void sw_legendre(int m, int nmax, double mu, double *p)
{
    double s = sqrt(1.0 - mu * mu), pmm = sqrt(0.5);
    for (int k = 1; k <= m; k++) {
        pmm *= pmm_fac(k) * s;
        if (fabs(pmm) < 1e-280)
            pmm = 0.0; /* underflows anyway further on */
    }
    p[0] = pmm;
    if (nmax > m)
        p[1] = sqrt(2.0 * m + 3.0) * mu * pmm;
    for (int n = m + 2; n <= nmax; n++)
        p[n - m] = (mu * p[n - m - 1] - eps(n - 1, m) * p[n - m - 2]) / eps(n, m);
}

/* wavenumber m -> rank: dealt 0..P-1, P-1..0, 0..P-1, ... */
static int m_rank(int m, int np)
{
    int b = m / np, r = m % np;
    return b % 2 == 0 ? r : np - 1 - r;
}

static double tiny0(double x)
{
    return fabs(x) < 1e-250 ? 0.0 : x;
}

/*
 * P and H of my wavenumbers at the northern latitudes, row by row. Rows
 * k - 1, k, k + 1 of the recurrence are kept unrounded to 0 (r0, r1, r2);
 * each value is computed by the same expression as in sw_legendre() and
 * the loop of the original point-by-point fill, so the tables are the
 * same bits. 0, or -1 (out of memory).
 */
static int grid_tables(sw_grid_t *g)
{
    int M = g->M, nh = g->nlat / 2;
    double *e = malloc(sizeof(double) * (size_t)(M + 3));
    double *f = malloc(sizeof(double) * (size_t)(M + 1));
    double *s = malloc(sizeof(double) * (size_t)nh);
    double *r = malloc(sizeof(double) * 3 * (size_t)nh);
    if (!e || !f || !s || !r) {
        free(e);
        free(f);
        free(s);
        free(r);
        return -1;
    }
    for (int j = 0; j < nh; j++)
        s[j] = sqrt(1.0 - g->mu[j] * g->mu[j]);
    for (int k = 1; k <= M; k++)
        f[k] = pmm_fac(k);
    for (int i = 0; i < g->nm_loc; i++) {
        int m = g->m_loc[i];
        double *P = g->P + g->tab_off[i], *H = g->H + g->tab_off[i];
        double *r0 = r, *r1 = r + nh, *r2 = r + 2 * nh;
        for (int n = m + 1; n <= M + 2; n++)
            e[n - m] = eps(n, m); /* e[n - m] = eps_n^m */
        double c = sqrt(2.0 * m + 3.0);
        for (int j = 0; j < nh; j++) {
            double pmm = sqrt(0.5);
            for (int k = 1; k <= m; k++) {
                pmm *= f[k] * s[j];
                if (fabs(pmm) < 1e-280)
                    pmm = 0.0;
            }
            r1[j] = pmm;                 /* n = m */
            r2[j] = c * g->mu[j] * pmm;  /* n = m + 1 */
        }
        for (int k = 0; k <= M - m; k++) {
            int n = m + k;
            if (k > 0) { /* rows: r0 = n - 1, r1 = n, r2 = n + 1 */
                double *t = r0;
                r0 = r1;
                r1 = r2;
                r2 = t;
                for (int j = 0; j < nh; j++)
                    r2[j] = (g->mu[j] * r1[j] - e[n - m] * r0[j]) / e[n + 1 - m];
            }
            double *p = P + (size_t)k * nh, *h = H + (size_t)k * nh;
            double a = -(double)n * e[n + 1 - m], b = (n + 1.0) * (k > 0 ? e[n - m] : 0.0);
            for (int j = 0; j < nh; j++) {
                double hj = a * r2[j];
                if (k > 0)
                    hj += b * r0[j];
                p[j] = tiny0(r1[j]);
                h[j] = tiny0(hj);
            }
        }
    }
    free(e);
    free(f);
    free(s);
    free(r);
    return 0;
}

int sw_grid_create(sw_grid_t *g, int M, int np, int rank, char *err, size_t errlen)
{
    memset(g, 0, sizeof(*g));
    g->M = M;
    g->np = np;
    g->rank = rank;
    sw_grid_size(M, &g->nlon, &g->nlat);
    if (np > M + 1 || np > g->nlat / 2) {
        snprintf(err, errlen,
                 "T%d has %d zonal wavenumbers and %d latitudes: at most %d computing ranks "
                 "(each needs at least one wavenumber and two latitudes), got %d",
                 M, M + 1, g->nlat, M + 1 < g->nlat / 2 ? M + 1 : g->nlat / 2, np);
        return -1;
    }
    int nl = g->nlat;
    g->mu = malloc(sizeof(double) * (size_t)nl);
    g->w = malloc(sizeof(double) * (size_t)nl);
    g->coslat = malloc(sizeof(double) * (size_t)nl);
    g->wc = malloc(sizeof(double) * (size_t)nl);
    g->lat_start = malloc(sizeof(int) * (size_t)(np + 1));
    g->m_start = calloc((size_t)np + 1, sizeof(int));
    g->m_list = malloc(sizeof(int) * (size_t)(M + 1));
    if (!g->mu || !g->w || !g->coslat || !g->wc || !g->lat_start || !g->m_start || !g->m_list)
        goto nomem;
    sw_gauss(nl, g->mu, g->w);
    for (int j = 0; j < nl; j++)
    {
        g->coslat[j] = sqrt(1.0 - g->mu[j] * g->mu[j]);
        g->wc[j] = g->w[j] / (SW_A * (1.0 - g->mu[j] * g->mu[j]));
    }
    for (int r = 0; r <= np; r++)
        g->lat_start[r] = (int)((long long)nl * r / np);
    g->lat0 = g->lat_start[rank];
    g->nlat_loc = g->lat_start[rank + 1] - g->lat0;
    /* wavenumbers grouped by rank, ascending within each */
    for (int m = 0; m <= M; m++)
        g->m_start[m_rank(m, np) + 1]++;
    for (int r = 0; r < np; r++)
        g->m_start[r + 1] += g->m_start[r];
    int *fill = calloc((size_t)np, sizeof(int));
    if (!fill)
        goto nomem;
    for (int m = 0; m <= M; m++) {
        int r = m_rank(m, np);
        g->m_list[g->m_start[r] + fill[r]++] = m;
    }
    free(fill);
    g->nm_loc = g->m_start[rank + 1] - g->m_start[rank];
    g->m_loc = g->m_list + g->m_start[rank];
    g->spec_off = malloc(sizeof(int) * (size_t)(g->nm_loc + 1));
    g->tab_off = malloc(sizeof(size_t) * (size_t)(g->nm_loc + 1));
    if (!g->spec_off || !g->tab_off)
        goto nomem;
    g->spec_off[0] = 0;
    g->tab_off[0] = 0;
    for (int i = 0; i < g->nm_loc; i++) {
        int m = g->m_loc[i];
        g->spec_off[i + 1] = g->spec_off[i] + (M + 1 - m);
        g->tab_off[i + 1] = g->tab_off[i] + (size_t)(M + 1 - m) * (size_t)(nl / 2);
    }
    g->nspec_loc = g->spec_off[g->nm_loc];
    size_t nt = g->tab_off[g->nm_loc];
    g->P = malloc(sizeof(double) * (nt + 1));
    g->H = malloc(sizeof(double) * (nt + 1));
    if (!g->P || !g->H || grid_tables(g) != 0)
        goto nomem;
    return 0;
nomem:
    snprintf(err, errlen, "out of memory for the T%d grid and Legendre tables", M);
    sw_grid_free(g);
    return -1;
}

void sw_grid_free(sw_grid_t *g)
{
    free(g->mu);
    free(g->w);
    free(g->coslat);
    free(g->wc);
    free(g->lat_start);
    free(g->m_start);
    free(g->m_list);
    free(g->spec_off);
    free(g->tab_off);
    free(g->P);
    free(g->H);
    memset(g, 0, sizeof(*g));
}
