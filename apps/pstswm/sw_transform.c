/*
 * sw_transform.c - the spectral transform: FFTs along latitudes (FFTW3) and
 * the transposes between the latitude and the wavenumber decomposition
 * (MPI_Alltoallv); the Legendre sums along meridians are in sw_ltrans.c.
 *
 * A field X(lambda, mu) = sum_m X_m(mu) e^{i m lambda} (m = -M..M, X_{-m} =
 * conj X_m) and X_m(mu) = sum_{n=m..M} X_n^m P_n^m(mu). Analysis inverts both
 * with the FFT and the Gauss quadrature X_n^m = sum_j w_j X_m(mu_j) P_n^m(mu_j).
 *
 * Bit-for-bit independence of the rank count: every sum runs in the same
 * order whatever the decomposition (a Legendre sum over all latitudes of one
 * wavenumber, in latitude order, on the rank that owns the wavenumber; an
 * FFT of one whole latitude, always through the same plan on the same
 * aligned buffers), and the transposes only move numbers.
 */
#include "pstswm.h"

#include <fftw3.h>
#include <stdlib.h>
#include <string.h>

int sw_xform_create(sw_xform_t *x, const sw_grid_t *g, int nfmax)
{
    memset(x, 0, sizeof(*x));
    x->g = g;
    x->nfmax = nfmax;
    x->comm = MPI_COMM_NULL;
    int np = g->np, M = g->M;
    x->fft_r = fftw_malloc(sizeof(double) * (size_t)g->nlon);
    x->fft_c = fftw_malloc(sizeof(fftw_complex) * (size_t)(g->nlon / 2 + 1));
    if (!x->fft_r || !x->fft_c)
        return -1;
    /* FFTW_ESTIMATE: the same plan in every process, whatever the timing */
    x->plan_r2c = fftw_plan_dft_r2c_1d(g->nlon, x->fft_r, (fftw_complex *)x->fft_c,
                                       FFTW_ESTIMATE);
    x->plan_c2r = fftw_plan_dft_c2r_1d(g->nlon, (fftw_complex *)x->fft_c, x->fft_r,
                                       FFTW_ESTIMATE);
    if (!x->plan_r2c || !x->plan_c2r)
        return -1;
    /* send: my wavenumbers at r's latitudes; receive: r's wavenumbers at mine */
    size_t sn = 0, rn = 0;
    x->scount = malloc(sizeof(int) * (size_t)np);
    x->sdispl = malloc(sizeof(int) * (size_t)np);
    x->rcount = malloc(sizeof(int) * (size_t)np);
    x->rdispl = malloc(sizeof(int) * (size_t)np);
    if (!x->scount || !x->sdispl || !x->rcount || !x->rdispl)
        return -1;
    for (int r = 0; r < np; r++) {
        sn += (size_t)g->nm_loc * (size_t)(g->lat_start[r + 1] - g->lat_start[r]);
        rn += (size_t)(g->m_start[r + 1] - g->m_start[r]) * (size_t)g->nlat_loc;
    }
    size_t per = 2 * (size_t)nfmax;
    if ((sn + rn) * per > (size_t)1 << 31)
        return -1; /* counts are ints */
    x->sbuf = malloc(sizeof(double) * (sn * per + 1));
    x->rbuf = malloc(sizeof(double) * (rn * per + 1));
    x->four = malloc(sizeof(double complex) * ((size_t)nfmax * g->nlat_loc * (M + 1) + 1));
    if (!x->sbuf || !x->rbuf || !x->four)
        return -1;
    return 0;
}

void sw_xform_free(sw_xform_t *x)
{
    if (x->plan_r2c)
        fftw_destroy_plan(x->plan_r2c);
    if (x->plan_c2r)
        fftw_destroy_plan(x->plan_c2r);
    fftw_free(x->fft_r);
    fftw_free(x->fft_c);
    free(x->sbuf);
    free(x->rbuf);
    free(x->four);
    free(x->scount);
    free(x->sdispl);
    free(x->rcount);
    free(x->rdispl);
    memset(x, 0, sizeof(*x));
}

static void xform_counts(sw_xform_t *x, int nf)
{
    const sw_grid_t *g = x->g;
    int s = 0, r = 0;
    for (int q = 0; q < g->np; q++) {
        x->sdispl[q] = s;
        x->scount[q] = 2 * nf * g->nm_loc * (g->lat_start[q + 1] - g->lat_start[q]);
        s += x->scount[q];
        x->rdispl[q] = r;
        x->rcount[q] = 2 * nf * (g->m_start[q + 1] - g->m_start[q]) * g->nlat_loc;
        r += x->rcount[q];
    }
}

/* four[f][jl][m] */
static double complex *four_at(sw_xform_t *x, int f, int jl)
{
    const sw_grid_t *g = x->g;
    return x->four + ((size_t)f * g->nlat_loc + jl) * (size_t)(g->M + 1);
}

int sw_fourier_to_grid(sw_xform_t *x, int nf, double complex *const *F, double *const *grid)
{
    const sw_grid_t *g = x->g;
    int nl = g->nlat, M = g->M, nlon = g->nlon;
    xform_counts(x, nf);
    double complex *sb = (double complex *)x->sbuf;
    for (int q = 0; q < g->np; q++) /* pack: by destination, field, m, latitude */
        for (int f = 0; f < nf; f++)
            for (int i = 0; i < g->nm_loc; i++) {
                const double complex *src = F[f] + (size_t)i * nl;
                for (int j = g->lat_start[q]; j < g->lat_start[q + 1]; j++)
                    *sb++ = src[j];
            }
    sw_prof_lap(x->prof, SW_PH_PACK);
    int rc = MPI_Alltoallv(x->sbuf, x->scount, x->sdispl, MPI_DOUBLE, x->rbuf, x->rcount,
                           x->rdispl, MPI_DOUBLE, x->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    sw_prof_lap(x->prof, SW_PH_ALLTOALL);
    const double complex *rb = (const double complex *)x->rbuf;
    for (int q = 0; q < g->np; q++)
        for (int f = 0; f < nf; f++)
            for (int i = g->m_start[q]; i < g->m_start[q + 1]; i++) {
                int m = g->m_list[i];
                for (int jl = 0; jl < g->nlat_loc; jl++)
                    four_at(x, f, jl)[m] = *rb++;
            }
    sw_prof_lap(x->prof, SW_PH_PACK);
    for (int f = 0; f < nf; f++)
        for (int jl = 0; jl < g->nlat_loc; jl++) {
            const double complex *c = four_at(x, f, jl);
            double complex *fc = x->fft_c;
            for (int m = 0; m <= M; m++)
                fc[m] = c[m];
            for (int m = M + 1; m <= nlon / 2; m++)
                fc[m] = 0.0;
            fc[0] = creal(fc[0]);
            fftw_execute(x->plan_c2r);
            memcpy(grid[f] + (size_t)jl * nlon, x->fft_r, sizeof(double) * (size_t)nlon);
        }
    sw_prof_lap(x->prof, SW_PH_FFT);
    return MPI_SUCCESS;
}

int sw_grid_to_fourier(sw_xform_t *x, int nf, double *const *grid, double complex *const *F)
{
    const sw_grid_t *g = x->g;
    int nl = g->nlat, M = g->M, nlon = g->nlon;
    double scale = 1.0 / nlon;
    for (int f = 0; f < nf; f++)
        for (int jl = 0; jl < g->nlat_loc; jl++) {
            memcpy(x->fft_r, grid[f] + (size_t)jl * nlon, sizeof(double) * (size_t)nlon);
            fftw_execute(x->plan_r2c);
            double complex *c = four_at(x, f, jl);
            for (int m = 0; m <= M; m++)
                c[m] = x->fft_c[m] * scale;
        }
    sw_prof_lap(x->prof, SW_PH_FFT);
    xform_counts(x, nf);
    /* the reverse: what I received above, I send now */
    double complex *sb = (double complex *)x->rbuf;
    for (int q = 0; q < g->np; q++)
        for (int f = 0; f < nf; f++)
            for (int i = g->m_start[q]; i < g->m_start[q + 1]; i++) {
                int m = g->m_list[i];
                for (int jl = 0; jl < g->nlat_loc; jl++)
                    *sb++ = four_at(x, f, jl)[m];
            }
    sw_prof_lap(x->prof, SW_PH_PACK);
    int rc = MPI_Alltoallv(x->rbuf, x->rcount, x->rdispl, MPI_DOUBLE, x->sbuf, x->scount,
                           x->sdispl, MPI_DOUBLE, x->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    sw_prof_lap(x->prof, SW_PH_ALLTOALL);
    const double complex *rb = (const double complex *)x->sbuf;
    for (int q = 0; q < g->np; q++)
        for (int f = 0; f < nf; f++)
            for (int i = 0; i < g->nm_loc; i++) {
                double complex *dst = F[f] + (size_t)i * nl;
                for (int j = g->lat_start[q]; j < g->lat_start[q + 1]; j++)
                    dst[j] = *rb++;
            }
    sw_prof_lap(x->prof, SW_PH_PACK);
    return MPI_SUCCESS;
}

int sw_to_spectral(sw_xform_t *x, double *grid, double complex *s, double complex *work)
{
    int rc = sw_grid_to_fourier(x, 1, &grid, &work);
    if (rc == MPI_SUCCESS)
        sw_anal(x->g, 1, &work, &s, 0, NULL);
    return rc;
}
