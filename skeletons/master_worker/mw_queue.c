/*
 * Received messages: the header receives (MW_NPOST wildcard receives, taken
 * in posting order), the queue of received messages and their payload
 * receives, and what becomes of them across a recovery.
 */
#include "mw_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

mw_msg_t *mw_queue_pop(mw_net_t *n)
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
int mw_net_is_cont(const mw_net_t *n)
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
    int cont = mw_net_is_cont(n);
    while ((m = mw_queue_pop(n))) {
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
            if (rc != MPI_SUCCESS) { /* another failure: again after its recovery */
                m->preq = MPI_REQUEST_NULL;
                m->repost = 1;
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
            /* A failure (a wildcard receive fails at any). Under CONT the
             * payload is still delivered after the recovery, and its
             * sender's send completes only when it is received: keep the
             * header, post the payload's receive again then. */
            m->preq = MPI_REQUEST_NULL;
            if (mw_net_is_cont(n)) {
                m->repost = 1;
                queue_push(n, m);
            } else {
                mw_msg_free(m);
            }
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
int mw_slot_done(mw_net_t *n, int i, const MPI_Status *st)
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

/* Cancel the header receives (before a recovery, at the end). A header
 * that arrived (before or during the cancel) is queued all the same, in
 * posting order: under CONT its payload is still on its way and must be
 * received, or its sender's send never completes. */
void mw_net_retire_slots(mw_net_t *n)
{
    for (int i = 0; i < MW_NPOST; i++) {
        if (n->post[i] == MPI_REQUEST_NULL)
            continue;
        MPI_Status st;
        int cancelled = 1;
        MPI_Cancel(&n->post[i]);
        if (MPI_Wait(&n->post[i], &st) == MPI_SUCCESS)
            MPI_Test_cancelled(&st, &cancelled);
        n->post[i] = MPI_REQUEST_NULL;
        if (!cancelled) {
            n->post_done[i] = 1;
            n->post_st[i] = st;
        }
    }
    for (;;) {
        int old = -1;
        for (int j = 0; j < MW_NPOST; j++)
            if (n->post_done[j] && (old < 0 || n->post_seq[j] < n->post_seq[old]))
                old = j;
        if (old < 0)
            return;
        n->post_done[old] = 0;
        take_slot(n, old, &n->post_st[old]); /* an error: the failure is known already */
    }
}

/* Wait up to `seconds` for the payloads of queued messages to come in
 * (at the end: under CONT one sent before a recovery may still arrive,
 * and its sender's MPI_Finalize waits for it). Returns how many did not. */
int mw_net_await_payloads(mw_net_t *n, double seconds)
{
    double until = mw_now() + seconds, pause = 1e-5;
    for (;;) {
        int pending = 0;
        for (mw_msg_t *m = n->q_head; m; m = m->next) {
            int flag = 0;
            if (m->preq != MPI_REQUEST_NULL &&
                (MPI_Test(&m->preq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag))
                pending += m->preq != MPI_REQUEST_NULL;
        }
        if (!pending || mw_now() >= until)
            return pending;
        mw_sleep_s(pause);
        if (pause < 1e-3)
            pause *= 2;
    }
}

