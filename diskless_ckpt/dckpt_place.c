/*
 * dckpt_place.c - encoding groups placed across hosts (see dckpt_place.h).
 */
#include "dckpt_place.h"

#include <stdlib.h>

typedef struct {
    int host, rank;
} hr_t;

typedef struct {
    int first;      /* lowest rank on the host */
    int start, n;   /* its ranks: byhost[start .. start + n) */
} run_t;

static int cmp_hr(const void *a, const void *b)
{
    const hr_t *x = a, *y = b;
    if (x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* largest host first; ties: the host whose lowest rank is lower */
static int cmp_run(const void *a, const void *b)
{
    const run_t *x = a, *y = b;
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

int dckpt_place(int nprocs, int ngroups, const int *host, int *group_of, int *group_rank_of)
{
    hr_t *byhost = malloc(sizeof(hr_t) * (size_t)nprocs);
    run_t *runs = malloc(sizeof(run_t) * (size_t)nprocs);
    int *deal = malloc(sizeof(int) * (size_t)nprocs);
    int *count = calloc((size_t)ngroups, sizeof(int));
    int rc = -1;
    if (!byhost || !runs || !deal || !count)
        goto out;

    for (int r = 0; r < nprocs; r++)
        byhost[r] = (hr_t){host ? host[r] : r, r};
    qsort(byhost, (size_t)nprocs, sizeof(hr_t), cmp_hr);
    int nh = 0;
    for (int i = 0; i < nprocs; i++) {
        if (i == 0 || byhost[i].host != byhost[i - 1].host)
            runs[nh++] = (run_t){byhost[i].rank, i, 0};
        runs[nh - 1].n++;
    }
    qsort(runs, (size_t)nh, sizeof(run_t), cmp_run);

    /* deal: the i-th rank of every host that has one, in host order; hosts
       are sorted by decreasing size, so the first ones are the ones left */
    int n = 0;
    for (int i = 0; n < nprocs; i++)
        for (int k = 0; k < nh && runs[k].n > i; k++)
            deal[n++] = byhost[runs[k].start + i].rank;

    /* groups take consecutive runs of the dealing order */
    int base = nprocs / ngroups, extra = nprocs % ngroups;
    for (int g = 0, p = 0; g < ngroups; g++)
        for (int j = 0; j < base + (g < extra); j++, p++)
            group_of[deal[p]] = g;
    /* members of a group numbered in rank order */
    for (int r = 0; r < nprocs; r++)
        group_rank_of[r] = count[group_of[r]]++;
    rc = 0;
out:
    free(byhost);
    free(runs);
    free(deal);
    free(count);
    return rc;
}
