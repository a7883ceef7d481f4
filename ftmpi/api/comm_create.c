/*
 * Communicator constructors over subsets: MPI_Comm_split,
 * MPI_Comm_split_type, MPI_Comm_create, MPI_Comm_create_group, on intra-
 * and (split, create) intercommunicators. Each takes one context
 * agreement over the whole parent; the communicators it builds over
 * disjoint sets of processes share the agreed ids (no process holds two
 * of them), and processes that get MPI_COMM_NULL give the ids back.
 */
#include "api/comm_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int key, rank;
} ck_t;

static int ck_cmp(const void *a, const void *b)
{
    const ck_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank - y->rank;
}

/* World ranks, ordered by (key, rank), of the members of g whose entry in
 * ck (pairs color, key) has `color`. Returns the group (NULL: no memory). */
static group_t *members_of_color(const group_t *g, const int *ck, int color)
{
    ck_t *sel = malloc((size_t)(g->size + 1) * sizeof(ck_t));
    int *world = malloc((size_t)(g->size + 1) * sizeof(int));
    group_t *out = NULL;
    if (sel && world) {
        int n = 0;
        for (int i = 0; i < g->size; i++)
            if (ck[2 * i] == color)
                sel[n++] = (ck_t){ck[2 * i + 1], i};
        qsort(sel, (size_t)n, sizeof(ck_t), ck_cmp);
        for (int i = 0; i < n; i++)
            world[i] = g->world[sel[i].rank];
        out = group_new(n, world);
    }
    free(sel);
    free(world);
    return out;
}

static int split_live(comm_t *c, int color, int key, comm_t **out)
{
    int mine[2] = {color, key};
    int *all = malloc((size_t)c->size * 2 * sizeof(int));
    if (!all)
        return MPI_ERR_NO_MEM;
    dt_t *ints = dt_get(MPI_INT);
    int rc = coll_allgather(c, mine, 2, ints, all, 2, ints);
    uint32_t ctx[1];
    if (rc == MPI_SUCCESS)
        rc = api_ctx_agree_live(c, 1, ctx); /* c is the live view already */
    *out = NULL;
    if (rc == MPI_SUCCESS && color == MPI_UNDEFINED) {
        api_ctx_release(ctx, 1);
    } else if (rc == MPI_SUCCESS) {
        group_t *g = members_of_color(c->group, all, color);
        if (g) {
            rc = api_comm_build(c, g, NULL, ctx, out);
            group_release(g);
        } else {
            api_ctx_release(ctx, 1);
            rc = MPI_ERR_NO_MEM;
        }
    }
    free(all);
    return rc;
}

int api_comm_split_intra(comm_t *c, int color, int key, comm_t **out)
{
    /* Under BLANK the whole split runs over the live members: a gap has
     * no color and is in no new communicator (docs/ft.md). */
    ft_coll_t f;
    int rc = ft_live_begin(&f, c);
    if (rc != MPI_SUCCESS)
        return rc;
    return ft_coll_end(&f, split_live(c, color, key, out));
}

/* Intercommunicator split: the new intercommunicator of a color joins the
 * local and the remote processes of that color (MPI_COMM_NULL when either
 * side has none). */
static int split_inter(comm_t *c, int color, int key, comm_t **out)
{
    comm_t *lc = c->local_comm;
    int mine[2] = {color, key};
    int *all = malloc((size_t)lc->size * 2 * sizeof(int));
    int *rall = NULL, rn = 0;
    if (!all)
        return MPI_ERR_NO_MEM;
    dt_t *ints = dt_get(MPI_INT);
    int rc = coll_allgather(lc, mine, 2, ints, all, 2, ints);
    if (rc == MPI_SUCCESS)
        rc = api_inter_exchange(c, all, 2 * lc->size, &rall, &rn);
    if (rc == MPI_SUCCESS && rn != 2 * c->rgroup->size)
        rc = MPI_ERR_INTERN;
    uint32_t ctx[2];
    if (rc == MPI_SUCCESS) {
        ctx_party_t pt;
        ctx_party_of(c, &pt);
        rc = ctx_agree(&pt, 2, ctx);
    }
    *out = NULL;
    if (rc == MPI_SUCCESS) {
        group_t *l = NULL, *r = NULL;
        if (color != MPI_UNDEFINED) {
            l = members_of_color(c->group, all, color);
            r = members_of_color(c->rgroup, rall, color);
        }
        if (color != MPI_UNDEFINED && (!l || !r)) {
            rc = MPI_ERR_NO_MEM;
            api_ctx_release(ctx, 2);
        } else if (color == MPI_UNDEFINED || r->size == 0) {
            api_ctx_release(ctx, 2);
        } else {
            rc = api_comm_build(c, l, r, ctx, out);
        }
        if (l)
            group_release(l);
        if (r)
            group_release(r);
    }
    free(all);
    free(rall);
    return rc;
}

API_WEAK(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_split");
    comm_t *c, *n = NULL;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    if (color < 0 && color != MPI_UNDEFINED)
        API_FAIL(MPI_ERR_ARG);
    CHECK_USABLE(c);
    rc = c->is_inter ? split_inter(c, color, key, &n) : api_comm_split_intra(c, color, key, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n ? n->handle : MPI_COMM_NULL;
    API_END();
}

/* The color of this process's shared-memory node: the lowest world rank
 * that shares our segment (every process of the node computes the same). */
static int node_color(void)
{
    if (ftg.singleton || !ftg.slot_of_world)
        return ftg.world_rank;
    for (int w = 0; w < ftg.world_size; w++)
        if (w == ftg.world_rank || ftg.slot_of_world[w] >= 0)
            return w;
    return ftg.world_rank;
}

API_WEAK(Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                         MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_split_type");
    comm_t *c, *n = NULL;
    info_t *in;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_INFO_OR_NULL(info, in);
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        API_FAIL(MPI_ERR_ARG);
    CHECK_USABLE(c);
    int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : node_color();
    rc = api_comm_split_intra(c, color, key, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n ? n->handle : MPI_COMM_NULL;
    API_END();
}

/* Intercommunicator create: each side names a subgroup of its local
 * group; the result joins the two subgroups (MPI_COMM_NULL outside them,
 * and everywhere when either is empty). */
static int create_inter(comm_t *c, group_t *g, comm_t **out)
{
    int *rw = NULL, rn = 0;
    int rc = api_inter_exchange(c, g->world, g->size, &rw, &rn);
    uint32_t ctx[2];
    if (rc == MPI_SUCCESS) {
        ctx_party_t pt;
        ctx_party_of(c, &pt);
        rc = ctx_agree(&pt, 2, ctx);
    }
    *out = NULL;
    if (rc == MPI_SUCCESS) {
        if (g->rank == MPI_UNDEFINED || g->size == 0 || rn == 0) {
            api_ctx_release(ctx, 2);
        } else {
            group_t *r = group_new(rn, rw);
            if (r) {
                rc = api_comm_build(c, g, r, ctx, out);
                group_release(r);
            } else {
                api_ctx_release(ctx, 2);
                rc = MPI_ERR_NO_MEM;
            }
        }
    }
    free(rw);
    return rc;
}

API_WEAK(Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_create");
    comm_t *c, *n = NULL;
    group_t *g;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    CHECK_GROUP(group, g);
    if (!group_is_subset(g, c->group))
        API_FAIL(MPI_ERR_GROUP);
    CHECK_USABLE(c);
    if (c->is_inter) {
        rc = create_inter(c, g, &n);
    } else {
        /* MPI-2.2: processes may name different, disjoint subgroups. */
        uint32_t ctx[1];
        rc = api_ctx_agree_live(c, 1, ctx);
        if (rc == MPI_SUCCESS && g->rank == MPI_UNDEFINED)
            api_ctx_release(ctx, 1);
        else if (rc == MPI_SUCCESS)
            rc = api_comm_build(c, g, NULL, ctx, &n);
    }
    if (rc == MPI_SUCCESS)
        *newcomm = n ? n->handle : MPI_COMM_NULL;
    API_END();
}

/* Tags of MPI_Comm_create_group's agreement on the parent's collective
 * context: negative, so that they never meet the sequence numbers (0 ..
 * 2^30 - 1) or the local-mode tags (bit 30) of the collectives. */
static int create_group_tag(int tag)
{
    return (int)(0x80000000u | ((unsigned)tag & 0x3fffffffu));
}

API_WEAK(Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_create_group");
    comm_t *c, *n = NULL;
    group_t *g;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_GROUP(group, g);
    CHECK_SEND_TAG(tag);
    if (!group_is_subset(g, c->group))
        API_FAIL(MPI_ERR_GROUP);
    CHECK_USABLE(c);
    *newcomm = MPI_COMM_NULL;
    if (g->rank == MPI_UNDEFINED)
        goto fail; /* not a member: nothing to do (MPI_COMM_NULL) */
    /* Only the members of g take part: the agreement runs over them,
     * addressed by their ranks in c. */
    int *map = malloc((size_t)g->size * sizeof(int));
    if (!map)
        API_FAIL(MPI_ERR_NO_MEM);
    for (int i = 0; i < g->size; i++)
        map[i] = group_rank_of_world(c->group, g->world[i]);
    ctx_party_t pt = {.cc = c, .map = map, .p = g->size, .me = g->rank, .root = 0,
                      .tag = create_group_tag(tag)};
    uint32_t ctx[1];
    rc = ctx_agree(&pt, 1, ctx);
    free(map);
    if (rc == MPI_SUCCESS)
        rc = api_comm_build(c, g, NULL, ctx, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    API_END();
}
