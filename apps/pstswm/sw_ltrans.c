/*
 * sw_ltrans.c - the Legendre transforms: synthesis (spectral -> Fourier) and
 * analysis by Gauss quadrature (Fourier -> spectral), for the wavenumbers of
 * this rank, every field of a step in one pass over the tables.
 *
 * Hemispheric symmetry (as PSTSWM and the NCAR model do it): the Gaussian
 * latitudes come in pairs j, j' = nlat - 1 - j with mu_j' = -mu_j, and
 * P_n^m is even in mu when n - m is even, odd when it is odd (H_n^m the
 * other way round). The tables hold the northern half (sw_grid.c).
 *
 *   synthesis: X_m(mu_j) = E_j + O_j, X_m(mu_j') = E_j - O_j, with E (O) the
 *     sum over the even (odd) n - m terms at the northern latitude j;
 *   analysis: X_n^m = sum_{j north} w_j P_n^m(mu_j) (X_m(mu_j) +- X_m(mu_j')),
 *     + for n - m even, - for odd (the terms with H: the other sign).
 *
 * Half the multiply-adds and half the table of a full-latitude sum. While a
 * column is summed, E sits at the northern index j and O at the southern
 * index j' of the same output array (synthesis), and the folded sums the
 * same way (analysis: the input array is overwritten), so no work space.
 *
 * The tables are read once per transform: for each n, every field uses the
 * row P_n (and H_n) while it is in the L1 cache. Each output is a sum in a
 * fixed order (n ascending per parity; j ascending), computed on the rank
 * that owns the wavenumber: the same bits for any number of ranks.
 */
#include "pstswm.h"

#include <string.h>

/*
 * A complex number as a vector of two doubles (GCC/Clang vector extension):
 * the real and the imaginary part are computed side by side, each exactly
 * as the scalar code would (no reassociation), in half the instructions.
 * aligned(8): double complex arrays need only 8-byte alignment.
 */
typedef double v2d __attribute__((vector_size(16), aligned(8)));

/* the column's northern (x[j]) or southern (x[nl - 1 - j]) half, j < nl / 2 */
static inline v2d *half(double complex *col, int nl, int south)
{
    return (v2d *)(south ? col + nl - 1 : col);
}

/* d[j] += c p[j] (north, step 1) or d[-j] (south, step -1) */
static inline void half_axpy(v2d *restrict d, int step, v2d c, const double *restrict p, int nh)
{
    for (int j = 0; j < nh; j++)
        d[step * j] += c * p[j];
}

static inline void col_axpy(double complex *col, int nl, int south, double complex z,
                            const double *p, int nh)
{
    v2d c = {creal(z), cimag(z)};
    if (south)
        half_axpy(half(col, nl, 1), -1, c, p, nh);
    else
        half_axpy(half(col, nl, 0), 1, c, p, nh);
}

/* E at j, O at j' -> the values at j and j' */
static void col_unfold(double complex *col, int nl)
{
    for (int j = 0; j < nl / 2; j++) {
        double complex e = col[j], o = col[nl - 1 - j];
        col[j] = e + o;
        col[nl - 1 - j] = e - o;
    }
}

/* values at j and j' -> w_j (X_j + X_j') at j, w_j (X_j - X_j') at j' */
static void col_fold(double complex *col, int nl, const double *w)
{
    for (int j = 0; j < nl / 2; j++) {
        double complex a = col[j], b = col[nl - 1 - j];
        col[j] = w[j] * (a + b);
        col[nl - 1 - j] = w[j] * (a - b);
    }
}

/* the column of my i-th wavenumber m: its tables P, H, its offset in the
   Fourier arrays (col) and in the spectral arrays (so) */
#define LT_COLUMN(g, i)                                                                     \
    int m = (g)->m_loc[i];                                                                  \
    const double *P = (g)->P + (g)->tab_off[i], *H = (g)->H + (g)->tab_off[i];              \
    size_t col = (size_t)(i) * (size_t)(g)->nlat, so = (size_t)(g)->spec_off[i]

void sw_synth(const sw_grid_t *g, int ns, const double complex *const *s, double complex *const *F,
              const double complex *zeta, const double complex *div, double complex *FU,
              double complex *FV)
{
    int nl = g->nlat, nh = nl / 2, M = g->M;
    for (int i = 0; i < g->nm_loc; i++) {
        LT_COLUMN(g, i);
        for (int k = 0; k < ns; k++)
            memset(F[k] + col, 0, sizeof(double complex) * (size_t)nl);
        if (zeta) {
            memset(FU + col, 0, sizeof(double complex) * (size_t)nl);
            memset(FV + col, 0, sizeof(double complex) * (size_t)nl);
        }
        for (int n = m; n <= M; n++) {
            const double *p = P + (size_t)(n - m) * nh, *h = H + (size_t)(n - m) * nh;
            int odd = (n - m) & 1;
            for (int k = 0; k < ns; k++)
                col_axpy(F[k] + col, nl, odd, s[k][so + (size_t)(n - m)], p, nh);
            if (!zeta || n == 0)
                continue; /* psi_0^0, chi_0^0 do not contribute */
            /* psi = -a^2/(n(n+1)) zeta, chi = -a^2/(n(n+1)) div;
               U = (1/a) sum (i m chi P - psi H), V = (1/a) sum (i m psi P + chi H) */
            double kk = -SW_A / (n * (n + 1.0));
            double complex psi = kk * zeta[so + (size_t)(n - m)];
            double complex chi = kk * div[so + (size_t)(n - m)];
            col_axpy(FU + col, nl, odd, I * m * chi, p, nh);
            col_axpy(FU + col, nl, !odd, -psi, h, nh);
            col_axpy(FV + col, nl, odd, I * m * psi, p, nh);
            col_axpy(FV + col, nl, !odd, chi, h, nh);
        }
        for (int k = 0; k < ns; k++)
            col_unfold(F[k] + col, nl);
        if (zeta) {
            col_unfold(FU + col, nl);
            col_unfold(FV + col, nl);
        }
    }
}

/* sum_j p[j] x[j] over the folded half: north (step 1) or south (step -1) */
static inline v2d half_dot(const v2d *restrict x, int step, const double *restrict p, int nh)
{
    v2d s = {0.0, 0.0};
    for (int j = 0; j < nh; j++)
        s += p[j] * x[step * j];
    return s;
}

static inline v2d col_dot(double complex *col, int nl, int south, const double *p, int nh)
{
    return south ? half_dot(half(col, nl, 1), -1, p, nh) : half_dot(half(col, nl, 0), 1, p, nh);
}

/*
 * The sums of a vector pair in one loop over the latitudes: o[0] = sum P A,
 * o[1] = sum H B, and when `curl`, o[2] = sum P B, o[3] = sum H A; the P
 * terms take the parity of n - m (sp: 1 north, -1 south), the H terms the
 * other (-sp).
 */
static inline void pair_sums(const v2d *restrict Ap, const v2d *restrict Ah,
                             const v2d *restrict Bp, const v2d *restrict Bh, int sp,
                             const double *restrict p, const double *restrict h, int nh, int curl,
                             v2d *o)
{
    v2d ap = {0, 0}, bh = {0, 0}, bp = {0, 0}, ah = {0, 0};
    if (curl) {
        for (int j = 0; j < nh; j++) {
            ap += p[j] * Ap[sp * j];
            bh += h[j] * Bh[-sp * j];
            bp += p[j] * Bp[sp * j];
            ah += h[j] * Ah[-sp * j];
        }
    } else {
        for (int j = 0; j < nh; j++) {
            ap += p[j] * Ap[sp * j];
            bh += h[j] * Bh[-sp * j];
        }
    }
    o[0] = ap, o[1] = bh, o[2] = bp, o[3] = ah;
}

/*
 * D(A, B)_n^m = sum_j w_j / (a (1 - mu_j^2)) (i m A_m P_n^m - B_m H_n^m)
 * (the mu-derivative integrated by parts; B vanishes at the poles), and
 * the curl D(B, -A) = sum_j ... (i m B_m P_n^m + A_m H_n^m).
 */
void sw_anal(const sw_grid_t *g, int ns, double complex *const *F, double complex *const *s,
             int nv, const sw_divcurl_t *v)
{
    int nl = g->nlat, nh = nl / 2, M = g->M;
    for (int i = 0; i < g->nm_loc; i++) {
        LT_COLUMN(g, i);
        for (int k = 0; k < ns; k++)
            col_fold(F[k] + col, nl, g->w);
        for (int k = 0; k < nv; k++) {
            col_fold(v[k].A + col, nl, g->wc);
            col_fold(v[k].B + col, nl, g->wc);
        }
        for (int n = m; n <= M; n++) {
            const double *p = P + (size_t)(n - m) * nh, *h = H + (size_t)(n - m) * nh;
            int odd = (n - m) & 1;
            size_t q = so + (size_t)(n - m);
            for (int k = 0; k < ns; k++) {
                v2d d = col_dot(F[k] + col, nl, odd, p, nh);
                s[k][q] = d[0] + I * d[1];
            }
            for (int k = 0; k < nv; k++) {
                double complex *A = v[k].A + col, *B = v[k].B + col;
                int curl = v[k].curl != NULL;
                v2d o[4];
                if (odd)
                    pair_sums(half(A, nl, 1), half(A, nl, 0), half(B, nl, 1), half(B, nl, 0), -1,
                              p, h, nh, curl, o);
                else
                    pair_sums(half(A, nl, 0), half(A, nl, 1), half(B, nl, 0), half(B, nl, 1), 1,
                              p, h, nh, curl, o);
                /* i m (x + i y) = -m y + i m x */
                v[k].div[q] = (-m * o[0][1] - o[1][0]) + I * (m * o[0][0] - o[1][1]);
                if (curl)
                    v[k].curl[q] = (-m * o[2][1] + o[3][0]) + I * (m * o[2][0] + o[3][1]);
            }
        }
    }
}
