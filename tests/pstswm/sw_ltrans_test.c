/*
 * sw_ltrans_test.c - the Legendre transforms of apps/pstswm (hemispheric
 * symmetry, north-half tables, every field in one pass) against a direct
 * reference: sums over all latitudes of P_n^m(mu) evaluated point by point
 * by sw_legendre() (at the southern latitudes too, so the symmetry is not
 * assumed), H_n^m = (1 - mu^2) dP/dmu by central differences of it; and
 * analysis(synthesis(s)) = s (Gauss quadrature is exact to degree 2 nlat - 1).
 * Every rank of several decompositions, truncations T10 .. T63.
 *
 * No MPI communication: the grid and the transforms are local.
 * Exit 0 when every check holds, 1 otherwise (the worst errors printed).
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static double cmax(const double complex *x, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, cabs(x[i]));
    return m;
}

/* the worst relative errors seen, per check */
static double e_synth, e_uv, e_round, e_divcurl;

static int check_grid(int M, int np, int rank)
{
    sw_grid_t g;
    char err[256];
    if (sw_grid_create(&g, M, np, rank, err, sizeof err) != 0) {
        fprintf(stderr, "sw_ltrans_test: T%d np %d rank %d: %s\n", M, np, rank, err);
        return -1;
    }
    int nl = g.nlat;
    size_t ns = (size_t)g.nspec_loc, nf = (size_t)g.nm_loc * nl;
    double complex *s = malloc(sizeof(double complex) * ns),
                   *z = malloc(sizeof(double complex) * ns),
                   *d = malloc(sizeof(double complex) * ns),
                   *back = malloc(sizeof(double complex) * ns),
                   *div = malloc(sizeof(double complex) * ns),
                   *curl = malloc(sizeof(double complex) * ns),
                   *F = malloc(sizeof(double complex) * nf),
                   *FU = malloc(sizeof(double complex) * nf),
                   *FV = malloc(sizeof(double complex) * nf);
    double *p = malloc(sizeof(double) * (size_t)(M + 2)),
           *pp = malloc(sizeof(double) * (size_t)(M + 2)),
           *pm = malloc(sizeof(double) * (size_t)(M + 2));
    if (!s || !z || !d || !back || !div || !curl || !F || !FU || !FV || !p || !pp || !pm) {
        fprintf(stderr, "sw_ltrans_test: out of memory\n");
        return -1;
    }
    for (size_t k = 0; k < ns; k++) {
        s[k] = urand() + I * urand();
        z[k] = urand() + I * urand();
        d[k] = urand() + I * urand();
    }
    for (int i = 0; i < g.nm_loc; i++)
        if (g.m_loc[i] == 0) { /* psi_0^0, chi_0^0 carry no wind */
            z[g.spec_off[i]] = 0;
            d[g.spec_off[i]] = 0;
        }
    const double complex *in = s;
    sw_synth(&g, 1, &in, &F, z, d, FU, FV);

    /* the reference sums, point by point over all latitudes */
    double fs = cmax(F, nf), fu = fmax(cmax(FU, nf), cmax(FV, nf));
    for (int i = 0; i < g.nm_loc; i++) {
        int m = g.m_loc[i];
        for (int j = 0; j < nl; j++) {
            double mu = g.mu[j], h = 1e-6;
            sw_legendre(m, M, mu, p);
            sw_legendre(m, M, mu + h, pp);
            sw_legendre(m, M, mu - h, pm);
            double complex rs = 0, ru = 0, rv = 0;
            for (int n = m; n <= M; n++) {
                size_t k = (size_t)g.spec_off[i] + (size_t)(n - m);
                double P = p[n - m], H = (1 - mu * mu) * (pp[n - m] - pm[n - m]) / (2 * h);
                rs += s[k] * P;
                if (n == 0)
                    continue;
                double complex psi = -SW_A / (n * (n + 1.0)) * z[k];
                double complex chi = -SW_A / (n * (n + 1.0)) * d[k];
                ru += I * m * chi * P - psi * H;
                rv += I * m * psi * P + chi * H;
            }
            size_t q = (size_t)i * nl + (size_t)j;
            e_synth = fmax(e_synth, cabs(F[q] - rs) / fs);
            e_uv = fmax(e_uv, fmax(cabs(FU[q] - ru), cabs(FV[q] - rv)) / fu);
        }
    }

    /* analysis of the synthesis: the coefficients again; the winds' divergence
       and curl: the divergence and vorticity they came from */
    double complex *out = back;
    sw_divcurl_t v = {FU, FV, div, curl};
    sw_anal(&g, 1, &F, &out, 1, &v);
    double sm = cmax(s, ns), zm = fmax(cmax(z, ns), cmax(d, ns));
    for (size_t k = 0; k < ns; k++) {
        e_round = fmax(e_round, cabs(back[k] - s[k]) / sm);
        e_divcurl = fmax(e_divcurl, fmax(cabs(div[k] - d[k]), cabs(curl[k] - z[k])) / zm);
    }
    free(s), free(z), free(d), free(back), free(div), free(curl);
    free(F), free(FU), free(FV), free(p), free(pp), free(pm);
    sw_grid_free(&g);
    return 0;
}

int main(void)
{
    static const int truncs[] = {10, 21, 42, 63};
    static const int nps[] = {1, 2, 3, 5};
    for (size_t t = 0; t < sizeof truncs / sizeof truncs[0]; t++)
        for (size_t q = 0; q < sizeof nps / sizeof nps[0]; q++)
            for (int r = 0; r < nps[q]; r++)
                if (check_grid(truncs[t], nps[q], r) != 0)
                    return 1;
    /* bounds: rounding (sums of up to 64 terms of size 1), and for H the
       central difference (truncation error ~h^2, cancellation ~1e-16/h) */
    struct { const char *what; double err, bound; } c[] = {
        {"synthesis vs point-by-point sums", e_synth, 1e-12},
        {"winds vs point-by-point sums (H by differences)", e_uv, 1e-6},
        {"analysis(synthesis(s)) - s", e_round, 1e-12},
        {"div, curl of the winds - divergence, vorticity", e_divcurl, 1e-12},
    };
    int bad = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        int ok = c[i].err <= c[i].bound;
        printf("sw_ltrans_test: %-48s %.2e (bound %.0e) %s\n", c[i].what, c[i].err, c[i].bound,
               ok ? "ok" : "FAILED");
        bad |= !ok;
    }
    return bad;
}
