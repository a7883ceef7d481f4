/*
 * sw_plot.c - PNG maps of the height field (and of its error where an
 * analytic solution exists). A minimal PNG writer: 8-bit RGB, one IDAT
 * chunk compressed by zlib, filter 0 on every row; the map is the
 * Gaussian grid (longitude 0 at the left, north up), each grid point
 * drawn as a SCALE x SCALE block, with a colour bar below.
 */
#include "pstswm.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define SW_SCALE 3
#define SW_BAR 12

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static int png_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t len)
{
    unsigned char hd[8], tl[4];
    put32(hd, len);
    memcpy(hd + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (len)
        crc = crc32(crc, data, len);
    put32(tl, (uint32_t)crc);
    return fwrite(hd, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) &&
                   fwrite(tl, 1, 4, f) == 4
               ? 0
               : -1;
}

/* blue - cyan - green - yellow - red */
static void colour(double s, unsigned char *rgb)
{
    static const double k[5][3] = {
        {0.10, 0.15, 0.60}, {0.10, 0.70, 0.90}, {0.20, 0.75, 0.30},
        {0.95, 0.90, 0.20}, {0.80, 0.10, 0.10}};
    if (!(s >= 0))
        s = 0;
    if (s > 1)
        s = 1;
    double x = s * 4;
    int i = x >= 4 ? 3 : (int)x;
    double t = x - i;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)lround(255.0 * (k[i][c] + t * (k[i + 1][c] - k[i][c])));
}

int sw_plot_png(const char *path, const double *v, int nlon, int nlat, double lo, double hi)
{
    int W = nlon * SW_SCALE, Hm = nlat * SW_SCALE, H = Hm + SW_BAR;
    size_t row = 1 + 3 * (size_t)W, raw_n = row * (size_t)H;
    unsigned char *raw = malloc(raw_n);
    uLongf zn = compressBound((uLong)raw_n);
    unsigned char *z = malloc(zn);
    if (!raw || !z) {
        free(raw);
        free(z);
        return -1;
    }
    double span = hi > lo ? hi - lo : 1.0;
    for (int y = 0; y < H; y++) {
        unsigned char *r = raw + (size_t)y * row;
        r[0] = 0;
        for (int x = 0; x < W; x++) {
            double s = y < Hm ? (v[(size_t)(y / SW_SCALE) * nlon + x / SW_SCALE] - lo) / span
                              : (double)x / (W - 1);
            if (y >= Hm && y < Hm + 2)
                r[1 + 3 * x] = r[2 + 3 * x] = r[3 + 3 * x] = 255; /* gap above the bar */
            else
                colour(s, r + 1 + 3 * x);
        }
    }
    int rc = compress2(z, &zn, raw, (uLong)raw_n, 6) == Z_OK ? 0 : -1;
    FILE *f = rc == 0 ? fopen(path, "wb") : NULL;
    if (f) {
        static const unsigned char sig[8] = {137, 'P', 'N', 'G', '\r', '\n', 26, '\n'};
        unsigned char ih[13];
        put32(ih, (uint32_t)W);
        put32(ih + 4, (uint32_t)H);
        ih[8] = 8;  /* bit depth */
        ih[9] = 2;  /* RGB */
        ih[10] = ih[11] = ih[12] = 0;
        rc = fwrite(sig, 1, 8, f) == 8 && png_chunk(f, "IHDR", ih, 13) == 0 &&
                     png_chunk(f, "IDAT", z, (uint32_t)zn) == 0 &&
                     png_chunk(f, "IEND", NULL, 0) == 0
                 ? 0
                 : -1;
        if (fclose(f) != 0)
            rc = -1;
    } else {
        rc = -1;
    }
    free(raw);
    free(z);
    return rc;
}

int sw_plot(sw_model_t *m, const char *dir)
{
    const sw_grid_t *g = &m->g;
    size_t n = (size_t)g->nlon * g->nlat;
    double *h = NULL, *e = NULL;
    int root = g->rank == 0, exact = m->o->test_case <= 2, ok = 1;
    if (root) {
        h = malloc(sizeof(double) * n);
        e = malloc(sizeof(double) * n);
        if (!h || !e) { /* the others are on their way into the gathers */
            fprintf(stderr, "pstswm: no memory for the maps (%zu bytes)\n", 2 * n * sizeof(double));
            MPI_Abort(MPI_COMM_WORLD, SW_EXIT_ERROR);
        }
    }
    sw_diag_t d;
    int rc = sw_diagnose(m, &d, exact ? 2 : 1, h, e);
    if (rc == MPI_SUCCESS && root) {
        char path[4200];
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            ok = 0;
        snprintf(path, sizeof path, "%s/h_case%d_T%d_day%07.3f.png", dir, m->o->test_case, g->M,
                 d.t_days);
        ok = ok && sw_plot_png(path, h, g->nlon, g->nlat, d.hmin, d.hmax) == 0;
        if (ok && m->o->verbose)
            printf("pstswm: plot %s (height %.1f .. %.1f m)\n", path, d.hmin, d.hmax);
        if (ok && exact) {
            double emax = 0;
            for (size_t i = 0; i < n; i++)
                emax = fmax(emax, fabs(e[i]));
            snprintf(path, sizeof path, "%s/err_case%d_T%d_day%07.3f.png", dir,
                     m->o->test_case, g->M, d.t_days);
            ok = sw_plot_png(path, e, g->nlon, g->nlat, -emax, emax) == 0;
        }
        if (!ok)
            fprintf(stderr, "pstswm: cannot write the plots in %s: %s\n", dir, strerror(errno));
    }
    free(h);
    free(e);
    return rc;
}
