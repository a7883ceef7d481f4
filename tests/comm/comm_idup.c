/*
 * comm_idup: MPI_Comm_idup is non-blocking.
 *  - rank 0 starts an idup and then sends to rank 1, which receives first
 *    and starts its idup afterwards (a blocking implementation deadlocks)
 *  - several idups in flight, completed by MPI_Waitall / MPI_Test loops
 *  - mixed with blocking creations in opposite orders on two processes
 *    (idup on X then dup of Y, against dup of Y then idup on X)
 *  - the results are separate contexts (same tag on all, received in
 *    reverse order), attributes are copied, intercommunicators too
 */
#include "mpitest.h"

static void test_nonblocking(void)
{
    if (t_size < 2)
        return;
    MPI_Comm d;
    MPI_Request r;
    int v = 17, got = 0;
    if (t_rank == 0) {
        T_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d, &r));
        T_MPI(MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else if (t_rank == 1) {
        T_MPI(MPI_Recv(&got, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_CHECK(got == 17, "got %d", got);
        T_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d, &r));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        T_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d, &r));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    T_CHECK(r == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
    int x = 1, y = 0;
    T_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d));
    T_CHECK(y == t_size, "allreduce on idup'ed comm: %d", y);
    T_MPI(MPI_Comm_free(&d));
}

static void test_many_in_flight(void)
{
    enum { N = 6 };
    MPI_Comm d[N];
    MPI_Request r[N];
    for (int i = 0; i < N; i++)
        T_MPI(MPI_Comm_idup(i % 2 ? MPI_COMM_SELF : MPI_COMM_WORLD, &d[i], &r[i]));
    /* poll a while with MPI_Test, then finish with Waitall */
    int flag = 0;
    for (int k = 0; k < 100 && !flag; k++)
        T_MPI(MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE));
    T_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
    /* the same tag on every even (world) duplicate, received in reverse */
    if (t_size >= 2 && t_rank < 2) {
        int peer = 1 - t_rank;
        for (int i = 0; i < N; i += 2)
            T_MPI(MPI_Send(&i, 1, MPI_INT, peer, 0, d[i]));
        for (int i = N - 2; i >= 0; i -= 2) {
            int got = -1;
            T_MPI(MPI_Recv(&got, 1, MPI_INT, peer, 0, d[i], MPI_STATUS_IGNORE));
            T_CHECK(got == i, "duplicate %d got message %d", i, got);
        }
    }
    for (int i = 0; i < N; i++) {
        int size;
        MPI_Comm_size(d[i], &size);
        T_CHECK(size == (i % 2 ? 1 : t_size), "duplicate %d has size %d", i, size);
        T_MPI(MPI_Comm_free(&d[i]));
    }
}

/* Different orders of an idup on X and a blocking dup of Y. */
static void test_mixed_orders(void)
{
    MPI_Comm x, y, dx, dy;
    MPI_Request r;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &x));
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &y));
    if (t_rank % 2 == 0) {
        T_MPI(MPI_Comm_idup(x, &dx, &r));
        T_MPI(MPI_Comm_dup(y, &dy));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        T_MPI(MPI_Comm_dup(y, &dy));
        T_MPI(MPI_Comm_idup(x, &dx, &r));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    int res;
    T_MPI(MPI_Comm_compare(dx, dy, &res));
    T_CHECK(res == MPI_CONGRUENT, "compare %d", res);
    int one = 1, sx = 0, sy = 0;
    T_MPI(MPI_Allreduce(&one, &sx, 1, MPI_INT, MPI_SUM, dx));
    T_MPI(MPI_Allreduce(&one, &sy, 1, MPI_INT, MPI_SUM, dy));
    T_CHECK(sx == t_size && sy == t_size, "sums %d %d", sx, sy);
    MPI_Comm_free(&dx);
    MPI_Comm_free(&dy);
    MPI_Comm_free(&x);
    MPI_Comm_free(&y);
}

static int copy_fn(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void test_attrs_and_inter(void)
{
    int kv, flag;
    void *v;
    MPI_Comm d;
    MPI_Request r;
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &kv, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)(intptr_t)5);
    T_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &d, &r));
    T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    T_MPI(MPI_Comm_get_attr(d, kv, &v, &flag));
    T_CHECK(flag && (intptr_t)v == 5, "idup attribute %d %ld", flag, (long)(intptr_t)v);
    MPI_Comm_free(&d);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, kv);
    MPI_Comm_free_keyval(&kv);
    if (t_size < 2)
        return;
    MPI_Comm half, ic;
    MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, 0, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, t_rank % 2 ? 0 : 1, 5, &ic);
    T_MPI(MPI_Comm_idup(ic, &d, &r));
    T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    int rank, rs, got = -1;
    MPI_Comm_rank(d, &rank);
    MPI_Comm_remote_size(d, &rs);
    if (rank < rs) {
        T_MPI(MPI_Sendrecv(&t_rank, 1, MPI_INT, rank, 1, &got, 1, MPI_INT, rank, 1, d,
                           MPI_STATUS_IGNORE));
        T_CHECK(got % 2 != t_rank % 2, "idup'ed intercomm: partner world %d", got);
    }
    MPI_Comm_free(&d);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&half);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_nonblocking();
    test_many_in_flight();
    test_mixed_orders();
    test_attrs_and_inter();
    return t_finish();
}
