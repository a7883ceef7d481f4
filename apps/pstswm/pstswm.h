/*
 * pstswm.h - a parallel spectral-transform shallow water model (docs/pstswm.md).
 *
 * The global shallow water equations on the rotating sphere in vorticity /
 * divergence form, solved by the spectral transform method with triangular
 * truncation T_M, on a Gaussian grid, semi-implicit leapfrog in time with a
 * Robert-Asselin filter; the Williamson et al. (1992) test cases 1, 2, 5, 6.
 *
 *   sw_opts.c       command line
 *   sw_grid.c       Gaussian latitudes and weights, normalized associated
 *                   Legendre functions, the decomposition (latitudes, wavenumbers)
 *   sw_transform.c  FFTs (FFTW3), the transposes (MPI_Alltoallv)
 *   sw_ltrans.c     Legendre synthesis and analysis (scalars, winds,
 *                   divergence/curl), hemispheric symmetry
 *   sw_cases.c      initial conditions and analytic solutions
 *   sw_step.c       model create/free, one time step
 *   sw_diag.c       height errors, mass, energy, the state checksum, gathers
 *   sw_restart.c    the model's restart files (write/read through a FILE *)
 *   sw_plot.c       PNG maps (own writer, zlib)
 *   sw_run.c        the two drivers: the model's own loop (file restarts), and
 *                   the same model under the iterative skeleton (in memory)
 *   sw_report.c     text and JSON report
 *   sw_prof.c       --profile: CPU and wall time per phase of a step
 *   sw_main.c       main
 */
#ifndef PSTSWM_H
#define PSTSWM_H

#include <complex.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "app_common.h"
#include "ft_iterative.h"

/* physical constants (Williamson et al. 1992) */
#define SW_A 6.37122e6       /* earth radius, m */
#define SW_OMEGA 7.292e-5    /* rotation rate, 1/s */
#define SW_G 9.80616         /* gravity, m/s^2 */

/* Exit statuses (docs/pstswm.md, "Exit status"), as cg's where they apply. */
enum {
    SW_EXIT_OK = 0,
    SW_EXIT_UNSTABLE = 1,                           /* the run blew up (NaN/Inf in the state) */
    SW_EXIT_USAGE = APP_EXIT_USAGE,                 /* bad options, a rank count that does not fit */
    SW_EXIT_UNRECOVERABLE = APP_EXIT_UNRECOVERABLE, /* more failures in a group than checksum ranks */
    SW_EXIT_ERROR = APP_EXIT_ERROR,                 /* any other fatal error */
    SW_EXIT_INPUT = 5 /* a restart file that does not fit or is damaged */
};

/* ------------------------------------------------------------------ options */

typedef struct sw_opts {
    int test_case;          /* 1, 2, 5, 6 */
    int trunc;              /* M of T_M */
    double days;
    double dt;              /* seconds (0: the default for the truncation) */
    double alpha;           /* cases 1, 2: angle of the flow against the pole */
    double robert;          /* Robert-Asselin coefficient */
    double diffusion;       /* del^4 coefficient, m^4/s (0: none) */
    double output_hours;    /* diagnostics, plots every this many hours (0: end only) */
    int64_t ckpt_interval;  /* in-memory checkpoint every K steps (0: never) */
    dckpt_code_t code;
    int m;                  /* checksum ranks per group; 0: no in-memory checkpoints */
    const char *restart_out, *restart_in; /* the model's restart files */
    int64_t restart_every;  /* also write --restart-out every K steps (with fsync) */
    int ref_trunc;          /* case 5: errors against a T_ref run at the end (0: none) */
    const char *plot_dir;
    const char *event_log;
    int json, verbose;
    int profile;            /* --profile: CPU and wall time per phase of a step */
    long delay_us;          /* sleep per step (slow runs for timed kills) */
} sw_opts_t;

/* 0 ok, 1 help printed, -1 error (message printed when `loud`) */
int sw_opts_parse(int argc, char **argv, sw_opts_t *o, int loud);
/* the default time step of a truncation, seconds */
double sw_default_dt(int trunc);

/* ------------------------------------------------------------------ grid */

typedef struct sw_grid {
    int M;              /* truncation */
    int nlon, nlat;
    double *mu, *w;     /* sin(latitude) and Gauss weights, north to south */
    double *coslat;     /* sqrt(1 - mu^2) */
    double *wc;         /* w / (a (1 - mu^2)): the divergence quadrature */
    /* decomposition over `np` ranks (the same on every rank) */
    int np, rank;
    int *lat_start;     /* np + 1: latitudes [lat_start[r], lat_start[r+1]) of rank r */
    int *m_start;       /* np + 1: rank r has m_list[m_start[r] .. m_start[r+1]) */
    int *m_list;        /* wavenumbers, grouped by rank, ascending within a rank */
    /* mine */
    int lat0, nlat_loc;
    int nm_loc;
    const int *m_loc;   /* my wavenumbers (into m_list) */
    int *spec_off;      /* nm_loc + 1: coefficient offsets (n = m .. M) */
    int nspec_loc;      /* my spectral coefficients */
    size_t *tab_off;    /* nm_loc + 1: Legendre table offsets (n = m .. M, the
                           nlat / 2 northern latitudes: hemispheric symmetry) */
    double *P, *H;      /* P_n^m(mu_j) and H_n^m = (1 - mu^2) dP_n^m/dmu */
} sw_grid_t;

/* The grid of truncation M (nlon >= 3M + 1, nlat = nlon / 2). */
void sw_grid_size(int M, int *nlon, int *nlat);
/* Local: the grid, decomposition and Legendre tables of rank `rank` of `np`.
   0, or -1 with a message (out of memory, np that does not fit). */
int sw_grid_create(sw_grid_t *g, int M, int np, int rank, char *err, size_t errlen);
void sw_grid_free(sw_grid_t *g);
/* Gauss-Legendre nodes (descending) and weights on [-1, 1] (Newton). */
void sw_gauss(int n, double *mu, double *w);
/* Normalized (integral of P^2 over [-1,1] = 1) P_n^m(mu) for n = m .. nmax. */
void sw_legendre(int m, int nmax, double mu, double *p);

/* ------------------------------------------------------------------ profile */

/* the phases of a step (--profile, sw_prof.c) */
enum {
    SW_PH_SYNTH = 0,  /* Legendre synthesis */
    SW_PH_PACK,       /* transposes: packing and unpacking */
    SW_PH_ALLTOALL,   /* transposes: MPI_Alltoallv (includes waiting for the others) */
    SW_PH_FFT,        /* FFTs of the latitudes */
    SW_PH_GRID,       /* nonlinear products on the grid */
    SW_PH_ANAL,       /* Legendre analysis */
    SW_PH_UPDATE,     /* tendencies, semi-implicit update, filter */
    SW_NPHASE
};
typedef struct sw_prof {
    double cpu[SW_NPHASE], wall[SW_NPHASE]; /* seconds, summed over the steps */
    double c0, w0;                          /* the last lap */
} sw_prof_t;
typedef struct sw_prof_sum {
    int valid;
    double cpu_max[SW_NPHASE], cpu_min[SW_NPHASE];   /* ms per step, over the ranks */
    double wall_max[SW_NPHASE], wall_min[SW_NPHASE];
} sw_prof_sum_t;
/* Start a step's laps / charge the time since the last lap to `phase`
   (both do nothing when p is NULL: no --profile). */
void sw_prof_begin(sw_prof_t *p);
void sw_prof_lap(sw_prof_t *p, int phase);
/* Collective: per step, largest and smallest over the ranks of comm. */
int sw_prof_reduce(const sw_prof_t *p, int64_t steps, MPI_Comm comm, sw_prof_sum_t *s);
/* The table (text), or the "profile" key and a trailing ", " (json). */
void sw_prof_report(FILE *out, const sw_prof_sum_t *s, int json);

/* ------------------------------------------------------------------ transforms */

typedef struct sw_xform {
    sw_prof_t *prof;        /* NULL: no --profile */
    const sw_grid_t *g;
    MPI_Comm comm;
    int nfmax;              /* most fields transposed at once */
    double *fft_r;          /* nlon reals (FFTW-aligned) */
    double complex *fft_c;  /* nlon / 2 + 1 */
    void *plan_r2c, *plan_c2r;
    double *sbuf, *rbuf;    /* transposes */
    int *scount, *sdispl, *rcount, *rdispl;
    double complex *four;   /* grid side: [field][local latitude][m = 0 .. M] */
} sw_xform_t;

int sw_xform_create(sw_xform_t *x, const sw_grid_t *g, int nfmax);
void sw_xform_free(sw_xform_t *x);
/* Fourier (m side: F[f] = [local m][latitude 0 .. nlat-1]) -> grid (mine:
   grid[f] = [local latitude][longitude]). Collective. MPI error code. */
int sw_fourier_to_grid(sw_xform_t *x, int nf, double complex *const *F, double *const *grid);
/* grid -> Fourier (the reverse). Collective. */
int sw_grid_to_fourier(sw_xform_t *x, int nf, double *const *grid, double complex *const *F);
/* Legendre transforms (sw_ltrans.c), hemispheric symmetry, every field in
   one pass over the tables. Synthesis: ns scalars F[k][ml][j] = sum_n
   s[k]_n P_n^m(mu_j), and when zeta is not NULL the winds U = u cos(lat),
   V = v cos(lat) from vorticity and divergence into FU, FV. */
void sw_synth(const sw_grid_t *g, int ns, const double complex *const *s, double complex *const *F,
              const double complex *zeta, const double complex *div, double complex *FU,
              double complex *FV);
/* A vector pair of an analysis: div = D(A, B), curl = D(B, -A) (NULL: not
   wanted), D(A, B) = 1/(a(1-mu^2)) dA/dlambda + 1/a dB/dmu, for Fourier
   fields A = a cos(lat), B = b cos(lat) of the vector (a, b). */
typedef struct sw_divcurl {
    double complex *A, *B;
    double complex *div, *curl;
} sw_divcurl_t;
/* Analysis: ns scalars s[k]_n = sum_j w_j F[k]_j P_n(mu_j), and nv vector
   pairs. The Fourier inputs (F, and A, B of v) are overwritten (work space). */
void sw_anal(const sw_grid_t *g, int ns, double complex *const *F, double complex *const *s,
             int nv, const sw_divcurl_t *v);
static inline void sw_synth_scalar(const sw_grid_t *g, const double complex *s, double complex *F)
{
    sw_synth(g, 1, &s, &F, NULL, NULL, NULL, NULL);
}
/* Grid (mine) -> spectral (mine) of one scalar, collective (initial state). */
int sw_to_spectral(sw_xform_t *x, double *grid, double complex *s, double complex *work);

/* ------------------------------------------------------------------ the model */

/* one prognostic time level: vorticity, divergence, geopotential deviation */
enum { SW_ZETA = 0, SW_DIV = 1, SW_PHI = 2, SW_NVAR = 3 };

typedef struct sw_model {
    const sw_opts_t *o;
    sw_grid_t g;
    sw_xform_t x;
    MPI_Comm comm;
    double dt, phibar, alpha;
    int advect_only;        /* case 1: the winds are prescribed */
    int64_t nsteps, out_steps, step;
    int64_t step0;          /* the step this run started from (0, or a restart file's) */
    /* the prognostic state: state[level][var][coefficient], level 0 = t - dt,
       level 1 = t; one contiguous block (restart files, checksum) */
    double complex *state;
    double complex *phis_s; /* surface geopotential (spectral, mine) */
    /* local grid: coriolis parameter, surface geopotential */
    double *f, *phis;
    /* work: Fourier (m side) and grid fields */
    double complex *F[5];
    double *grid[5];
    double complex *tend;   /* SW_NVAR x nspec_loc tendencies */
    double complex *swork;
    /* diagnostics at the start (for relative changes) */
    double mass0, energy0;
    sw_prof_t prof;         /* --profile */
    char err[256];
} sw_model_t;

/* Local (no communication): allocate, tables, plans. 0 or -1 with m->err. */
int sw_model_create(sw_model_t *m, const sw_opts_t *o, MPI_Comm comm);
void sw_model_free(sw_model_t *m);
/* Collective: the test case's initial state (step 0). */
int sw_model_init(sw_model_t *m);
/* Collective: one semi-implicit leapfrog step, step -> step + 1. */
int sw_model_step(sw_model_t *m);
/* The communicator changed (after a recovery). */
void sw_model_set_comm(sw_model_t *m, MPI_Comm comm);
static inline size_t sw_state_count(const sw_model_t *m)
{
    return 2 * SW_NVAR * (size_t)m->g.nspec_loc;
}
static inline double complex *sw_level(sw_model_t *m, int level, int var)
{
    return m->state + ((size_t)level * SW_NVAR + var) * (size_t)m->g.nspec_loc;
}

/* ------------------------------------------------------------------ cases */

/* at longitude lam, latitude with sin = mu, time t (seconds): */
typedef struct sw_point {
    double zeta, div, phi; /* relative vorticity, divergence, geopotential of the fluid depth */
    double phis;           /* surface geopotential */
    double f;              /* coriolis parameter */
} sw_point_t;
void sw_case_point(int tc, double alpha, double lam, double mu, sw_point_t *p);
/* only the coriolis parameter and the surface geopotential (cheaper: a
   replacement process computes them while the survivors wait) */
void sw_case_surface(int tc, double alpha, double lam, double mu, double *f, double *phis);
/* the reference geopotential of the semi-implicit scheme */
double sw_case_phibar(int tc);
/* Analytic height of the free surface (m) at time t: cases 1, 2. 0 / -1 (none). */
int sw_case_exact_h(int tc, double alpha, double lam, double mu, double t, double *h);

/* ------------------------------------------------------------------ diagnostics */

typedef struct sw_diag {
    double t_days;
    double l1, l2, linf;   /* NaN where no reference exists */
    double mass, energy;
    double hmin, hmax;
    int finite;            /* 0: NaN/Inf in the height field */
} sw_diag_t;

/* Collective: diagnostics of the current level; `maps` 1: also gather the
   height field into hglob, 2: and the error into eglob (nlon*nlat each,
   significant on rank 0 of the model's communicator only). */
int sw_diagnose(sw_model_t *m, sw_diag_t *d, int maps, double *hglob, double *eglob);
/* Normalized error norms: sums s[0..3] (w|e|, w|hT|, w e^2, w hT^2) and
   maxima x[0..1] (|e|, |hT|) accumulated point by point, then (reduced over
   the ranks) turned into l1, l2, linf. */
void sw_norm_add(double *s, double *x, double w, double e, double hT);
void sw_norm_finish(const double *S, const double *X, sw_diag_t *d);
/* Collective: l1, l2, linf of the current height against a run of the same
   case at truncation ref_trunc to the same time (sw_reference.c). */
int sw_reference_errors(sw_model_t *m, int ref_trunc, sw_diag_t *d);
/* Collective: FNV-1a 64 of both time levels in global (m, n) order, on rank 0. */
int sw_state_checksum(sw_model_t *m, uint64_t *h);

/* ------------------------------------------------------------------ restart */

/* Bytes of this rank's restart record. */
size_t sw_restart_size(const sw_model_t *m);
/* Write this rank's restart record (both time levels and the step). 0/-1. */
int sw_restart_write(const sw_model_t *m, FILE *f);
/* Read it back: checks that it belongs to this run and rank; 0 or -1 with m->err. */
int sw_restart_read(sw_model_t *m, FILE *f);
/* The files FILE.rR: write (temporary file, fsync, rename) / read. */
int sw_restart_write_file(const sw_model_t *m, const char *base);
int sw_restart_read_file(sw_model_t *m, const char *base);

/* ------------------------------------------------------------------ plots */

/* RGB PNG of a field (nlon x nlat, north up), colours from lo to hi. 0/-1. */
int sw_plot_png(const char *path, const double *v, int nlon, int nlat, double lo, double hi);
/* Collective: maps of the current height (and its error, cases 1, 2) in dir. */
int sw_plot(sw_model_t *m, const char *dir);

/* ------------------------------------------------------------------ drivers, report */

typedef struct sw_result {
    int ft;                 /* run under the skeleton */
    int64_t steps, steps_run;
    double run_s, step_s;   /* wall time, time per step (slowest computing rank) */
    double ckpt_s;          /* in-memory checkpoints (slowest computing rank) */
    double file_s;          /* --restart-every writes (slowest rank) */
    int64_t file_writes;
    int unstable;
    uint64_t checksum;
    sw_diag_t d;
    double mass_rel, energy_rel;
    const ftiter_t *sk;     /* NULL without the skeleton */
    int nlon, nlat;
    double dt;
    int64_t nsteps;
    size_t restart_bytes;   /* one rank's restart record */
    sw_prof_sum_t prof;     /* --profile */
} sw_result_t;

/* The model's own loop on MPI_COMM_WORLD (no in-memory checkpoints). */
int sw_run_plain(const sw_opts_t *o, sw_result_t *r);
/* The same model under the iterative skeleton; returns main's exit status. */
int sw_run_ft(const sw_opts_t *o, int init_rc, sw_result_t *r);
/* World rank 0: the report on `out`. */
void sw_report(FILE *out, const sw_opts_t *o, const sw_result_t *r, int nprocs);
/* Every output interval, rank 0, text mode: one line. */
void sw_report_line(FILE *out, const sw_diag_t *d, double mass0, double energy0);

#endif /* PSTSWM_H */
