/*
 * sw_reference.c - height errors against a high-resolution reference that
 * the program computes itself (case 5, which has no analytic solution; as
 * Jakob-Chien, Hack and Williamson 1995 compare with a T213 run).
 *
 * At the end of the run, the same case is integrated at truncation
 * --ref-trunc R (its own default time step) on the same ranks, to the same
 * time. Both heights are compared as spectral series: the run's height
 * h = (phi' + phis + phibar) / g, truncated at M, is embedded into the
 * reference's T_R coefficients (zero above M), the difference synthesized
 * on the reference's Gaussian grid, and the normalized l1, l2, linf errors
 * integrated there with its Gauss weights.
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* every rank gets the run's spectral phi' + phis in global (m, n) order */
static int ref_gather_run(sw_model_t *m, double complex *glob)
{
    const sw_grid_t *g = &m->g;
    int np = g->np, M = g->M, rc;
    size_t ns = (size_t)g->nspec_loc;
    double complex *loc = malloc(sizeof(double complex) * (ns + 1));
    double complex *all = malloc(sizeof(double complex) * ((size_t)(M + 1) * (M + 2) / 2 + 1));
    int *cnt = calloc((size_t)np, sizeof(int)), *dis = calloc((size_t)np, sizeof(int));
    if (!loc || !all || !cnt || !dis) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    for (size_t k = 0; k < ns; k++)
        loc[k] = sw_level(m, 1, SW_PHI)[k] + m->phis_s[k];
    int off = 0;
    for (int q = 0; q < np; q++) {
        int c = 0;
        for (int i = g->m_start[q]; i < g->m_start[q + 1]; i++)
            c += M + 1 - g->m_list[i];
        cnt[q] = 2 * c;
        dis[q] = off;
        off += 2 * c;
    }
    rc = MPI_Allgatherv(loc, 2 * (int)ns, MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, m->comm);
    if (rc != MPI_SUCCESS)
        goto out;
    /* rank blocks (m ascending within each) -> m = 0..M, n = m..M */
    const double complex *p = all;
    for (int q = 0; q < np; q++)
        for (int i = g->m_start[q]; i < g->m_start[q + 1]; i++) {
            int mm = g->m_list[i];
            size_t at = (size_t)mm * (M + 1) - (size_t)mm * (mm - 1) / 2; /* sum of M+1-k, k < mm */
            memcpy(glob + at, p, sizeof(double complex) * (size_t)(M + 1 - mm));
            p += M + 1 - mm;
        }
out:
    free(loc);
    free(all);
    free(cnt);
    free(dis);
    return rc;
}

int sw_reference_errors(sw_model_t *m, int ref_trunc, sw_diag_t *d)
{
    int M = m->g.M, rc;
    size_t nglob = (size_t)(M + 1) * (M + 2) / 2;
    double complex *hc = malloc(sizeof(double complex) * (nglob + 1));
    sw_opts_t ro = *m->o;
    ro.trunc = ref_trunc;
    ro.dt = 0; /* the reference's own default step */
    ro.plot_dir = NULL;
    sw_model_t *r = calloc(1, sizeof(*r));
    if (!hc || !r) {
        free(hc);
        free(r);
        return MPI_ERR_NO_MEM;
    }
    if ((rc = ref_gather_run(m, hc)) != MPI_SUCCESS)
        goto out;
    if (sw_model_create(r, &ro, m->comm) != 0) {
        snprintf(m->err, sizeof m->err, "reference T%d: %.200s", ref_trunc, r->err);
        rc = FTITER_ERR_APP;
        goto out;
    }
    if ((rc = sw_model_init(r)) != MPI_SUCCESS)
        goto out;
    while (r->step < r->nsteps)
        if ((rc = sw_model_step(r)) != MPI_SUCCESS)
            goto out;
    /* reference height and the difference, spectral on the reference's layout */
    const sw_grid_t *g = &r->g;
    double complex *href = r->tend, *diff = r->tend + g->nspec_loc;
    for (int i = 0; i < g->nm_loc; i++) {
        int mm = g->m_loc[i];
        for (int n = mm; n <= g->M; n++) {
            size_t k = (size_t)g->spec_off[i] + (size_t)(n - mm);
            href[k] = (sw_level(r, 1, SW_PHI)[k] + r->phis_s[k]) / SW_G;
            diff[k] = href[k];
            if (mm <= M && n <= M)
                diff[k] -= hc[(size_t)mm * (M + 1) - (size_t)mm * (mm - 1) / 2 + (n - mm)] / SW_G;
        }
    }
    const double complex *sc[2] = {href, diff};
    sw_synth(g, 2, sc, r->F, NULL, NULL, NULL, NULL);
    if ((rc = sw_fourier_to_grid(&r->x, 2, r->F, r->grid)) != MPI_SUCCESS)
        goto out;
    double s[4] = {0, 0, 0, 0}, x[2] = {0, 0}, S[4], X[2];
    for (int jl = 0; jl < g->nlat_loc; jl++) {
        double w = g->w[g->lat0 + jl];
        for (int i = 0; i < g->nlon; i++) {
            size_t k = (size_t)jl * g->nlon + i;
            sw_norm_add(s, x, w, r->grid[1][k], r->grid[0][k] + r->phibar / SW_G);
        }
    }
    if ((rc = MPI_Allreduce(s, S, 4, MPI_DOUBLE, MPI_SUM, m->comm)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(x, X, 2, MPI_DOUBLE, MPI_MAX, m->comm)) != MPI_SUCCESS)
        goto out;
    sw_norm_finish(S, X, d);
out:
    sw_model_free(r);
    free(r);
    free(hc);
    return rc;
}
