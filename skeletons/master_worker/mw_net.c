/*
 * The skeleton's communication: its own communicator (a duplicate of
 * MPI_COMM_WORLD, replaced at every recovery), MW_NPOST wildcard header
 * receives always posted, a queue of received messages, and an outbox of
 * non-blocking sends. Every wait includes the posted wildcard receives, so
 * a failure anywhere ends every wait (RESET and CONT alike).
 *
 * After a failure has been seen (n->fail), sends are suppressed and
 * mw_net_next hands out the messages already received, then MW_FAIL: the
 * caller recovers (mw_recover) and starts again on the new communicator.
 */
#include "mw_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ errors */

int mw_net_classify(mw_net_t *n, int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return MW_OK;
    int cls = rc;
    MPI_Error_class(rc, &cls);
    /* A process failure (FT-MPI reports MPI_ERR_OTHER); a gap of a BLANK
     * communicator is one too, seen from a message still addressed to it. */
    if (cls == MPI_ERR_OTHER || cls == MPI_ERR_RANK) {
        if (!n->fail)
            mw_dbg(n, "failure seen in %s (class %d)", what, cls);
        n->fail = 1;
        return MW_FAIL;
    }
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    fprintf(stderr, "mw: rank %d: %s failed: %s\n", n->rank, what, s);
    return MW_ERR_MPI;
}

/* ------------------------------------------------------------ waiting */

static int scratch(mw_net_t *n, int need)
{
    if (need <= n->wcap)
        return MW_OK;
    int cap = n->wcap ? n->wcap : 16;
    while (cap < need)
        cap *= 2;
    MPI_Request *r = realloc(n->wreq, (size_t)cap * sizeof(*r));
    if (r)
        n->wreq = r;
    mw_out_t **o = realloc(n->wout, (size_t)cap * sizeof(*o));
    if (o)
        n->wout = o;
    int *j = realloc(n->wj, (size_t)cap * sizeof(*j));
    if (j)
        n->wj = j;
    if (!r || !o || !j)
        return MW_ERR_NOMEM;
    n->wcap = cap;
    return MW_OK;
}

/* Wait until something completes: a header slot (queued), `target`
 * (*target becomes MPI_REQUEST_NULL), or a send. deadline < 0: no limit.
 * for_sends: the caller waits for the sends (mw_net_flush): return as soon
 * as none is left, which the reap below may find (without it the wait
 * went on to the deadline on the header slots alone).
 * MW_OK, MW_FAIL, MW_TIMEOUT or MW_ERR_*. */
static int net_wait(mw_net_t *n, MPI_Request *target, double deadline, int for_sends)
{
    int rc = mw_out_reap(n);
    if (rc != MW_OK || (for_sends && !n->out))
        return rc;
    if (n->zombies)
        mw_net_reap_zombies(n);
    int nout = 0;
    for (mw_out_t *o = n->out; o; o = o->next)
        nout++;
    if ((rc = scratch(n, MW_NPOST + 1 + 2 * nout)) != MW_OK)
        return rc;
    int k = 0;
    for (int i = 0; i < MW_NPOST; i++, k++) {
        n->wreq[k] = n->post[i];
        n->wout[k] = NULL;
        n->wj[k] = i;
    }
    if (target) {
        n->wreq[k] = *target;
        n->wout[k] = NULL;
        n->wj[k++] = -1;
    }
    for (mw_out_t *o = n->out; o; o = o->next)
        for (int j = 0; j < 2; j++)
            if (o->req[j] != MPI_REQUEST_NULL) {
                n->wreq[k] = o->req[j];
                n->wout[k] = o;
                n->wj[k++] = j;
            }
    int idx = MPI_UNDEFINED, flag = 0;
    MPI_Status st;
    if (deadline < 0) {
        rc = MPI_Waitany(k, n->wreq, &idx, &st);
    } else {
        /* Bounded wait: poll briefly, then sleep between polls. */
        double pause = 1e-5;
        for (int spins = 0;; spins++) {
            rc = MPI_Testany(k, n->wreq, &idx, &flag, &st);
            if (rc != MPI_SUCCESS || (flag && idx != MPI_UNDEFINED))
                break;
            if (flag) /* nothing active */
                break;
            if (mw_now() >= deadline)
                return MW_TIMEOUT;
            if (spins > 100) {
                mw_sleep_s(pause);
                if (pause < 1e-3)
                    pause *= 2;
            }
        }
    }
    if (idx == MPI_UNDEFINED)
        return rc == MPI_SUCCESS ? (n->fail ? MW_FAIL : MW_OK) : mw_net_classify(n, rc, "MPI_Waitany");
    /* Put the (now null) handle back where it came from. */
    MPI_Request nr = n->wreq[idx];
    mw_out_t *o = n->wout[idx];
    if (o)
        o->req[n->wj[idx]] = nr;
    else if (n->wj[idx] >= 0)
        n->post[n->wj[idx]] = nr;
    else
        *target = nr;
    if (rc != MPI_SUCCESS) {
        if (o)
            mw_out_failed(n, o);
        if (!o && n->wj[idx] < 0)
            return MW_LOST; /* the payload's receive: not necessarily a failure */
        return mw_net_classify(n, rc, "MPI_Waitany");
    }
    if (!o && n->wj[idx] >= 0)
        return mw_slot_done(n, n->wj[idx], &st);
    return MW_OK;
}

/* Complete the header receives that can be, without waiting. */
static void poll_slots(mw_net_t *n)
{
    for (int i = 0; i < MW_NPOST && !n->fail; i++) {
        if (n->post[i] == MPI_REQUEST_NULL)
            continue;
        int flag = 0;
        MPI_Status st;
        int rc = MPI_Test(&n->post[i], &flag, &st);
        if (rc != MPI_SUCCESS) {
            n->post[i] = MPI_REQUEST_NULL;
            mw_net_classify(n, rc, "MPI_Test");
            return;
        }
        if (flag && mw_slot_done(n, i, &st) != MW_OK)
            return;
    }
}

int mw_net_pending(mw_net_t *n)
{
    if (n->q_head)
        return 1;
    poll_slots(n);
    return n->q_head != NULL || n->fail; /* a failure is news too */
}

int mw_net_next(mw_net_t *n, mw_msg_t **msg_p, double timeout)
{
    double deadline = timeout < 0 ? -1 : mw_now() + timeout;
    *msg_p = NULL;
    for (;;) {
        mw_msg_t *m = n->q_head;
        if (m && m->preq == MPI_REQUEST_NULL && !m->repost) {
            m = mw_queue_pop(n);
            if (m->discard) {
                mw_msg_free(m);
                continue;
            }
            *msg_p = m;
            return MW_OK;
        }
        if (n->fail)
            return MW_FAIL; /* the rest of the queue is for mw_recover */
        int rc = net_wait(n, m ? &m->preq : NULL, deadline, 0);
        if (rc == MW_LOST) {
            /* The payload's receive failed. Either a process failed (a
             * wildcard receive fails at any failure; the header receives
             * fail too, and CONT may still deliver the payload after the
             * recovery), or its sender had died before (a message left
             * over from before a recovery): then drop it. */
            poll_slots(n);
            if (n->fail && mw_net_is_cont(n)) {
                m->repost = 1;
            } else {
                mw_dbg(n, "payload of %s index %lld from launch rank %d lost%s",
                       mw_kind_name(m->h.kind), (long long)m->h.index, m->h.id,
                       n->fail ? "" : " (its sender had failed)");
                mw_msg_free(mw_queue_pop(n));
            }
            continue;
        }
        if (rc == MW_FAIL)
            continue; /* hand out what is queued first */
        if (rc != MW_OK)
            return rc;
    }
}

int mw_net_flush(mw_net_t *n, double timeout)
{
    double deadline = timeout < 0 ? -1 : mw_now() + timeout;
    for (;;) {
        int rc = mw_out_reap(n);
        if (rc != MW_OK || !n->out)
            return rc;
        if ((rc = net_wait(n, NULL, deadline, 1)) != MW_OK)
            return rc;
    }
}

/* ------------------------------------------------------------ open, close */

void mw_net_close(mw_net_t *n)
{
    mw_net_retire_slots(n);
    for (int i = 0; i < MW_NPOST; i++) {
        free(n->postbuf[i]);
        n->postbuf[i] = NULL;
    }
    if (mw_net_await_payloads(n, 2.0))
        mw_dbg(n, "a payload from before a recovery did not arrive");
    mw_msg_t *m;
    while ((m = mw_queue_pop(n)))
        mw_msg_free(m);
    mw_net_retire_outbox(n);
    /* Sends from before a recovery (CONT) complete when their receiver
     * reads them, which it does before it lets anyone leave; give them a
     * moment. MPI_Finalize waits for every send, so one that cannot
     * complete is reported. */
    double until = mw_now() + 2.0, pause = 1e-5;
    while (n->zombies && mw_now() < until) {
        mw_net_reap_zombies(n);
        mw_sleep_s(pause);
        if (pause < 1e-3)
            pause *= 2;
    }
    if (n->zombies)
        fprintf(stderr, "mw: launch rank %d: a message sent before a recovery was never received; "
                        "MPI_Finalize may wait for it\n", n->id);
    for (mw_out_t *o = n->zombies; o; o = o->next)
        mw_dbg(n, "unreceived: %s index %lld", mw_kind_name(o->kind), (long long)o->index);
    while (n->zombies) {
        mw_out_t *o = n->zombies;
        n->zombies = o->next;
        for (int j = 0; j < 2; j++)
            if (o->req[j] != MPI_REQUEST_NULL)
                MPI_Request_free(&o->req[j]);
    }
    while (n->unsent) {
        mw_unsent_t *u = n->unsent;
        n->unsent = u->next;
        free(u->data);
        free(u);
    }
    if (n->comm != MPI_COMM_NULL)
        MPI_Comm_free(&n->comm);
    free(n->gap);
    free(n->id_of_rank);
    free(n->failed_ids);
    n->id_of_rank = NULL;
    n->failed_ids = NULL;
    free(n->wreq);
    free(n->wout);
    free(n->wj);
    n->gap = NULL;
    n->wreq = NULL;
    n->wout = NULL;
    n->wj = NULL;
}

/* Something that changes at every recovery: the FTMPI_ERROR_FAILURE code. */
static int recovery_mark(void)
{
#ifdef FTMPI_ERROR_FAILURE
    int *ec = NULL, flag = 0;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_ERROR_FAILURE, &ec, &flag) == MPI_SUCCESS && flag && ec)
        return *ec;
#endif
    return 0;
}

int mw_net_open(mw_net_t *n, int restarted)
{
    n->comm = MPI_COMM_NULL;
    for (int i = 0; i < MW_NPOST; i++)
        n->post[i] = MPI_REQUEST_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &n->id);
    MPI_Comm_size(MPI_COMM_WORLD, &n->size);
    n->rank = n->id;
    n->mode = -1;
#ifdef FTMPI_COMM_MODE
    int *mode, flag = 0;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag) == MPI_SUCCESS && flag)
        n->mode = *mode;
#endif
    n->gap = calloc((size_t)n->size, sizeof(int));
    n->id_of_rank = malloc(sizeof(int) * (size_t)n->size);
    if (!n->gap || !n->id_of_rank)
        return MW_ERR_NOMEM;
    for (int r = 0; r < n->size; r++)
        n->id_of_rank[r] = r;
    n->nids = n->size;
    /* Payload tags: a range of its own for every launch rank. */
    int *ub = NULL, has_ub = 0;
    long tag_ub = 32767;
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &has_ub) == MPI_SUCCESS && has_ub && ub)
        tag_ub = *ub;
    n->pay_tags = (int)((tag_ub - MW_TAG_PAY) / n->size);
    if (n->pay_tags < 1) {
        fprintf(stderr, "mw: MPI_TAG_UB %ld is too small for %d processes\n", tag_ub, n->size);
        return MW_ERR_MPI;
    }
    /* A replacement must not reuse the tags of the process it replaces. */
    n->seq = (uint32_t)getpid() * 2654435761u;
    n->msg_mode = -1;
#ifdef FTMPI_MSG_MODE
    if (MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_MSG_MODE, &mode, &flag) == MPI_SUCCESS && flag)
        n->msg_mode = *mode;
#endif
    /* A REBUILD replacement's first MPI_Comm_dup(MPI_COMM_WORLD) returns
     * its copy of the survivors' recovery duplicate (no communication). For
     * the others it is an ordinary dup, or, when a process has failed
     * already, a recovery: the recovery attributes tell which. */
    int before = recovery_mark();
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (rc != MPI_SUCCESS) {
        /* A process failed before the skeleton's communicator existed. */
        n->fail = 1;
        return mw_recover(n);
    }
    n->comm = c;
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    MPI_Comm_rank(c, &n->rank);
    MPI_Comm_size(c, &n->size);
    if (restarted || recovery_mark() != before) {
        n->recoveries = 1;
        mw_dbg(n, "%s", restarted ? "a replacement" : "a process failed before the start");
        int rc2 = mw_read_failures(n);
        if (rc2 != MW_OK && rc2 != MW_FAIL)
            return rc2;
    }
    return mw_net_post(n);
}

