/*
 * The master's task ledger. Tasks are generated lazily, in index order,
 * when a worker can take one; a generated task stays in the ledger (with
 * its bytes) until its first result arrives, so it can be handed out again
 * after a failure. A task index below `next` that is no longer in the
 * ledger is done: any later result for it is a duplicate and is dropped.
 * Every task's result is therefore consumed exactly once.
 *
 * The ledger holds only the outstanding tasks (at most depth x workers
 * plus those waiting to be handed out again), so a linear search is
 * enough.
 */
#include "mw_int.h"

#include <stdlib.h>
#include <string.h>

void mw_ledger_init(mw_ledger_t *l)
{
    memset(l, 0, sizeof(*l));
}

void mw_ledger_free(mw_ledger_t *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->t[i].data);
    free(l->t);
    memset(l, 0, sizeof(*l));
}

static int find(const mw_ledger_t *l, int64_t index)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i].index == index)
            return i;
    return -1;
}

int mw_ledger_take(mw_ledger_t *l, const mw_ops_t *ops, int holder, mw_task_t **t_p)
{
    if (l->nwaiting > 0) {
        /* Handed out again: the lowest index first. */
        int best = -1;
        for (int i = 0; i < l->n; i++)
            if (l->t[i].holder == -1 && (best < 0 || l->t[i].index < l->t[best].index))
                best = i;
        if (best >= 0) {
            l->t[best].holder = holder;
            l->nwaiting--;
            *t_p = &l->t[best];
            return 1;
        }
        l->nwaiting = 0;
    }
    if (l->gen_done)
        return 0;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        mw_task_t *t = realloc(l->t, (size_t)cap * sizeof(*t));
        if (!t)
            return MW_ERR_NOMEM;
        l->t = t;
        l->cap = cap;
    }
    mw_buf_t b = {0};
    int rc = ops->generate(ops->arg, l->next, &b);
    if (rc <= 0) {
        free(b.data);
        if (rc == 0) {
            l->gen_done = 1;
            return 0;
        }
        fprintf(stderr, "mw: generate(%lld) returned %d\n", (long long)l->next, rc);
        return MW_ERR_USER;
    }
    if (!b.data && !mw_buf_resize(&b, 0))
        return MW_ERR_NOMEM;
    mw_task_t *t = &l->t[l->n++];
    t->index = l->next++;
    t->data = b.data;
    t->len = b.len;
    t->holder = holder;
    *t_p = t;
    return 1;
}

int mw_ledger_complete(mw_ledger_t *l, int64_t index, int *holder_p)
{
    *holder_p = -1;
    int i = find(l, index);
    if (i < 0) {
        if (index >= 0 && index < l->next)
            l->duplicates++;
        return 0;
    }
    *holder_p = l->t[i].holder;
    if (l->t[i].holder == -1)
        l->nwaiting--;
    free(l->t[i].data);
    l->t[i] = l->t[--l->n];
    l->done++;
    return 1;
}

int64_t mw_ledger_unassign_all(mw_ledger_t *l)
{
    int64_t k = 0;
    for (int i = 0; i < l->n; i++)
        if (l->t[i].holder != -1) {
            l->t[i].holder = -1;
            l->nwaiting++;
            k++;
        }
    l->reissued += k;
    return k;
}

int mw_ledger_finished(const mw_ledger_t *l)
{
    return l->gen_done && l->n == 0;
}
