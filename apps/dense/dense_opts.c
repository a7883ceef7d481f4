/* dense_opts.c - the command line shared by the dense apps (dense.h). */
#include "dense.h"

#include <stdlib.h>
#include <string.h>

static char opt_err[256];

const char *dense_opts_error(void)
{
    return opt_err;
}

void dense_opts_usage(FILE *out, const char *prog, const char *extra_usage)
{
    fprintf(out,
            "usage: ftmpirun --comm-mode=rebuild -np NP %s [options]\n"
            "  --n N               the matrix is N x N (default 512)\n"
            "  --nb NB             block size (default 64; at most N)\n"
            "  --grid PxQ          process grid (default: the most square one for -np)\n"
            "  --ft ckpt|abft|none fault tolerance (default none): in-memory checkpoints,\n"
            "                      checksum-based recovery, or none (a failure ends the run)\n"
            "  --ckpt-interval K   checkpoint every K panels (default 8; 0: never)\n"
            "  --ckpt-overlap      encode each checkpoint while the next panels compute;\n"
            "                      it commits at the next one (docs/dense.md)\n"
            "  --encoding xor|rs   checkpoint code (default rs)\n"
            "  --checksums M       checksum ranks (default 1; xor: 1)\n"
            "  --seed S            the random matrix's seed (default 1)\n"
            "  --matrix FILE.mtx   a Matrix Market matrix instead (square; sets N)\n"
            "  --event-log FILE    ftmpirun's --event-log file: report detection times\n"
            "  --delay-us U        sleep U microseconds per panel (slow runs for timed kills)\n"
            "  --mtbf S            mean time between failures (s): the report gives the\n"
            "                      checkpoint interval Young/Daly's model picks for it\n"
            "  --json              print the report as one JSON object\n"
            "  --verbose           print each checkpoint and recovery as it happens\n"
            "%s"
            "-np: P*Q, plus M with --ft ckpt (the last M ranks hold checksums).\n"
            "Kill tests: ftmpirun --kill-at panel=K@RANK kills RANK after K panels.\n",
            prog, extra_usage ? extra_usage : "");
}

static int parse_grid(const char *v, int *P, int *Q)
{
    char *end;
    long p = strtol(v, &end, 10);
    if (end == v || (*end != 'x' && *end != 'X'))
        return -1;
    const char *s = end + 1;
    long q = strtol(s, &end, 10);
    if (end == s || *end || p < 1 || q < 1 || p > 4096 || q > 4096)
        return -1;
    *P = (int)p;
    *Q = (int)q;
    return 0;
}

int dense_opts_parse(dense_opts_t *o, const char *prog, int argc, char **argv,
                     dense_opt_fn extra, void *ctx)
{
    memset(o, 0, sizeof(*o));
    opt_err[0] = '\0';
    o->prog = prog;
    o->n = 512;
    o->nb = 64;
    o->ft = DENSE_FT_NONE;
    o->ckpt_interval = 8;
    o->code = DCKPT_CODE_RS;
    o->m = 1;
    o->seed = 1;
    o->nrhs = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double d = 0;
        int bad = 0, used = 1;
        int flag = app_opt_flag(a, "", 0, &o->json, &o->verbose); /* usage: the caller's */
        if (flag == 1)
            return 1;
        if (flag == 2)
            continue;
        if (!strcmp(a, "--ckpt-overlap")) {
            o->ckpt_overlap = 1;
            continue;
        }
        if (!strcmp(a, "--n")) {
            if (!v || app_opt_num(v, -1e18, 1e18, &d) || d != (double)(int64_t)d) {
                bad = 1;
            } else if (d < 1) {
                snprintf(opt_err, sizeof opt_err, "%s: --n must be a positive integer (got %s)",
                         prog, v);
                return -1;
            } else if (d > 1e6) {
                snprintf(opt_err, sizeof opt_err, "%s: --n %s is too large (at most 1000000)",
                         prog, v);
                return -1;
            }
            o->n = (int64_t)d;
        } else if (!strcmp(a, "--nb")) {
            bad = !v || app_opt_num(v, 1, 1e5, &d) || d != (double)(int)d;
            o->nb = (int)d;
            o->nb_given = 1;
        } else if (!strcmp(a, "--grid")) {
            bad = !v || parse_grid(v, &o->P, &o->Q);
        } else if (!strcmp(a, "--ft")) {
            if (v && !strcmp(v, "none"))
                o->ft = DENSE_FT_NONE;
            else if (v && !strcmp(v, "ckpt"))
                o->ft = DENSE_FT_CKPT;
            else if (v && !strcmp(v, "abft"))
                o->ft = DENSE_FT_ABFT;
            else
                bad = 1;
        } else if (!strcmp(a, "--ckpt-interval")) {
            bad = !v || app_opt_num(v, 0, 1e15, &d);
            o->ckpt_interval = (int64_t)d;
        } else if (!strcmp(a, "--encoding")) {
            bad = !v || app_opt_code(v, &o->code);
        } else if (!strcmp(a, "--checksums")) {
            bad = !v || app_opt_num(v, 1, 255, &d);
            o->m = (int)d;
        } else if (!strcmp(a, "--seed")) {
            bad = !v || app_opt_num(v, 0, 9007199254740992.0, &d);
            o->seed = (uint64_t)d;
        } else if (!strcmp(a, "--matrix")) {
            bad = !v;
            o->matrix = v;
        } else if (!strcmp(a, "--event-log")) {
            bad = !v;
            o->event_log = v;
        } else if (!strcmp(a, "--delay-us")) {
            bad = !v || app_opt_num(v, 0, 1e7, &d);
            o->delay_us = (long)d;
        } else if (!strcmp(a, "--mtbf")) {
            bad = !v || app_opt_num(v, 1e-3, 1e12, &o->mtbf_s);
        } else {
            int r = extra ? extra(ctx, a, v) : -1;
            if (r == -1) {
                snprintf(opt_err, sizeof opt_err, "%s: unknown option '%s' (see --help)", prog,
                         a);
                return -1;
            }
            bad = r < 0;
            used = r < 0 ? 0 : r;
        }
        if (bad) {
            snprintf(opt_err, sizeof opt_err, "%s: bad or missing value for %s%s%s", prog, a,
                     v ? ": " : "", v ? v : "");
            return -1;
        }
        i += used;
    }
    if (o->code == DCKPT_CODE_XOR && o->m != 1) {
        snprintf(opt_err, sizeof opt_err,
                 "%s: --encoding xor has exactly one checksum rank (--checksums 1)", prog);
        return -1;
    }
    if (!o->matrix && o->nb > o->n) {
        snprintf(opt_err, sizeof opt_err, "%s: --nb %d is larger than --n %lld", prog, o->nb,
                 (long long)o->n);
        return -1;
    }
    return 0;
}
