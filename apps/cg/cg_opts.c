/* cg_opts.c - the command line of cg. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

static const char *cg_usage =
    "usage: ftmpirun --comm-mode=rebuild -np P cg [options]\n"
    "  --n N               3-D Poisson problem, N grid points per dimension (default 32)\n"
    "  --matrix FILE.mtx   solve with a Matrix Market matrix instead (b = A * ones)\n"
    "  --tol T             relative residual to reach (default 1e-8)\n"
    "  --max-iter I        iteration limit (default 10000)\n"
    "  --ckpt-interval K   in-memory checkpoint every K iterations (default 20; 0: none)\n"
    "  --encoding xor|rs   checkpoint code (default rs)\n"
    "  --checksums M       checksum ranks per group (default 1; xor: 1)\n"
    "  --group K           data ranks per checkpoint group (default 0: one group)\n"
    "  --chunk-kib C       checkpoint streaming chunk in KiB (default 256)\n"
    "  --precond jacobi|none  preconditioner (default jacobi)\n"
    "  --event-log FILE    ftmpirun's --event-log file: report detection times\n"
    "  --delay-us U        sleep U microseconds per iteration (slow runs for timed kills)\n"
    "  --json              print the report as one JSON object\n"
    "  --verbose           print each checkpoint and recovery as it happens\n"
    "The last M ranks of each group are checksum ranks; the others compute.\n";


int cg_opts_parse(int argc, char **argv, cg_opts_t *o, int loud)
{
    memset(o, 0, sizeof(*o));
    o->n = 32;
    o->tol = 1e-8;
    o->max_iter = 10000;
    o->ckpt_interval = 20;
    o->code = DCKPT_CODE_RS;
    o->m = 1;
    o->jacobi = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d;
        int bad = 0, used = 1;
        int flag = app_opt_flag(a, cg_usage, loud, &o->json, &o->verbose);
        if (flag == 1)
            return 1;
        if (flag == 2)
            continue;
        if (v == NULL) {
            bad = 1;
        } else if (!strcmp(a, "--n")) {
            bad = app_opt_num(v, 1, 2000, &d);
            o->n = (int)d;
        } else if (!strcmp(a, "--matrix")) {
            o->matrix = v;
        } else if (!strcmp(a, "--tol")) {
            bad = app_opt_num(v, 0, 1, &d);
            o->tol = d;
        } else if (!strcmp(a, "--max-iter")) {
            bad = app_opt_num(v, 1, 1e15, &d);
            o->max_iter = (int64_t)d;
        } else if (!strcmp(a, "--ckpt-interval")) {
            bad = app_opt_num(v, 0, 1e15, &d);
            o->ckpt_interval = (int64_t)d;
        } else if (!strcmp(a, "--encoding")) {
            bad = app_opt_code(v, &o->code);
        } else if (!strcmp(a, "--checksums")) {
            bad = app_opt_num(v, 1, 255, &d);
            o->m = (int)d;
        } else if (!strcmp(a, "--group")) {
            bad = app_opt_num(v, 0, 255, &d);
            o->k = (int)d;
        } else if (!strcmp(a, "--chunk-kib")) {
            bad = app_opt_num(v, 4, 65536, &d);
            o->chunk = (size_t)d * 1024;
        } else if (!strcmp(a, "--precond")) {
            if (!strcmp(v, "jacobi"))
                o->jacobi = 1;
            else if (!strcmp(v, "none"))
                o->jacobi = 0;
            else
                bad = 1;
        } else if (!strcmp(a, "--delay-us")) {
            bad = app_opt_num(v, 0, 1e7, &d);
            o->delay_us = (long)d;
        } else if (!strcmp(a, "--event-log")) {
            o->event_log = v;
        } else {
            if (loud)
                fprintf(stderr, "cg: unknown option '%s'\n%s", a, cg_usage);
            return -1;
        }
        if (bad) {
            if (loud)
                fprintf(stderr, "cg: bad or missing value for %s\n", a);
            return -1;
        }
        i += used;
    }
    if (o->code == DCKPT_CODE_XOR && o->m != 1) {
        if (loud)
            fprintf(stderr, "cg: --encoding xor has exactly one checksum rank per group\n");
        return -1;
    }
    return 0;
}
