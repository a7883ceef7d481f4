/*
 * The master (launch rank 0).
 *
 * RUN       hand out tasks (at most `depth` per worker), consume results;
 *           a result is consumed only if its task is still outstanding.
 * STOPPING  every task is done (or a user function failed): each worker is
 *           told STOP and answers ACK; a worker that (re)joins gets STOP.
 * leaving   when every live worker has acknowledged, each gets FINAL and
 *           the master returns.
 * After a recovery every worker is unknown until it JOINs again (with its
 * launch rank, so renumbering under SHRINK confuses nothing) and every
 * unfinished task is handed out again. With no worker left (SHRINK or
 * BLANK after all workers failed, or -np 1) the master runs the tasks
 * itself.
 */
#include "mw_int.h"

#include <stdlib.h>
#include <string.h>

enum { PH_RUN, PH_STOPPING };

typedef struct mw_wk {
    int joined, acked, inflight, id;
} mw_wk_t;

typedef struct master {
    mw_net_t *n;
    const mw_ops_t *ops;
    const mw_config_t *cfg;
    mw_ledger_t led;
    mw_wk_t *w; /* by current rank */
    int phase, err, rr;
    double rejoin_by; /* after a recovery: when every worker should have joined (0: none) */
    int64_t local;
    mw_progress_t prog;
    mw_buf_t res;
} master_t;

static int expected(const master_t *m, int r)
{
    return r > 0 && r < m->n->size && !m->n->gap[r];
}

static int nexpected(const master_t *m)
{
    int k = 0;
    for (int r = 1; r < m->n->size; r++)
        k += expected(m, r);
    return k;
}

static int all_acked(const master_t *m)
{
    for (int r = 1; r < m->n->size; r++)
        if (expected(m, r) && !(m->w[r].joined && m->w[r].acked))
            return 0;
    return 1;
}

static int64_t total(const master_t *m)
{
    if (m->cfg->ntasks >= 0)
        return m->cfg->ntasks;
    return m->led.gen_done ? m->led.next : -1;
}

static int reset_workers(master_t *m)
{
    free(m->w);
    m->w = calloc((size_t)m->n->size, sizeof(*m->w));
    return m->w ? MW_OK : MW_ERR_NOMEM;
}

static void consume(master_t *m, int64_t index, const void *data, size_t len)
{
    int rc = m->ops->consume(m->ops->arg, index, data, len);
    if (rc < 0 && !m->err) {
        fprintf(stderr, "mw: consume(%lld) returned %d\n", (long long)index, rc);
        m->err = MW_ERR_USER;
    }
    mw_progress_update(&m->prog, m->led.done, total(m), nexpected(m), 0);
    mw_fault_point("mw_consume", (long)m->led.done);
}

static void on_result(master_t *m, const mw_msg_t *msg)
{
    if (msg->h.flags & MW_F_ERROR) {
        if (!m->err)
            fprintf(stderr, "mw: work(%lld) failed on launch rank %d: %.*s\n",
                    (long long)msg->h.index, msg->h.id, (int)msg->pay.len, (const char *)msg->pay.data);
        m->err = MW_ERR_USER;
        return;
    }
    int holder;
    if (!mw_ledger_complete(&m->led, msg->h.index, &holder))
        return; /* done already: a duplicate */
    if (holder > 0 && holder < m->n->size && m->w[holder].inflight > 0)
        m->w[holder].inflight--;
    consume(m, msg->h.index, msg->pay.data, msg->pay.len);
}

static int send_to(master_t *m, int r, int kind, int64_t index, const void *p, size_t len)
{
    return mw_net_send(m->n, r, kind, index, m->n->recoveries, 0, p, len);
}

/* The sender's current rank, from its launch rank: a message sent before a
 * recovery (CONT) may carry its old rank as its source. */
static int sender(const master_t *m, const mw_msg_t *msg)
{
    int r = mw_rank_of_id(m->n, msg->h.id);
    return expected(m, r) ? r : -1;
}

static int on_join(master_t *m, const mw_msg_t *msg)
{
    int r = sender(m, msg);
    if (r < 0)
        return MW_OK;
    mw_wk_t *w = &m->w[r];
    if (!w->joined) {
        w->joined = 1;
        w->inflight = 0;
    }
    w->id = msg->h.id;
    w->acked = (msg->h.flags & MW_F_STOPPED) != 0;
    int rc = send_to(m, r, MW_K_WELCOME, 0, NULL, 0);
    if (rc == MW_OK && m->phase == PH_STOPPING && !w->acked)
        rc = send_to(m, r, MW_K_STOP, 0, NULL, 0);
    return rc;
}

/* Give every joined worker tasks up to `depth`, one per worker per pass. */
static int dispatch(master_t *m)
{
    if (m->phase != PH_RUN)
        return MW_OK;
    int size = m->n->size, progress = 1;
    while (progress) {
        progress = 0;
        for (int k = 0; k < size; k++) {
            int r = (m->rr + k) % size;
            mw_wk_t *w = &m->w[r];
            if (!expected(m, r) || !w->joined || w->acked || w->inflight >= m->cfg->depth)
                continue;
            mw_task_t *t;
            int rc = mw_ledger_take(&m->led, m->ops, r, &t);
            if (rc < 0) {
                m->err = rc;
                return MW_OK;
            }
            if (rc == 0)
                return MW_OK;
            w->inflight++;
            progress = 1;
            if ((rc = send_to(m, r, MW_K_TASK, t->index, t->data, t->len)) != MW_OK)
                return rc;
        }
        m->rr = (m->rr + 1) % size;
    }
    return MW_OK;
}

/* No worker left: run one task here. */
static void run_local(master_t *m)
{
    mw_task_t *t;
    int rc = mw_ledger_take(&m->led, m->ops, 0, &t);
    if (rc <= 0) {
        if (rc < 0)
            m->err = rc;
        return;
    }
    int64_t index = t->index;
    rc = m->ops->work(m->ops->arg, index, t->data, t->len, &m->res);
    if (rc < 0) {
        fprintf(stderr, "mw: work(%lld) returned %d\n", (long long)index, rc);
        m->err = MW_ERR_USER;
        return;
    }
    int holder;
    if (mw_ledger_complete(&m->led, index, &holder)) {
        m->local++;
        consume(m, index, m->res.data, m->res.len);
    }
}

static int recover(master_t *m)
{
    mw_net_t *n = m->n;
    int rc = mw_recover(n);
    if (rc != MW_OK)
        return rc;
    m->rejoin_by = mw_now() + m->cfg->linger_s;
    int64_t again = mw_ledger_unassign_all(&m->led);
    if ((rc = reset_workers(m)) != MW_OK)
        return rc;
    if (n->verbose) {
        char list[256];
        int len = 0;
        list[0] = 0;
        for (int i = 0; i < n->nfailed_last && i < 64 && len < 200; i++)
            len += snprintf(list + len, sizeof list - (size_t)len, "%s%d", i ? ", " : "",
                            n->failed_last[i]);
        int k = nexpected(m);
        mw_progress_note(&m->prog,
                         "mw: recovered (%s) from the failure of rank%s %s; %d worker%s, "
                         "%lld task%s to hand out again\n",
                         mw_mode_name(n->mode), n->nfailed_last == 1 ? "" : "s", list, k,
                         k == 1 ? "" : "s", (long long)again, again == 1 ? "" : "s");
    }
    return MW_OK;
}

/*
 * After a recovery every live worker JOINs at once. If some have not
 * within linger_s, they are in a newer recovery that this process does not
 * know it must join: it learnt of that failure while still inside the
 * previous recovery, and the library lost it (docs/master_worker.md,
 * "Library issues"). The workers that did join are in the same state. So:
 * tell them to recover, and recover.
 */
static double join_timeout(master_t *m)
{
    if (m->rejoin_by == 0)
        return -1;
    for (int r = 1; r < m->n->size; r++)
        if (expected(m, r) && !m->w[r].joined) {
            double left = m->rejoin_by - mw_now();
            return left > 0 ? left : 0;
        }
    m->rejoin_by = 0; /* everyone is back */
    return -1;
}

static int missed_failure(master_t *m)
{
    mw_net_t *n = m->n;
    mw_dbg(n, "not every worker joined within %.1f s of the recovery: recovering again",
           m->cfg->linger_s);
    for (int r = 1; r < n->size; r++)
        if (expected(m, r) && m->w[r].joined)
            send_to(m, r, MW_K_RECOVER, 0, NULL, 0);
    mw_net_flush(n, 1.0);
    n->fail = 1;
    return MW_FAIL;
}

static int loop(master_t *m)
{
    mw_net_t *n = m->n;
    for (;;) {
        int rc = MW_OK;
        if (m->phase == PH_RUN && (m->err || mw_ledger_finished(&m->led))) {
            m->phase = PH_STOPPING;
            for (int r = 1; r < n->size && rc == MW_OK; r++)
                if (expected(m, r) && m->w[r].joined && !m->w[r].acked)
                    rc = send_to(m, r, MW_K_STOP, 0, NULL, 0);
        }
        if (rc == MW_OK && m->phase == PH_STOPPING && all_acked(m)) {
            /* Leave: FINAL to everyone (failures now are not waited for:
             * a worker that misses FINAL finds the master gone, see docs). */
            for (int r = 1; r < n->size; r++)
                if (expected(m, r))
                    send_to(m, r, MW_K_FINAL, m->err, NULL, 0);
            mw_net_flush(n, 5.0);
            return m->err;
        }
        if (rc == MW_OK && nexpected(m) == 0 && !mw_net_pending(n)) {
            run_local(m);
            continue;
        }
        if (rc == MW_OK)
            rc = dispatch(m);
        mw_msg_t *msg = NULL;
        if (rc == MW_OK)
            rc = mw_net_next(n, &msg, join_timeout(m));
        if (rc == MW_TIMEOUT)
            rc = missed_failure(m);
        if (rc == MW_FAIL) {
            if ((rc = recover(m)) != MW_OK)
                return rc;
            continue;
        }
        if (rc != MW_OK)
            return rc;
        switch (msg->h.kind) {
        case MW_K_JOIN:
            rc = on_join(m, msg);
            break;
        case MW_K_RESULT:
            on_result(m, msg);
            break;
        case MW_K_ACK: {
            int r = sender(m, msg);
            if (r > 0 && m->w[r].joined)
                m->w[r].acked = 1;
            break;
        }
        default:
            break;
        }
        mw_msg_free(msg);
        if (rc == MW_FAIL) {
            if ((rc = recover(m)) != MW_OK)
                return rc;
        } else if (rc != MW_OK) {
            return rc;
        }
    }
}

int mw_master_run(mw_net_t *n, const mw_ops_t *ops, const mw_config_t *cfg, mw_stats_t *st)
{
    master_t m;
    memset(&m, 0, sizeof(m));
    m.n = n;
    m.ops = ops;
    m.cfg = cfg;
    mw_ledger_init(&m.led);
    mw_progress_init(&m.prog, cfg);
    int rc = reset_workers(&m);
    if (rc == MW_OK)
        rc = loop(&m);
    double el = mw_now() - m.prog.t0;
    mw_progress_update(&m.prog, m.led.done, total(&m), nexpected(&m), 1);
    mw_progress_end(&m.prog);
    if (n->verbose && (m.prog.shown || n->recoveries > 0))
        mw_progress_note(&m.prog,
                         "mw: %lld tasks done in %.2f s (%.1f tasks/s); %d recover%s, %d failed "
                         "process%s, %lld task%s handed out again, %lld duplicate result%s dropped%s\n",
                         (long long)m.led.done, el, el > 0 ? (double)m.led.done / el : 0.0,
                         n->recoveries, n->recoveries == 1 ? "y" : "ies", n->failed_procs,
                         n->failed_procs == 1 ? "" : "es", (long long)m.led.reissued,
                         m.led.reissued == 1 ? "" : "s", (long long)m.led.duplicates,
                         m.led.duplicates == 1 ? "" : "s",
                         m.local ? ", some run by the master itself" : "");
    if (st) {
        st->role = 0;
        st->tasks = m.led.done;
        st->reissued = m.led.reissued;
        st->duplicates = m.led.duplicates;
        st->local = m.local;
        st->seconds = el;
    }
    free(m.w);
    free(m.res.data);
    mw_ledger_free(&m.led);
    return rc;
}
