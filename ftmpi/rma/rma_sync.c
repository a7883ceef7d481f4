/* Synchronization: fence, post-start-complete-wait, passive-target locks,
 * flush. Every wait here is on a receive from the peer it depends on, so a
 * dead peer ends it with the failure (p2p_peer_failed) instead of a hang. */
#include "rma/rma.h"

#include <stdlib.h>

#include "coll/coll.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"

int rma_can_access(const win_t *w, int target)
{
    return w->fence || w->lock_all || w->access[target] != EP_NONE;
}

int rma_flush(win_t *w, int target)
{
    int rc = rma_wait_pending(w, target);
    __sync_synchronize(); /* shared windows: our stores before what follows */
    return rc;
}

int rma_fence(win_t *w, int assert_)
{
    int rc = rma_flush(w, -1);
    int rc2 = coll_barrier(w->comm);
    __sync_synchronize();
    if (rc == MPI_SUCCESS)
        rc = rc2;
    w->fence = !(assert_ & MPI_MODE_NOSUCCEED);
    w->fence_ops = 0;
    return rc;
}

/* Window rank of member i of g. */
static int member(win_t *w, group_t *g, int i)
{
    return group_rank_of_world(w->comm->group, g->world[i]);
}

static int send_empty(win_t *w, int to, int tag)
{
    req_t *r = req_new_p2p(REQ_SEND, w->comm, NULL, 0, dt_get(MPI_BYTE), to, tag, SEND_STANDARD, 0);
    if (!r)
        return MPI_ERR_NO_MEM;
    int rc = p2p_start_send(r);
    if (rc == MPI_SUCCESS)
        rc = progress_wait_req(r);
    if (rc == MPI_SUCCESS)
        rc = r->status.MPI_ERROR;
    req_free(r);
    return rc;
}

req_t *rma_recv_empty(win_t *w, int from, int tag, int *rc)
{
    req_t *r = req_new_p2p(REQ_RECV, w->comm, NULL, 0, dt_get(MPI_BYTE), from, tag, SEND_STANDARD, 0);
    if (!r) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    int e = p2p_start_recv(r);
    if (e != MPI_SUCCESS) {
        r->status.MPI_ERROR = e;
        req_complete(r);
    }
    return r;
}

/* Wait for r (and free it); its error or rc. */
static int finish(req_t *r, int rc)
{
    if (!r)
        return rc;
    if (!r->complete)
        progress_wait_req(r);
    if (rc == MPI_SUCCESS)
        rc = r->status.MPI_ERROR;
    req_free(r);
    return rc;
}

int rma_start_epoch(win_t *w, group_t *g)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->size; i++) {
        int t = member(w, g, i);
        rc = finish(rma_recv_empty(w, t, RMA_TAG_POST, &rc), rc);
        w->access[t] = EP_PSCW;
    }
    group_retain(g);
    w->start_group = g;
    return rc;
}

int rma_complete(win_t *w)
{
    group_t *g = w->start_group;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->size; i++) {
        int t = member(w, g, i);
        int e = rma_flush(w, t);
        if (e == MPI_SUCCESS)
            e = send_empty(w, t, RMA_TAG_DONE);
        if (rc == MPI_SUCCESS)
            rc = e;
        w->access[t] = EP_NONE;
    }
    w->start_group = NULL;
    group_release(g);
    return rc;
}

int rma_post(win_t *w, group_t *g)
{
    int rc = MPI_SUCCESS;
    w->done_reqs = calloc((size_t)(g->size ? g->size : 1), sizeof(req_t *));
    if (!w->done_reqs)
        return MPI_ERR_NO_MEM;
    __sync_synchronize();
    /* The receives of the DONEs first, then tell the origins. */
    for (int i = 0; i < g->size; i++)
        w->done_reqs[i] = rma_recv_empty(w, member(w, g, i), RMA_TAG_DONE, &rc);
    for (int i = 0; i < g->size; i++) {
        int e = send_empty(w, member(w, g, i), RMA_TAG_POST);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    if (rc != MPI_SUCCESS) { /* no exposure epoch (a failure, a revoke) */
        for (int i = 0; i < g->size; i++) {
            req_t *r = w->done_reqs[i];
            if (r && !r->complete)
                p2p_cancel(r);
            if (r && r->complete)
                req_free(r); /* else p2p still holds it: left behind */
        }
        free(w->done_reqs);
        w->done_reqs = NULL;
        return rc;
    }
    group_retain(g);
    w->post_group = g;
    return rc;
}

int rma_wait(win_t *w, int *flag)
{
    group_t *g = w->post_group;
    if (flag) {
        progress_poll();
        *flag = 1;
        for (int i = 0; i < g->size; i++)
            if (w->done_reqs[i] && !w->done_reqs[i]->complete)
                *flag = 0;
        if (!*flag)
            return MPI_SUCCESS;
    }
    int rc = MPI_SUCCESS;
    for (int i = 0; i < g->size; i++)
        rc = finish(w->done_reqs[i], rc);
    free(w->done_reqs);
    w->done_reqs = NULL;
    w->post_group = NULL;
    group_release(g);
    __sync_synchronize();
    return rc;
}

static int ctl(win_t *w, int kind, int target, int type)
{
    rma_args_t a = {0};
    a.kind = kind;
    a.target = target;
    a.locktype = type;
    return rma_start(w, &a, NULL);
}

int rma_lock(win_t *w, int type, int target)
{
    int rc = ctl(w, RMA_LOCK, target, type);
    if (rc == MPI_SUCCESS)
        rc = rma_wait_pending(w, target);
    if (rc == MPI_SUCCESS)
        w->access[target] = type == MPI_LOCK_EXCLUSIVE ? EP_LOCK_EXCL : EP_LOCK_SHARED;
    return rc;
}

/* The unlock request follows the operations to target: its reply says
 * they are done (and how), so no separate flush. */
int rma_unlock(win_t *w, int target)
{
    int rc = ctl(w, RMA_UNLOCK, target, 0);
    int e = rma_wait_pending(w, target);
    __sync_synchronize();
    w->access[target] = EP_NONE;
    return rc != MPI_SUCCESS ? rc : e;
}

int rma_lock_all(win_t *w)
{
    int rc = MPI_SUCCESS;
    for (int t = 0; t < w->size; t++) {
        int e = ctl(w, RMA_LOCK, t, MPI_LOCK_SHARED);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    int e = rma_wait_pending(w, -1);
    if (rc == MPI_SUCCESS)
        rc = e;
    w->lock_all = 1;
    return rc;
}

int rma_unlock_all(win_t *w)
{
    int rc = MPI_SUCCESS;
    for (int t = 0; t < w->size; t++) {
        int e = ctl(w, RMA_UNLOCK, t, 0);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    int e = rma_wait_pending(w, -1);
    __sync_synchronize();
    if (rc == MPI_SUCCESS)
        rc = e;
    w->lock_all = 0;
    return rc;
}
