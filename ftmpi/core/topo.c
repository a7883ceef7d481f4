#include "core/topo.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int *copy_ints(const int *src, int n)
{
    int *d = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (d && n > 0 && src)
        memcpy(d, src, (size_t)n * sizeof(int));
    return d;
}

void topo_free(topo_t *t)
{
    if (!t)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->in);
    free(t->inw);
    free(t->out);
    free(t->outw);
    free(t);
}

static void comm_topo_free(comm_t *c)
{
    topo_free(c->topo);
    c->topo = NULL;
}

void topo_module_init(void)
{
    comm_free_hook_topo = comm_topo_free;
}

topo_t *topo_cart_new(int ndims, const int *dims, const int *periods)
{
    topo_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = copy_ints(dims, ndims);
    t->periods = malloc((size_t)(ndims > 0 ? ndims : 1) * sizeof(int));
    if (!t->dims || !t->periods) {
        topo_free(t);
        return NULL;
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] ? 1 : 0;
    return t;
}

topo_t *topo_graph_new(int nnodes, const int *index, const int *edges)
{
    topo_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->kind = MPI_GRAPH;
    t->nnodes = nnodes;
    t->nedges = nnodes > 0 ? index[nnodes - 1] : 0;
    t->index = copy_ints(index, nnodes);
    t->edges = copy_ints(edges, t->nedges);
    if (!t->index || !t->edges) {
        topo_free(t);
        return NULL;
    }
    return t;
}

topo_t *topo_dist_new(int indeg, const int *in, const int *inw, int outdeg, const int *out,
                      const int *outw, int weighted)
{
    topo_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->kind = MPI_DIST_GRAPH;
    t->indeg = indeg;
    t->outdeg = outdeg;
    t->weighted = weighted;
    t->in = copy_ints(in, indeg);
    t->out = copy_ints(out, outdeg);
    t->inw = copy_ints(inw, indeg);
    t->outw = copy_ints(outw, outdeg);
    if (!t->in || !t->out || !t->inw || !t->outw) {
        topo_free(t);
        return NULL;
    }
    for (int i = 0; !inw && i < indeg; i++)
        t->inw[i] = 1;
    for (int i = 0; !outw && i < outdeg; i++)
        t->outw[i] = 1;
    return t;
}

topo_t *topo_dup(const topo_t *t)
{
    switch (t->kind) {
    case MPI_CART:
        return topo_cart_new(t->ndims, t->dims, t->periods);
    case MPI_GRAPH:
        return topo_graph_new(t->nnodes, t->index, t->edges);
    default:
        return topo_dist_new(t->indeg, t->in, t->inw, t->outdeg, t->out, t->outw, t->weighted);
    }
}

/* ---- Cartesian ---------------------------------------------------------- */

int topo_cart_size(int ndims, const int *dims)
{
    long long p = 1;
    for (int i = 0; i < ndims; i++) {
        p *= dims[i];
        if (p > INT_MAX || p < 0)
            return -1;
    }
    return (int)p;
}

void topo_cart_coords(const topo_t *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int topo_cart_rank(const topo_t *t, const int *coords, int *rank)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (c < 0 || c >= d) {
            if (!t->periods[i])
                return MPI_ERR_ARG;
            c %= d;
            if (c < 0)
                c += d;
        }
        r = r * d + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

/* Rank displaced by disp along dim, or MPI_PROC_NULL off the edge. */
static int cart_move(const topo_t *t, const int *coords, int dim, int disp)
{
    int c = coords[dim], d = t->dims[dim];
    long long nc = (long long)c + disp;
    if (nc < 0 || nc >= d) {
        if (!t->periods[dim])
            return MPI_PROC_NULL;
        nc %= d;
        if (nc < 0)
            nc += d;
    }
    int r = 0;
    for (int i = 0; i < t->ndims; i++)
        r = r * t->dims[i] + (i == dim ? (int)nc : coords[i]);
    return r;
}

void topo_cart_shift(const topo_t *t, int rank, int dim, int disp, int *src, int *dst)
{
    int stack[16] = {0}; /* zeroed: gcc cannot see that topo_cart_coords fills it */
    int *coords = t->ndims <= 16 ? stack : malloc((size_t)t->ndims * sizeof(int));
    if (!coords) {
        *src = *dst = MPI_PROC_NULL;
        return;
    }
    topo_cart_coords(t, rank, coords);
    *dst = cart_move(t, coords, dim, disp);
    *src = cart_move(t, coords, dim, -disp);
    if (coords != stack)
        free(coords);
}

/* ---- graphs ------------------------------------------------------------- */

const int *topo_graph_neighbors(const topo_t *t, int rank, int *n)
{
    int lo = rank == 0 ? 0 : t->index[rank - 1];
    *n = t->index[rank] - lo;
    return t->edges + lo;
}

int topo_neighbors(const topo_t *t, int rank, int *nin, int **in, int *nout, int **out)
{
    int ni, no;
    const int *src_in, *src_out;
    int *cart = NULL;
    switch (t->kind) {
    case MPI_CART:
        ni = no = 2 * t->ndims;
        cart = malloc((size_t)(ni > 0 ? ni : 1) * sizeof(int));
        if (!cart)
            return MPI_ERR_NO_MEM;
        for (int d = 0; d < t->ndims; d++)
            topo_cart_shift(t, rank, d, 1, &cart[2 * d], &cart[2 * d + 1]);
        src_in = src_out = cart;
        break;
    case MPI_GRAPH:
        src_in = src_out = topo_graph_neighbors(t, rank, &ni);
        no = ni;
        break;
    default:
        ni = t->indeg;
        no = t->outdeg;
        src_in = t->in;
        src_out = t->out;
        break;
    }
    *in = copy_ints(src_in, ni);
    *out = copy_ints(src_out, no);
    free(cart);
    if (!*in || !*out) {
        free(*in);
        free(*out);
        return MPI_ERR_NO_MEM;
    }
    *nin = ni;
    *nout = no;
    return MPI_SUCCESS;
}

/* ---- MPI_Dims_create ------------------------------------------------------
 * The free entries get the factorization of m = nnodes / (product of the
 * fixed entries) into k factors that are "as close to each other as
 * possible" (MPI-4.0 8.5.2): the smallest difference between the largest
 * and the smallest factor, and among those the smallest sum of squares
 * (13x9x8x6 for 5616 in 4 dimensions, not 13x12x6x6: both differ by 7;
 * issue 19). Written in non-increasing order. Exhaustive search over the
 * divisors of m, pruned only where no completion can win. */

typedef struct {
    const int *div;  /* divisors of m, increasing */
    int ndiv;
    int k;
    int *cur, *best;
    int best_spread;
    long long best_sq;
} dims_search_t;

static void dims_rec(dims_search_t *s, int m, int depth, int maxd, long long sq)
{
    int left = s->k - depth;
    if (left == 1) {
        if (m > maxd)
            return;
        s->cur[depth] = m;
        int spread = s->cur[0] - m;
        sq += (long long)m * m;
        if (spread < s->best_spread || (spread == s->best_spread && sq < s->best_sq)) {
            s->best_spread = spread;
            s->best_sq = sq;
            memcpy(s->best, s->cur, (size_t)s->k * sizeof(int));
        }
        return;
    }
    /* The largest remaining factor is at least the left-th root of m. */
    for (int i = s->ndiv - 1; i >= 0; i--) {
        int d = s->div[i];
        if (d > maxd || m % d)
            continue;
        long long pw = 1;
        for (int j = 0; j < left && pw < m; j++)
            pw *= d;
        if (pw < m)
            break; /* smaller divisors cannot be the largest factor */
        int first = depth == 0 ? d : s->cur[0];
        if (first - d > s->best_spread)
            break; /* the spread is at least first - d: no completion wins; smaller d neither */
        s->cur[depth] = d;
        dims_rec(s, m / d, depth + 1, d, sq + (long long)d * d);
    }
}

int topo_dims_create(int nnodes, int ndims, int *dims)
{
    if (ndims < 0)
        return MPI_ERR_DIMS;
    if (nnodes <= 0)
        return MPI_ERR_ARG;
    long long fixed = 1;
    int k = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] == 0)
            k++;
        else
            fixed *= dims[i];
        if (fixed > nnodes)
            return MPI_ERR_DIMS;
    }
    if (nnodes % fixed)
        return MPI_ERR_DIMS;
    int m = (int)(nnodes / fixed);
    if (k == 0)
        return m == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    int ndiv = 0, cap = 64;
    int *div = malloc((size_t)cap * sizeof(int));
    int *cur = malloc((size_t)k * sizeof(int));
    int *best = malloc((size_t)k * sizeof(int));
    int rc = div && cur && best ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    /* divisors, increasing: small ones up to sqrt(m), then their partners */
    int nsmall = 0;
    for (long long d = 1; rc == MPI_SUCCESS && d * d <= m; d++) {
        if (m % d)
            continue;
        if (ndiv + 2 > cap) {
            int *nd = realloc(div, (size_t)(cap *= 2) * sizeof(int));
            if (!nd) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            div = nd;
        }
        div[ndiv++] = (int)d;
        nsmall++;
    }
    if (rc == MPI_SUCCESS && 2 * nsmall > cap) {
        int *nd = realloc(div, (size_t)(2 * nsmall) * sizeof(int));
        if (nd)
            div = nd;
        else
            rc = MPI_ERR_NO_MEM;
    }
    for (int i = nsmall - 1; rc == MPI_SUCCESS && i >= 0; i--) {
        int partner = m / div[i];
        if (partner != div[i])
            div[ndiv++] = partner;
    }
    if (rc == MPI_SUCCESS) {
        dims_search_t s = {div, ndiv, k, cur, best, INT_MAX, LLONG_MAX};
        dims_rec(&s, m, 0, m, 0);
        for (int i = 0, j = 0; i < ndims; i++)
            if (dims[i] == 0)
                dims[i] = best[j++];
    }
    free(div);
    free(cur);
    free(best);
    return rc;
}
