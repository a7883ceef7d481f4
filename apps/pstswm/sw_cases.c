/*
 * sw_cases.c - Williamson et al. (1992) test cases 1, 2, 5 and 6: the
 * initial state at a point, the reference geopotential of the semi-implicit
 * scheme, and the analytic solution where one exists (cases 1 and 2).
 *
 *  1  cosine bell advected once around the globe in 12 days by a solid-body
 *     rotation whose axis is tilted by alpha (the winds stay as they are)
 *  2  steady zonal geostrophic flow (solid-body rotation tilted by alpha)
 *  5  zonal flow (u0 = 20 m/s) over an isolated conical mountain (2000 m)
 *  6  Rossby-Haurwitz wave of wavenumber 4
 *
 * Vorticity comes from the stream function: for the n = 1 solid-body flow
 * psi = -a u0 (sin(lat) cos(alpha) - cos(lon) cos(lat) sin(alpha)) and
 * zeta = -2 psi / a^2; for case 6 the wave part of psi is a harmonic of
 * degree R + 1, zeta = -(R+1)(R+2) psi_wave / a^2.
 */
#include "pstswm.h"

#include <math.h>

#define U0_12DAYS (2.0 * M_PI * SW_A / (12.0 * 86400.0))

/* sin(lat) cos(alpha) - cos(lon) cos(lat) sin(alpha) */
static double tilt(double alpha, double lam, double mu)
{
    return mu * cos(alpha) - cos(lam) * sqrt(1.0 - mu * mu) * sin(alpha);
}

/* the cosine bell of case 1 at a point (height, m) */
static double bell(double lam, double mu)
{
    double lc = 1.5 * M_PI, R = SW_A / 3.0, h0 = 1000.0;
    double th = asin(mu);
    double c = cos(th) * cos(lam - lc); /* theta_c = 0 */
    if (c > 1.0)
        c = 1.0;
    if (c < -1.0)
        c = -1.0;
    double r = SW_A * acos(c);
    return r < R ? 0.5 * h0 * (1.0 + cos(M_PI * r / R)) : 0.0;
}

/* the mountain of case 5 (surface geopotential) */
static double mountain(double lam, double mu)
{
    double hs0 = 2000.0, R = M_PI / 9.0, lc = 1.5 * M_PI, tc_ = M_PI / 6.0, th = asin(mu);
    double dl = lam - lc, dt = th - tc_;
    double r2 = dl * dl + dt * dt;
    double r = r2 < R * R ? sqrt(r2) : R;
    return SW_G * hs0 * (1.0 - r / R);
}

void sw_case_surface(int tc, double alpha, double lam, double mu, double *f, double *phis)
{
    *f = 2.0 * SW_OMEGA * tilt(alpha, lam, mu);
    *phis = tc == 5 ? mountain(lam, mu) : 0.0;
}

void sw_case_point(int tc, double alpha, double lam, double mu, sw_point_t *p)
{
    double cl = sqrt(1.0 - mu * mu);
    p->div = 0.0;
    sw_case_surface(tc, alpha, lam, mu, &p->f, &p->phis);
    if (tc == 1 || tc == 2) {
        double u0 = U0_12DAYS, s = tilt(alpha, lam, mu);
        p->zeta = 2.0 * u0 / SW_A * s;
        if (tc == 1)
            p->phi = SW_G * bell(lam, mu);
        else
            p->phi = 2.94e4 - (SW_A * SW_OMEGA * u0 + 0.5 * u0 * u0) * s * s;
    } else if (tc == 5) {
        double u0 = 20.0, h0 = 5960.0;
        p->zeta = 2.0 * u0 / SW_A * mu;
        p->phi = SW_G * h0 - (SW_A * SW_OMEGA * u0 + 0.5 * u0 * u0) * mu * mu - p->phis;
    } else { /* 6: Rossby-Haurwitz, R = 4 */
        double w = 7.848e-6, K = 7.848e-6, R = 4.0, h0 = 8000.0;
        double c2 = cl * cl, cR = pow(cl, R), c2R = cR * cR;
        double A = 0.5 * w * (2.0 * SW_OMEGA + w) * c2 +
                   0.25 * K * K * c2R * ((R + 1.0) * c2 + (2.0 * R * R - R - 2.0) -
                                         2.0 * R * R / (c2 > 0 ? c2 : 1e-300));
        double B = 2.0 * (SW_OMEGA + w) * K / ((R + 1.0) * (R + 2.0)) * cR *
                   ((R * R + 2.0 * R + 2.0) - (R + 1.0) * (R + 1.0) * c2);
        double C = 0.25 * K * K * c2R * ((R + 1.0) * c2 - (R + 2.0));
        double a2 = SW_A * SW_A;
        p->phi = SW_G * h0 + a2 * (A + B * cos(R * lam) + C * cos(2.0 * R * lam));
        p->zeta = 2.0 * w * mu - K * (R + 1.0) * (R + 2.0) * cR * mu * cos(R * lam);
    }
}

double sw_case_phibar(int tc)
{
    switch (tc) {
    case 1:
        return 0.0; /* advection: no gravity waves, nothing implicit */
    case 2:
        return 2.94e4;
    case 5:
        return SW_G * 5960.0;
    default:
        return SW_G * 8000.0;
    }
}

/* rotate the unit vector v by angle t about the unit axis k (Rodrigues) */
static void rotate(const double k[3], double t, double v[3])
{
    double c = cos(t), s = sin(t), kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    double x[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2],
                   k[0] * v[1] - k[1] * v[0]};
    for (int i = 0; i < 3; i++)
        v[i] = v[i] * c + x[i] * s + k[i] * kv * (1.0 - c);
}

int sw_case_exact_h(int tc, double alpha, double lam, double mu, double t, double *h)
{
    sw_point_t p;
    if (tc == 2) {
        sw_case_point(tc, alpha, lam, mu, &p);
        *h = (p.phi + p.phis) / SW_G;
        return 0;
    }
    if (tc != 1)
        return -1;
    /* solid-body rotation about k = (-sin a, 0, cos a) at u0 / a: the value
       at v now is the initial value at v rotated back by u0 t / a */
    double cl = sqrt(1.0 - mu * mu);
    double v[3] = {cl * cos(lam), cl * sin(lam), mu};
    double k[3] = {-sin(alpha), 0.0, cos(alpha)};
    rotate(k, -U0_12DAYS * t / SW_A, v);
    double l0 = atan2(v[1], v[0]);
    if (l0 < 0)
        l0 += 2.0 * M_PI;
    double m0 = v[2] > 1.0 ? 1.0 : v[2] < -1.0 ? -1.0 : v[2];
    *h = bell(l0, m0);
    return 0;
}
