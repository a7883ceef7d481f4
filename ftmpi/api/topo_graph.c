/*
 * Graph topologies (MPI-1 MPI_Graph_*) and distributed graph topologies
 * (MPI-2.2 MPI_Dist_graph_*). As with Cartesian ones, ranks are not
 * reordered.
 *
 * MPI_Dist_graph_create: every process may name any edges; each edge
 * s -> d is sent to s (as an out-edge) and to d (as an in-edge) tagged
 * with who named it and where, and every process sorts its edges by that
 * tag, so that between the same two processes the k-th out-edge of s and
 * the k-th in-edge of d are the same edge (neighborhood collectives match
 * on it). Cost: one message to every other process for the counts, one
 * per process that gets edges: p alpha + edges * 20 bytes * beta.
 */
#include "api/comm_int.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_TOPO_KIND(c, t, k)                                            \
    do {                                                                    \
        (t) = (c)->topo;                                                    \
        if (!(t) || (t)->kind != (k)) API_FAIL(MPI_ERR_TOPOLOGY);           \
    } while (0)

/* ---- MPI-1 graphs -------------------------------------------------------- */

static int check_graph(int nnodes, const int index[], const int edges[], int size)
{
    if (nnodes < 0 || nnodes > size)
        return MPI_ERR_ARG;
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (!index)
        return MPI_ERR_ARG;
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev)
            return MPI_ERR_ARG;
        prev = index[i];
    }
    if (prev > 0 && !edges)
        return MPI_ERR_ARG;
    for (int e = 0; e < prev; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

API_WEAK(Graph_create)
int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    API_BEGIN("MPI_Graph_create");
    comm_t *c, *n;
    (void)reorder;
    CHECK_PTR(comm_graph);
    CHECK_COMM(comm_old, c);
    CHECK_INTRA(c);
    rc = check_graph(nnodes, index, edges, c->size);
    if (rc != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    rc = api_topo_comm(c, nnodes, topo_graph_new(nnodes, index, edges), &n);
    if (rc == MPI_SUCCESS)
        *comm_graph = n ? n->handle : MPI_COMM_NULL;
    API_END();
}

API_WEAK(Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                   int *newrank)
{
    API_BEGIN("MPI_Graph_map");
    comm_t *c;
    CHECK_COMM(comm, c);
    CHECK_INTRA(c);
    CHECK_PTR(newrank);
    rc = check_graph(nnodes, index, edges, c->size);
    if (rc == MPI_SUCCESS)
        *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    API_END();
}

API_WEAK(Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    API_BEGIN("MPI_Graphdims_get");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_PTR(nnodes);
    CHECK_PTR(nedges);
    CHECK_TOPO_KIND(c, t, MPI_GRAPH);
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    API_END();
}

API_WEAK(Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    API_BEGIN("MPI_Graph_get");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_TOPO_KIND(c, t, MPI_GRAPH);
    if (maxindex < 0 || maxedges < 0)
        API_FAIL(MPI_ERR_ARG);
    int ni = maxindex < t->nnodes ? maxindex : t->nnodes;
    int ne = maxedges < t->nedges ? maxedges : t->nedges;
    if (ni > 0)
        CHECK_PTR(index);
    if (ne > 0)
        CHECK_PTR(edges);
    if (ni > 0)
        memcpy(index, t->index, (size_t)ni * sizeof(int));
    if (ne > 0)
        memcpy(edges, t->edges, (size_t)ne * sizeof(int));
    API_END();
}

API_WEAK(Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    API_BEGIN("MPI_Graph_neighbors_count");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_TOPO_KIND(c, t, MPI_GRAPH);
    CHECK_PTR(nneighbors);
    if (rank < 0 || rank >= t->nnodes)
        API_FAIL(MPI_ERR_RANK);
    topo_graph_neighbors(t, rank, nneighbors);
    API_END();
}

API_WEAK(Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    API_BEGIN("MPI_Graph_neighbors");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_TOPO_KIND(c, t, MPI_GRAPH);
    if (rank < 0 || rank >= t->nnodes)
        API_FAIL(MPI_ERR_RANK);
    if (maxneighbors < 0)
        API_FAIL(MPI_ERR_ARG);
    int n;
    const int *nb = topo_graph_neighbors(t, rank, &n);
    if (n > maxneighbors)
        n = maxneighbors;
    if (n > 0) {
        CHECK_PTR(neighbors);
        memcpy(neighbors, nb, (size_t)n * sizeof(int));
    }
    API_END();
}

/* ---- distributed graphs ---------------------------------------------------- */

/* A weights argument: NULL for "no weights" (MPI_UNWEIGHTED or
 * MPI_WEIGHTS_EMPTY), else the array; MPI_ERR_ARG for a NULL array that
 * should hold weights. */
static int weights_arg(const int *w, int n, const int **out)
{
    *out = NULL;
    if (w == MPI_UNWEIGHTED || w == MPI_WEIGHTS_EMPTY)
        return MPI_SUCCESS;
    if (!w && n > 0)
        return MPI_ERR_ARG;
    *out = w;
    return MPI_SUCCESS;
}

static int check_ranks(const int *r, int n, int size)
{
    if (n > 0 && !r)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= size)
            return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

API_WEAK(Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int reorder, MPI_Comm *comm_dist_graph)
{
    API_BEGIN("MPI_Dist_graph_create_adjacent");
    comm_t *c, *n;
    info_t *in;
    const int *sw, *dw;
    (void)reorder;
    CHECK_PTR(comm_dist_graph);
    CHECK_COMM(comm_old, c);
    CHECK_INTRA(c);
    CHECK_INFO_OR_NULL(info, in);
    if (indegree < 0 || outdegree < 0)
        API_FAIL(MPI_ERR_ARG);
    if ((rc = check_ranks(sources, indegree, c->size)) != MPI_SUCCESS ||
        (rc = check_ranks(destinations, outdegree, c->size)) != MPI_SUCCESS ||
        (rc = weights_arg(sourceweights, indegree, &sw)) != MPI_SUCCESS ||
        (rc = weights_arg(destweights, outdegree, &dw)) != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    int weighted = sourceweights != MPI_UNWEIGHTED || destweights != MPI_UNWEIGHTED;
    topo_t *t = topo_dist_new(indegree, sources, sw, outdegree, destinations, dw, weighted);
    rc = api_topo_comm(c, c->size, t, &n);
    if (rc == MPI_SUCCESS)
        *comm_dist_graph = n->handle;
    API_END();
}

/* One edge as it travels: who it goes to is implied by the message. */
enum { E_ROLE, E_PEER, E_W, E_ORIGIN, E_IDX, E_INTS };
enum { ROLE_OUT, ROLE_IN };

static int edge_cmp(const void *a, const void *b)
{
    const int *x = a, *y = b;
    if (x[E_ORIGIN] != y[E_ORIGIN])
        return x[E_ORIGIN] < y[E_ORIGIN] ? -1 : 1;
    return (x[E_IDX] > y[E_IDX]) - (x[E_IDX] < y[E_IDX]);
}

/* Route every named edge to its two ends; build this process's adjacency. */
static int dist_exchange(comm_t *c, int n, const int *sources, const int *degrees,
                         const int *dests, const int *weights, int weighted, topo_t **t_p)
{
    int p = c->size, tag = coll_tag(c), rc = MPI_SUCCESS;
    dt_t *ints = dt_get(MPI_INT);
    int *scount = calloc((size_t)p, sizeof(int));
    int *rcount = calloc((size_t)p, sizeof(int));
    int *soff = calloc((size_t)p + 1, sizeof(int));
    int *roff = calloc((size_t)p + 1, sizeof(int));
    req_t **rq = calloc(2 * (size_t)p, sizeof(req_t *));
    int *sbuf = NULL, *rbuf = NULL, *fill = NULL;
    if (!scount || !rcount || !soff || !roff || !rq)
        rc = MPI_ERR_NO_MEM;
    /* count records per destination process */
    for (int i = 0, e = 0; rc == MPI_SUCCESS && i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            scount[sources[i]]++;
            scount[dests[e]]++;
        }
    /* counts to every process (a local error still takes part, sending 0s) */
    for (int q = 0; q < p && rq; q++) {
        int rc1 = coll_irecv(c, rcount ? &rcount[q] : NULL, rcount ? 1 : 0, ints, q, tag, &rq[q]);
        int rc2 = coll_isend(c, scount ? &scount[q] : NULL, scount ? 1 : 0, ints, q, tag,
                             &rq[p + q]);
        if (rc == MPI_SUCCESS)
            rc = rc1 != MPI_SUCCESS ? rc1 : rc2;
    }
    int rcw = rq ? coll_waitall(rq, 2 * p) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = rcw;
    if (rc == MPI_SUCCESS) {
        for (int q = 0; q < p; q++) {
            soff[q + 1] = soff[q] + scount[q];
            roff[q + 1] = roff[q] + rcount[q];
        }
        sbuf = malloc((size_t)(soff[p] + 1) * E_INTS * sizeof(int));
        rbuf = malloc((size_t)(roff[p] + 1) * E_INTS * sizeof(int));
        fill = malloc((size_t)(p + 1) * sizeof(int));
        if (!sbuf || !rbuf || !fill)
            rc = MPI_ERR_NO_MEM; /* the peers wait for our records: see below */
    }
    if (rc == MPI_SUCCESS) {
        memcpy(fill, soff, (size_t)p * sizeof(int));
        for (int i = 0, e = 0; i < n; i++)
            for (int k = 0; k < degrees[i]; k++, e++) {
                int s = sources[i], d = dests[e], w = weights ? weights[e] : 1;
                int *o = sbuf + (size_t)fill[s]++ * E_INTS;
                o[E_ROLE] = ROLE_OUT, o[E_PEER] = d, o[E_W] = w, o[E_ORIGIN] = c->rank,
                o[E_IDX] = e;
                int *r = sbuf + (size_t)fill[d]++ * E_INTS;
                r[E_ROLE] = ROLE_IN, r[E_PEER] = s, r[E_W] = w, r[E_ORIGIN] = c->rank,
                r[E_IDX] = e;
            }
        for (int q = 0; q < p && rc == MPI_SUCCESS; q++) {
            if (rcount[q])
                rc = coll_irecv(c, rbuf + (size_t)roff[q] * E_INTS,
                                (size_t)rcount[q] * E_INTS, ints, q, tag, &rq[q]);
            if (rc == MPI_SUCCESS && scount[q])
                rc = coll_isend(c, sbuf + (size_t)soff[q] * E_INTS, (size_t)scount[q] * E_INTS,
                                ints, q, tag, &rq[p + q]);
        }
        rcw = coll_waitall(rq, 2 * p);
        if (rc == MPI_SUCCESS)
            rc = rcw;
    }
    if (rc == MPI_SUCCESS) {
        int total = roff[p], nin = 0, nout = 0;
        qsort(rbuf, (size_t)total, E_INTS * sizeof(int), edge_cmp);
        for (int i = 0; i < total; i++) {
            if (rbuf[i * E_INTS + E_ROLE] == ROLE_IN)
                nin++;
            else
                nout++;
        }
        int *in = malloc((size_t)(nin + 1) * sizeof(int)), *inw = malloc((size_t)(nin + 1) * sizeof(int));
        int *out = malloc((size_t)(nout + 1) * sizeof(int)), *outw = malloc((size_t)(nout + 1) * sizeof(int));
        if (in && inw && out && outw) {
            int a = 0, b = 0;
            for (int i = 0; i < total; i++) {
                const int *r = rbuf + (size_t)i * E_INTS;
                if (r[E_ROLE] == ROLE_IN)
                    in[a] = r[E_PEER], inw[a++] = r[E_W];
                else
                    out[b] = r[E_PEER], outw[b++] = r[E_W];
            }
            *t_p = topo_dist_new(nin, in, inw, nout, out, outw, weighted);
        }
        free(in), free(inw), free(out), free(outw);
    }
    free(scount), free(rcount), free(soff), free(roff), free(rq);
    free(sbuf), free(rbuf), free(fill);
    return rc;
}

API_WEAK(Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int reorder, MPI_Comm *comm_dist_graph)
{
    API_BEGIN("MPI_Dist_graph_create");
    comm_t *c, *nc;
    info_t *in;
    const int *w;
    (void)reorder;
    CHECK_PTR(comm_dist_graph);
    CHECK_COMM(comm_old, c);
    CHECK_INTRA(c);
    CHECK_INFO_OR_NULL(info, in);
    if (n < 0)
        API_FAIL(MPI_ERR_ARG);
    if (n > 0 && (!sources || !degrees))
        API_FAIL(MPI_ERR_ARG);
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            API_FAIL(MPI_ERR_ARG);
        total += degrees[i];
    }
    if (total > (1 << 26))
        API_FAIL(MPI_ERR_ARG);
    if ((rc = check_ranks(sources, n, c->size)) != MPI_SUCCESS ||
        (rc = check_ranks(destinations, (int)total, c->size)) != MPI_SUCCESS ||
        (rc = weights_arg(weights, (int)total, &w)) != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    topo_t *t = NULL;
    rc = dist_exchange(c, n, sources, degrees, destinations, w, weights != MPI_UNWEIGHTED, &t);
    if (rc != MPI_SUCCESS)
        goto fail;
    rc = api_topo_comm(c, c->size, t, &nc);
    if (rc == MPI_SUCCESS)
        *comm_dist_graph = nc->handle;
    API_END();
}

API_WEAK(Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    API_BEGIN("MPI_Dist_graph_neighbors_count");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_PTR(indegree);
    CHECK_PTR(outdegree);
    CHECK_PTR(weighted);
    CHECK_TOPO_KIND(c, t, MPI_DIST_GRAPH);
    *indegree = t->indeg;
    *outdegree = t->outdeg;
    *weighted = t->weighted;
    API_END();
}

API_WEAK(Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[])
{
    API_BEGIN("MPI_Dist_graph_neighbors");
    comm_t *c;
    topo_t *t;
    CHECK_COMM(comm, c);
    CHECK_TOPO_KIND(c, t, MPI_DIST_GRAPH);
    if (maxindegree < 0 || maxoutdegree < 0)
        API_FAIL(MPI_ERR_ARG);
    int ni = maxindegree < t->indeg ? maxindegree : t->indeg;
    int no = maxoutdegree < t->outdeg ? maxoutdegree : t->outdeg;
    if ((ni > 0 && !sources) || (no > 0 && !destinations))
        API_FAIL(MPI_ERR_ARG);
    int win = t->weighted && sourceweights && sourceweights != MPI_UNWEIGHTED &&
              sourceweights != MPI_WEIGHTS_EMPTY;
    int wout = t->weighted && destweights && destweights != MPI_UNWEIGHTED &&
               destweights != MPI_WEIGHTS_EMPTY;
    for (int i = 0; i < ni; i++) {
        sources[i] = t->in[i];
        if (win)
            sourceweights[i] = t->inw[i];
    }
    for (int i = 0; i < no; i++) {
        destinations[i] = t->out[i];
        if (wout)
            destweights[i] = t->outw[i];
    }
    API_END();
}
