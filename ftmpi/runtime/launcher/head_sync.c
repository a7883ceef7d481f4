/* Head: key-value store, fences, recovery rounds. */
#include "head_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------- key-value store */

static unsigned kv_hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h % KV_BUCKETS;
}

kv_ent_t *head_kv_find(head_t *h, const char *key)
{
    for (kv_ent_t *e = h->kv[kv_hash(key)]; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static void kv_reply(head_t *h, head_proc_t *p, const kv_ent_t *e)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_str(&b, e->key);
    proto_put_bytes(&b, e->val, e->len);
    head_to_rank(h, p, PR_KV_VAL, &b);
    proto_buf_free(&b);
}

void head_kv_put(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    (void)p;
    char key[PROTO_MAX_KEY + 1];
    proto_get_str(r, key, sizeof key);
    uint32_t n;
    const void *val = proto_get_bytes(r, &n);
    if (!r->err)
        head_kv_set(h, key, val, n);
}

void head_kv_set(head_t *h, const char *key, const void *val, uint32_t n)
{
    kv_ent_t *e = head_kv_find(h, key);
    void *copy = malloc(n ? n : 1);
    if (!copy)
        return;
    memcpy(copy, val, n);
    if (!e) {
        e = calloc(1, sizeof *e);
        if (!e || !(e->key = strdup(key))) {
            free(e);
            free(copy);
            return;
        }
        unsigned b = kv_hash(key);
        e->next = h->kv[b];
        h->kv[b] = e;
    } else {
        free(e->val);
    }
    e->val = copy;
    e->len = n;
    /* Wake the waiters of this key. */
    for (kv_wait_t **pw = &h->kv_waits; *pw;) {
        kv_wait_t *w = *pw;
        if (strcmp(w->key, key) != 0) {
            pw = &w->next;
            continue;
        }
        head_proc_t *q = &h->procs[w->rank];
        if (q->inc == w->inc && head_live(q))
            kv_reply(h, q, e);
        *pw = w->next;
        free(w->key);
        free(w);
    }
}

void head_kv_get(head_t *h, head_proc_t *p, proto_rd_t *r)
{
    char key[PROTO_MAX_KEY + 1];
    proto_get_str(r, key, sizeof key);
    if (r->err)
        return;
    kv_ent_t *e = head_kv_find(h, key);
    if (!e && strcmp(key, "ftmpi.clock") == 0) {
        /* the head's CLOCK_MONOTONIC in ns, for the ranks' clock offsets
         * (runtime/monrank/clock.c) */
        struct timespec ts;
        char now[32];
        clock_gettime(CLOCK_MONOTONIC, &ts);
        kv_ent_t c = {.key = key, .val = now};
        c.len = (uint32_t)snprintf(now, sizeof now, "%lld",
                                   (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
        kv_reply(h, p, &c);
        return;
    }
    if (e) {
        kv_reply(h, p, e);
        return;
    }
    kv_wait_t *w = calloc(1, sizeof *w);
    if (!w || !(w->key = strdup(key))) {
        free(w);
        return;
    }
    w->rank = p->rank;
    w->inc = p->inc;
    w->next = h->kv_waits;
    h->kv_waits = w;
}

void head_kv_free(head_t *h)
{
    for (int i = 0; i < KV_BUCKETS; i++)
        while (h->kv[i]) {
            kv_ent_t *e = h->kv[i];
            h->kv[i] = e->next;
            free(e->key);
            free(e->val);
            free(e);
        }
    while (h->kv_waits) {
        kv_wait_t *w = h->kv_waits;
        h->kv_waits = w->next;
        free(w->key);
        free(w);
    }
}

/* ---------------------------------------------------------------- fences */

/* A fence's participants are the processes live (and not past their
 * finalize) when it starts; entries from processes started later go to the
 * next fence. A participant that fails is no longer waited for. */
static void fence_start(head_t *h)
{
    h->fence_active = 1;
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *p = &h->procs[r];
        p->fence_part = head_live(p) && !p->fin_done;
        p->fence_part_inc = p->inc;
        p->fence_in = p->fence_fin = 0;
    }
}

static int fence_complete(head_t *h)
{
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *p = &h->procs[r];
        if (p->fence_part && p->fence_part_inc == p->inc && head_live(p) &&
            !p->fence_in)
            return 0;
    }
    return 1;
}

static void fence_check(head_t *h)
{
    while (h->fence_active && fence_complete(h)) {
        int next = 0;
        for (int r = 0; r < h->nprocs; r++) {
            head_proc_t *p = &h->procs[r];
            if (p->fence_in && head_live(p)) {
                if (p->fence_fin)
                    p->fin_done = 1;
                head_to_rank(h, p, p->fence_fin ? PR_FINALIZE_DONE
                                                : PR_FENCE_DONE, NULL);
            }
            p->fence_in = p->fence_fin = p->fence_part = 0;
            next |= p->next_in;
        }
        h->fence_active = 0;
        if (!next)
            return;
        fence_start(h);
        for (int r = 0; r < h->nprocs; r++) {
            head_proc_t *p = &h->procs[r];
            if (p->next_in && p->fence_part) {
                p->fence_in = 1;
                p->fence_fin = p->next_fin;
            }
            p->next_in = p->next_fin = 0;
        }
    }
}

void head_fence_enter(head_t *h, head_proc_t *p, int is_finalize)
{
    if (!h->fence_active)
        fence_start(h);
    if (p->fence_part && p->fence_part_inc == p->inc && !p->fence_in) {
        p->fence_in = 1;
        p->fence_fin = is_finalize;
    } else {
        p->next_in = 1;
        p->next_fin = is_finalize;
    }
    fence_check(h);
    /* A finalizing process leaves any recovery round it has not joined. */
    if (is_finalize)
        head_sync_check(h);
}

/* -------------------------------------------------------- recovery rounds */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int in_round(const head_proc_t *p)
{
    return head_live(p) && !p->finalized;
}

static void round_finish(head_t *h)
{
    /* The failed ranks, ascending, each once. */
    int n = h->nfailed_since, nf = 0;
    int *failed = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!failed)
        return;
    memcpy(failed, h->failed_since, sizeof(int) * (size_t)n);
    qsort(failed, (size_t)n, sizeof(int), cmp_int);
    for (int i = 0; i < n; i++)
        if (nf == 0 || failed[nf - 1] != failed[i])
            failed[nf++] = failed[i];

    h->generation++;
    int participants = 0;
    for (int host = 0; host < h->nhosts; host++) {
        proto_buf_t b;
        proto_buf_init(&b);
        proto_put_u32(&b, h->generation);
        proto_put_i32(&b, h->nprocs);
        proto_put_i32(&b, nf);
        for (int i = 0; i < nf; i++)
            proto_put_i32(&b, failed[i]);
        for (int r = 0; r < h->nprocs; r++) {
            head_proc_t *q = &h->procs[r];
            int alive = head_live(q);
            proto_put_i32(&b, alive);
            proto_put_i32(&b, alive ? (q->mpi_pid ? q->mpi_pid : q->pid) : 0);
            proto_put_i32(&b, q->hostid == host ? q->slot : -1);
            proto_put_u32(&b, q->inc);
        }
        for (int r = 0; r < h->nprocs; r++)
            proto_put_i32(&b, h->procs[r].hostid);
        for (int r = 0; r < h->nprocs; r++) {
            head_proc_t *q = &h->procs[r];
            if (q->hostid == host && q->joined && head_live(q)) {
                head_to_rank(h, q, PR_EV_RECOVERED, &b);
                participants++;
            }
        }
        proto_buf_free(&b);
    }
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *q = &h->procs[r];
        q->joined = 0;
        if (q->state == HP_JOINING)
            q->state = HP_OK;
    }
    for (int i = 0; i < h->nfails; i++)
        h->fails[i].recovered = 1;
    h->nfailed_since = 0;
    h->round_active = 0;
    char list[4096];
    evlog_event(&h->log, "recovery_end",
                "\"generation\":%u,\"failed\":%s,\"participants\":%d,"
                "\"duration_s\":%.6f", h->generation,
                evlog_int_list(list, sizeof list, failed, nf), participants,
                evloop_now() - h->round_t0);
    if (h->o->verbose)
        fprintf(stderr, "ftmpirun: recovery round done: generation %u, "
                "%d failed, %d participants, %.3f ms\n", h->generation, nf,
                participants, (evloop_now() - h->round_t0) * 1e3);
    free(failed);
}

/* A round's result is the same for everyone or there is none: once some
 * process has finalized, it cannot take part in the recovery (nor in the
 * survivors' callbacks), so every joined process is told that the round
 * will not run; the failures stay unrecovered and the job's exit status
 * says so (docs/runtime.md). */
static void send_generation(head_t *h, head_proc_t *p, uint32_t type)
{
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_u32(&b, h->generation + 1);
    head_to_rank(h, p, type, &b);
    proto_buf_free(&b);
}

static void round_refuse(head_t *h)
{
    int n = 0;
    for (int r = 0; r < h->nprocs; r++) {
        head_proc_t *q = &h->procs[r];
        if (q->joined && head_live(q)) {
            send_generation(h, q, PR_EV_REFUSED);
            n++;
        }
        q->joined = 0;
    }
    h->round_active = 0;
    evlog_event(&h->log, "recovery_refused",
                "\"generation\":%u,\"participants\":%d,\"reason\":\"finalizing\"",
                h->generation + 1, n);
    if (h->o->verbose)
        fprintf(stderr, "ftmpirun: recovery round refused: the job is finalizing\n");
}

static void round_check(head_t *h)
{
    if (!h->round_active || h->phase != PH_RUN)
        return;
    if (h->any_finalized) {
        round_refuse(h);
        return;
    }
    for (int r = 0; r < h->nprocs; r++) {
        const head_proc_t *p = &h->procs[r];
        if (in_round(p) && !p->joined)
            return;
    }
    round_finish(h);
}

void head_recovery_join(head_t *h, head_proc_t *p, uint32_t known)
{
    if (!in_round(p) || p->joined)
        return;
    if (!h->round_active) {
        if (known < h->generation) {
            /* It has not yet read the result of a round it took part in. */
            evlog_event(&h->log, "recovery_stale_join",
                        "\"rank\":%d,\"known_generation\":%u,"
                        "\"generation\":%u", p->rank, known, h->generation);
            return;
        }
        h->round_active = 1;
        h->round_t0 = evloop_now();
        evlog_event(&h->log, "recovery_start",
                    "\"generation\":%u,\"initiator\":%d,\"pending_failures\":%d",
                    h->generation + 1, p->rank, h->nfailed_since);
        /* Tell every other process that the round waits for it: one
         * blocked in an operation that does not involve the failed process
         * would otherwise never learn that it has to join (docs/ft.md). */
        if (!h->any_finalized)
            for (int r = 0; r < h->nprocs; r++) {
                head_proc_t *q = &h->procs[r];
                if (q != p && in_round(q) && !q->joined)
                    send_generation(h, q, PR_EV_ROUND);
            }
    }
    p->joined = 1;
    round_check(h);
    head_agree_check(h); /* votes it will not cast */
}

/* ------------------------------------------------------------- common */

void head_sync_proc_gone(head_t *h, head_proc_t *p)
{
    for (kv_wait_t **pw = &h->kv_waits; *pw;) {
        kv_wait_t *w = *pw;
        if (w->rank == p->rank && w->inc == p->inc) {
            *pw = w->next;
            free(w->key);
            free(w);
        } else {
            pw = &w->next;
        }
    }
    p->joined = 0;
    p->next_in = p->next_fin = 0;
}

void head_sync_check(head_t *h)
{
    fence_check(h);
    round_check(h);
    head_agree_check(h);
}
