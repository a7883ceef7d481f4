/*
 * Intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge and the
 * leader exchange the other intercommunicator constructors use.
 *
 * Intercomm_create: the two leaders swap their groups (world ranks) over
 * peer_comm with the user's tag, each leader broadcasts the other group
 * in its local_comm, and one context agreement runs over both groups
 * (reduce in each local_comm, the leaders swap masks over peer_comm,
 * broadcast back) for two pairs: the intercommunicator's, and the one of
 * the local intracommunicator each side keeps (comm_t.local_comm).
 */
#include "api/comm_int.h"
#include "api/dyn.h"

#include <stdlib.h>
#include <string.h>

int api_inter_exchange(comm_t *ic, const int *sbuf, int n, int **rbuf_p, int *rn_p)
{
    comm_t *lc = ic->local_comm;
    dt_t *ints = dt_get(MPI_INT);
    int tag = coll_tag(ic);
    int rn = 0, rc = MPI_SUCCESS;
    int *rbuf = NULL;
    if (lc->rank == 0) {
        rc = coll_sendrecv(ic, &n, 1, ints, 0, &rn, 1, ints, 0, tag);
        if (rc == MPI_SUCCESS) {
            rbuf = malloc((size_t)(rn > 0 ? rn : 1) * sizeof(int));
            /* the remote leader sends anyway: receive it, or drop it */
            int rc2 = coll_sendrecv(ic, sbuf, (size_t)n, ints, 0, rbuf, rbuf ? (size_t)rn : 0,
                                    ints, 0, tag);
            if (!rbuf)
                rc = MPI_ERR_NO_MEM;
            else
                rc = rc2;
        }
        if (rc != MPI_SUCCESS)
            rn = -1;
    }
    int rc3 = coll_bcast(lc, &rn, 1, ints, 0);
    if (rc3 != MPI_SUCCESS) {
        free(rbuf);
        return rc3;
    }
    if (rn < 0) {
        free(rbuf);
        return rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER;
    }
    if (lc->rank != 0) {
        rbuf = malloc((size_t)(rn > 0 ? rn : 1) * sizeof(int));
        if (!rbuf)
            rc = MPI_ERR_NO_MEM;
    }
    /* every member joins the broadcast (a member without memory
     * receives into nothing and reports the failure) */
    int rc4 = coll_bcast(lc, rbuf, rbuf ? rn : 0, ints, 0);
    if (rc == MPI_SUCCESS)
        rc = rc4;
    if (rc != MPI_SUCCESS) {
        free(rbuf);
        return rc;
    }
    *rbuf_p = rbuf;
    *rn_p = rn;
    return MPI_SUCCESS;
}

/* Point-to-point on peer_comm with the user's tag (leaders only). */
static int peer_sendrecv(comm_t *pc, int peer, int tag, const void *sbuf, int sn, void *rbuf,
                         int rn)
{
    dt_t *ints = dt_get(MPI_INT);
    return api_sendrecv(pc, sbuf, sn, ints, peer, tag, rbuf, rn, ints, peer, tag, NULL);
}

/* The leader learns the remote group; everyone gets it by broadcast. */
static int remote_group_of(comm_t *lc, int leader, comm_t *pc, int rleader, int tag,
                           int **rw_p, int *rn_p)
{
    dt_t *ints = dt_get(MPI_INT);
    int rn = 0, rc = MPI_SUCCESS;
    int *rw = NULL;
    if (lc->rank == leader) {
        int n = lc->size;
        rc = peer_sendrecv(pc, rleader, tag, &n, 1, &rn, 1);
        if (rc == MPI_SUCCESS) {
            rw = malloc((size_t)(rn > 0 ? rn : 1) * sizeof(int));
            int rc2 = peer_sendrecv(pc, rleader, tag, lc->group->world, n, rw, rw ? rn : 0);
            rc = rw ? rc2 : MPI_ERR_NO_MEM;
        }
        if (rc != MPI_SUCCESS)
            rn = -1;
    }
    int rc3 = coll_bcast(lc, &rn, 1, ints, leader);
    if (rc3 != MPI_SUCCESS || rn < 0) {
        free(rw);
        return rc3 != MPI_SUCCESS ? rc3 : (rc != MPI_SUCCESS ? rc : MPI_ERR_OTHER);
    }
    if (lc->rank != leader)
        rw = malloc((size_t)(rn > 0 ? rn : 1) * sizeof(int));
    rc3 = coll_bcast(lc, rw, rw ? rn : 0, ints, leader);
    if (!rw || rc3 != MPI_SUCCESS) {
        free(rw);
        return rc3 != MPI_SUCCESS ? rc3 : MPI_ERR_NO_MEM;
    }
    *rw_p = rw;
    *rn_p = rn;
    return MPI_SUCCESS;
}

API_WEAK(Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    API_BEGIN("MPI_Intercomm_create");
    comm_t *lc, *pc = NULL, *n = NULL;
    CHECK_PTR(newintercomm);
    CHECK_COMM(local_comm, lc);
    CHECK_INTRA(lc);
    if (local_leader < 0 || local_leader >= lc->size)
        API_FAIL(MPI_ERR_RANK);
    CHECK_SEND_TAG(tag);
    if (lc->rank == local_leader) {
        /* peer_comm and remote_leader matter at the leaders only */
        pc = comm_get(peer_comm);
        if (!pc || pc->state == COMM_FAILED)
            API_FAIL(MPI_ERR_COMM);
        if (remote_leader < 0 || remote_leader >= comm_peer_size(pc))
            API_FAIL(MPI_ERR_RANK);
    }
    CHECK_USABLE(lc);
    rc = api_intercomm_create(lc, local_leader, pc, remote_leader, tag, &n);
    if (rc == MPI_SUCCESS)
        *newintercomm = n->handle;
    API_END();
}

int api_intercomm_create(comm_t *lc, int local_leader, comm_t *pc, int remote_leader, int tag,
                         comm_t **out)
{
    int *rw = NULL, rn = 0;
    int rc = remote_group_of(lc, local_leader, pc, remote_leader, tag, &rw, &rn);
    /* processes spawned since this one started become reachable before
     * the agreement, after which they may send at once */
    if (rc == MPI_SUCCESS && (rc = dyn_learn(rw, rn)) != MPI_SUCCESS)
        free(rw);
    if (rc != MPI_SUCCESS)
        return rc;
    group_t *rg = group_new(rn, rw);
    free(rw);
    if (!rg)
        return MPI_ERR_NO_MEM;
    if (rn == 0 || group_overlaps(rg, lc->group)) {
        /* the groups must be disjoint (both sides see the same lists) */
        group_release(rg);
        return MPI_ERR_ARG;
    }
    ctx_party_t pt = {.cc = lc, .p = lc->size, .me = lc->rank, .root = local_leader,
                      .tag = coll_tag(lc)};
    if (pc) {
        pt.bc = pc;
        pt.bpeer = remote_leader;
        pt.btag = tag;
        pt.bcoll = 0;
    }
    uint32_t ctx[2];
    rc = ctx_agree(&pt, 2, ctx);
    if (rc == MPI_SUCCESS)
        rc = api_comm_build(lc, lc->group, rg, ctx, out);
    group_release(rg);
    return rc;
}

API_WEAK(Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    API_BEGIN("MPI_Intercomm_merge");
    comm_t *c, *n = NULL;
    CHECK_PTR(newintracomm);
    CHECK_COMM(intercomm, c);
    if (!c->is_inter)
        API_FAIL(MPI_ERR_COMM);
    CHECK_USABLE(c);
    int mine = high ? 1 : 0, *theirs = NULL, tn = 0;
    rc = api_inter_exchange(c, &mine, 1, &theirs, &tn);
    if (rc != MPI_SUCCESS)
        goto fail;
    int rhigh = tn == 1 ? theirs[0] : 0;
    free(theirs);
    /* The group with high = 0 goes first; on a tie, the group whose
     * leader has the lower MPI_COMM_WORLD rank (both sides agree). */
    int local_first = mine != rhigh ? mine < rhigh : c->group->world[0] < c->rgroup->world[0];
    ctx_party_t pt;
    ctx_party_of(c, &pt);
    uint32_t ctx[1];
    rc = ctx_agree(&pt, 1, ctx);
    if (rc != MPI_SUCCESS)
        goto fail;
    group_t *g = NULL;
    rc = local_first ? group_union(c->group, c->rgroup, &g) : group_union(c->rgroup, c->group, &g);
    if (rc == MPI_SUCCESS) {
        rc = api_comm_build(c, g, NULL, ctx, &n);
        group_release(g);
    } else {
        api_ctx_release(ctx, 1);
    }
    if (rc == MPI_SUCCESS)
        *newintracomm = n->handle;
    API_END();
}
