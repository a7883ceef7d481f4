/*
 * Communicator basics: size, rank, groups, compare, names, dup, free, and
 * the helpers the other communicator files share (api/comm_int.h).
 */
#include "api/comm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "ft/ft.h"

API_WEAK(Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int *size)
{
    API_BEGIN("MPI_Comm_size");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(size);
    *size = c->size;
    API_END();
}

API_WEAK(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int *rank)
{
    API_BEGIN("MPI_Comm_rank");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(rank);
    *rank = c->rank;
    API_END();
}

API_WEAK(Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    API_BEGIN("MPI_Comm_test_inter");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(flag);
    *flag = c->is_inter;
    API_END();
}

API_WEAK(Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    API_BEGIN("MPI_Comm_remote_size");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(size);
    if (!c->is_inter)
        API_FAIL(MPI_ERR_COMM);
    *size = c->rgroup->size;
    API_END();
}

int api_group_out(group_t *g, MPI_Group *h)
{
    if (g->size == 0) {
        group_release(g);
        *h = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    int rc = group_make_handle(g);
    if (rc != MPI_SUCCESS) {
        group_release(g);
        return rc;
    }
    *h = g->handle;
    return MPI_SUCCESS;
}

static int group_copy_out(const group_t *src, MPI_Group *h)
{
    group_t *g = group_new(src->size, src->world);
    return g ? api_group_out(g, h) : MPI_ERR_NO_MEM;
}

API_WEAK(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    API_BEGIN("MPI_Comm_group");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(group);
    rc = group_copy_out(c->group, group);
    API_END();
}

API_WEAK(Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    API_BEGIN("MPI_Comm_remote_group");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(group);
    if (!c->is_inter)
        API_FAIL(MPI_ERR_COMM);
    rc = group_copy_out(c->rgroup, group);
    API_END();
}

API_WEAK(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    API_BEGIN("MPI_Comm_compare");
    comm_t *a, *b;
    CHECK_COMM(comm1, a);
    CHECK_COMM(comm2, b);
    CHECK_PTR(result);
    if (a == b) {
        *result = MPI_IDENT;
    } else if (a->is_inter != b->is_inter) {
        *result = MPI_UNEQUAL;
    } else {
        int l = group_compare(a->group, b->group);
        int r = a->is_inter ? group_compare(a->rgroup, b->rgroup) : MPI_IDENT;
        if (l == MPI_UNEQUAL || r == MPI_UNEQUAL)
            *result = MPI_UNEQUAL;
        else if (l == MPI_IDENT && r == MPI_IDENT)
            *result = MPI_CONGRUENT;
        else
            *result = MPI_SIMILAR;
    }
    API_END();
}

API_WEAK(Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    API_BEGIN("MPI_Comm_set_name");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(name);
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(c->name, name, n);
    c->name[n] = '\0';
    if (comm_change_hook)
        comm_change_hook(); /* the monitor shows the name */
    API_END();
}

API_WEAK(Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    API_BEGIN("MPI_Comm_get_name");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(name);
    CHECK_PTR(resultlen);
    size_t n = strlen(c->name);
    memcpy(name, c->name, n + 1);
    *resultlen = (int)n;
    API_END();
}

/* ---- shared helpers ------------------------------------------------------ */

void api_ctx_release(const uint32_t *ctx, int n)
{
    for (int i = 0; i < n; i++)
        comm_ctx_release(ctx[i]);
}

int api_comm_build(comm_t *parent, group_t *local, group_t *remote, const uint32_t *ctx,
                   comm_t **out)
{
    comm_t *n = comm_new(local, remote, ctx[0]);
    if (!n) {
        api_ctx_release(ctx, api_ctx_pairs(remote != NULL));
        return MPI_ERR_NO_MEM;
    }
    n->errh = parent->errh;
    errh_retain(n->errh);
    if (remote) {
        comm_t *lc = comm_new(local, NULL, ctx[1]);
        if (!lc) {
            comm_release(n);
            api_ctx_release(ctx, 2);
            return MPI_ERR_NO_MEM;
        }
        lc->hidden = 1;
        snprintf(lc->name, sizeof(lc->name), "local part of an intercommunicator");
        comm_register_hidden(lc); /* from now on ctx[1] goes with lc */
        n->local_comm = lc;
    }
    int rc = comm_register(n);
    if (rc != MPI_SUCCESS) {
        comm_release(n);
        comm_ctx_release(ctx[0]);
        return rc;
    }
    *out = n;
    return MPI_SUCCESS;
}

/* What a duplicate inherits beyond groups and error handler: attributes
 * (through their copy callbacks), topology, info hints. */
int api_comm_dup_extras(comm_t *c, comm_t *n)
{
    if (c->topo) {
        n->topo = topo_dup(c->topo);
        if (!n->topo)
            return MPI_ERR_NO_MEM;
    }
    if (c->info) {
        n->info = info_dup(c->info);
        if (!n->info)
            return MPI_ERR_NO_MEM;
    }
    return attr_copy(KV_COMM, c->attrs, c->handle, &n->attrs);
}

int api_ctx_agree_live(comm_t *c, int np, uint32_t *ctx)
{
    ft_coll_t f;
    int rc = ft_live_begin(&f, c);
    if (rc != MPI_SUCCESS)
        return rc;
    ctx_party_t pt;
    ctx_party_of(c, &pt);
    return ft_coll_end(&f, ctx_agree(&pt, np, ctx));
}

int api_comm_dup(comm_t *c, comm_t **out)
{
    uint32_t ctx[CTX_MAX_PAIRS];
    int rc = api_ctx_agree_live(c, api_ctx_pairs(c->is_inter), ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    comm_t *n;
    rc = api_comm_build(c, c->group, c->rgroup, ctx, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = api_comm_dup_extras(c, n);
    if (rc != MPI_SUCCESS) {
        comm_release(n);
        return rc;
    }
    *out = n;
    return MPI_SUCCESS;
}

API_WEAK(Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_dup");
    comm_t *c, *n;
    int handled;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    /* FT-MPI: MPI_Comm_dup(MPI_COMM_WORLD, ...) is how survivors ask for
     * recovery (docs/ft.md, contract section 6), with or without the
     * FT_MPI_CHECK_RECOVER preset in *newcomm. */
    rc = ft_comm_dup(c, newcomm, &handled);
    if (rc != MPI_SUCCESS || handled)
        goto fail;
    CHECK_USABLE(c);
    rc = api_comm_dup(c, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    else /* a failure met inside the dup: it recovers all the same */
        rc = ft_comm_dup_interrupted(c, rc, newcomm);
    API_END();
}

API_WEAK(Comm_free)
int PMPI_Comm_free(MPI_Comm *comm)
{
    API_BEGIN("MPI_Comm_free");
    CHECK_PTR(comm);
    comm_t *c = comm_get(*comm);
    if (!c || c->predefined)
        API_FAIL(MPI_ERR_COMM);
    err_comm = c;
    /* The delete callbacks run now (and may refuse: then nothing is freed);
     * the object itself lives on while operations still use it. */
    rc = attr_clear(KV_COMM, &c->attrs, c->handle);
    if (rc != MPI_SUCCESS)
        goto fail;
    c->freed = 1;
    *comm = MPI_COMM_NULL;
    comm_release(c);
    err_comm = NULL;
    API_END();
}
