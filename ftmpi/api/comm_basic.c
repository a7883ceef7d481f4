/* Communicator basics: size, rank, compare, group, dup, split, free. */
#include "api/api.h"

#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
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

API_WEAK(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    API_BEGIN("MPI_Comm_group");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(group);
    group_t *g = group_new(c->group->size, c->group->world);
    if (!g || group_make_handle(g) != MPI_SUCCESS) {
        if (g)
            group_release(g);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    *group = g->handle;
    API_END();
}

/* A communicator over `g` with a fresh context agreed over `parent`. */
static int comm_derive(comm_t *parent, group_t *g, uint32_t ctx, comm_t **out)
{
    comm_t *n = comm_new(g, NULL, ctx);
    if (!n)
        return MPI_ERR_NO_MEM;
    n->errh = parent->errh;
    errh_retain(n->errh);
    int rc = comm_register(n);
    if (rc != MPI_SUCCESS) {
        comm_release(n);
        return rc;
    }
    *out = n;
    return MPI_SUCCESS;
}

int api_comm_dup(comm_t *c, comm_t **out)
{
    uint32_t ctx;
    int rc = coll_ctx_alloc(c, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    if (c->is_inter)
        return MPI_ERR_COMM; /* intercommunicator dup: issue 5 */
    rc = comm_derive(c, c->group, ctx, out);
    if (rc != MPI_SUCCESS) {
        comm_ctx_release(ctx);
        return rc;
    }
    rc = attr_copy(KV_COMM, c->attrs, c->handle, &(*out)->attrs);
    if (rc != MPI_SUCCESS) {
        comm_release(*out);
        *out = NULL;
    }
    return rc;
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
     * recovery (FTMPI-SPEC.md section 6), with or without the
     * FT_MPI_CHECK_RECOVER preset in *newcomm. */
    rc = ft_comm_dup(c, newcomm, &handled);
    if (rc != MPI_SUCCESS || handled)
        goto fail;
    CHECK_USABLE(c);
    rc = api_comm_dup(c, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    API_END();
}

typedef struct {
    int color, key, rank;
} ck_t;

static int ck_cmp(const void *a, const void *b)
{
    const ck_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank - y->rank;
}

API_WEAK(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Comm_split");
    comm_t *c;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    if (color < 0 && color != MPI_UNDEFINED)
        API_FAIL(MPI_ERR_ARG);
    if (c->is_inter)
        API_FAIL(MPI_ERR_COMM); /* intercommunicator split: issue 5 */
    CHECK_USABLE(c);
    int p = c->size;
    int mine[2] = {color, key};
    int *all = malloc((size_t)p * 2 * sizeof(int));
    ck_t *sel = malloc((size_t)p * sizeof(ck_t));
    int *world = malloc((size_t)p * sizeof(int));
    if (!all || !sel || !world) {
        free(all), free(sel), free(world);
        API_FAIL(MPI_ERR_NO_MEM);
    }
    dt_t *ints = dt_get(MPI_INT);
    rc = coll_allgather(c, mine, 2, ints, all, 2, ints);
    uint32_t ctx = 0;
    if (rc == MPI_SUCCESS)
        rc = coll_ctx_alloc(c, &ctx);
    *newcomm = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        int n = 0;
        for (int i = 0; i < p; i++)
            if (all[2 * i] == color)
                sel[n++] = (ck_t){color, all[2 * i + 1], i};
        qsort(sel, (size_t)n, sizeof(ck_t), ck_cmp);
        for (int i = 0; i < n; i++)
            world[i] = c->group->world[sel[i].rank];
        group_t *g = group_new(n, world);
        comm_t *nc;
        rc = g ? comm_derive(c, g, ctx, &nc) : MPI_ERR_NO_MEM;
        if (g)
            group_release(g);
        if (rc == MPI_SUCCESS)
            *newcomm = nc->handle;
    } else if (rc == MPI_SUCCESS) {
        comm_ctx_release(ctx);
    }
    free(all), free(sel), free(world);
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
    c->freed = 1;
    comm_release(c);
    *comm = MPI_COMM_NULL;
    API_END();
}

API_WEAK(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    API_BEGIN("MPI_Comm_compare");
    comm_t *a = comm_get(comm1), *b = comm_get(comm2);
    CHECK_PTR(result);
    if (!a || !b)
        API_FAIL(MPI_ERR_COMM);
    if (a == b) {
        *result = MPI_IDENT;
    } else if (a->is_inter != b->is_inter || a->size != b->size) {
        *result = MPI_UNEQUAL;
    } else if (!memcmp(a->group->world, b->group->world, (size_t)a->size * sizeof(int))) {
        *result = MPI_CONGRUENT;
    } else {
        *result = MPI_SIMILAR;
        for (int i = 0; i < a->size && *result == MPI_SIMILAR; i++)
            if (group_rank_of_world(b->group, a->group->world[i]) == MPI_UNDEFINED)
                *result = MPI_UNEQUAL;
    }
    API_END();
}
