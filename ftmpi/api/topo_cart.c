/*
 * Cartesian topologies, MPI_Dims_create, MPI_Topo_test, and the helper
 * that builds a communicator with a topology. Ranks are not reordered
 * (reorder is accepted and ignored, as the standard allows): the
 * topology's process i is rank i of comm_old.
 */
#include "api/comm_int.h"

#include <stdlib.h>
#include <string.h>

int api_topo_comm(comm_t *c, int n, topo_t *t, comm_t **out)
{
    ctx_party_t pt;
    uint32_t ctx[1];
    *out = NULL;
    ctx_party_of(c, &pt);
    int rc = ctx_agree(&pt, 1, ctx); /* everyone takes part, even without t */
    if (rc != MPI_SUCCESS || c->rank >= n || !t) {
        if (rc == MPI_SUCCESS)
            api_ctx_release(ctx, 1);
        topo_free(t);
        return rc != MPI_SUCCESS || t ? rc : MPI_ERR_NO_MEM;
    }
    group_t *g = n == c->size ? c->group : group_new(n, c->group->world);
    if (!g) {
        api_ctx_release(ctx, 1);
        topo_free(t);
        return MPI_ERR_NO_MEM;
    }
    rc = api_comm_build(c, g, NULL, ctx, out);
    if (g != c->group)
        group_release(g);
    if (rc == MPI_SUCCESS)
        (*out)->topo = t;
    else
        topo_free(t);
    return rc;
}

/* The Cartesian topology of comm (MPI_ERR_TOPOLOGY if it has none). */
#define CHECK_CART(c, t)                                                   \
    do {                                                                   \
        (t) = (c)->topo;                                                   \
        if (!(t) || (t)->kind != MPI_CART) API_FAIL(MPI_ERR_TOPOLOGY);     \
    } while (0)

/* dims and periods of a grid: MPI_ERR_DIMS / MPI_ERR_ARG, else the size. */
static int check_grid(int ndims, const int dims[], const int periods[], int size, int *n_p)
{
    if (ndims < 0)
        return MPI_ERR_DIMS;
    if (ndims > 0 && (!dims || !periods))
        return MPI_ERR_ARG;
    for (int i = 0; i < ndims; i++)
        if (dims[i] <= 0)
            return MPI_ERR_DIMS;
    int n = topo_cart_size(ndims, dims);
    if (n < 0 || n > size)
        return MPI_ERR_ARG; /* the grid is larger than the group */
    *n_p = n;
    return MPI_SUCCESS;
}

API_WEAK(Cart_create)
int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    API_BEGIN("MPI_Cart_create");
    comm_t *c, *n;
    int np;
    (void)reorder;
    CHECK_PTR(comm_cart);
    CHECK_COMM(comm_old, c);
    CHECK_INTRA(c);
    rc = check_grid(ndims, dims, periods, c->size, &np);
    if (rc != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    rc = api_topo_comm(c, np, topo_cart_new(ndims, dims, periods), &n);
    if (rc == MPI_SUCCESS)
        *comm_cart = n ? n->handle : MPI_COMM_NULL;
    API_END();
}

API_WEAK(Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    API_BEGIN("MPI_Cart_map");
    comm_t *c;
    int np;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_PTR(newrank);
    rc = check_grid(ndims, dims, periods, c->size, &np);
    if (rc == MPI_SUCCESS)
        *newrank = c->rank < np ? c->rank : MPI_UNDEFINED;
    API_END();
}

API_WEAK(Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    API_BEGIN("MPI_Cartdim_get");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_PTR(ndims);
    CHECK_CART(c, t);
    *ndims = t->ndims;
    API_END();
}

API_WEAK(Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    API_BEGIN("MPI_Cart_get");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_CART(c, t);
    if (maxdims < 0)
        API_FAIL(MPI_ERR_ARG);
    int n = maxdims < t->ndims ? maxdims : t->ndims;
    if (n > 0) {
        CHECK_PTR(dims);
        CHECK_PTR(periods);
        CHECK_PTR(coords);
    }
    int stack[32];
    int *mine = t->ndims <= 32 ? stack : malloc((size_t)t->ndims * sizeof(int));
    if (!mine)
        API_FAIL(MPI_ERR_NO_MEM);
    topo_cart_coords(t, c->rank, mine);
    for (int i = 0; i < n; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
        coords[i] = mine[i];
    }
    if (mine != stack)
        free(mine);
    API_END();
}

API_WEAK(Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    API_BEGIN("MPI_Cart_rank");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_CART(c, t);
    CHECK_PTR(rank);
    if (t->ndims > 0)
        CHECK_PTR(coords);
    rc = topo_cart_rank(t, coords, rank);
    API_END();
}

API_WEAK(Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    API_BEGIN("MPI_Cart_coords");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_CART(c, t);
    if (rank < 0 || rank >= c->size)
        API_FAIL(MPI_ERR_RANK);
    if (maxdims < t->ndims)
        API_FAIL(MPI_ERR_ARG);
    if (t->ndims > 0)
        CHECK_PTR(coords);
    topo_cart_coords(t, rank, coords);
    API_END();
}

API_WEAK(Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    API_BEGIN("MPI_Cart_shift");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_CART(c, t);
    CHECK_PTR(rank_source);
    CHECK_PTR(rank_dest);
    if (direction < 0 || direction >= t->ndims)
        API_FAIL(MPI_ERR_ARG);
    topo_cart_shift(t, c->rank, direction, disp, rank_source, rank_dest);
    API_END();
}

/* Cart_sub: my subgrid holds the ranks whose coordinates agree with mine
 * in the dropped dimensions, in rank order (= row-major order of the
 * kept coordinates), so every member computes it alone. */
static int cart_sub(comm_t *c, const topo_t *t, const int *remain, comm_t **out)
{
    int nd = t->ndims, kept = 0, sub = 1;
    int *dims = malloc((size_t)(nd + 1) * sizeof(int));
    int *periods = malloc((size_t)(nd + 1) * sizeof(int));
    int *mine = malloc((size_t)(nd + 1) * sizeof(int));
    int *co = malloc((size_t)(nd + 1) * sizeof(int));
    int *world = NULL;
    int rc = dims && periods && mine && co ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        for (int i = 0; i < nd; i++)
            if (remain[i]) {
                dims[kept] = t->dims[i];
                periods[kept++] = t->periods[i];
                sub *= t->dims[i];
            }
        world = malloc((size_t)sub * sizeof(int));
        if (!world)
            rc = MPI_ERR_NO_MEM;
    }
    uint32_t ctx[1];
    ctx_party_t pt;
    ctx_party_of(c, &pt);
    int rc2 = ctx_agree(&pt, 1, ctx); /* everyone takes part, even after a local error */
    if (rc == MPI_SUCCESS && rc2 != MPI_SUCCESS)
        rc = rc2;
    else if (rc != MPI_SUCCESS && rc2 == MPI_SUCCESS)
        api_ctx_release(ctx, 1);
    if (rc == MPI_SUCCESS) {
        topo_cart_coords(t, c->rank, mine);
        int k = 0;
        for (int r = 0; r < c->size; r++) {
            topo_cart_coords(t, r, co);
            int same = 1;
            for (int i = 0; i < nd && same; i++)
                same = remain[i] || co[i] == mine[i];
            if (same)
                world[k++] = c->group->world[r];
        }
        group_t *g = group_new(k, world);
        topo_t *nt = topo_cart_new(kept, dims, periods);
        if (g && nt) {
            rc = api_comm_build(c, g, NULL, ctx, out);
            if (rc == MPI_SUCCESS)
                (*out)->topo = nt;
            else
                topo_free(nt);
        } else {
            api_ctx_release(ctx, 1);
            topo_free(nt);
            rc = MPI_ERR_NO_MEM;
        }
        if (g)
            group_release(g);
    }
    free(dims);
    free(periods);
    free(mine);
    free(co);
    free(world);
    return rc;
}

API_WEAK(Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    API_BEGIN("MPI_Cart_sub");
    comm_t *c, *n = NULL;
    topo_t *t;
    CHECK_PTR(newcomm);
    CHECK_COMM(comm, c);
    CHECK_CART(c, t);
    if (t->ndims > 0)
        CHECK_PTR(remain_dims);
    CHECK_USABLE(c);
    rc = cart_sub(c, t, remain_dims, &n);
    if (rc == MPI_SUCCESS)
        *newcomm = n->handle;
    API_END();
}

API_WEAK(Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    API_BEGIN("MPI_Dims_create");
    if (ndims > 0)
        CHECK_PTR(dims);
    rc = topo_dims_create(nnodes, ndims, dims);
    API_END();
}

API_WEAK(Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    API_BEGIN("MPI_Topo_test");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_PTR(status);
    const topo_t *t = c->topo;
    *status = t ? t->kind : MPI_UNDEFINED;
    API_END();
}
