/*
 * sw_diag.c - diagnostics of the current state: normalized height errors
 * against the analytic solution (Williamson et al. 1992, eqs. 82-84)
 *
 *   l1 = I(|h - hT|) / I(|hT|),  l2 = sqrt(I((h - hT)^2) / I(hT^2)),
 *   linf = max |h - hT| / max |hT|,  I = Gauss quadrature over the sphere,
 *
 * mass (integral of the fluid depth geopotential) and total energy
 * (integral of phi (u^2 + v^2)/2 + phi^2/2 + phi phis, times a constant
 * that cancels in relative changes); and the state checksum.
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SW_TAG_SUM 7203

/* rank 0 of comm gets every rank's rows of a grid field, north to south */
static int gather_grid(sw_model_t *m, const double *loc, double *glob)
{
    const sw_grid_t *g = &m->g;
    int *cnt = NULL, *dis = NULL, rc;
    if (g->rank == 0) {
        cnt = malloc(sizeof(int) * (size_t)g->np);
        dis = malloc(sizeof(int) * (size_t)g->np);
        if (!cnt || !dis) {
            free(cnt);
            free(dis);
            return MPI_ERR_NO_MEM;
        }
        for (int r = 0; r < g->np; r++) {
            cnt[r] = (g->lat_start[r + 1] - g->lat_start[r]) * g->nlon;
            dis[r] = g->lat_start[r] * g->nlon;
        }
    }
    rc = MPI_Gatherv(loc, g->nlat_loc * g->nlon, MPI_DOUBLE, glob, cnt, dis, MPI_DOUBLE, 0,
                     m->comm);
    free(cnt);
    free(dis);
    return rc;
}

void sw_norm_add(double *s, double *x, double w, double e, double hT)
{
    s[0] += w * fabs(e);
    s[1] += w * fabs(hT);
    s[2] += w * e * e;
    s[3] += w * hT * hT;
    x[0] = fmax(x[0], fabs(e));
    x[1] = fmax(x[1], fabs(hT));
}

void sw_norm_finish(const double *S, const double *X, sw_diag_t *d)
{
    d->l1 = S[0] / S[1];
    d->l2 = sqrt(S[2] / S[3]);
    d->linf = X[0] / X[1];
}

int sw_diagnose(sw_model_t *m, sw_diag_t *d, int maps, double *hglob, double *eglob)
{
    const sw_grid_t *g = &m->g;
    int rc, tc = m->o->test_case;
    double t = m->step * m->dt;
    const double complex *phi_s = sw_level(m, 1, SW_PHI);
    sw_synth(g, 1, &phi_s, m->F, sw_level(m, 1, SW_ZETA), sw_level(m, 1, SW_DIV), m->F[1],
             m->F[2]);
    if ((rc = sw_fourier_to_grid(&m->x, 3, m->F, m->grid)) != MPI_SUCCESS)
        return rc;
    double *phi = m->grid[0], *U = m->grid[1], *V = m->grid[2], *h = m->grid[3],
           *err = m->grid[4];
    /* sums: |e|, |hT|, e^2, hT^2, mass, energy; maxima: |e|, |hT|, h, -h, bad */
    double s[6] = {0, 0, 0, 0, 0, 0}, x[5] = {0, 0, -INFINITY, -INFINITY, 0};
    int exact = 1;
    for (int jl = 0; jl < g->nlat_loc; jl++) {
        int j = g->lat0 + jl;
        double mu = g->mu[j], w = g->w[j], r = 1.0 / (2.0 * (1.0 - mu * mu));
        for (int i = 0; i < g->nlon; i++) {
            size_t k = (size_t)jl * g->nlon + i;
            double p = phi[k] + m->phibar, ps = m->phis[k];
            double hk = (p + ps) / SW_G, hT;
            h[k] = hk;
            if (!isfinite(hk))
                x[4] = 1.0;
            x[2] = fmax(x[2], hk);
            x[3] = fmax(x[3], -hk);
            s[4] += w * p;
            s[5] += w * (p * (U[k] * U[k] + V[k] * V[k]) * r + 0.5 * p * p + p * ps);
            if (sw_case_exact_h(tc, m->alpha, 2.0 * M_PI * i / g->nlon, mu, t, &hT) != 0) {
                exact = 0;
                err[k] = 0.0;
                continue;
            }
            err[k] = hk - hT;
            sw_norm_add(s, x, w, hk - hT, hT);
        }
    }
    double S[6], X[5];
    if ((rc = MPI_Allreduce(s, S, 6, MPI_DOUBLE, MPI_SUM, m->comm)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(x, X, 5, MPI_DOUBLE, MPI_MAX, m->comm)) != MPI_SUCCESS)
        return rc;
    d->t_days = t / 86400.0;
    d->mass = S[4];
    d->energy = S[5];
    d->hmax = X[2];
    d->hmin = -X[3];
    d->finite = X[4] == 0.0 && isfinite(S[4]) && isfinite(S[5]);
    if (exact && S[1] > 0) {
        sw_norm_finish(S, X, d);
    } else {
        d->l1 = d->l2 = d->linf = NAN;
    }
    if (maps >= 1 && (rc = gather_grid(m, h, hglob)) != MPI_SUCCESS)
        return rc;
    if (maps >= 2 && (rc = gather_grid(m, err, eglob)) != MPI_SUCCESS)
        return rc;
    return MPI_SUCCESS;
}

/*
 * Rank 0 gathers both time levels of every rank and hashes them in global
 * order: level, variable, m = 0..M, n = m..M, (re, im) as stored. The same
 * state gives the same hash whatever the rank count.
 */
int sw_state_checksum(sw_model_t *m, uint64_t *hash)
{
    const sw_grid_t *g = &m->g;
    int np = g->np, rc, cnt_loc = 2 * (int)sw_state_count(m);
    int *cnt = NULL, *dis = NULL;
    double *all = NULL;
    if (g->rank == 0) {
        cnt = malloc(sizeof(int) * (size_t)np);
        dis = malloc(sizeof(int) * (size_t)np);
    }
    if ((rc = MPI_Gather(&cnt_loc, 1, MPI_INT, cnt, 1, MPI_INT, 0, m->comm)) != MPI_SUCCESS)
        goto out;
    if (g->rank == 0) {
        size_t tot = 0;
        for (int r = 0; r < np; r++) {
            dis[r] = (int)tot;
            tot += (size_t)cnt[r];
        }
        all = malloc(sizeof(double) * (tot + 1));
    }
    if ((rc = MPI_Gatherv(m->state, cnt_loc, MPI_DOUBLE, all, cnt, dis, MPI_DOUBLE, 0,
                          m->comm)) != MPI_SUCCESS)
        goto out;
    if (g->rank == 0) {
        int M = g->M;
        /* where column m starts inside its owner's block, per level and variable */
        int *owner = malloc(sizeof(int) * (size_t)(M + 1));
        int *off = malloc(sizeof(int) * (size_t)(M + 1));
        int *nsp = calloc((size_t)np, sizeof(int));
        for (int q = 0; q < np; q++)
            for (int i = g->m_start[q]; i < g->m_start[q + 1]; i++) {
                int mm = g->m_list[i];
                owner[mm] = q;
                off[mm] = nsp[q];
                nsp[q] += M + 1 - mm;
            }
        uint64_t h = APP_FNV1A_INIT;
        for (int lv = 0; lv < 2; lv++)
            for (int v = 0; v < SW_NVAR; v++)
                for (int mm = 0; mm <= M; mm++) {
                    int q = owner[mm];
                    size_t at = (size_t)dis[q] +
                                2 * (((size_t)lv * SW_NVAR + v) * nsp[q] + (size_t)off[mm]);
                    h = app_fnv1a(h, all + at, sizeof(double) * 2 * (size_t)(M + 1 - mm));
                }
        *hash = h;
        free(owner);
        free(off);
        free(nsp);
    }
out:
    free(cnt);
    free(dis);
    free(all);
    return rc;
}
