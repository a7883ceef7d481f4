/*
 * The rules file: one rule per line,
 *     <collective> <min comm size> <min message bytes> <algorithm> [<segment bytes>]
 * '#' starts a comment. For a call on p ranks moving n bytes, the rules of
 * that collective with the largest comm size <= p apply, and among them the
 * one with the largest message size <= n (Open MPI's dynamic rules, in a
 * flat text form). Sizes take K/M suffixes.
 */
#include "coll/coll_select.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_size(const char *s, size_t *v)
{
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (end == s)
        return -1;
    if (*end == 'K' || *end == 'k')
        x <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        x <<= 20, end++;
    if (*end)
        return -1;
    *v = (size_t)x;
    return 0;
}

int coll_rules_load(const char *path, coll_rule_t **rules_p)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ftmpi: cannot open collective rules file '%s'\n", path);
        return -1;
    }
    coll_rule_t *rules = NULL;
    int n = 0, cap = 0, lineno = 0;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char w[5][64];
        int nw = sscanf(line, "%63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4]);
        if (nw <= 0)
            continue;
        coll_rule_t r = {0};
        size_t cs;
        if (nw < 4 || (r.kind = coll_kind_by_name(w[0])) < 0 || parse_size(w[1], &cs) ||
            parse_size(w[2], &r.bytes) ||
            (r.choice.alg = coll_alg_by_name((coll_kind_t)r.kind, w[3])) < 0 ||
            (nw == 5 && parse_size(w[4], &r.choice.seg))) {
            fprintf(stderr, "ftmpi: %s:%d: bad collective rule ignored\n", path, lineno);
            continue;
        }
        r.comm_size = (int)cs;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            coll_rule_t *nr = realloc(rules, (size_t)cap * sizeof(*nr));
            if (!nr)
                break;
            rules = nr;
        }
        rules[n++] = r;
    }
    fclose(f);
    *rules_p = rules;
    return n;
}

const coll_rule_t *coll_rules_find(const coll_rule_t *rules, int n, coll_kind_t k, int p,
                                   size_t bytes)
{
    int best_cs = -1;
    for (int i = 0; i < n; i++)
        if (rules[i].kind == (int)k && rules[i].comm_size <= p && rules[i].comm_size > best_cs)
            best_cs = rules[i].comm_size;
    if (best_cs < 0)
        return NULL;
    const coll_rule_t *best = NULL;
    for (int i = 0; i < n; i++) {
        const coll_rule_t *r = &rules[i];
        if (r->kind == (int)k && r->comm_size == best_cs && r->bytes <= bytes &&
            (!best || r->bytes > best->bytes))
            best = r;
    }
    return best;
}
