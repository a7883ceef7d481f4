/*
 * The large-count collectives: every _c collective in its blocking,
 * non-blocking and persistent (_init_c) form, the neighbourhood _c forms on
 * a periodic ring, MPI_Reduce_local_c and MPI_Op_create_c, each answer
 * checked. Beyond INT_MAX without the memory: a gather whose displacements
 * exceed INT_MAX into a reserved, untouched address range (the counts and
 * displacements are divided by their common factor), user reductions over
 * 3e9 elements of a type of size 0 (an MPI_User_function_c sees the count
 * whole, an int one in INT_MAX pieces).
 */
#include <limits.h>

#include "../mpi/mpitest.h"

#include <sys/mman.h>

#define BIG 3000000000LL

/* One collective in mode 0 (blocking), 1 (non-blocking), 2 (persistent,
 * started twice). B, I, P: the three calls; I and P take &q. */
#define RUN3(mode, B, I, P)                                             \
    do {                                                                \
        MPI_Request q = MPI_REQUEST_NULL;                               \
        if ((mode) == 0) {                                              \
            T_MPI(B);                                                   \
        } else if ((mode) == 1) {                                       \
            T_MPI(I);                                                   \
            T_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));                     \
        } else {                                                        \
            T_MPI(P);                                                   \
            for (int round = 0; round < 2; round++) {                   \
                T_MPI(MPI_Start(&q));                                   \
                T_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));                 \
            }                                                           \
            T_MPI(MPI_Request_free(&q));                                \
        }                                                               \
    } while (0)

static int p, me, root;
static MPI_Comm W;
#define INFO MPI_INFO_NULL
static const char *mname[3] = {"blocking", "non-blocking", "persistent"};

static void rooted(int m)
{
    int buf[4], sb[2], rb[64], sb2[64];
    MPI_Count rc[16], sc[16];
    MPI_Aint dis[16];
    for (int i = 0; i < 4; i++)
        buf[i] = me == root ? 7 + i : -1;
    RUN3(m, MPI_Bcast_c(buf, 4, MPI_INT, root, W), MPI_Ibcast_c(buf, 4, MPI_INT, root, W, &q),
         MPI_Bcast_init_c(buf, 4, MPI_INT, root, W, INFO, &q));
    for (int i = 0; i < 4; i++)
        T_CHECK(buf[i] == 7 + i, "Bcast_c %s: %d", mname[m], buf[i]);

    sb[0] = me * 10;
    sb[1] = me * 10 + 1;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Gather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root, W),
         MPI_Igather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root, W, &q),
         MPI_Gather_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT, root, W, INFO, &q));
    for (int i = 0; me == root && i < 2 * p; i++)
        T_CHECK(rb[i] == (i / 2) * 10 + i % 2, "Gather_c %s: rb[%d] = %d", mname[m], i, rb[i]);

    /* rank i: i+1 ints 100i+k, at displacement i(i+1)/2 + i (a gap of one) */
    for (int i = 0; i < p; i++) {
        rc[i] = sc[i] = i + 1;
        dis[i] = i * (i + 1) / 2 + i;
    }
    for (int k = 0; k <= me; k++)
        sb2[k] = 100 * me + k;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Gatherv_c(sb2, me + 1, MPI_INT, rb, rc, dis, MPI_INT, root, W),
         MPI_Igatherv_c(sb2, me + 1, MPI_INT, rb, rc, dis, MPI_INT, root, W, &q),
         MPI_Gatherv_init_c(sb2, me + 1, MPI_INT, rb, rc, dis, MPI_INT, root, W, INFO, &q));
    for (int i = 0; me == root && i < p; i++)
        for (int k = 0; k <= i; k++)
            T_CHECK(rb[dis[i] + k] == 100 * i + k, "Gatherv_c %s: from %d [%d] = %d", mname[m], i,
                    k, rb[dis[i] + k]);

    for (int i = 0; i < 2 * p; i++)
        sb2[i] = (i / 2) * 10 + i % 2;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Scatter_c(sb2, 2, MPI_INT, rb, 2, MPI_INT, root, W),
         MPI_Iscatter_c(sb2, 2, MPI_INT, rb, 2, MPI_INT, root, W, &q),
         MPI_Scatter_init_c(sb2, 2, MPI_INT, rb, 2, MPI_INT, root, W, INFO, &q));
    T_CHECK(rb[0] == me * 10 && rb[1] == me * 10 + 1, "Scatter_c %s: %d %d", mname[m], rb[0], rb[1]);

    for (int i = 0; i < p; i++)
        for (int k = 0; k <= i; k++)
            sb2[dis[i] + k] = 100 * i + k;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Scatterv_c(sb2, sc, dis, MPI_INT, rb, me + 1, MPI_INT, root, W),
         MPI_Iscatterv_c(sb2, sc, dis, MPI_INT, rb, me + 1, MPI_INT, root, W, &q),
         MPI_Scatterv_init_c(sb2, sc, dis, MPI_INT, rb, me + 1, MPI_INT, root, W, INFO, &q));
    for (int k = 0; k <= me; k++)
        T_CHECK(rb[k] == 100 * me + k, "Scatterv_c %s: [%d] = %d", mname[m], k, rb[k]);
}

static void all(int m)
{
    int sb[64], rb[64];
    MPI_Count rc[16], sc[16];
    MPI_Aint dis[16], sd[16], bd[16];
    MPI_Datatype ty[16];
    sb[0] = me * 10;
    sb[1] = me * 10 + 1;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Allgather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W),
         MPI_Iallgather_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W, &q),
         MPI_Allgather_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W, INFO, &q));
    for (int i = 0; i < 2 * p; i++)
        T_CHECK(rb[i] == (i / 2) * 10 + i % 2, "Allgather_c %s: rb[%d] = %d", mname[m], i, rb[i]);

    for (int i = 0; i < p; i++) {
        rc[i] = i + 1;
        dis[i] = i * (i + 1) / 2 + i;
    }
    for (int k = 0; k <= me; k++)
        sb[k] = 100 * me + k;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Allgatherv_c(sb, me + 1, MPI_INT, rb, rc, dis, MPI_INT, W),
         MPI_Iallgatherv_c(sb, me + 1, MPI_INT, rb, rc, dis, MPI_INT, W, &q),
         MPI_Allgatherv_init_c(sb, me + 1, MPI_INT, rb, rc, dis, MPI_INT, W, INFO, &q));
    for (int i = 0; i < p; i++)
        for (int k = 0; k <= i; k++)
            T_CHECK(rb[dis[i] + k] == 100 * i + k, "Allgatherv_c %s", mname[m]);

    for (int j = 0; j < p; j++)
        for (int k = 0; k < 2; k++)
            sb[2 * j + k] = me * 100 + j * 10 + k;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Alltoall_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W),
         MPI_Ialltoall_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W, &q),
         MPI_Alltoall_init_c(sb, 2, MPI_INT, rb, 2, MPI_INT, W, INFO, &q));
    for (int j = 0; j < p; j++)
        for (int k = 0; k < 2; k++)
            T_CHECK(rb[2 * j + k] == j * 100 + me * 10 + k, "Alltoall_c %s", mname[m]);

    /* one int to each, received in reverse order */
    for (int j = 0; j < p; j++) {
        sc[j] = rc[j] = 1;
        sd[j] = j;
        dis[j] = p - 1 - j;
        sb[j] = me * 100 + j * 10;
        bd[j] = (MPI_Aint)sizeof(int) * (p - 1 - j);
        ty[j] = MPI_INT;
    }
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Alltoallv_c(sb, sc, sd, MPI_INT, rb, rc, dis, MPI_INT, W),
         MPI_Ialltoallv_c(sb, sc, sd, MPI_INT, rb, rc, dis, MPI_INT, W, &q),
         MPI_Alltoallv_init_c(sb, sc, sd, MPI_INT, rb, rc, dis, MPI_INT, W, INFO, &q));
    for (int j = 0; j < p; j++)
        T_CHECK(rb[p - 1 - j] == j * 100 + me * 10, "Alltoallv_c %s: %d", mname[m], rb[p - 1 - j]);
    MPI_Aint sbd[16];
    for (int j = 0; j < p; j++)
        sbd[j] = (MPI_Aint)sizeof(int) * j;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Alltoallw_c(sb, sc, sbd, ty, rb, rc, bd, ty, W),
         MPI_Ialltoallw_c(sb, sc, sbd, ty, rb, rc, bd, ty, W, &q),
         MPI_Alltoallw_init_c(sb, sc, sbd, ty, rb, rc, bd, ty, W, INFO, &q));
    for (int j = 0; j < p; j++)
        T_CHECK(rb[p - 1 - j] == j * 100 + me * 10, "Alltoallw_c %s: %d", mname[m], rb[p - 1 - j]);
}

static void reductions(int m)
{
    int sb[64], rb[64];
    MPI_Count rc[16];
    sb[0] = me;
    sb[1] = me + 1;
    sb[2] = 2 * me;
    int s0 = p * (p - 1) / 2;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Reduce_c(sb, rb, 3, MPI_INT, MPI_SUM, root, W),
         MPI_Ireduce_c(sb, rb, 3, MPI_INT, MPI_SUM, root, W, &q),
         MPI_Reduce_init_c(sb, rb, 3, MPI_INT, MPI_SUM, root, W, INFO, &q));
    if (me == root)
        T_CHECK(rb[0] == s0 && rb[1] == s0 + p && rb[2] == 2 * s0, "Reduce_c %s: %d %d %d",
                mname[m], rb[0], rb[1], rb[2]);
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Allreduce_c(sb, rb, 3, MPI_INT, MPI_SUM, W),
         MPI_Iallreduce_c(sb, rb, 3, MPI_INT, MPI_SUM, W, &q),
         MPI_Allreduce_init_c(sb, rb, 3, MPI_INT, MPI_SUM, W, INFO, &q));
    T_CHECK(rb[0] == s0 && rb[1] == s0 + p && rb[2] == 2 * s0, "Allreduce_c %s", mname[m]);

    for (int i = 0; i < 2 * p; i++)
        sb[i] = me + i;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Reduce_scatter_block_c(sb, rb, 2, MPI_INT, MPI_SUM, W),
         MPI_Ireduce_scatter_block_c(sb, rb, 2, MPI_INT, MPI_SUM, W, &q),
         MPI_Reduce_scatter_block_init_c(sb, rb, 2, MPI_INT, MPI_SUM, W, INFO, &q));
    for (int k = 0; k < 2; k++)
        T_CHECK(rb[k] == p * (2 * me + k) + s0, "Reduce_scatter_block_c %s: %d", mname[m], rb[k]);

    int start = 0, total = 0;
    for (int i = 0; i < p; i++) {
        rc[i] = i + 1;
        if (i < me)
            start += i + 1;
        total += i + 1;
    }
    for (int e = 0; e < total; e++)
        sb[e] = me + e;
    memset(rb, -1, sizeof rb);
    RUN3(m, MPI_Reduce_scatter_c(sb, rb, rc, MPI_INT, MPI_SUM, W),
         MPI_Ireduce_scatter_c(sb, rb, rc, MPI_INT, MPI_SUM, W, &q),
         MPI_Reduce_scatter_init_c(sb, rb, rc, MPI_INT, MPI_SUM, W, INFO, &q));
    for (int k = 0; k <= me; k++)
        T_CHECK(rb[k] == p * (start + k) + s0, "Reduce_scatter_c %s: %d", mname[m], rb[k]);

    sb[0] = me + 1;
    rb[0] = -1;
    RUN3(m, MPI_Scan_c(sb, rb, 1, MPI_INT, MPI_SUM, W),
         MPI_Iscan_c(sb, rb, 1, MPI_INT, MPI_SUM, W, &q),
         MPI_Scan_init_c(sb, rb, 1, MPI_INT, MPI_SUM, W, INFO, &q));
    T_CHECK(rb[0] == (me + 1) * (me + 2) / 2, "Scan_c %s: %d", mname[m], rb[0]);
    rb[0] = -1;
    RUN3(m, MPI_Exscan_c(sb, rb, 1, MPI_INT, MPI_SUM, W),
         MPI_Iexscan_c(sb, rb, 1, MPI_INT, MPI_SUM, W, &q),
         MPI_Exscan_init_c(sb, rb, 1, MPI_INT, MPI_SUM, W, INFO, &q));
    if (me > 0)
        T_CHECK(rb[0] == me * (me + 1) / 2, "Exscan_c %s: %d", mname[m], rb[0]);
}

/* rb holds (w0, w1) after a neighbourhood call; reset for the next one. */
static void nbr_check(int *rb, int w0, int w1, const char *what, int m)
{
    T_CHECK(rb[0] == w0 && rb[1] == w1, "%s %s: %d %d, want %d %d", what, mname[m], rb[0],
            rb[1], w0, w1);
    rb[0] = rb[1] = -1;
}

/* The neighbourhood _c forms on a periodic ring, blocking, non-blocking
 * (MPI_Ineighbor_*_c) and persistent (MPI_Neighbor_*_init_c). */
static void neighbors(int m)
{
    MPI_Comm ring;
    int dims[1] = {p}, per[1] = {1};
    T_MPI(MPI_Cart_create(W, 1, dims, per, 0, &ring));
    int left = (me + p - 1) % p, right = (me + 1) % p;
    int sb[2] = {me * 10, me * 10 + 1}, rb[2] = {-1, -1};
    MPI_Count c1[2] = {1, 1};
    MPI_Aint d[2] = {0, 1}, drev[2] = {1, 0}, bd[2] = {0, sizeof(int)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    RUN3(m, MPI_Neighbor_allgather_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring),
         MPI_Ineighbor_allgather_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, &q),
         MPI_Neighbor_allgather_init_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, INFO, &q));
    nbr_check(rb, left * 10, right * 10, "Neighbor_allgather_c", m);
    RUN3(m, MPI_Neighbor_allgatherv_c(sb, 1, MPI_INT, rb, c1, drev, MPI_INT, ring),
         MPI_Ineighbor_allgatherv_c(sb, 1, MPI_INT, rb, c1, drev, MPI_INT, ring, &q),
         MPI_Neighbor_allgatherv_init_c(sb, 1, MPI_INT, rb, c1, drev, MPI_INT, ring, INFO, &q));
    nbr_check(rb, right * 10, left * 10, "Neighbor_allgatherv_c", m);
    RUN3(m, MPI_Neighbor_alltoall_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring),
         MPI_Ineighbor_alltoall_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, &q),
         MPI_Neighbor_alltoall_init_c(sb, 1, MPI_INT, rb, 1, MPI_INT, ring, INFO, &q));
    nbr_check(rb, left * 10 + 1, right * 10, "Neighbor_alltoall_c", m);
    RUN3(m, MPI_Neighbor_alltoallv_c(sb, c1, d, MPI_INT, rb, c1, d, MPI_INT, ring),
         MPI_Ineighbor_alltoallv_c(sb, c1, d, MPI_INT, rb, c1, d, MPI_INT, ring, &q),
         MPI_Neighbor_alltoallv_init_c(sb, c1, d, MPI_INT, rb, c1, d, MPI_INT, ring, INFO, &q));
    nbr_check(rb, left * 10 + 1, right * 10, "Neighbor_alltoallv_c", m);
    RUN3(m, MPI_Neighbor_alltoallw_c(sb, c1, bd, ty, rb, c1, bd, ty, ring),
         MPI_Ineighbor_alltoallw_c(sb, c1, bd, ty, rb, c1, bd, ty, ring, &q),
         MPI_Neighbor_alltoallw_init_c(sb, c1, bd, ty, rb, c1, bd, ty, ring, INFO, &q));
    nbr_check(rb, left * 10 + 1, right * 10, "Neighbor_alltoallw_c", m);
    /* a count beyond INT_MAX of a zero-size type: through the wrapper type */
    MPI_Datatype z;
    T_MPI(MPI_Type_contiguous(0, MPI_INT, &z));
    T_MPI(MPI_Type_commit(&z));
    MPI_Count big[2] = {(MPI_Count)INT_MAX + 5, (MPI_Count)INT_MAX + 5};
    MPI_Aint d0[2] = {0, 0};
    RUN3(m, MPI_Neighbor_alltoallv_c(sb, big, d0, z, rb, big, d0, z, ring),
         MPI_Ineighbor_alltoallv_c(sb, big, d0, z, rb, big, d0, z, ring, &q),
         MPI_Neighbor_alltoallv_init_c(sb, big, d0, z, rb, big, d0, z, ring, INFO, &q));
    nbr_check(rb, -1, -1, "Neighbor_alltoallv_c of 2^31+4 zero-size elements", m);
    MPI_Type_free(&z);
    MPI_Comm_free(&ring);
}

static MPI_Count calls, seen;
static void sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    int size;
    MPI_Type_size(*dt, &size);
    calls++;
    seen += *len;
    if (size == 4)
        for (MPI_Count i = 0; i < *len; i++)
            ((int *)inout)[i] += ((int *)in)[i];
}
static void sum_int(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)dt;
    calls++;
    seen += *len;
}

static void user_ops(void)
{
    MPI_Op op, iop;
    int a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    T_MPI(MPI_Op_create_c(sum_c, 1, &op));
    T_MPI(MPI_Reduce_local_c(a, b, 3, MPI_INT, op));
    T_CHECK(b[0] == 11 && b[1] == 22 && b[2] == 33, "Reduce_local_c with Op_create_c: %d %d %d",
            b[0], b[1], b[2]);
    int s = me + 1, r = 0;
    T_MPI(MPI_Allreduce_c(&s, &r, 1, MPI_INT, op, W));
    T_CHECK(r == p * (p + 1) / 2, "Allreduce_c with an MPI_User_function_c: %d", r);
    /* 3e9 elements of size 0: the _c function sees the count whole */
    MPI_Datatype zero;
    T_MPI(MPI_Type_contiguous(0, MPI_INT, &zero));
    T_MPI(MPI_Type_commit(&zero));
    calls = seen = 0;
    T_MPI(MPI_Reduce_local_c(a, b, BIG, zero, op));
    T_CHECK(calls == 1 && seen == BIG, "user_c over 3e9: %lld calls, %lld elements", calls, seen);
    T_MPI(MPI_Op_create(sum_int, 1, &iop));
    calls = seen = 0;
    T_MPI(MPI_Reduce_local_c(a, b, BIG, zero, iop));
    T_CHECK(calls == 2 && seen == BIG, "int user op over 3e9: %lld calls, %lld elements", calls,
            seen);
    T_MPI_CLASS(MPI_Reduce_local_c(a, b, -1, MPI_INT, op), MPI_ERR_COUNT);
    MPI_Op_free(&op);
    MPI_Op_free(&iop);
    MPI_Type_free(&zero);
}

/* A gather whose displacements exceed INT_MAX: rank i's 4 bytes at i * 3e9
 * of a reserved range (the pages are never touched but these). */
static void beyond_int(void)
{
    size_t span = (size_t)BIG * (size_t)p + 8;
    char *rb = NULL;
    if (me == root) {
        rb = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                  -1, 0);
        T_CHECK(rb != MAP_FAILED, "mmap of %zu bytes", span);
        if (rb == MAP_FAILED)
            rb = NULL;
    }
    MPI_Count rc[16];
    MPI_Aint dis[16];
    for (int i = 0; i < p; i++) {
        rc[i] = 4;
        dis[i] = (MPI_Aint)i * BIG;
    }
    char sb[4] = {'a', 'b', 'c', (char)('0' + me)};
    T_MPI(MPI_Gatherv_c(sb, 4, MPI_CHAR, rb, rc, dis, MPI_CHAR, root, W));
    for (int i = 0; rb && i < p; i++)
        T_CHECK(memcmp(rb + dis[i], "abc", 3) == 0 && rb[dis[i] + 3] == '0' + i,
                "Gatherv_c at displacement %lld", (long long)dis[i]);
    if (rb)
        munmap(rb, span);
    /* errors: a negative count; a byte displacement MPI_Alltoallw cannot take */
    rc[0] = -1;
    if (me == root)
        T_MPI_CLASS(MPI_Gatherv_c(sb, 0, MPI_CHAR, NULL, rc, dis, MPI_CHAR, root, W), MPI_ERR_COUNT);
    MPI_Count one[16];
    MPI_Aint far[16];
    MPI_Datatype ty[16];
    for (int i = 0; i < p; i++) {
        one[i] = 1;
        far[i] = BIG;
        ty[i] = MPI_CHAR;
    }
    T_MPI_CLASS(MPI_Alltoallw_c(sb, one, far, ty, NULL, one, far, ty, W), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Bcast_c(sb, -1, MPI_CHAR, root, W), MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    W = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    p = t_size;
    me = t_rank;
    root = p - 1;
    for (int m = 0; m < 3; m++) {
        rooted(m);
        all(m);
        reductions(m);
        neighbors(m);
    }
    user_ops();
    beyond_int();
    return t_finish();
}
