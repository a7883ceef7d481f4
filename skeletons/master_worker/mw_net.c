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

/* ------------------------------------------------------------ messages */

void mw_msg_free(mw_msg_t *m)
{
    if (!m)
        return;
    if (m->preq != MPI_REQUEST_NULL) {
        MPI_Cancel(&m->preq);
        MPI_Wait(&m->preq, MPI_STATUS_IGNORE);
    }
    free(m->pay.data);
    free(m);
}

static void queue_push(mw_net_t *n, mw_msg_t *m)
{
    m->next = NULL;
    if (n->q_tail)
        n->q_tail->next = m;
    else
        n->q_head = m;
    n->q_tail = m;
}

static mw_msg_t *queue_pop(mw_net_t *n)
{
    mw_msg_t *m = n->q_head;
    if (m) {
        n->q_head = m->next;
        if (!n->q_head)
            n->q_tail = NULL;
        m->next = NULL;
    }
    return m;
}

/*
 * Before a recovery. RESET: the old generation's messages are gone; keep
 * the results already here in full. CONT: messages sent before the
 * recovery are still delivered, so a payload whose header is here must
 * still be received, or its sender's send never completes (and MPI_Finalize
 * waits for it): its receive is taken back and posted again on the new
 * communicator (mw_net_repost_queue); other kinds than results are then
 * discarded once their payload is in.
 */
static int is_cont(const mw_net_t *n)
{
#ifdef FTMPI_MSG_MODE_CONT
    return n->msg_mode == FTMPI_MSG_MODE_CONT;
#else
    (void)n;
    return 0;
#endif
}

void mw_net_drop_queue(mw_net_t *n, int keep_results)
{
    mw_msg_t *keep_h = NULL, *keep_t = NULL, *m;
    int cont = is_cont(n);
    while ((m = queue_pop(n))) {
        int whole = m->preq == MPI_REQUEST_NULL && !m->repost;
        if (m->preq != MPI_REQUEST_NULL) {
            int flag = 0;
            MPI_Status st;
            if (MPI_Test(&m->preq, &flag, &st) != MPI_SUCCESS) {
                m->preq = MPI_REQUEST_NULL; /* the receive failed (any failure fails it) */
                m->repost = cont;
            } else if (flag) {
                whole = 1;
            } else {
                MPI_Cancel(&m->preq);
                if (MPI_Wait(&m->preq, &st) == MPI_SUCCESS) {
                    int cancelled = 0;
                    MPI_Test_cancelled(&st, &cancelled);
                    if (!cancelled)
                        whole = 1;
                    else
                        m->repost = cont;
                }
            }
        }
        int result = keep_results && m->h.kind == MW_K_RESULT;
        if (!(whole && result) && !m->repost) {
            mw_msg_free(m);
            continue;
        }
        m->discard = !result;
        m->next = NULL;
        if (keep_t)
            keep_t->next = m;
        else
            keep_h = m;
        keep_t = m;
    }
    n->q_head = keep_h;
    n->q_tail = keep_t;
}

/* After a recovery: post again the payload receives taken back by
 * drop_queue, except those whose sender has failed. */
int mw_net_repost_queue(mw_net_t *n)
{
    mw_msg_t *m = n->q_head, *prev = NULL;
    while (m) {
        mw_msg_t *next = m->next;
        if (m->repost && mw_id_failed_last(n, m->h.id)) {
            if (prev)
                prev->next = next;
            else
                n->q_head = next;
            if (n->q_tail == m)
                n->q_tail = prev;
            mw_msg_free(m);
            m = next;
            continue;
        }
        if (m->repost) {
            m->repost = 0;
            int rc = MPI_Irecv(m->pay.data, (int)m->h.len, MPI_BYTE, MPI_ANY_SOURCE, m->h.ptag,
                               n->comm, &m->preq);
            if (rc != MPI_SUCCESS) {
                m->preq = MPI_REQUEST_NULL;
                return mw_net_classify(n, rc, "MPI_Irecv (payload)");
            }
        }
        prev = m;
        m = next;
    }
    return MW_OK;
}

/* A header arrived in slot i: queue it, start receiving its payload. */
static int take_slot(mw_net_t *n, int i, const MPI_Status *st)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    const unsigned char *b = n->postbuf[i];
    mw_hdr_t h;
    if (count < (int)sizeof(h))
        return MW_OK; /* not ours: ignore */
    memcpy(&h, b, sizeof(h));
    if (h.magic != MW_MAGIC)
        return MW_OK;
    mw_msg_t *m = calloc(1, sizeof(*m));
    if (!m)
        return MW_ERR_NOMEM;
    m->h = h;
    m->src = st->MPI_SOURCE;
    m->preq = MPI_REQUEST_NULL;
    if (!mw_buf_resize(&m->pay, h.len)) {
        free(m);
        return MW_ERR_NOMEM;
    }
    if (h.ptag == 0) {
        if (h.len > (uint64_t)count - sizeof(h)) {
            mw_msg_free(m);
            return MW_OK; /* truncated: ignore */
        }
        memcpy(m->pay.data, b + sizeof(h), h.len);
    } else {
        /* Any source: the tag names sender and message. A message from
         * before a recovery (CONT) may carry its sender's old rank. */
        int rc = MPI_Irecv(m->pay.data, (int)h.len, MPI_BYTE, MPI_ANY_SOURCE, h.ptag, n->comm,
                           &m->preq);
        if (rc != MPI_SUCCESS) {
            m->preq = MPI_REQUEST_NULL;
            mw_msg_free(m);
            return mw_net_classify(n, rc, "MPI_Irecv (payload)");
        }
    }
    mw_dbg(n, "recv %s index %lld epoch %d from rank %d (id %d)%s", mw_kind_name(h.kind),
           (long long)h.index, h.epoch, m->src, h.id, h.ptag ? " + payload" : "");
    queue_push(n, m);
    return MW_OK;
}

int mw_net_post(mw_net_t *n)
{
    for (int i = 0; i < MW_NPOST; i++) {
        if (n->post[i] != MPI_REQUEST_NULL || n->post_done[i] || n->fail)
            continue;
        if (!n->postbuf[i] && !(n->postbuf[i] = malloc(MW_MSG_MAX)))
            return MW_ERR_NOMEM;
        int rc = MPI_Irecv(n->postbuf[i], MW_MSG_MAX, MPI_BYTE, MPI_ANY_SOURCE, MW_TAG_HDR,
                           n->comm, &n->post[i]);
        if (rc != MPI_SUCCESS) {
            n->post[i] = MPI_REQUEST_NULL;
            return mw_net_classify(n, rc, "MPI_Irecv");
        }
        n->post_seq[i] = n->next_seq++;
    }
    return MW_OK;
}

/* Slot i completed: take completed slots in posting order. */
static int slot_done(mw_net_t *n, int i, const MPI_Status *st)
{
    n->post_done[i] = 1;
    n->post_st[i] = *st;
    for (;;) {
        int old = -1;
        for (int j = 0; j < MW_NPOST; j++)
            if ((n->post[j] != MPI_REQUEST_NULL || n->post_done[j]) &&
                (old < 0 || n->post_seq[j] < n->post_seq[old]))
                old = j;
        if (old < 0 || !n->post_done[old])
            return MW_OK;
        n->post_done[old] = 0;
        int rc = take_slot(n, old, &n->post_st[old]);
        if (rc == MW_OK)
            rc = mw_net_post(n);
        if (rc != MW_OK)
            return rc;
    }
}

/* Cancel the header receives (before a recovery, at the end). */
void mw_net_retire_slots(mw_net_t *n)
{
    for (int i = 0; i < MW_NPOST; i++) {
        if (n->post[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&n->post[i]);
            MPI_Wait(&n->post[i], MPI_STATUS_IGNORE);
        }
        n->post_done[i] = 0;
    }
}

/* ------------------------------------------------------------ outbox */

static void out_free(mw_out_t *o)
{
    free(o->hdrbuf);
    free(o->payload);
    free(o);
}

/* A send that did not complete: keep a result for sending again. */
static void out_keep_result(mw_net_t *n, mw_out_t *o)
{
    if (o->kind != MW_K_RESULT)
        return;
    mw_unsent_t *u = calloc(1, sizeof(*u));
    if (!u)
        return; /* the task will be handed out again */
    u->index = o->index;
    mw_hdr_t h;
    memcpy(&h, o->hdrbuf, sizeof(h));
    u->flags = h.flags;
    u->len = o->len;
    u->data = malloc(o->len ? o->len : 1);
    if (!u->data) {
        free(u);
        return;
    }
    if (o->len)
        memcpy(u->data, o->payload ? o->payload : o->hdrbuf + sizeof(h), o->len);
    u->next = n->unsent;
    n->unsent = u;
}

/* Collect finished sends. MW_OK or MW_FAIL / MW_ERR_MPI. */
static int reap_outbox(mw_net_t *n)
{
    int ret = MW_OK;
    for (mw_out_t **pp = &n->out; *pp;) {
        mw_out_t *o = *pp;
        for (int j = 0; j < 2; j++) {
            if (o->req[j] == MPI_REQUEST_NULL)
                continue;
            int flag = 0;
            int rc = MPI_Test(&o->req[j], &flag, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS) {
                o->req[j] = MPI_REQUEST_NULL;
                out_keep_result(n, o);
                o->kind = 0; /* kept once */
                int r = mw_net_classify(n, rc, "MPI_Isend");
                if (ret == MW_OK)
                    ret = r;
            }
        }
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            *pp = o->next;
            out_free(o);
        } else {
            pp = &o->next;
        }
    }
    return ret;
}

void mw_net_reap_zombies(mw_net_t *n)
{
    for (mw_out_t **pp = &n->zombies; *pp;) {
        mw_out_t *o = *pp;
        for (int j = 0; j < 2; j++)
            if (o->req[j] != MPI_REQUEST_NULL) {
                int flag = 0;
                if (MPI_Test(&o->req[j], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
                    o->req[j] = MPI_REQUEST_NULL;
            }
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            *pp = o->next;
            out_free(o);
        } else {
            pp = &o->next;
        }
    }
}

/* Before a recovery: results not surely sent are kept for sending again;
 * sends still pending (CONT keeps them alive) become zombies. */
void mw_net_retire_outbox(mw_net_t *n)
{
    while (n->out) {
        mw_out_t *o = n->out;
        n->out = o->next;
        int unsure = 0;
        for (int j = 0; j < 2; j++)
            if (o->req[j] != MPI_REQUEST_NULL) {
                int flag = 0;
                if (MPI_Test(&o->req[j], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    o->req[j] = MPI_REQUEST_NULL;
                    unsure = 1;
                } else if (!flag) {
                    unsure = 1;
                }
            }
        if (unsure)
            out_keep_result(n, o);
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            out_free(o);
        } else {
            o->next = n->zombies;
            n->zombies = o;
        }
    }
}

int mw_net_send(mw_net_t *n, int dest, int kind, int64_t index, int epoch, int flags,
                const void *payload, size_t len)
{
    if (n->fail)
        return MW_FAIL;
    if (len > (size_t)INT_MAX)
        return MW_ERR_ARG;
    mw_out_t *o = calloc(1, sizeof(*o));
    if (!o)
        return MW_ERR_NOMEM;
    o->req[0] = o->req[1] = MPI_REQUEST_NULL;
    o->kind = kind;
    o->index = index;
    o->len = len;
    int inl = len <= MW_INLINE_MAX;
    size_t hbytes = sizeof(mw_hdr_t) + (inl ? len : 0);
    o->hdrbuf = malloc(hbytes);
    if (!o->hdrbuf || (!inl && !(o->payload = malloc(len)))) {
        out_free(o);
        return MW_ERR_NOMEM;
    }
    mw_hdr_t h = {MW_MAGIC, kind, epoch, n->id, index, len, 0, flags};
    if (!inl)
        h.ptag = MW_TAG_PAY + n->id * n->pay_tags + (int)(n->seq++ % (uint32_t)n->pay_tags);
    memcpy(o->hdrbuf, &h, sizeof(h));
    if (len)
        memcpy(inl ? o->hdrbuf + sizeof(h) : o->payload, payload, len);
    int rc = MPI_Isend(o->hdrbuf, (int)hbytes, MPI_BYTE, dest, MW_TAG_HDR, n->comm, &o->req[0]);
    if (rc == MPI_SUCCESS && !inl)
        rc = MPI_Isend(o->payload, (int)len, MPI_BYTE, dest, h.ptag, n->comm, &o->req[1]);
    if (rc != MPI_SUCCESS) {
        if (o->req[0] != MPI_REQUEST_NULL) {
            o->next = n->zombies; /* the header went; the payload did not */
            n->zombies = o;
        } else {
            out_free(o);
        }
        return mw_net_classify(n, rc, "MPI_Isend");
    }
    mw_dbg(n, "send %s index %lld epoch %d to rank %d", mw_kind_name(kind), (long long)index, epoch,
           dest);
    o->next = n->out;
    n->out = o;
    return MW_OK;
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
 * MW_OK, MW_FAIL, MW_TIMEOUT or MW_ERR_*. */
static int net_wait(mw_net_t *n, MPI_Request *target, double deadline)
{
    int rc = reap_outbox(n);
    if (rc != MW_OK)
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
        if (o) {
            out_keep_result(n, o);
            o->kind = 0;
        }
        return mw_net_classify(n, rc, "MPI_Waitany");
    }
    if (!o && n->wj[idx] >= 0)
        return slot_done(n, n->wj[idx], &st);
    return MW_OK;
}

int mw_net_pending(mw_net_t *n)
{
    if (n->q_head)
        return 1;
    /* Look without blocking: complete whatever has arrived. */
    for (int i = 0; i < MW_NPOST && !n->fail; i++) {
        if (n->post[i] == MPI_REQUEST_NULL)
            continue;
        int flag = 0;
        MPI_Status st;
        int rc = MPI_Test(&n->post[i], &flag, &st);
        if (rc != MPI_SUCCESS) {
            n->post[i] = MPI_REQUEST_NULL;
            mw_net_classify(n, rc, "MPI_Test");
            return 1; /* the failure is news too */
        }
        if (flag && slot_done(n, i, &st) != MW_OK)
            return 1;
    }
    return n->q_head != NULL || n->fail;
}

int mw_net_next(mw_net_t *n, mw_msg_t **msg_p, double timeout)
{
    double deadline = timeout < 0 ? -1 : mw_now() + timeout;
    *msg_p = NULL;
    for (;;) {
        mw_msg_t *m = n->q_head;
        if (m && m->preq == MPI_REQUEST_NULL && !m->repost) {
            m = queue_pop(n);
            if (m->discard) {
                mw_msg_free(m);
                continue;
            }
            *msg_p = m;
            return MW_OK;
        }
        if (n->fail)
            return MW_FAIL; /* the rest of the queue is for mw_recover */
        int rc = net_wait(n, m ? &m->preq : NULL, deadline);
        if (rc == MW_FAIL && m && m->preq == MPI_REQUEST_NULL) {
            /* The payload's receive failed (a wildcard receive fails at any
             * failure): CONT may still deliver it after the recovery. */
            if (is_cont(n))
                m->repost = 1;
            else
                mw_msg_free(queue_pop(n));
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
        int rc = reap_outbox(n);
        if (rc != MW_OK || !n->out)
            return rc;
        if ((rc = net_wait(n, NULL, deadline)) != MW_OK)
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
    mw_msg_t *m;
    while ((m = queue_pop(n)))
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
     * its copy of the survivors' recovery duplicate (no communication). */
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
    if (restarted) {
        n->recoveries = 1;
        int rc2 = mw_read_failures(n);
        if (rc2 != MW_OK && rc2 != MW_FAIL)
            return rc2;
    }
    return mw_net_post(n);
}
