/*
 * comm_basic: MPI_Comm_dup / MPI_Comm_split and communication on them.
 *  - a dup is CONGRUENT to its parent, has the same rank and size, and its
 *    messages never match receives on the parent (same source and tag);
 *  - split by parity with reversed keys: sizes, ranks in key order,
 *    MPI_Comm_compare UNEQUAL (or CONGRUENT for one rank), a ring exchange
 *    and collectives inside each half, world ranks behind the new ranks
 *    checked through Allgather;
 *  - MPI_UNDEFINED colour gives MPI_COMM_NULL;
 *  - a dup of a split, then Comm_free of everything.
 */
#include "mpitest.h"

static void ring(MPI_Comm c, int tag, const char *what)
{
    int r, n, v = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Status st;
    int right = (r + 1) % n, left = (r + n - 1) % n;
    int mine = r * 100 + tag;
    T_MPI(MPI_Sendrecv(&mine, 1, MPI_INT, right, tag, &v, 1, MPI_INT, left, tag, c, &st));
    T_CHECK(v == left * 100 + tag && st.MPI_SOURCE == left, "%s ring: got %d from %d, expected %d from %d",
            what, v, st.MPI_SOURCE, left * 100 + tag, left);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm dup, half, none, halfdup;
    int r, n, res;

    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_rank(dup, &r);
    MPI_Comm_size(dup, &n);
    T_CHECK(r == t_rank && n == t_size, "dup: rank %d size %d, expected %d %d", r, n, t_rank, t_size);
    T_MPI(MPI_Comm_compare(MPI_COMM_WORLD, dup, &res));
    T_CHECK(res == MPI_CONGRUENT, "compare(world, dup) = %d, expected MPI_CONGRUENT", res);
    T_MPI(MPI_Comm_compare(dup, dup, &res));
    T_CHECK(res == MPI_IDENT, "compare(dup, dup) = %d, expected MPI_IDENT", res);

    /* contexts: a message on dup must not match a receive on world */
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    int a = 1000 + t_rank, b = 2000 + t_rank, ra = -1, rb = -1;
    MPI_Request rq[2];
    T_MPI(MPI_Isend(&a, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &rq[0]));
    T_MPI(MPI_Isend(&b, 1, MPI_INT, right, 0, dup, &rq[1]));
    T_MPI(MPI_Recv(&rb, 1, MPI_INT, left, 0, dup, MPI_STATUS_IGNORE));
    T_MPI(MPI_Recv(&ra, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    T_MPI(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    T_CHECK(rb == 2000 + left, "receive on dup got %d, expected %d (message of world matched?)", rb, 2000 + left);
    T_CHECK(ra == 1000 + left, "receive on world got %d, expected %d", ra, 1000 + left);
    ring(dup, 3, "dup");

    /* split by parity, key reverses the order */
    int color = t_rank % 2;
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, t_size - t_rank, &half));
    MPI_Comm_rank(half, &r);
    MPI_Comm_size(half, &n);
    int expect_n = (t_size + 1 - color) / 2;
    /* members of my colour in reverse world order */
    int expect_r = 0;
    for (int w = t_size - 1; w > t_rank; w--)
        if (w % 2 == color)
            expect_r++;
    T_CHECK(n == expect_n && r == expect_r, "split: rank %d size %d, expected %d %d", r, n, expect_r, expect_n);
    int *worlds = t_malloc((size_t)n * sizeof(int));
    T_MPI(MPI_Allgather(&t_rank, 1, MPI_INT, worlds, 1, MPI_INT, half));
    for (int i = 0; i < n; i++) {
        /* new rank i holds the i-th highest world rank of the colour */
        int w = -1, k = 0;
        for (int x = t_size - 1; x >= 0; x--)
            if (x % 2 == color && k++ == i) {
                w = x;
                break;
            }
        T_CHECK(worlds[i] == w, "split: new rank %d is world rank %d, expected %d", i, worlds[i], w);
    }
    free(worlds);
    T_MPI(MPI_Comm_compare(MPI_COMM_WORLD, half, &res));
    T_CHECK(t_size == 1 ? res == MPI_CONGRUENT : res == MPI_UNEQUAL,
            "compare(world, split half) = %d", res);
    ring(half, 4, "split");
    int sum = 0;
    T_MPI(MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, half));
    int esum = 0;
    for (int w = 0; w < t_size; w++)
        if (w % 2 == color)
            esum += w;
    T_CHECK(sum == esum, "Allreduce on split: %d, expected %d", sum, esum);
    T_MPI(MPI_Barrier(half));

    /* a dup of the split keeps working and is separate */
    T_MPI(MPI_Comm_dup(half, &halfdup));
    ring(halfdup, 5, "dup of split");
    int bc = r == 0 ? 4242 + color : -1;
    T_MPI(MPI_Bcast(&bc, 1, MPI_INT, 0, halfdup));
    T_CHECK(bc == 4242 + color, "Bcast on dup of split: %d", bc);

    /* MPI_UNDEFINED */
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, t_rank == 0 ? MPI_UNDEFINED : 1, 0, &none));
    if (t_rank == 0) {
        T_CHECK(none == MPI_COMM_NULL, "split with MPI_UNDEFINED did not give MPI_COMM_NULL");
    } else {
        MPI_Comm_size(none, &n);
        T_CHECK(n == t_size - 1, "split without rank 0: size %d", n);
        ring(none, 6, "split without rank 0");
        T_MPI(MPI_Comm_free(&none));
    }

    T_MPI(MPI_Comm_free(&halfdup));
    T_MPI(MPI_Comm_free(&half));
    T_MPI(MPI_Comm_free(&dup));
    T_CHECK(dup == MPI_COMM_NULL && half == MPI_COMM_NULL, "Comm_free did not set MPI_COMM_NULL");
    /* many dup/free cycles: context ids are recycled or plentiful */
    for (int i = 0; i < 200; i++) {
        MPI_Comm c;
        T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
        if (i % 50 == 0)
            ring(c, 7, "recycled dup");
        T_MPI(MPI_Comm_free(&c));
    }
    return t_finish();
}
