/* sw_opts.c - the command line of pstswm. */
#include "pstswm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *sw_usage =
    "usage: ftmpirun --comm-mode=rebuild -np P pstswm [options]\n"
    "  --case 1|2|5|6        Williamson et al. (1992) test case (default 2)\n"
    "  --trunc M             triangular truncation T_M, 10..512 (default 42)\n"
    "  --days D              simulated days (default 5)\n"
    "  --dt SECONDS          time step (default: 1200 s at T42, scaled as 1/M)\n"
    "  --alpha RADIANS       cases 1, 2: tilt of the flow against the pole (default 0)\n"
    "  --robert R            Robert-Asselin filter coefficient (default 0.02)\n"
    "  --diffusion K         del^4 diffusion coefficient, m^4/s (default 0: none)\n"
    "  --ref-trunc R         case 5: height errors against a T_R run computed at the end\n"
    "  --output-hours H      diagnostics (and plots) every H hours (default 24; 0: end only)\n"
    "  --ckpt-interval K     in-memory checkpoint every K steps (default 20; 0: never)\n"
    "  --encoding xor|rs     checkpoint code (default rs)\n"
    "  --checksums M         checksum ranks per group (default 1; 0: no in-memory\n"
    "                        checkpoints, every rank computes: the model's own loop)\n"
    "  --restart-in FILE     start from the restart files FILE.r<rank>\n"
    "  --restart-out FILE    write the restart files FILE.r<rank> at the end ...\n"
    "  --restart-every K     ... and every K steps (fsync'd; the model's own checkpoints)\n"
    "  --plot DIR            PNG maps of the height (and its error, cases 1, 2) in DIR\n"
    "  --event-log FILE      ftmpirun's --event-log file: report detection times\n"
    "  --delay-us U          sleep U microseconds per step (slow runs for timed kills)\n"
    "  --json                print the report as one JSON object\n"
    "  --verbose             print each checkpoint and recovery as it happens\n"
    "  --profile             CPU and wall time of each phase of a step, over the ranks\n"
    "The last M ranks of each group are checksum ranks; the others compute.\n";


static int opt_int(const char *s, double lo, double hi, double *v)
{
    return app_opt_num(s, lo, hi, v) != 0 || *v != floor(*v) ? -1 : 0;
}

double sw_default_dt(int trunc)
{
    /* 1200 s at T42, inversely proportional to M, a divisor of a day */
    double want = 1200.0 * 42.0 / trunc;
    int d = (int)want;
    while (d > 1 && 86400 % d)
        d--;
    return d < 1 ? 1.0 : d;
}

/* the options that take a value */
static int known(const char *a)
{
    static const char *opts[] = {"--case", "--trunc", "--days", "--dt", "--alpha",
                                 "--robert", "--diffusion", "--output-hours",
                                 "--ckpt-interval", "--encoding", "--checksums",
                                 "--restart-in", "--restart-out", "--restart-every", "--plot", "--ref-trunc",
                                 "--event-log", "--delay-us"};
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
        if (!strcmp(a, opts[i]))
            return 1;
    return 0;
}

#define SW_FAIL(...)                                                                        \
    do {                                                                                    \
        if (loud)                                                                           \
            fprintf(stderr, "pstswm: " __VA_ARGS__);                                        \
        return -1;                                                                          \
    } while (0)

int sw_opts_parse(int argc, char **argv, sw_opts_t *o, int loud)
{
    memset(o, 0, sizeof(*o));
    o->test_case = 2;
    o->trunc = 42;
    o->days = 5;
    o->robert = 0.02;
    o->output_hours = 24;
    o->ckpt_interval = 20;
    o->code = DCKPT_CODE_RS;
    o->m = 1;
    int alpha_set = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0;
        int bad = 0, used = 1;
        int flag = app_opt_flag(a, sw_usage, loud, &o->json, &o->verbose);
        if (flag == 1)
            return 1;
        if (flag == 2)
            continue;
        if (!strcmp(a, "--profile")) {
            o->profile = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            SW_FAIL("unexpected argument '%s'\n%s", a, sw_usage);
        } else if (!known(a)) {
            SW_FAIL("unknown option '%s'\n%s", a, sw_usage);
        } else if (v == NULL) {
            bad = 1;
        } else if (!strcmp(a, "--case")) {
            bad = opt_int(v, 1, 6, &d) || (d != 1 && d != 2 && d != 5 && d != 6);
            if (bad)
                SW_FAIL("--case %s: the test cases are 1, 2, 5 and 6\n", v);
            o->test_case = (int)d;
        } else if (!strcmp(a, "--trunc")) {
            if (opt_int(v, 10, 512, &d))
                SW_FAIL("--trunc %s: the truncation must be a whole number from 10 to 512\n", v);
            o->trunc = (int)d;
        } else if (!strcmp(a, "--days")) {
            if (app_opt_num(v, 1e-9, 3650, &d))
                SW_FAIL("--days %s: must be a number of days above 0 and at most 3650\n", v);
            o->days = d;
        } else if (!strcmp(a, "--dt")) {
            if (app_opt_num(v, 1e-3, 86400, &d))
                SW_FAIL("--dt %s: the time step must be above 0 and at most 86400 seconds\n", v);
            o->dt = d;
        } else if (!strcmp(a, "--alpha")) {
            bad = app_opt_num(v, -M_PI, M_PI, &d);
            o->alpha = d;
            alpha_set = 1;
        } else if (!strcmp(a, "--robert")) {
            bad = app_opt_num(v, 0, 0.5, &d);
            o->robert = d;
        } else if (!strcmp(a, "--diffusion")) {
            bad = app_opt_num(v, 0, 1e20, &d);
            o->diffusion = d;
        } else if (!strcmp(a, "--output-hours")) {
            bad = app_opt_num(v, 0, 1e6, &d);
            o->output_hours = d;
        } else if (!strcmp(a, "--ckpt-interval")) {
            bad = opt_int(v, 0, 1e15, &d);
            o->ckpt_interval = (int64_t)d;
        } else if (!strcmp(a, "--encoding")) {
            if (app_opt_code(v, &o->code))
                SW_FAIL("--encoding %s: use xor or rs\n", v);
        } else if (!strcmp(a, "--checksums")) {
            bad = opt_int(v, 0, 255, &d);
            o->m = (int)d;
        } else if (!strcmp(a, "--restart-in")) {
            o->restart_in = v;
        } else if (!strcmp(a, "--restart-out")) {
            o->restart_out = v;
        } else if (!strcmp(a, "--restart-every")) {
            bad = opt_int(v, 1, 1e15, &d);
            o->restart_every = (int64_t)d;
        } else if (!strcmp(a, "--ref-trunc")) {
            if (opt_int(v, 10, 512, &d))
                SW_FAIL("--ref-trunc %s: the truncation must be a whole number from 10 to 512\n",
                        v);
            o->ref_trunc = (int)d;
        } else if (!strcmp(a, "--plot")) {
            o->plot_dir = v;
        } else if (!strcmp(a, "--event-log")) {
            o->event_log = v;
        } else if (!strcmp(a, "--delay-us")) {
            bad = opt_int(v, 0, 1e7, &d);
            o->delay_us = (long)d;
        }
        if (bad)
            SW_FAIL("bad or missing value for %s%s%s\n", a, v ? ": " : "", v ? v : "");
        i += used;
    }
    if (o->code == DCKPT_CODE_XOR && o->m > 1)
        SW_FAIL("--encoding xor has exactly one checksum rank per group (got --checksums %d)\n",
                o->m);
    if (alpha_set && o->test_case != 1 && o->test_case != 2)
        SW_FAIL("--alpha applies to cases 1 and 2 only (this is case %d)\n", o->test_case);
    if (o->restart_every && !o->restart_out)
        SW_FAIL("--restart-every needs --restart-out FILE\n");
    if (o->ref_trunc && o->test_case != 5)
        SW_FAIL("--ref-trunc applies to case 5 only (cases 1 and 2 have exact solutions)\n");
    if (o->ref_trunc && o->ref_trunc <= o->trunc)
        SW_FAIL("--ref-trunc %d must be above --trunc %d\n", o->ref_trunc, o->trunc);
    if (o->ref_trunc) {
        double rs = o->days * 86400.0 / sw_default_dt(o->ref_trunc);
        if (fabs(rs - llround(rs)) > 1e-6 * fmax(rs, 1.0))
            SW_FAIL("--days %g is not a whole number of the T%d reference's %g-second steps\n",
                    o->days, o->ref_trunc, sw_default_dt(o->ref_trunc));
    }
    double dt = o->dt > 0 ? o->dt : sw_default_dt(o->trunc);
    double steps = o->days * 86400.0 / dt;
    if (fabs(steps - llround(steps)) > 1e-6 * fmax(steps, 1.0) || llround(steps) < 1)
        SW_FAIL("--days %g is not a whole number of %g-second steps (%.4f steps)\n", o->days,
                dt, steps);
    return 0;
}
