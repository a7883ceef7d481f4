/*
 * neighbor: neighborhood collectives, every check run three times: with
 * the blocking calls, the non-blocking ones (MPI_Ineighbor_* + MPI_Wait),
 * and the persistent ones (MPI_Neighbor_*_init, two MPI_Start/MPI_Wait
 * rounds, MPI_Request_free).
 *  - Cartesian 2-D (one periodic dimension): allgather and alltoall, the
 *    blocks of MPI_PROC_NULL neighbors left untouched; 1-D periodic rings
 *    of size 1 and 2 (both neighbors are the same process: blocks must
 *    not be swapped)
 *  - graph ring: allgather, alltoall
 *  - distributed graph with repeated edges and self-loops: alltoallv,
 *    allgatherv, alltoallw; the k-th copy of an edge carries the k-th block
 *  - MPI_ERR_TOPOLOGY without a topology; a NULL request
 */
#include "mpitest.h"

/* 0: blocking, 1: non-blocking, 2: persistent */
static int mode;

/* Complete the request of a non-blocking or persistent call that returned rc. */
static int run_req(int rc, MPI_Request *q)
{
    if (rc != MPI_SUCCESS || mode == 1)
        return rc != MPI_SUCCESS ? rc : MPI_Wait(q, MPI_STATUS_IGNORE);
    for (int round = 0; round < 2 && rc == MPI_SUCCESS; round++)
        if ((rc = MPI_Start(q)) == MPI_SUCCESS)
            rc = MPI_Wait(q, MPI_STATUS_IGNORE);
    int rc2 = MPI_Request_free(q);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* NBR(name, args...): MPI_Neighbor_<name>(args) in the current mode. */
#define NBR(name, ...)                                                                   \
    (mode == 0 ? MPI_Neighbor_##name(__VA_ARGS__)                                        \
     : mode == 1 ? run_req(MPI_Ineighbor_##name(__VA_ARGS__, &q_), &q_)                 \
                 : run_req(MPI_Neighbor_##name##_init(__VA_ARGS__, MPI_INFO_NULL, &q_), &q_))
static MPI_Request q_;

/* MPI_UNWEIGHTED is a small integer pointer (see topo_graph.c). */
#if defined(__GNUC__) && !defined(__clang__) /* gcc's warnings; clang has neither */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define NONE (-77)

/* Cartesian neighbor j (order: dim 0 -, dim 0 +, dim 1 -, ...). */
static int cart_nbr(MPI_Comm c, int j)
{
    int src, dst;
    MPI_Cart_shift(c, j / 2, 1, &src, &dst);
    return j % 2 ? dst : src;
}

static void test_cart(MPI_Comm c, const char *what)
{
    int nd;
    MPI_Cartdim_get(c, &nd);
    int rank, n = 2 * nd;
    MPI_Comm_rank(c, &rank);
    int *in = t_malloc(sizeof(int) * (size_t)(n + 1)), *out = t_malloc(sizeof(int) * (size_t)(n + 1));
    for (int j = 0; j < n; j++)
        in[j] = NONE;
    T_MPI(NBR(allgather, &rank, 1, MPI_INT, in, 1, MPI_INT, c));
    for (int j = 0; j < n; j++) {
        int nb = cart_nbr(c, j);
        T_CHECK(in[j] == (nb == MPI_PROC_NULL ? NONE : nb), "%s allgather block %d: %d, neighbor %d",
                what, j, in[j], nb);
    }
    for (int j = 0; j < n; j++) {
        out[j] = rank * 100 + j;
        in[j] = NONE;
    }
    T_MPI(NBR(alltoall, out, 1, MPI_INT, in, 1, MPI_INT, c));
    for (int j = 0; j < n; j++) {
        /* my neighbor on side j sent me the block for its opposite side */
        int nb = cart_nbr(c, j);
        int want = nb == MPI_PROC_NULL ? NONE : nb * 100 + (j ^ 1);
        T_CHECK(in[j] == want, "%s alltoall block %d: %d, expected %d", what, j, in[j], want);
    }
    free(in);
    free(out);
}

static void test_carts(void)
{
    int dims[2] = {0, 0}, per[2] = {1, 0};
    MPI_Dims_create(t_size, 2, dims);
    MPI_Comm c;
    T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c));
    test_cart(c, "2-D");
    MPI_Comm_free(&c);
    /* periodic rings of size 1 (self) and 2 (one peer on both sides) */
    MPI_Comm one;
    T_MPI(MPI_Cart_create(MPI_COMM_SELF, 1, (int[]){1}, (int[]){1}, 0, &one));
    test_cart(one, "ring of 1");
    MPI_Comm_free(&one);
    if (t_size >= 2) {
        MPI_Comm two;
        T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){2}, (int[]){1}, 0, &two));
        if (two != MPI_COMM_NULL) {
            test_cart(two, "ring of 2");
            MPI_Comm_free(&two);
        }
    }
    /* 2 x 2 torus: 2 periodic dimensions of size 2 */
    if (t_size >= 4) {
        MPI_Comm t;
        T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){2, 2}, (int[]){1, 1}, 0, &t));
        if (t != MPI_COMM_NULL) {
            test_cart(t, "2x2 torus");
            MPI_Comm_free(&t);
        }
    }
}

static void test_graph(void)
{
    int p = t_size, *index = t_malloc(sizeof(int) * (size_t)p), *edges = t_malloc(sizeof(int) * 2 * (size_t)p);
    for (int i = 0; i < p; i++) {
        edges[2 * i] = (i + p - 1) % p;
        edges[2 * i + 1] = (i + 1) % p;
        index[i] = 2 * (i + 1);
    }
    MPI_Comm g;
    T_MPI(MPI_Graph_create(MPI_COMM_WORLD, p, index, edges, 0, &g));
    int prev = edges[2 * t_rank], next = edges[2 * t_rank + 1];
    int in[2] = {NONE, NONE}, out[2] = {t_rank * 10, t_rank * 10 + 1};
    T_MPI(NBR(allgather, &t_rank, 1, MPI_INT, in, 1, MPI_INT, g));
    T_CHECK(in[0] == prev && in[1] == next, "graph allgather %d %d", in[0], in[1]);
    T_MPI(NBR(alltoall, out, 1, MPI_INT, in, 1, MPI_INT, g));
    if (p > 2) { /* p = 2: prev = next, blocks of a graph are matched in order */
        T_CHECK(in[0] == prev * 10 + 1 && in[1] == next * 10, "graph alltoall %d %d", in[0],
                in[1]);
    }
    MPI_Comm_free(&g);
    free(index), free(edges);
}

/* Edges named by rank r: r -> (r+1)%p twice, r -> r, and r -> (r+2)%p. */
#define EPR 4
static void edge(int r, int p, int k, int *s, int *d)
{
    static const int off[EPR] = {1, 1, 0, 2};
    *s = r;
    *d = (r + off[k]) % p;
}

static void test_dist(void)
{
    int p = t_size, src[EPR], dst[EPR], deg[EPR];
    for (int k = 0; k < EPR; k++)
        edge(t_rank, p, k, &src[k], &dst[k]), deg[k] = 1;
    MPI_Comm g;
    T_MPI(MPI_Dist_graph_create(MPI_COMM_WORLD, EPR, src, deg, dst, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                0, &g));
    int indeg, outdeg, w;
    MPI_Dist_graph_neighbors_count(g, &indeg, &outdeg, &w);
    int *ins = t_malloc(sizeof(int) * (size_t)(indeg + 1)), *outs = t_malloc(sizeof(int) * (size_t)(outdeg + 1));
    MPI_Dist_graph_neighbors(g, indeg, ins, MPI_UNWEIGHTED, outdeg, outs, MPI_UNWEIGHTED);
    /* expected payload of in-edge j: (source, its out-position of that edge);
     * positions follow the global order (naming rank, index) at both ends */
    int *want = t_malloc(sizeof(int) * (size_t)(indeg + 1)), nin = 0;
    int *outpos = calloc((size_t)p, sizeof(int));
    for (int r = 0; r < p; r++)
        for (int k = 0; k < EPR; k++) {
            int s, d;
            edge(r, p, k, &s, &d);
            int pos = outpos[s]++;
            if (d == t_rank && nin <= indeg)
                want[nin++] = s * 1000 + pos;
        }
    T_CHECK(nin == indeg, "in-degree %d, expected %d", indeg, nin);
    /* alltoallv: out-edge k sends k+1 ints (s*1000+k, then k) */
    int *scount = t_malloc(sizeof(int) * (size_t)(outdeg + 1)), *sdisp = t_malloc(sizeof(int) * (size_t)(outdeg + 1));
    int *rcount = t_malloc(sizeof(int) * (size_t)(indeg + 1)), *rdisp = t_malloc(sizeof(int) * (size_t)(indeg + 1));
    int stot = 0, rtot = 0;
    for (int k = 0; k < outdeg; k++)
        scount[k] = k + 1, sdisp[k] = stot, stot += k + 1;
    for (int j = 0; j < indeg; j++) {
        int k = want[j] % 1000;
        rcount[j] = k + 1, rdisp[j] = rtot, rtot += k + 1 + 1; /* a gap of one */
    }
    int *sb = t_malloc(sizeof(int) * (size_t)(stot + 1)), *rb = t_malloc(sizeof(int) * (size_t)(rtot + 1));
    for (int k = 0; k < outdeg; k++)
        for (int i = 0; i < scount[k]; i++)
            sb[sdisp[k] + i] = i == 0 ? t_rank * 1000 + k : k;
    for (int i = 0; i < rtot; i++)
        rb[i] = NONE;
    T_MPI(NBR(alltoallv, sb, scount, sdisp, MPI_INT, rb, rcount, rdisp, MPI_INT, g));
    for (int j = 0; j < indeg && j < nin; j++) {
        T_CHECK(rb[rdisp[j]] == want[j], "alltoallv in-edge %d: %d, expected %d", j, rb[rdisp[j]],
                want[j]);
        T_CHECK(rb[rdisp[j] + rcount[j]] == NONE, "alltoallv wrote past block %d", j);
    }
    /* alltoallw: the same, displacements in bytes */
    int *swc = t_malloc(sizeof(int) * (size_t)(outdeg + 1)), *rwc = t_malloc(sizeof(int) * (size_t)(indeg + 1));
    MPI_Aint *swd = t_malloc(sizeof(MPI_Aint) * (size_t)(outdeg + 1)), *rwd = t_malloc(sizeof(MPI_Aint) * (size_t)(indeg + 1));
    MPI_Datatype *st = t_malloc(sizeof(MPI_Datatype) * (size_t)(outdeg + 1)), *rt = t_malloc(sizeof(MPI_Datatype) * (size_t)(indeg + 1));
    for (int k = 0; k < outdeg; k++)
        swc[k] = scount[k], swd[k] = (MPI_Aint)sdisp[k] * (MPI_Aint)sizeof(int), st[k] = MPI_INT;
    for (int j = 0; j < indeg; j++)
        rwc[j] = rcount[j], rwd[j] = (MPI_Aint)rdisp[j] * (MPI_Aint)sizeof(int), rt[j] = MPI_INT;
    for (int i = 0; i < rtot; i++)
        rb[i] = NONE;
    T_MPI(NBR(alltoallw, sb, swc, swd, st, rb, rwc, rwd, rt, g));
    for (int j = 0; j < indeg && j < nin; j++)
        T_CHECK(rb[rdisp[j]] == want[j], "alltoallw in-edge %d: %d, expected %d", j, rb[rdisp[j]],
                want[j]);
    /* allgatherv: everyone sends its rank to each out-neighbor */
    for (int j = 0; j < indeg; j++)
        rcount[j] = 1, rdisp[j] = indeg - 1 - j; /* reversed placement */
    for (int i = 0; i < rtot; i++)
        rb[i] = NONE;
    T_MPI(NBR(allgatherv, &t_rank, 1, MPI_INT, rb, rcount, rdisp, MPI_INT, g));
    for (int j = 0; j < indeg; j++)
        T_CHECK(rb[indeg - 1 - j] == ins[j], "allgatherv in-edge %d: %d, expected %d", j,
                rb[indeg - 1 - j], ins[j]);
    MPI_Comm_free(&g);
    free(ins), free(outs), free(want), free(outpos), free(scount), free(sdisp), free(rcount);
    free(rdisp), free(sb), free(rb), free(swc), free(rwc), free(swd), free(rwd), free(st), free(rt);
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a = 0, b[4];
    T_MPI_CLASS(MPI_Neighbor_allgather(&a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_TOPOLOGY);
    T_MPI_CLASS(MPI_Neighbor_alltoall(&a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_NULL), MPI_ERR_COMM);
    MPI_Comm c;
    MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){t_size}, (int[]){1}, 0, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Neighbor_alltoall(&a, -1, MPI_INT, b, 1, MPI_INT, c), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Neighbor_alltoall(&a, 1, MPI_DATATYPE_NULL, b, 1, MPI_INT, c), MPI_ERR_TYPE);
    /* non-blocking: the same checks, and the request pointer */
    MPI_Request q;
    T_MPI_CLASS(MPI_Ineighbor_allgather(&a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD, &q),
                MPI_ERR_TOPOLOGY);
    T_MPI_CLASS(MPI_Ineighbor_alltoallv(&a, (int[]){1, 1}, (int[]){0, 0}, MPI_INT, b,
                                        (int[]){-1, 1}, (int[]){0, 1}, MPI_INT, c, &q),
                MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Ineighbor_alltoall(&a, 1, MPI_INT, b, 1, MPI_INT, c, NULL), MPI_ERR_REQUEST);
    /* persistent: the communicator at init; the other arguments at each
     * MPI_Start, which leaves the request inactive */
    T_MPI_CLASS(MPI_Neighbor_alltoall_init(&a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_NULL,
                                           MPI_INFO_NULL, &q),
                MPI_ERR_COMM);
    T_MPI(MPI_Neighbor_alltoall_init(&a, -1, MPI_INT, b, 1, MPI_INT, c, MPI_INFO_NULL, &q));
    T_MPI_CLASS(MPI_Start(&q), MPI_ERR_COUNT);
    T_MPI(MPI_Request_free(&q));
    T_MPI(MPI_Neighbor_allgather_init(&a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD,
                                      MPI_INFO_NULL, &q));
    T_MPI_CLASS(MPI_Start(&q), MPI_ERR_TOPOLOGY);
    T_MPI(MPI_Request_free(&q));
    MPI_Comm_free(&c);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    for (mode = 0; mode < 3; mode++) {
        test_carts();
        test_graph();
        test_dist();
    }
    test_errors();
    return t_finish();
}
