/*
 * Algorithm choice: forced by the user, else the rules file, else the
 * built-in thresholds below (see coll_select.h and docs/collectives.md).
 */
#include "coll/coll_select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
    const char *name;
    const char *env;
    const char *const *algs;
    int nalgs;
} kind_info_t;

#define ALGS(...) (const char *const[]){__VA_ARGS__}, \
    (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

static const kind_info_t kinds[COLL_NKINDS] = {
    [COLL_BARRIER] = {"barrier", "FTMPI_COLL_BARRIER", ALGS("dissemination", "sm")},
    [COLL_BCAST] = {"bcast", "FTMPI_COLL_BCAST",
                    ALGS("binomial", "pipeline", "bintree", "scatter_allgather", "sm")},
    [COLL_REDUCE] = {"reduce", "FTMPI_COLL_REDUCE", ALGS("binomial", "pipeline", "sm")},
    [COLL_ALLREDUCE] = {"allreduce", "FTMPI_COLL_ALLREDUCE",
                        ALGS("recursive_doubling", "rabenseifner", "ring", "reduce_bcast", "sm")},
    [COLL_GATHER] = {"gather", "FTMPI_COLL_GATHER", ALGS("linear", "binomial", "sm")},
    [COLL_SCATTER] = {"scatter", "FTMPI_COLL_SCATTER", ALGS("linear", "binomial", "sm")},
    [COLL_ALLGATHER] = {"allgather", "FTMPI_COLL_ALLGATHER",
                        ALGS("ring", "recursive_doubling", "bruck", "sm")},
    [COLL_ALLGATHERV] = {"allgatherv", "FTMPI_COLL_ALLGATHERV", ALGS("ring", "linear")},
    [COLL_ALLTOALL] = {"alltoall", "FTMPI_COLL_ALLTOALL", ALGS("linear", "pairwise", "bruck", "sm")},
    [COLL_ALLTOALLV] = {"alltoallv", "FTMPI_COLL_ALLTOALLV", ALGS("linear", "pairwise")},
    [COLL_REDUCE_SCATTER] = {"reduce_scatter", "FTMPI_COLL_REDUCE_SCATTER",
                             ALGS("reduce_scatterv", "ring", "sm")},
    [COLL_SCAN] = {"scan", "FTMPI_COLL_SCAN", ALGS("linear", "recursive_doubling")},
};

int coll_kind_by_name(const char *name)
{
    for (int k = 0; k < COLL_NKINDS; k++)
        if (!strcasecmp(name, kinds[k].name))
            return k;
    return -1;
}

int coll_alg_by_name(coll_kind_t k, const char *name)
{
    for (int a = 0; a < kinds[k].nalgs; a++)
        if (!strcasecmp(name, kinds[k].algs[a]))
            return a;
    return -1;
}

/* ---- settings ------------------------------------------------------------ */

static int loaded;
static coll_choice_t forced[COLL_NKINDS];
static int is_forced[COLL_NKINDS];
static coll_rule_t *rules;
static int nrules;
/* Largest call (bytes; the per-rank block for the block calls) that goes
 * through the shared-memory component, per kind; FTMPI_COLL_SM_MAX sets
 * all of them. Bcast, Reduce and Allreduce cut long messages in chunks of
 * one buffer: measured on 2 cores at np 2, 4 and 8 (docs/collectives.md,
 * "Shared-memory component"), the chunked copies through the segment beat
 * the point-to-point pipelines up to these sizes (4-13x at 32 KiB with
 * ranks sharing cores); above, the two were within the noise. */
static size_t sm_max[COLL_NKINDS] = {
    [COLL_BCAST] = 131072, [COLL_REDUCE] = 524288, [COLL_ALLREDUCE] = 65536,
    [COLL_GATHER] = 16384, [COLL_SCATTER] = 16384, [COLL_ALLGATHER] = 16384,
    [COLL_ALLTOALL] = 16384, [COLL_REDUCE_SCATTER] = 16384,
};

/* "alg[:seg]" for kind k. */
static int parse_choice(coll_kind_t k, const char *v, coll_choice_t *c)
{
    char name[64];
    size_t n = strcspn(v, ":");
    if (n == 0 || n >= sizeof(name))
        return -1;
    memcpy(name, v, n);
    name[n] = 0;
    if ((c->alg = coll_alg_by_name(k, name)) < 0)
        return -1;
    c->seg = 0;
    if (v[n] == ':') {
        char *end;
        c->seg = (size_t)strtoull(v + n + 1, &end, 10);
        if (*end == 'K' || *end == 'k')
            c->seg <<= 10;
        else if (*end == 'M' || *end == 'm')
            c->seg <<= 20;
    }
    return 0;
}

static void force(coll_kind_t k, const char *v, const char *what)
{
    if (parse_choice(k, v, &forced[k]) == 0) {
        is_forced[k] = 1;
        return;
    }
    fprintf(stderr, "ftmpi: %s: unknown %s algorithm '%s' (known:", what, kinds[k].name, v);
    for (int a = 0; a < kinds[k].nalgs; a++)
        fprintf(stderr, " %s", kinds[k].algs[a]);
    fprintf(stderr, "); ignored\n");
}

static void load(void)
{
    loaded = 1;
    const char *all = getenv("FTMPI_COLL");
    if (all && *all) {
        char *copy = strdup(all), *save = NULL;
        for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(t, '=');
            int k = eq ? (*eq = 0, coll_kind_by_name(t)) : -1;
            if (k < 0)
                fprintf(stderr, "ftmpi: FTMPI_COLL: bad item '%s' ignored\n", t);
            else
                force((coll_kind_t)k, eq + 1, "FTMPI_COLL");
        }
        free(copy);
    }
    for (int k = 0; k < COLL_NKINDS; k++) {
        const char *v = getenv(kinds[k].env);
        if (v && *v)
            force((coll_kind_t)k, v, kinds[k].env);
    }
    size_t every = coll_env_bytes("FTMPI_COLL_SM_MAX", SIZE_MAX, 0, SIZE_MAX - 1);
    for (int k = 0; k < COLL_NKINDS && every != SIZE_MAX; k++)
        sm_max[k] = every;
    const char *path = getenv("FTMPI_COLL_RULES");
    if (path && *path) {
        int n = coll_rules_load(path, &rules);
        nrules = n > 0 ? n : 0;
    }
}

size_t coll_env_bytes(const char *name, size_t def, size_t lo, size_t hi)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return def;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end == 'K' || *end == 'k')
        n <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        n <<= 20, end++;
    if (*end || n < lo || n > hi) {
        if (def == SIZE_MAX) /* no single default */
            fprintf(stderr, "ftmpi: %s='%s' is not a byte count; using the defaults\n", name, v);
        else if (hi >= SIZE_MAX - 1)
            fprintf(stderr, "ftmpi: %s='%s' is not a byte count; using %zu\n", name, v, def);
        else
            fprintf(stderr, "ftmpi: %s='%s' is not a byte count in %zu..%zu; using %zu\n", name,
                    v, lo, hi, def);
        return def;
    }
    return (size_t)n;
}

/* ---- built-in thresholds ------------------------------------------------- */

static coll_choice_t C(int alg, size_t seg)
{
    coll_choice_t c = {alg, seg};
    return c;
}

/*
 * Measured with tools/ftmpi_tune on a 2-core machine at p = 2, 4, 8 (4 and 8
 * oversubscribed): there, every extra sequential step costs a context switch,
 * so algorithms with few steps (binomial trees, recursive doubling, reduce +
 * bcast) win far into the large messages. Above 8 ranks (not measurable
 * here) the classic choices stand: pipelines, scatter+allgather, ring and
 * Rabenseifner for long messages. A rules file overrides all of this.
 */
static coll_choice_t builtin(coll_kind_t k, int p, size_t n)
{
    int pow2 = (p & (p - 1)) == 0;
    int small_p = p <= 8;
    switch (k) {
    case COLL_BCAST:
        if (small_p)
            return C(p > 4 && n >= 2048 && n < 65536 ? BCAST_BINTREE : BCAST_BINOMIAL, 8192);
        if (n < 16384)
            return C(BCAST_BINOMIAL, 0);
        if (n < 262144)
            return C(BCAST_SCATTER_ALLGATHER, 0);
        return C(BCAST_PIPELINE, 65536);
    case COLL_REDUCE:
        if (small_p || n < 65536)
            return C(REDUCE_BINOMIAL, 0);
        return C(REDUCE_PIPELINE, 32768);
    case COLL_ALLREDUCE:
        if (n < 8192)
            return C(ALLREDUCE_RECDBL, 0);
        if (p == 2)
            return C(ALLREDUCE_RABENSEIFNER, 0);
        if (p <= 4 && n < 262144)
            return C(ALLREDUCE_REDUCE_BCAST, 0);
        return C(pow2 ? ALLREDUCE_RABENSEIFNER : ALLREDUCE_RING, 0);
    case COLL_GATHER:
        return C(n < 4096 ? GATHER_BINOMIAL : GATHER_LINEAR, 0);
    case COLL_SCATTER:
        return C(n < 4096 ? SCATTER_BINOMIAL : SCATTER_LINEAR, 0);
    case COLL_ALLGATHER:
        if (pow2 && (small_p ? n < 524288 : n * (size_t)p < 65536))
            return C(ALLGATHER_RECDBL, 0);
        if (n * (size_t)p < 65536)
            return C(ALLGATHER_BRUCK, 0);
        return C(ALLGATHER_RING, 0);
    case COLL_ALLGATHERV:
        return C(n * (size_t)p < 65536 ? ALLGATHERV_LINEAR : ALLGATHERV_RING, 0);
    case COLL_ALLTOALL:
        if (small_p)
            return C(n < 524288 ? ALLTOALL_LINEAR : ALLTOALL_PAIRWISE, 0);
        if (n <= 256)
            return C(ALLTOALL_BRUCK, 0);
        return C(n < 32768 ? ALLTOALL_LINEAR : ALLTOALL_PAIRWISE, 0);
    case COLL_ALLTOALLV:
        return C(n < 32768 ? ALLTOALLV_LINEAR : ALLTOALLV_PAIRWISE, 0);
    case COLL_REDUCE_SCATTER:
        return C(n < 65536 ? REDUCE_SCATTER_BASIC : REDUCE_SCATTER_RING, 0);
    case COLL_SCAN:
        return C(n < 65536 ? SCAN_RECDBL : SCAN_LINEAR, 0);
    default:
        return C(0, 0);
    }
}

int coll_select_set(const char *spec)
{
    if (!loaded)
        load();
    if (!spec || !*spec) {
        memset(is_forced, 0, sizeof(is_forced));
        return 0;
    }
    int rc = 0;
    char *copy = strdup(spec), *save = NULL;
    if (!copy)
        return -1;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        int k = eq ? (*eq = 0, coll_kind_by_name(t)) : -1;
        if (k < 0) {
            rc = -1;
        } else if (!eq[1]) {
            is_forced[k] = 0;
        } else if (parse_choice((coll_kind_t)k, eq + 1, &forced[k]) == 0) {
            is_forced[k] = 1;
        } else {
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

int coll_select_info(coll_kind_t k, const char **name, const char *const **algs, int *nalgs)
{
    if (!loaded)
        load();
    *name = kinds[k].name;
    *algs = kinds[k].algs;
    *nalgs = kinds[k].nalgs;
    return is_forced[k] ? forced[k].alg : -1;
}

static int is_sm(coll_kind_t k, int alg)
{
    switch (k) {
    case COLL_BARRIER: return alg == BARRIER_SM;
    case COLL_BCAST: return alg == BCAST_SM;
    case COLL_REDUCE: return alg == REDUCE_SM;
    case COLL_ALLREDUCE: return alg == ALLREDUCE_SM;
    case COLL_GATHER: return alg == GATHER_SM;
    case COLL_SCATTER: return alg == SCATTER_SM;
    case COLL_ALLGATHER: return alg == ALLGATHER_SM;
    case COLL_ALLTOALL: return alg == ALLTOALL_SM;
    case COLL_REDUCE_SCATTER: return alg == REDUCE_SCATTER_SM;
    default: return 0;
    }
}

/* The user's or the rules file's choice; 0 if neither says. */
static int chosen(coll_kind_t k, int p, size_t bytes, coll_choice_t *c)
{
    if (!loaded)
        load();
    if (is_forced[k]) {
        *c = forced[k];
        return 1;
    }
    if (nrules) {
        const coll_rule_t *r = coll_rules_find(rules, nrules, k, p, bytes);
        if (r) {
            *c = r->choice;
            return 1;
        }
    }
    return 0;
}

/* The last choice of each kind, for coll_last (read-only for others). */
static struct {
    int alg;
    unsigned long n;
} last[COLL_NKINDS];

void coll_last_note(coll_kind_t k, int alg)
{
    last[k].alg = alg;
    last[k].n++;
}

const char *coll_last(coll_kind_t k, unsigned long *n)
{
    *n = last[k].n;
    if (last[k].alg == COLL_LAST_SM)
        return "sm";
    return last[k].n && last[k].alg >= 0 && last[k].alg < kinds[k].nalgs
               ? kinds[k].algs[last[k].alg] : "";
}

coll_choice_t coll_select(coll_kind_t k, int p, size_t bytes)
{
    coll_choice_t c;
    if (!(chosen(k, p, bytes, &c) && !is_sm(k, c.alg)))
        c = builtin(k, p, bytes);
    coll_last_note(k, c.alg);
    return c;
}

int coll_select_sm(coll_kind_t k, int p, size_t bytes)
{
    coll_choice_t c;
    if (chosen(k, p, bytes, &c))
        return is_sm(k, c.alg);
    switch (k) {
    case COLL_BARRIER: return 1;
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
    case COLL_REDUCE_SCATTER: return bytes <= sm_max[k];
    default: return 0;
    }
}
