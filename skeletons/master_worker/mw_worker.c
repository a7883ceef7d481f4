/*
 * A worker (every launch rank but 0).
 *
 * It JOINs (at start and after every recovery, with its launch rank) and
 * waits for the master's WELCOME; then it runs the tasks it receives, in
 * order, and sends each result. On STOP it answers ACK and waits for
 * FINAL, still taking part in recoveries, so that the master never waits
 * for a worker that has left.
 *
 * A result whose send did not complete before a recovery is sent again
 * after the JOIN (the master drops it if the task was done meanwhile);
 * tasks received but not started are dropped (the master hands every
 * unfinished task out again).
 *
 * The one bounded wait: after a recovery that the master survived, a
 * worker whose JOIN gets no WELCOME within `linger_s` concludes that the
 * master has finished and left (it sent FINAL, which the recovery
 * discarded) and returns. Only a master that has left can be silent that
 * long: a master still running answers a JOIN at once.
 */
#include "mw_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct wtask {
    struct wtask *next;
    int64_t index;
    mw_buf_t buf;
} wtask_t;

typedef struct worker {
    mw_net_t *n;
    const mw_ops_t *ops;
    const mw_config_t *cfg;
    int waiting;       /* JOIN sent, no WELCOME yet */
    int stopped;       /* STOP received */
    int after_recovery;
    int epoch;
    long started;      /* tasks started here (fault point values) */
    wtask_t *q_head, *q_tail;
    mw_buf_t res;
} worker_t;

static void drop_tasks(worker_t *w)
{
    while (w->q_head) {
        wtask_t *t = w->q_head;
        w->q_head = t->next;
        free(t->buf.data);
        free(t);
    }
    w->q_tail = NULL;
}

static int send_result(worker_t *w, int64_t index, int flags, const void *p, size_t len)
{
    int rc = mw_net_send(w->n, 0, MW_K_RESULT, index, w->epoch, flags, p, len);
    if (rc == MW_FAIL) {
        /* Not sent: keep it for after the recovery. */
        mw_unsent_t *u = calloc(1, sizeof(*u));
        if (u && (u->data = malloc(len ? len : 1))) {
            u->index = index;
            u->flags = flags;
            u->len = len;
            if (len)
                memcpy(u->data, p, len);
            u->next = w->n->unsent;
            w->n->unsent = u;
        } else {
            free(u);
        }
    }
    return rc;
}

static int run_task(worker_t *w)
{
    wtask_t *t = w->q_head;
    w->q_head = t->next;
    if (!w->q_head)
        w->q_tail = NULL;
    mw_fault_point("mw_task", w->started);
    int rc = w->ops->work(w->ops->arg, t->index, t->buf.data, t->buf.len, &w->res);
    mw_fault_point("mw_result", w->started);
    w->started++;
    if (rc < 0) {
        char msg[64];
        int len = snprintf(msg, sizeof msg, "work returned %d", rc);
        rc = send_result(w, t->index, MW_F_ERROR, msg, (size_t)len);
    } else {
        rc = send_result(w, t->index, 0, w->res.data, w->res.len);
    }
    free(t->buf.data);
    free(t);
    return rc;
}

static int join(worker_t *w)
{
    w->waiting = 1;
    mw_fault_point("mw_join", w->n->recoveries);
    return mw_net_send(w->n, 0, MW_K_JOIN, 0, w->epoch, w->stopped ? MW_F_STOPPED : 0, NULL, 0);
}

/* After the WELCOME: the results that a failure kept from the master. */
static int resend(worker_t *w)
{
    int rc = MW_OK;
    while (rc == MW_OK && w->n->unsent) {
        mw_unsent_t *u = w->n->unsent;
        w->n->unsent = u->next;
        rc = send_result(w, u->index, u->flags, u->data, u->len);
        free(u->data);
        free(u);
    }
    return rc;
}

/* Print once (on the lowest live rank) that the master is gone. */
static void report_master_lost(worker_t *w)
{
    mw_net_t *n = w->n;
    int lowest = 0;
    while (lowest < n->size && n->gap[lowest])
        lowest++;
    if (n->rank == lowest)
        fprintf(stderr,
                "mw: the master (launch rank 0) failed; it is the single point of failure of "
                "the master-worker skeleton (comm mode %s): stopping. Results consumed before "
                "its failure were consumed once; the others were not.\n",
                mw_mode_name(n->mode));
}

static int recover(worker_t *w)
{
    int rc = mw_recover(w->n);
    if (rc != MW_OK)
        return rc;
    if (w->n->master_failed) {
        report_master_lost(w);
        return MW_ERR_MASTER_LOST;
    }
    drop_tasks(w);
    w->after_recovery = 1;
    return MW_OK;
}

static int on_message(worker_t *w, mw_msg_t *msg, int *done_p)
{
    mw_hdr_t *h = &msg->h;
    if (h->kind == MW_K_FINAL) {
        *done_p = 1;
        return (int)h->index;
    }
    if (w->waiting && h->kind != MW_K_WELCOME)
        return MW_OK; /* from before the recovery */
    if (h->kind == MW_K_RECOVER && h->epoch == w->epoch) {
        /* The master missed a failure, and so did this worker (the others
         * would have recovered instead of working with it). */
        w->n->fail = 1;
        return MW_FAIL;
    }
    switch (h->kind) {
    case MW_K_WELCOME:
        w->waiting = 0;
        w->after_recovery = 0;
        w->epoch = h->epoch;
        return resend(w);
    case MW_K_TASK: {
        if (w->stopped || h->epoch < w->epoch)
            return MW_OK;
        wtask_t *t = calloc(1, sizeof(*t));
        if (!t)
            return MW_ERR_NOMEM;
        t->index = h->index;
        t->buf = msg->pay; /* take the payload */
        msg->pay.data = NULL;
        if (w->q_tail)
            w->q_tail->next = t;
        else
            w->q_head = t;
        w->q_tail = t;
        return MW_OK;
    }
    case MW_K_STOP:
        drop_tasks(w);
        w->stopped = 1;
        mw_fault_point("mw_stop", 0);
        return mw_net_send(w->n, 0, MW_K_ACK, 0, w->epoch, 0, NULL, 0);
    default:
        return MW_OK;
    }
}

static int loop(worker_t *w)
{
    mw_net_t *n = w->n;
    int rc = join(w);
    for (;;) {
        if (rc == MW_FAIL) {
            if ((rc = recover(w)) != MW_OK)
                return rc;
            rc = join(w);
            continue;
        }
        if (rc != MW_OK)
            return rc;
        if (!w->waiting && !w->stopped && w->q_head && !mw_net_pending(n)) {
            rc = run_task(w);
            continue;
        }
        double timeout = w->waiting && w->after_recovery ? w->cfg->linger_s : -1;
        mw_msg_t *msg = NULL;
        rc = mw_net_next(n, &msg, timeout);
        if (rc == MW_TIMEOUT) {
            /* No WELCOME within linger_s of a recovery. A stopped worker
             * concludes that the master has finished (its FINAL was lost
             * to the recovery). Any other worker cannot have been left
             * behind: the master is in a newer recovery that this process
             * does not know it must join (docs, "Library issues"). */
            mw_dbg(n, "no answer from the master %.1f s after a recovery: %s", timeout,
                   w->stopped ? "it has finished" : "recovering again");
            if (w->stopped)
                return MW_OK;
            n->fail = 1;
            rc = MW_FAIL;
            continue;
        }
        if (rc != MW_OK)
            continue;
        int done = 0;
        rc = on_message(w, msg, &done);
        mw_msg_free(msg);
        if (done)
            return rc;
    }
}

int mw_worker_run(mw_net_t *n, const mw_ops_t *ops, const mw_config_t *cfg, mw_stats_t *st)
{
    worker_t w;
    memset(&w, 0, sizeof(w));
    w.n = n;
    w.ops = ops;
    w.cfg = cfg;
    w.after_recovery = n->recoveries > 0; /* a REBUILD replacement */
    int rc;
    if (n->master_failed) {
        report_master_lost(&w);
        rc = MW_ERR_MASTER_LOST;
    } else {
        rc = loop(&w);
    }
    drop_tasks(&w);
    free(w.res.data);
    if (st)
        st->role = 1;
    return rc;
}
