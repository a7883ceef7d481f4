/*
 * sweep: a parameter sweep on the fault-tolerant master-worker skeleton.
 *
 * For each parameter mu in [mu-min, mu-max] (N values, evenly spaced) it
 * integrates the Van der Pol oscillator
 *     x'' - mu (1 - x^2) x' + x = 0
 * with fourth-order Runge-Kutta and measures the period of its limit cycle
 * (2 pi at mu = 0, growing with mu). It prints one line per parameter,
 * "<mu> <period>", in the order results arrive: sort the output to compare
 * runs. Killing workers during a run does not change the output.
 *
 *   mpirun -np 4 --comm-mode=rebuild ./sweep --tasks 200 --task-ms 50
 *
 * Options: --tasks N (default 100), --task-ms MS (each task lasts at least
 * MS milliseconds: to stage failures in a demo; default 0), --mu-min A,
 * --mu-max B (default 0 and 4), --t-end T (integration time, default 100),
 * --depth D (tasks in flight per worker, default 2), --quiet (no progress).
 * A bad value (not a number, trailing characters, NaN or Inf, out of its
 * range, --mu-min above --mu-max) is an error: a message naming the option
 * and exit status 2, before MPI starts.
 *
 * There is no code about failures here: the skeleton handles them.
 */
#include <master_worker.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sweep_task {
    double mu, t_end;
    int task_ms;
} sweep_task_t;

typedef struct sweep {
    int64_t ntasks;
    double mu_min, mu_max, t_end;
    int task_ms;
} sweep_t;

/* ---------------------------------------------------------------- the science */

static void vdp(double mu, const double s[2], double d[2])
{
    d[0] = s[1];
    d[1] = mu * (1.0 - s[0] * s[0]) * s[1] - s[0];
}

static void rk4_step(double mu, double s[2], double h)
{
    double k1[2], k2[2], k3[2], k4[2], t[2];
    vdp(mu, s, k1);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + 0.5 * h * k1[i];
    vdp(mu, t, k2);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + 0.5 * h * k2[i];
    vdp(mu, t, k3);
    for (int i = 0; i < 2; i++)
        t[i] = s[i] + h * k3[i];
    vdp(mu, t, k4);
    for (int i = 0; i < 2; i++)
        s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

/* Period of the limit cycle: mean time between upward zero crossings of x
 * once the transient (first fifth of the run) has passed. */
static double vdp_period(double mu, double t_end)
{
    const double h = 1e-3;
    double s[2] = {2.0, 0.0}, t = 0.0, first = -1.0, last = -1.0;
    int crossings = 0;
    long steps = (long)(t_end / h);
    for (long k = 0; k < steps; k++) {
        double x0 = s[0];
        rk4_step(mu, s, h);
        t += h;
        if (t > 0.2 * t_end && x0 < 0.0 && s[0] >= 0.0) {
            double tc = t - h * s[0] / (s[0] - x0); /* linear interpolation */
            if (crossings == 0)
                first = tc;
            last = tc;
            crossings++;
        }
    }
    return crossings > 1 ? (last - first) / (crossings - 1) : NAN;
}

/* ---------------------------------------------------------------- the three functions */

static int generate(void *arg, int64_t index, mw_buf_t *task)
{
    sweep_t *sw = arg;
    if (index >= sw->ntasks)
        return 0;
    sweep_task_t t;
    t.mu = sw->ntasks > 1 ? sw->mu_min + (sw->mu_max - sw->mu_min) * (double)index / (double)(sw->ntasks - 1)
                          : sw->mu_min;
    t.t_end = sw->t_end;
    t.task_ms = sw->task_ms;
    return mw_buf_set(task, &t, sizeof t) == MW_OK ? 1 : -1;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int work(void *arg, int64_t index, const void *in, size_t len, mw_buf_t *result)
{
    (void)arg;
    (void)index;
    sweep_task_t t;
    if (len != sizeof t)
        return -1;
    memcpy(&t, in, sizeof t);
    double t0 = now_s();
    double period = vdp_period(t.mu, t.t_end);
    /* Each task lasts at least task_ms (for demos with failures). */
    double left = t.task_ms * 1e-3 - (now_s() - t0);
    if (left > 0) {
        struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
        nanosleep(&ts, NULL);
    }
    double out[2] = {t.mu, period};
    return mw_buf_set(result, out, sizeof out);
}

static int consume(void *arg, int64_t index, const void *res, size_t len)
{
    (void)arg;
    (void)index;
    double out[2];
    if (len != sizeof out)
        return -1;
    memcpy(out, res, sizeof out);
    printf("%.6f %.9f\n", out[0], out[1]);
    fflush(stdout);
    return 0;
}

/* ---------------------------------------------------------------- main */

static void usage(void)
{
    fprintf(stderr, "usage: sweep [--tasks N] [--task-ms MS] [--mu-min A] [--mu-max B] "
                    "[--t-end T] [--depth D] [--quiet]\n");
}

/* A finite number in [lo, hi], the whole string (strtod would take "nan",
   "inf" and "1e999" = Inf; atof would take "abc" as 0). */
static int opt_num(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end || !isfinite(d) || d < lo || d > hi) {
        fprintf(stderr, "sweep: bad value '%s' for %s (a finite number in [%g, %g])\n", v, opt,
                lo, hi);
        return -1;
    }
    *out = d;
    return 0;
}

/* the same for an integer */
static int opt_int(const char *opt, const char *v, double lo, double hi, double *out)
{
    if (opt_num(opt, v, lo, hi, out))
        return -1;
    if (*out != floor(*out)) {
        fprintf(stderr, "sweep: bad value '%s' for %s (an integer)\n", v, opt);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    sweep_t sw = {100, 0.0, 4.0, 100.0, 0};
    mw_config_t cfg;
    mw_config_init(&cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quiet")) {
            cfg.progress = MW_PROGRESS_OFF;
            continue;
        }
        double d = 0;
        int bad = 0;
        if (strcmp(a, "--tasks") && strcmp(a, "--task-ms") && strcmp(a, "--mu-min") &&
            strcmp(a, "--mu-max") && strcmp(a, "--t-end") && strcmp(a, "--depth")) {
            fprintf(stderr, "sweep: unknown option '%s'\n", a);
            usage();
            return 2;
        }
        if (!v) {
            fprintf(stderr, "sweep: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--tasks")) {
            bad = opt_int(a, v, 0, 1e12, &d);
            sw.ntasks = (int64_t)d;
        } else if (!strcmp(a, "--task-ms")) {
            bad = opt_int(a, v, 0, 3600000, &d);
            sw.task_ms = (int)d;
        } else if (!strcmp(a, "--mu-min")) {
            bad = opt_num(a, v, -1e6, 1e6, &sw.mu_min);
        } else if (!strcmp(a, "--mu-max")) {
            bad = opt_num(a, v, -1e6, 1e6, &sw.mu_max);
        } else if (!strcmp(a, "--t-end")) {
            bad = opt_num(a, v, 1e-3, 1e9, &sw.t_end);
        } else {
            bad = opt_int(a, v, 1, 1 << 20, &d);
            cfg.depth = (int)d;
        }
        if (bad)
            return 2;
        i++;
    }
    if (sw.mu_min > sw.mu_max) {
        fprintf(stderr, "sweep: --mu-min %g is above --mu-max %g\n", sw.mu_min, sw.mu_max);
        return 2;
    }
    cfg.ntasks = sw.ntasks;

    mw_init(&argc, &argv);
    mw_ops_t ops = {generate, work, consume, &sw};
    int rc = mw_run(&ops, &cfg, NULL);
    if (rc != MW_OK && rc != MW_ERR_MASTER_LOST) /* that one is reported once, by the skeleton */
        fprintf(stderr, "sweep: %s\n", mw_strerror(rc));
    MPI_Finalize();
    return rc == MW_OK ? 0 : 1;
}
