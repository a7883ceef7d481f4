/*
 * sw_step.c - the model: creation, initial state, one time step.
 *
 * Prognostic variables (spectral): relative vorticity zeta, divergence
 * delta, and phi' = phi - phibar, phi the geopotential of the fluid depth.
 * With U = u cos(lat), V = v cos(lat), eta = zeta + f, the tendencies are
 *
 *   d zeta/dt = -D(U eta, V eta)
 *   d delta/dt = D(V eta, -U eta) - lap(E + phis) - lap(phi)
 *   d phi'/dt = -D(U phi', V phi') - phibar delta
 *   E = (U^2 + V^2) / (2 (1 - mu^2))
 *
 * (D as in sw_transform.c). The linear gravity-wave terms (last in each of
 * the last two lines) are centred over t - dt and t + dt, everything else
 * is leapfrog at t: for each coefficient, with L = n(n+1)/a^2 (lap = -L),
 *
 *   Pd = d(t-dt) + 2dt (Nd + L phi(t-dt)/2)
 *   Pp = p(t-dt) + 2dt (Np - phibar d(t-dt)/2)
 *   p(t+dt) = (Pp - dt phibar Pd) / (1 + dt^2 phibar L),  d(t+dt) = Pd + dt L p(t+dt)
 *
 * then the optional del^4 diffusion, implicit: x /= 1 + 2dt K L^2, and the
 * Robert-Asselin filter x(t) += r (x(t+dt) - 2 x(t) + x(t-dt)). The first
 * step is a forward step of dt (both levels equal). Case 1 only advects
 * phi with the prescribed winds (zeta, delta kept, phibar = 0).
 */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sw_model_create(sw_model_t *m, const sw_opts_t *o, MPI_Comm comm)
{
    memset(m, 0, sizeof(*m));
    m->o = o;
    m->comm = comm;
    int np, rank;
    MPI_Comm_size(comm, &np);
    MPI_Comm_rank(comm, &rank);
    if (sw_grid_create(&m->g, o->trunc, np, rank, m->err, sizeof m->err) != 0)
        return -1;
    if (sw_xform_create(&m->x, &m->g, 5) != 0) {
        snprintf(m->err, sizeof m->err, "cannot set up the FFTs and transposes (out of memory)");
        return -1;
    }
    m->x.comm = comm;
    m->dt = o->dt > 0 ? o->dt : sw_default_dt(o->trunc);
    m->alpha = o->alpha;
    m->advect_only = o->test_case == 1;
    m->phibar = sw_case_phibar(o->test_case);
    m->nsteps = (int64_t)llround(o->days * 86400.0 / m->dt);
    m->out_steps = o->output_hours > 0 ? (int64_t)llround(o->output_hours * 3600.0 / m->dt) : 0;
    const sw_grid_t *g = &m->g;
    size_t ns = (size_t)g->nspec_loc + 1, nf = (size_t)g->nm_loc * g->nlat + 1;
    size_t ng = (size_t)g->nlat_loc * g->nlon + 1;
    m->state = calloc(2 * SW_NVAR * ns, sizeof(double complex));
    m->tend = calloc(SW_NVAR * ns, sizeof(double complex));
    m->phis_s = calloc(ns, sizeof(double complex));
    m->swork = calloc(nf, sizeof(double complex));
    m->f = calloc(ng, sizeof(double));
    m->phis = calloc(ng, sizeof(double));
    int ok = m->state && m->tend && m->phis_s && m->swork && m->f && m->phis;
    for (int i = 0; i < 5; i++) {
        m->F[i] = calloc(nf, sizeof(double complex));
        m->grid[i] = calloc(ng, sizeof(double));
        ok = ok && m->F[i] && m->grid[i];
    }
    if (!ok) {
        snprintf(m->err, sizeof m->err, "out of memory for the T%d model", o->trunc);
        return -1;
    }
    /* local grid constants: the coriolis parameter (tilted with the flow
       of cases 1 and 2), the surface (spectrally truncated in init) */
    for (int jl = 0; jl < g->nlat_loc; jl++)
        for (int i = 0; i < g->nlon; i++) {
            size_t k = (size_t)jl * g->nlon + i;
            sw_case_surface(o->test_case, m->alpha, 2.0 * M_PI * i / g->nlon,
                            g->mu[g->lat0 + jl], &m->f[k], &m->phis[k]);
        }
    return 0;
}

void sw_model_free(sw_model_t *m)
{
    sw_xform_free(&m->x);
    sw_grid_free(&m->g);
    free(m->state);
    free(m->tend);
    free(m->phis_s);
    free(m->swork);
    free(m->f);
    free(m->phis);
    for (int i = 0; i < 5; i++) {
        free(m->F[i]);
        free(m->grid[i]);
    }
    memset(m, 0, sizeof(*m));
}

void sw_model_set_comm(sw_model_t *m, MPI_Comm comm)
{
    m->comm = comm;
    m->x.comm = comm;
}

/* the spectrally truncated surface: analysis, then synthesis back to the grid */
static int model_surface(sw_model_t *m)
{
    int rc = sw_to_spectral(&m->x, m->phis, m->phis_s, m->swork);
    if (rc != MPI_SUCCESS)
        return rc;
    sw_synth_scalar(&m->g, m->phis_s, m->F[0]);
    return sw_fourier_to_grid(&m->x, 1, &m->F[0], &m->phis);
}

int sw_model_init(sw_model_t *m)
{
    const sw_grid_t *g = &m->g;
    int rc = model_surface(m);
    if (rc != MPI_SUCCESS)
        return rc;
    double *zeta = m->grid[0], *div = m->grid[1], *phi = m->grid[2];
    for (int jl = 0; jl < g->nlat_loc; jl++)
        for (int i = 0; i < g->nlon; i++) {
            sw_point_t p;
            size_t k = (size_t)jl * g->nlon + i;
            sw_case_point(m->o->test_case, m->alpha, 2.0 * M_PI * i / g->nlon,
                          g->mu[g->lat0 + jl], &p);
            zeta[k] = p.zeta;
            div[k] = p.div;
            phi[k] = p.phi - m->phibar;
        }
    for (int v = 0; v < SW_NVAR; v++) {
        if ((rc = sw_to_spectral(&m->x, m->grid[v], sw_level(m, 1, v), m->swork)) != MPI_SUCCESS)
            return rc;
        memcpy(sw_level(m, 0, v), sw_level(m, 1, v),
               sizeof(double complex) * (size_t)g->nspec_loc);
    }
    m->step = 0;
    return MPI_SUCCESS;
}

/* grid products of the nonlinear terms from zeta, phi', U, V at time t */
static void model_products(sw_model_t *m)
{
    const sw_grid_t *g = &m->g;
    double *zeta = m->grid[0], *phi = m->grid[1], *U = m->grid[2], *V = m->grid[3],
           *E = m->grid[4];
    for (int jl = 0; jl < g->nlat_loc; jl++) {
        double r = 1.0 / (2.0 * (1.0 - g->mu[g->lat0 + jl] * g->mu[g->lat0 + jl]));
        for (int i = 0; i < g->nlon; i++) {
            size_t k = (size_t)jl * g->nlon + i;
            double eta = zeta[k] + m->f[k], u = U[k], v = V[k], p = phi[k];
            E[k] = (u * u + v * v) * r + m->phis[k];
            zeta[k] = u * eta; /* U eta */
            phi[k] = v * eta;  /* V eta */
            U[k] = u * p;      /* U phi' */
            V[k] = v * p;      /* V phi' */
        }
    }
}

/* the update of one coefficient's three variables (see the top) */
static void model_update(sw_model_t *m, int first)
{
    const sw_grid_t *g = &m->g;
    double dt2 = first ? m->dt : 2.0 * m->dt, h = 0.5 * dt2, pb = m->phibar;
    double K = m->o->diffusion, r = first ? 0.0 : m->o->robert;
    for (int i = 0; i < g->nm_loc; i++) {
        int mm = g->m_loc[i];
        for (int n = mm; n <= g->M; n++) {
            size_t k = (size_t)g->spec_off[i] + (size_t)(n - mm);
            double L = n * (n + 1.0) / (SW_A * SW_A), dif = 1.0 / (1.0 + dt2 * K * L * L);
            double complex *zo = sw_level(m, 0, SW_ZETA) + k, *zc = sw_level(m, 1, SW_ZETA) + k;
            double complex *d_o = sw_level(m, 0, SW_DIV) + k, *dc = sw_level(m, 1, SW_DIV) + k;
            double complex *po = sw_level(m, 0, SW_PHI) + k, *pc = sw_level(m, 1, SW_PHI) + k;
            double complex zn, dn, pn;
            if (m->advect_only) {
                zn = *zc;
                dn = *dc;
                pn = (*po + dt2 * m->tend[2 * (size_t)g->nspec_loc + k]) * dif;
            } else {
                double complex Pd = *d_o + dt2 * m->tend[(size_t)g->nspec_loc + k] + h * L * *po;
                double complex Pp = *po + dt2 * m->tend[2 * (size_t)g->nspec_loc + k] - h * pb * *d_o;
                pn = (Pp - h * pb * Pd) / (1.0 + h * h * pb * L);
                dn = Pd + h * L * pn;
                zn = *zo + dt2 * m->tend[k];
                zn *= dif;
                dn *= dif;
                pn *= dif;
            }
            /* Robert-Asselin: the filtered x(t) becomes the old level */
            *zo = *zc + r * (zn - 2.0 * *zc + *zo);
            *d_o = *dc + r * (dn - 2.0 * *dc + *d_o);
            *po = *pc + r * (pn - 2.0 * *pc + *po);
            *zc = zn;
            *dc = dn;
            *pc = pn;
        }
    }
}

/* one step; m->x.prof is set (--profile) while it runs */
static int model_step(sw_model_t *m)
{
    const sw_grid_t *g = &m->g;
    size_t ns = (size_t)g->nspec_loc;
    int rc;
    sw_prof_t *pr = m->x.prof;
    sw_prof_begin(pr);
    /* spectral (t) -> Fourier: zeta, phi', U, V */
    const double complex *sc[2] = {sw_level(m, 1, SW_ZETA), sw_level(m, 1, SW_PHI)};
    sw_synth(g, 2, sc, m->F, sw_level(m, 1, SW_ZETA), sw_level(m, 1, SW_DIV), m->F[2], m->F[3]);
    sw_prof_lap(pr, SW_PH_SYNTH);
    if ((rc = sw_fourier_to_grid(&m->x, 4, m->F, m->grid)) != MPI_SUCCESS)
        return rc;
    model_products(m);
    sw_prof_lap(pr, SW_PH_GRID);
    if ((rc = sw_grid_to_fourier(&m->x, 5, m->grid, m->F)) != MPI_SUCCESS)
        return rc;
    /* tendencies: F = U eta, V eta, U phi', V phi', E + phis */
    double complex *tz = m->tend, *td = m->tend + ns, *tp = m->tend + 2 * ns;
    sw_divcurl_t v[2] = {{m->F[2], m->F[3], tp, NULL}, {m->F[0], m->F[1], tz, td}};
    if (m->advect_only)
        sw_anal(g, 0, NULL, NULL, 1, v);
    else
        sw_anal(g, 1, &m->F[4], &m->swork, 2, v);
    sw_prof_lap(pr, SW_PH_ANAL);
    for (int i = 0; i < g->nm_loc; i++) {
        int mm = g->m_loc[i];
        for (int n = mm; n <= g->M; n++) {
            size_t k = (size_t)g->spec_off[i] + (size_t)(n - mm);
            double L = n * (n + 1.0) / (SW_A * SW_A);
            tp[k] = -tp[k];
            if (!m->advect_only) {
                /* -D(U eta, V eta); D(V eta, -U eta) = curl; -lap(E) = L E */
                tz[k] = -tz[k];
                td[k] = td[k] + L * m->swork[k];
            }
        }
    }
    model_update(m, m->step == 0);
    sw_prof_lap(pr, SW_PH_UPDATE);
    m->step++;
    return MPI_SUCCESS;
}

int sw_model_step(sw_model_t *m)
{
    m->x.prof = m->o->profile ? &m->prof : NULL;
    int rc = model_step(m);
    m->x.prof = NULL; /* the diagnostics' transforms are not a step's */
    return rc;
}
