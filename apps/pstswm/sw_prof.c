/*
 * sw_prof.c - where a step's time goes (--profile): the thread's CPU time
 * and the wall time of each phase, summed over the steps of the run, then
 * the largest and the smallest over the computing ranks.
 *
 * CPU time is what to read on a shared machine: it does not count the time
 * a process waits for a core, only the work it does (and the cache and
 * memory stalls of that work). The wall time of the Alltoallv phase is
 * where a rank waits for the others (load imbalance, or a rank without a
 * core).
 */
#include "pstswm.h"

#include <string.h>
#include <time.h>

static const char *const sw_phase_names[SW_NPHASE] = {
    "legendre_synthesis", "transpose_pack", "alltoallv", "fft", "grid_products",
    "legendre_analysis", "spectral_update"};

static void prof_now(double *cpu, double *wall)
{
    struct timespec c, w;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
    clock_gettime(CLOCK_MONOTONIC, &w);
    *cpu = c.tv_sec + 1e-9 * c.tv_nsec;
    *wall = w.tv_sec + 1e-9 * w.tv_nsec;
}

void sw_prof_begin(sw_prof_t *p)
{
    if (p)
        prof_now(&p->c0, &p->w0);
}

void sw_prof_lap(sw_prof_t *p, int phase)
{
    if (!p)
        return;
    double c, w;
    prof_now(&c, &w);
    p->cpu[phase] += c - p->c0;
    p->wall[phase] += w - p->w0;
    p->c0 = c;
    p->w0 = w;
}

int sw_prof_reduce(const sw_prof_t *p, int64_t steps, MPI_Comm comm, sw_prof_sum_t *s)
{
    /* per step, in ms; the minimum travels negated */
    double v[4 * SW_NPHASE], r[4 * SW_NPHASE];
    double k = steps > 0 ? 1e3 / (double)steps : 0.0;
    for (int i = 0; i < SW_NPHASE; i++) {
        v[i] = k * p->cpu[i];
        v[SW_NPHASE + i] = -k * p->cpu[i];
        v[2 * SW_NPHASE + i] = k * p->wall[i];
        v[3 * SW_NPHASE + i] = -k * p->wall[i];
    }
    int rc = MPI_Allreduce(v, r, 4 * SW_NPHASE, MPI_DOUBLE, MPI_MAX, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < SW_NPHASE; i++) {
        s->cpu_max[i] = r[i];
        s->cpu_min[i] = -r[SW_NPHASE + i];
        s->wall_max[i] = r[2 * SW_NPHASE + i];
        s->wall_min[i] = -r[3 * SW_NPHASE + i];
    }
    s->valid = 1;
    return MPI_SUCCESS;
}

static void json_list(FILE *out, const char *key, const double *v, int last)
{
    fprintf(out, "\"%s\": [", key);
    for (int i = 0; i < SW_NPHASE; i++)
        fprintf(out, "%s%.6g", i ? ", " : "", v[i]);
    fprintf(out, "]%s", last ? "" : ", ");
}

void sw_prof_report(FILE *out, const sw_prof_sum_t *s, int json)
{
    if (!s->valid)
        return;
    double cmax = 0, cmin = 0, wmax = 0;
    for (int i = 0; i < SW_NPHASE; i++) {
        cmax += s->cpu_max[i];
        cmin += s->cpu_min[i];
        wmax += s->wall_max[i];
    }
    if (json) {
        fprintf(out, "\"profile\": {\"phases\": [");
        for (int i = 0; i < SW_NPHASE; i++)
            fprintf(out, "%s\"%s\"", i ? ", " : "", sw_phase_names[i]);
        fprintf(out, "], ");
        json_list(out, "cpu_ms_per_step_max", s->cpu_max, 0);
        json_list(out, "cpu_ms_per_step_min", s->cpu_min, 0);
        json_list(out, "wall_ms_per_step_max", s->wall_max, 0);
        json_list(out, "wall_ms_per_step_min", s->wall_min, 0);
        fprintf(out, "\"cpu_ms_per_step_total_max\": %.6g}, ", cmax);
        return;
    }
    fprintf(out, "pstswm: profile per step (ms; over the computing ranks: CPU max / min, wall "
                 "max / min):\n");
    for (int i = 0; i < SW_NPHASE; i++)
        fprintf(out, "pstswm:   %-20s cpu %9.3f %9.3f   wall %9.3f %9.3f\n", sw_phase_names[i],
                s->cpu_max[i], s->cpu_min[i], s->wall_max[i], s->wall_min[i]);
    fprintf(out, "pstswm:   %-20s cpu %9.3f %9.3f   wall %9.3f\n", "sum", cmax, cmin, wmax);
}
