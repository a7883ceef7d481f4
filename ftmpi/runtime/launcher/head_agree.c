/*
 * Agreements: a set of ranks (the members of one collective call) each
 * vote yes or no; the head answers every member that voted with the same
 * outcome: yes only if every member voted yes. A member that fails (or is
 * replaced) before voting makes the outcome no, and is not waited for.
 * Because the head is the one authority on failures, the outcome cannot
 * differ between members, whatever fails meanwhile. The library uses it
 * for the ATOMIC collective mode (docs/ft.md, contract section 6).
 */
#include "head_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct head_agree {
    struct head_agree *next;
    uint64_t key;
    int n;
    int *members;      /* world ranks */
    uint32_t *inc;     /* each member's incarnation when the vote began */
    char *voted;       /* 0 not yet, 1 yes, 2 no */
} agree_t;

static agree_t *agree_find(head_t *h, uint64_t key)
{
    for (agree_t *a = h->agrees; a; a = a->next)
        if (a->key == key)
            return a;
    return NULL;
}

static void agree_free(agree_t *a)
{
    free(a->members);
    free(a->inc);
    free(a->voted);
    free(a);
}

void head_agree_vote(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    uint64_t key = proto_get_u64(r);
    int vote = proto_get_i32(r);
    int n = proto_get_i32(r);
    if (r->err || n <= 0 || n > h->nprocs)
        return;
    agree_t *a = agree_find(h, key);
    if (!a) {
        a = calloc(1, sizeof *a);
        if (!a)
            return;
        a->key = key;
        a->n = n;
        a->members = malloc((size_t)n * sizeof(int));
        a->inc = malloc((size_t)n * sizeof(uint32_t));
        a->voted = calloc((size_t)n, 1);
        if (!a->members || !a->inc || !a->voted) {
            agree_free(a);
            return;
        }
        /* Each member as the voter knows it: a member since replaced by a
         * new incarnation counts as gone (it will not vote here). */
        for (int i = 0; i < n; i++) {
            int m = proto_get_i32(r);
            uint32_t inc = proto_get_u32(r);
            a->members[i] = m >= 0 && m < h->nprocs ? m : -1;
            a->inc[i] = inc;
        }
        a->next = h->agrees;
        h->agrees = a;
    }
    for (int i = 0; i < a->n; i++)
        if (a->members[i] == p->rank && a->inc[i] == p->inc)
            a->voted[i] = vote ? 1 : 2;
    head_agree_check(h);
}

/* Decide every agreement whose live members have all voted. */
void head_agree_check(head_t *h)
{
    for (agree_t **pa = &h->agrees; *pa;) {
        agree_t *a = *pa;
        int waiting = 0, yes = 1;
        for (int i = 0; i < a->n; i++) {
            int m = a->members[i];
            head_proc_t *p = m >= 0 ? &h->procs[m] : NULL;
            /* a member that has joined a recovery round will not vote: it
             * left for the recovery before this collective (docs/ft.md) */
            int gone = !p || !head_live(p) || p->inc != a->inc[i] || p->joined;
            if (a->voted[i] == 2 || (!a->voted[i] && gone))
                yes = 0;
            else if (!a->voted[i])
                waiting = 1;
        }
        if (waiting) {
            pa = &a->next;
            continue;
        }
        proto_buf_t b;
        proto_buf_init(&b);
        proto_put_u64(&b, a->key);
        proto_put_i32(&b, yes);
        for (int i = 0; i < a->n; i++) {
            head_proc_t *p = a->members[i] >= 0 ? &h->procs[a->members[i]] : NULL;
            if (a->voted[i] && p && head_live(p) && p->inc == a->inc[i])
                head_to_rank(h, p, PR_AGREE_DONE, &b);
        }
        proto_buf_free(&b);
        *pa = a->next;
        agree_free(a);
    }
}

void head_agree_free(head_t *h)
{
    while (h->agrees) {
        agree_t *a = h->agrees;
        h->agrees = a->next;
        agree_free(a);
    }
}
