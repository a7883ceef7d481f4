/*
 * topo_graph: graph and distributed graph topologies.
 *  - Graph_create (a ring plus a hub, fewer nodes than processes, 0 nodes),
 *    Graphdims_get, Graph_get (also truncated), Graph_neighbors(_count),
 *    Graph_map, Topo_test
 *  - Dist_graph_create_adjacent (weighted and MPI_UNWEIGHTED, degree 0)
 *  - Dist_graph_create with edges named by processes other than their
 *    ends, self-loops and repeated edges: every process gets exactly its
 *    in- and out-edges, with weights
 *  - errors: MPI_ERR_ARG (bad nnodes, index, edges, degrees),
 *    MPI_ERR_RANK (bad rank / neighbor rank), MPI_ERR_TOPOLOGY
 */
#include "mpitest.h"

/* mpi.h defines MPI_UNWEIGHTED / MPI_WEIGHTS_EMPTY as small integer
 * pointers (as Open MPI does), which gcc 12 takes for pointers to empty
 * objects when they are passed as int arrays. */
#if defined(__GNUC__) && !defined(__clang__) /* gcc's warnings; clang has neither */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

static void test_graph(void)
{
    int p = t_size;
    /* node i: ring neighbors (i-1, i+1), node 0 also connected to everyone */
    int *index = t_malloc(sizeof(int) * (size_t)p), *edges = t_malloc(sizeof(int) * 4 * (size_t)p);
    int ne = 0;
    for (int i = 0; i < p; i++) {
        if (p > 1) {
            edges[ne++] = (i + p - 1) % p;
            edges[ne++] = (i + 1) % p;
        }
        if (i == 0)
            for (int j = 2; j < p - 1; j++)
                edges[ne++] = j;
        else if (i >= 2 && i < p - 1)
            edges[ne++] = 0;
        index[i] = ne;
    }
    MPI_Comm g;
    T_MPI(MPI_Graph_create(MPI_COMM_WORLD, p, index, edges, 0, &g));
    int st, nn, nedges;
    T_MPI(MPI_Topo_test(g, &st));
    T_CHECK(st == MPI_GRAPH, "Topo_test %d", st);
    T_MPI(MPI_Graphdims_get(g, &nn, &nedges));
    T_CHECK(nn == p && nedges == ne, "Graphdims %d %d", nn, nedges);
    int *gi = t_malloc(sizeof(int) * (size_t)p), *ge = t_malloc(sizeof(int) * (size_t)(ne + 1));
    T_MPI(MPI_Graph_get(g, p, ne, gi, ge));
    for (int i = 0; i < p; i++)
        T_CHECK(gi[i] == index[i], "index[%d] %d", i, gi[i]);
    for (int e = 0; e < ne; e++)
        T_CHECK(ge[e] == edges[e], "edges[%d] %d", e, ge[e]);
    int one[1] = {-5};
    T_MPI(MPI_Graph_get(g, 1, 0, one, NULL));
    T_CHECK(one[0] == index[0], "truncated Graph_get %d", one[0]);
    for (int r = 0; r < p; r++) {
        int cnt, lo = r ? index[r - 1] : 0;
        T_MPI(MPI_Graph_neighbors_count(g, r, &cnt));
        T_CHECK(cnt == index[r] - lo, "neighbors_count(%d) %d", r, cnt);
        int nb[64];
        if (cnt <= 64) {
            T_MPI(MPI_Graph_neighbors(g, r, 64, nb));
            for (int k = 0; k < cnt; k++)
                T_CHECK(nb[k] == edges[lo + k], "neighbor %d of %d is %d", k, r, nb[k]);
        }
    }
    /* exchange with every neighbor: everyone knows who we are */
    int cnt, nb[64];
    MPI_Graph_neighbors_count(g, t_rank, &cnt);
    MPI_Graph_neighbors(g, t_rank, 64, nb);
    MPI_Request *rq = t_malloc(sizeof(MPI_Request) * 2 * (size_t)(cnt + 1));
    int *in = t_malloc(sizeof(int) * (size_t)(cnt + 1));
    for (int k = 0; k < cnt; k++) {
        MPI_Irecv(&in[k], 1, MPI_INT, nb[k], 0, g, &rq[2 * k]);
        MPI_Isend(&t_rank, 1, MPI_INT, nb[k], 0, g, &rq[2 * k + 1]);
    }
    T_MPI(MPI_Waitall(2 * cnt, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < cnt; k++)
        T_CHECK(in[k] == nb[k], "message from neighbor %d says %d", nb[k], in[k]);
    free(rq), free(in);
    MPI_Comm_free(&g);
    /* fewer nodes: the last process is left out; 0 nodes: everyone is */
    if (p > 1) {
        int idx2[1] = {0};
        int nr;
        T_MPI(MPI_Graph_create(MPI_COMM_WORLD, 1, idx2, NULL, 0, &g));
        T_CHECK((t_rank == 0) == (g != MPI_COMM_NULL), "1-node graph on rank %d", t_rank);
        if (g != MPI_COMM_NULL)
            MPI_Comm_free(&g);
        T_MPI(MPI_Graph_map(MPI_COMM_WORLD, 1, idx2, NULL, &nr));
        T_CHECK(nr == (t_rank == 0 ? 0 : MPI_UNDEFINED), "Graph_map %d", nr);
    }
    T_MPI(MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &g));
    T_CHECK(g == MPI_COMM_NULL, "0-node graph gave a communicator");
    free(index), free(edges), free(gi), free(ge);
}

static void test_adjacent(void)
{
    int p = t_size, prev = (t_rank + p - 1) % p, next = (t_rank + 1) % p;
    MPI_Comm g;
    int srcw[1] = {10 * prev + t_rank}, dstw[1] = {10 * t_rank + next};
    T_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, srcw, 1, &next, dstw,
                                         MPI_INFO_NULL, 0, &g));
    int st, indeg, outdeg, weighted;
    T_MPI(MPI_Topo_test(g, &st));
    T_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    T_CHECK(st == MPI_DIST_GRAPH && indeg == 1 && outdeg == 1 && weighted, "adjacent counts");
    int s, sw, d, dw;
    T_MPI(MPI_Dist_graph_neighbors(g, 1, &s, &sw, 1, &d, &dw));
    T_CHECK(s == prev && sw == srcw[0] && d == next && dw == dstw[0], "adjacent neighbors");
    MPI_Comm_free(&g);
    /* unweighted, and a process without neighbors */
    int deg = t_rank == 0 ? 0 : 1;
    T_MPI(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, &prev, MPI_UNWEIGHTED, deg, &next,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g));
    T_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    T_CHECK(indeg == deg && outdeg == deg && !weighted, "unweighted counts %d %d %d", indeg,
            outdeg, weighted);
    MPI_Comm_free(&g);
}

/* Edges named by rank r: (r+1)%p -> (r+2)%p weight 100+r, twice; the
 * self-loop r -> r weight r; rank 0 also names 0 -> j for every j. */
static void edges_of(int r, int p, int *n, int *src, int *dst, int *w)
{
    int k = 0;
    src[k] = (r + 1) % p, dst[k] = (r + 2) % p, w[k++] = 100 + r;
    src[k] = (r + 1) % p, dst[k] = (r + 2) % p, w[k++] = 100 + r;
    src[k] = r, dst[k] = r, w[k++] = r;
    if (r == 0)
        for (int j = 0; j < p; j++)
            src[k] = 0, dst[k] = j, w[k++] = 1000 + j;
    *n = k;
}

static void test_dist_create(void)
{
    int p = t_size, n;
    int *src = t_malloc(sizeof(int) * (size_t)(p + 4)), *dst = t_malloc(sizeof(int) * (size_t)(p + 4));
    int *w = t_malloc(sizeof(int) * (size_t)(p + 4)), *deg = t_malloc(sizeof(int) * (size_t)(p + 4));
    edges_of(t_rank, p, &n, src, dst, w);
    for (int i = 0; i < n; i++)
        deg[i] = 1;
    MPI_Comm g;
    T_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, n, src, deg, dst, w, MPI_INFO_NULL, 0, &g));
    /* expected: every edge of every rank, in (naming rank, position) order */
    int ein = 0, eout = 0, xin[256], xinw[256], xout[256], xoutw[256];
    int *s2 = t_malloc(sizeof(int) * (size_t)(p + 4)), *d2 = t_malloc(sizeof(int) * (size_t)(p + 4));
    int *w2 = t_malloc(sizeof(int) * (size_t)(p + 4));
    for (int r = 0; r < p; r++) {
        int m;
        edges_of(r, p, &m, s2, d2, w2);
        for (int i = 0; i < m; i++) {
            if (s2[i] == t_rank)
                xout[eout] = d2[i], xoutw[eout++] = w2[i];
            if (d2[i] == t_rank)
                xin[ein] = s2[i], xinw[ein++] = w2[i];
        }
    }
    int indeg, outdeg, weighted;
    T_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    T_CHECK(indeg == ein && outdeg == eout && weighted, "dist counts %d/%d %d/%d", indeg, ein,
            outdeg, eout);
    int gin[256], ginw[256], gout[256], goutw[256];
    if (indeg == ein && outdeg == eout) {
        T_MPI(MPI_Dist_graph_neighbors(g, 256, gin, ginw, 256, gout, goutw));
        for (int i = 0; i < ein; i++)
            T_CHECK(gin[i] == xin[i] && ginw[i] == xinw[i], "in-edge %d: %d (%d), expected %d (%d)",
                    i, gin[i], ginw[i], xin[i], xinw[i]);
        for (int i = 0; i < eout; i++)
            T_CHECK(gout[i] == xout[i] && goutw[i] == xoutw[i],
                    "out-edge %d: %d (%d), expected %d (%d)", i, gout[i], goutw[i], xout[i],
                    xoutw[i]);
    }
    MPI_Comm_free(&g);
    /* one process names the whole graph, unweighted */
    int ring_deg = t_rank == 0 ? p : 0;
    int *ring_dst = t_malloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; j++)
        ring_dst[j] = (j + 1) % p;
    int *sources = t_malloc(sizeof(int) * (size_t)p), *degs = t_malloc(sizeof(int) * (size_t)p);
    for (int j = 0; j < p; j++)
        sources[j] = j, degs[j] = 1;
    T_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, ring_deg, sources, degs, ring_dst, MPI_UNWEIGHTED,
                                MPI_INFO_NULL, 0, &g));
    T_MPI(MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &weighted));
    T_CHECK(indeg == 1 && outdeg == 1 && !weighted, "ring counts %d %d %d", indeg, outdeg,
            weighted);
    int a, b;
    T_MPI(MPI_Dist_graph_neighbors(g, 1, &a, MPI_UNWEIGHTED, 1, &b, MPI_UNWEIGHTED));
    T_CHECK(a == (t_rank + p - 1) % p && b == (t_rank + 1) % p, "ring neighbors %d %d", a, b);
    MPI_Comm_free(&g);
    free(src), free(dst), free(w), free(deg), free(s2), free(d2), free(w2);
    free(ring_dst), free(sources), free(degs);
}

static void test_errors(void)
{
    int p = t_size;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm g = MPI_COMM_NULL;
    int idx[2] = {1, 0}, edges[2] = {0, 0}, n;
    T_MPI_CLASS(MPI_Graph_create(MPI_COMM_WORLD, p + 1, idx, edges, 0, &g), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Graph_create(MPI_COMM_WORLD, -1, idx, edges, 0, &g), MPI_ERR_ARG);
    if (p >= 2)
        T_MPI_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, idx, edges, 0, &g), MPI_ERR_ARG);
    int bad_edge[1] = {p}, idx1[1] = {1};
    T_MPI_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 1, idx1, bad_edge, 0, &g), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &n), MPI_ERR_TOPOLOGY);
    T_CHECK(g == MPI_COMM_NULL, "failed Graph_create wrote its output");
    int self_edge[1] = {0};
    T_MPI(MPI_Graph_create(MPI_COMM_SELF, 1, idx1, self_edge, 0, &g));
    MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Graph_neighbors_count(g, 1, &n), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Graph_neighbors(g, -1, 1, &n), MPI_ERR_RANK);
    int a, b, c;
    T_MPI_CLASS(MPI_Dist_graph_neighbors_count(g, &a, &b, &c), MPI_ERR_TOPOLOGY);
    MPI_Comm_free(&g);
    int far = p, one = 1;
    T_MPI_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &far, MPI_UNWEIGHTED, 0, NULL,
                                               MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
                MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &far, MPI_UNWEIGHTED, 0, NULL,
                                               MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g),
                MPI_ERR_ARG);
    int neg = -1, zero = 0;
    T_MPI_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &zero, &neg, &zero, MPI_UNWEIGHTED,
                                      MPI_INFO_NULL, 0, &g),
                MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &zero, &one, &far, MPI_UNWEIGHTED,
                                      MPI_INFO_NULL, 0, &g),
                MPI_ERR_RANK);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_graph();
    test_adjacent();
    test_dist_create();
    test_errors();
    return t_finish();
}
