/*
 * The outbox: non-blocking sends of headers and payloads, their buffers,
 * what becomes of them when they fail or a recovery comes first.
 */
#include "mw_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void out_free(mw_out_t *o)
{
    free(o->hdrbuf);
    free(o->payload);
    free(o);
}

/*
 * A send whose request has ended. One that failed keeps its buffers until
 * the next recovery is over: a receiver that has not yet learnt of the
 * failure may still match its rendezvous and read them (a read of freed
 * memory can also make the library give up single copy for good, see
 * docs, "Library issues").
 */
static void out_done(mw_net_t *n, mw_out_t *o)
{
    if (o->failed) {
        o->next = n->retired;
        n->retired = o;
    } else {
        out_free(o);
    }
}

void mw_net_free_retired(mw_net_t *n)
{
    while (n->retired) {
        mw_out_t *o = n->retired;
        n->retired = o->next;
        out_free(o);
    }
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

/* Request j of o failed (seen by a wait): remember it. */
void mw_out_failed(mw_net_t *n, mw_out_t *o)
{
    o->failed = 1;
    out_keep_result(n, o);
    o->kind = 0; /* kept once */
}

/* Collect finished sends. MW_OK or MW_FAIL / MW_ERR_MPI. */
int mw_out_reap(mw_net_t *n)
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
                o->failed = 1;
                out_keep_result(n, o);
                o->kind = 0; /* kept once */
                int r = mw_net_classify(n, rc, "MPI_Isend");
                if (ret == MW_OK)
                    ret = r;
            }
        }
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            *pp = o->next;
            out_done(n, o);
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
                if (MPI_Test(&o->req[j], &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
                    o->req[j] = MPI_REQUEST_NULL;
                    o->failed = 1;
                }
            }
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            *pp = o->next;
            out_done(n, o);
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
                    o->failed = 1;
                    unsure = 1;
                } else if (!flag) {
                    unsure = 1;
                }
            }
        if (unsure)
            out_keep_result(n, o);
        if (o->req[0] == MPI_REQUEST_NULL && o->req[1] == MPI_REQUEST_NULL) {
            out_done(n, o);
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
            o->failed = 1;
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

