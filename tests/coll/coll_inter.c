/*
 * coll_inter: intercommunicator collectives (MPI-2 semantics) between the
 * even and the odd ranks of MPI_COMM_WORLD (group A: even, B: odd; sizes
 * differ when np is odd), every root of each group, checked against the
 * sequential reference.
 */
#include "coll_test.h"

static MPI_Comm inter;
static int in_a, lrank, lsize, rsize;

/* world rank of local rank r of group A (a = 1) or B */
static int wr(int a, int r) { return a ? 2 * r : 2 * r + 1; }

static void check_ints(const int *got, long n, int seed, int src, const char *what)
{
    for (long k = 0; k < n; k++)
        if (got[k] != t_val(seed, src, k)) {
            T_FAIL("%s: int %ld is %d, expected %d", what, k, got[k], t_val(seed, src, k));
            return;
        }
}

static void rooted(long n)
{
    /* every root in each group */
    for (int ga = 0; ga < 2; ga++) {
        int rootsize = ga ? (t_size + 1) / 2 : t_size / 2;
        for (int root = 0; root < rootsize; root++) {
            int i_am_root_group = in_a == ga;
            int arg = i_am_root_group ? (lrank == root ? MPI_ROOT : MPI_PROC_NULL) : root;
            int seed = 100 + ga * 10 + root;
            int *b = t_malloc((size_t)(n + 1) * sizeof(int));
            int *g = t_malloc((size_t)(n * (rsize > lsize ? rsize : lsize) + 1) * sizeof(int));
            /* bcast */
            for (long k = 0; k < n; k++)
                b[k] = arg == MPI_ROOT ? t_val(seed, 0, k) : -1;
            T_MPI(MPI_Bcast(b, (int)n, MPI_INT, arg, inter));
            if (!i_am_root_group)
                check_ints(b, n, seed, 0, "inter Bcast");
            /* gather to the root: block i from remote rank i */
            for (long k = 0; k < n; k++)
                b[k] = t_val(seed + 1, wr(!ga, lrank), k);
            T_MPI(MPI_Gather(b, (int)n, MPI_INT, g, (int)n, MPI_INT, arg, inter));
            if (arg == MPI_ROOT)
                for (int i = 0; i < rsize; i++)
                    check_ints(g + i * n, n, seed + 1, wr(!ga, i), "inter Gather");
            /* scatter from the root */
            if (arg == MPI_ROOT)
                for (int i = 0; i < rsize; i++)
                    for (long k = 0; k < n; k++)
                        g[i * n + k] = t_val(seed + 2, i, k);
            T_MPI(MPI_Scatter(g, (int)n, MPI_INT, b, (int)n, MPI_INT, arg, inter));
            if (!i_am_root_group)
                check_ints(b, n, seed + 2, lrank, "inter Scatter");
            /* reduce to the root */
            for (long k = 0; k < n; k++)
                b[k] = t_val(seed + 3, lrank, k);
            T_MPI(MPI_Reduce(b, g, (int)n, MPI_INT, MPI_SUM, arg, inter));
            if (arg == MPI_ROOT)
                for (long k = 0; k < n; k++) {
                    long s = 0;
                    for (int r = 0; r < rsize; r++)
                        s += t_val(seed + 3, r, k);
                    T_CHECK(g[k] == s, "inter Reduce at %ld: %d vs %ld", k, g[k], s);
                }
            free(b);
            free(g);
        }
    }
}

static void all_to_all(long n)
{
    int *s = t_malloc((size_t)(n * (rsize + 1) + 1) * sizeof(int));
    int *r = t_malloc((size_t)(n * (rsize + 1) + 1) * sizeof(int));
    int me = wr(in_a, lrank);
    T_MPI(MPI_Barrier(inter));
    /* allgather: r gets the remote group's blocks */
    for (long k = 0; k < n; k++)
        s[k] = t_val(1, me, k);
    T_MPI(MPI_Allgather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, inter));
    for (int i = 0; i < rsize; i++)
        check_ints(r + i * n, n, 1, wr(!in_a, i), "inter Allgather");
    /* alltoall */
    for (int j = 0; j < rsize; j++)
        for (long k = 0; k < n; k++)
            s[j * n + k] = t_val(2, me * 64 + wr(!in_a, j), k);
    T_MPI(MPI_Alltoall(s, (int)n, MPI_INT, r, (int)n, MPI_INT, inter));
    for (int i = 0; i < rsize; i++)
        check_ints(r + i * n, n, 2, wr(!in_a, i) * 64 + me, "inter Alltoall");
    /* allreduce: the result is the remote group's sum */
    for (long k = 0; k < n; k++)
        s[k] = t_val(3, me, k);
    T_MPI(MPI_Allreduce(s, r, (int)n, MPI_INT, MPI_SUM, inter));
    for (long k = 0; k < n; k++) {
        long sum = 0;
        for (int i = 0; i < rsize; i++)
            sum += t_val(3, wr(!in_a, i), k);
        T_CHECK(r[k] == sum, "inter Allreduce at %ld", k);
    }
    /* reduce_scatter_block: n elements per rank of my group; the input
     * vectors have n * lsize elements in both groups only if the sizes are
     * equal, so use the counts form with the same total in both groups */
    if (lsize == rsize) {
        for (long k = 0; k < n * lsize; k++)
            s[k] = t_val(4, me, k);
        T_MPI(MPI_Reduce_scatter_block(s, r, (int)n, MPI_INT, MPI_SUM, inter));
        for (long k = 0; k < n; k++) {
            long sum = 0;
            for (int i = 0; i < rsize; i++)
                sum += t_val(4, wr(!in_a, i), lrank * n + k);
            T_CHECK(r[k] == sum, "inter Reduce_scatter_block at %ld", k);
        }
    }
    /* non-blocking forms */
    MPI_Request q[2];
    for (long k = 0; k < n; k++)
        s[k] = t_val(5, me, k);
    T_MPI(MPI_Iallgather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, inter, &q[0]));
    T_MPI(MPI_Ibarrier(inter, &q[1]));
    T_MPI(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
    for (int i = 0; i < rsize; i++)
        check_ints(r + i * n, n, 5, wr(!in_a, i), "inter Iallgather");
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    MPI_Comm local;
    in_a = t_rank % 2 == 0;
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, !in_a, t_rank, &local));
    T_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 7, &inter));
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    static const long ns[] = {0, 1, 1000, 20000};
    for (int i = 0; i < 4; i++) {
        rooted(ns[i]);
        all_to_all(ns[i]);
    }
    T_MPI(MPI_Comm_free(&inter));
    T_MPI(MPI_Comm_free(&local));
    return t_finish();
}
