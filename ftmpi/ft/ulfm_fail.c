/*
 * ULFM failure reporting: the error code at the API edge, the failed and
 * acknowledged groups, and wildcard receives parked with
 * MPIX_ERR_PROC_FAILED_PENDING until an acknowledgement.
 *
 * The failed members of a communicator are listed in the order the runtime
 * announced the failures, which is the same order on every process
 * (docs/ft.md, contract section 4); MPIX_Comm_ack_failed(c, n) therefore
 * acknowledges the same processes everywhere for the same n.
 */
#include "ft/ulfm_int.h"

#include <stdlib.h>

int ulfm_code(int rc)
{
    return rc == MPI_ERR_OTHER && ulfm_enabled() ? MPIX_ERR_PROC_FAILED : rc;
}

int ulfm_usable(const comm_t *c)
{
    return ulfm_is_revoked(c) ? MPIX_ERR_REVOKED : MPI_SUCCESS;
}

/* ---- parked wildcard receives ------------------------------------------ */

static uint64_t *parked;   /* request tokens */
static int nparked, capparked;

int ulfm_parked(const req_t *r)
{
    return r->kind == REQ_RECV && r->peer == MPI_ANY_SOURCE && r->complete &&
           r->status.MPI_ERROR == MPIX_ERR_PROC_FAILED_PENDING && ulfm_enabled();
}

void ulfm_park(req_t *r)
{
    if (nparked == capparked) {
        int cap = capparked ? 2 * capparked : 16;
        uint64_t *n = realloc(parked, (size_t)cap * sizeof *n);
        if (n) {
            parked = n;
            capparked = cap;
        }
    }
    if (nparked < capparked)
        parked[nparked++] = req_token(r);
    /* Out of memory: it stays failed (PENDING), the ack cannot re-post it. */
    r->status.MPI_ERROR = MPIX_ERR_PROC_FAILED_PENDING;
    r->complete = 1;
}

/* Re-post the parked receives of c (its failures are all acknowledged). */
static void unpark(comm_t *c)
{
    for (int i = 0; i < nparked;) {
        req_t *r = req_from_token(parked[i]);
        if (r && r->comm != c && ulfm_parked(r)) {
            i++;
            continue;
        }
        parked[i] = parked[--nparked];
        if (!r || !ulfm_parked(r))
            continue; /* freed, or re-posted already */
        r->complete = 0;
        r->status.MPI_ERROR = MPI_SUCCESS;
        int rc = p2p_start_recv(r);
        if (rc != MPI_SUCCESS) {
            r->status.MPI_ERROR = rc;
            req_complete(r);
        }
    }
}

void ulfm_revoked_parked(comm_t *c)
{
    for (int i = 0; i < nparked; i++) {
        req_t *r = req_from_token(parked[i]);
        if (r && r->comm == c && ulfm_parked(r))
            r->status.MPI_ERROR = MPIX_ERR_REVOKED; /* no longer parked */
    }
}

static int contains(const comm_t *c, int world)
{
    return group_rank_of_world(c->group, world) != MPI_UNDEFINED ||
           (c->rgroup && group_rank_of_world(c->rgroup, world) != MPI_UNDEFINED);
}

void ulfm_on_failure(int world)
{
    /* Wildcard receives posted on communicators that contain the failed
     * process: PENDING, not failed (p2p would fail them: take them first). */
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c)) {
        if (c == ulfm_chan || !contains(c, world))
            continue;
        list_node_t *n, *t;
        list_for_each_safe(n, t, &c->posted[0]) {
            req_t *r = list_entry(n, req_t, link);
            if (r->peer != MPI_ANY_SOURCE)
                continue;
            list_del(&r->link);
            ulfm_park(r);
            r->complete = 0;
            req_complete(r);
        }
    }
}

/* ---- failed groups and acknowledgement -------------------------------- */

/* World ranks of c's failed members in announcement order; returns count. */
static int failed_members(const comm_t *c, int *out)
{
    int n = 0;
    for (int i = 0; i < ft.nfailed; i++)
        if (contains(c, ft.failed[i]))
            out[n++] = ft.failed[i];
    return n;
}

int ulfm_failed_group(comm_t *c, int acked_only, group_t **out)
{
    int *w = malloc(((size_t)ft.nfailed + 1) * sizeof(int));
    if (!w)
        return MPI_ERR_NO_MEM;
    int n = failed_members(c, w);
    if (acked_only) {
        ustate_t *s = ulfm_state(c);
        int a = s ? s->acked : 0;
        if (a < n)
            n = a;
    }
    *out = group_new(n, w);
    free(w);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int ulfm_wildcard_blocked(comm_t *c)
{
    if (!ulfm_enabled())
        return 0;
    ustate_t *s = ulfm_state(c);
    return s && ulfm_epoch(s) > s->acked;
}

int ulfm_ack(comm_t *c, int num_to_ack, int *num_acked)
{
    ustate_t *s = ulfm_state(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    int known = ulfm_epoch(s);
    if (num_to_ack < 0 || num_to_ack > known)
        num_to_ack = known;
    if (num_to_ack > s->acked)
        s->acked = num_to_ack;
    if (num_acked)
        *num_acked = s->acked;
    if (s->acked >= known)
        unpark(c);
    return MPI_SUCCESS;
}
