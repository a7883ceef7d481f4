/*
 * part: partitioned point-to-point (MPI-4.0 chapter 4). Every rank sends to
 * the next one in a ring and receives from the previous one (np 1: to
 * itself).
 *  - same partitioning on both sides, partitions made ready in reverse
 *    order; MPI_Parrived polled until every partition is there, each
 *    partition's data checked as soon as it has arrived
 *  - different partitioning (6 x 2 ints sent, 3 x 4 received, with a
 *    non-contiguous receive type), MPI_Pready_range and MPI_Pready_list,
 *    two rounds of the same persistent requests with different data
 *  - MPI_PROC_NULL peers; zero partitions
 *  - argument errors: wrong request kind, partition out of range, a
 *    partition made ready twice, an inactive request, MPI_ANY_SOURCE,
 *    negative partitions
 */
#include "../mpi/mpitest.h"

#define P1 4
#define C1 3

static void same_partitioning(int next, int prev)
{
    int sb[P1 * C1], rb[P1 * C1];
    MPI_Request s, r;
    for (int i = 0; i < P1 * C1; i++)
        sb[i] = t_rank * 1000 + i, rb[i] = -1;
    T_MPI(MPI_Psend_init(sb, P1, C1, MPI_INT, next, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    T_MPI(MPI_Precv_init(rb, P1, C1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    T_MPI(MPI_Start(&r));
    T_MPI(MPI_Start(&s));
    for (int i = P1 - 1; i >= 0; i--)
        T_MPI(MPI_Pready(i, s));
    int seen[P1] = {0}, nseen = 0;
    double t0 = MPI_Wtime();
    while (nseen < P1 && MPI_Wtime() - t0 < 30) {
        for (int i = 0; i < P1; i++) {
            int flag = 0;
            if (seen[i])
                continue;
            T_MPI(MPI_Parrived(r, i, &flag));
            if (!flag)
                continue;
            seen[i] = 1, nseen++;
            for (int k = 0; k < C1; k++)
                T_CHECK(rb[i * C1 + k] == prev * 1000 + i * C1 + k,
                        "partition %d element %d: %d as soon as it arrived", i, k,
                        rb[i * C1 + k]);
        }
    }
    T_CHECK(nseen == P1, "%d of %d partitions arrived", nseen, P1);
    MPI_Status st;
    T_MPI(MPI_Wait(&r, &st));
    T_CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7, "status source %d tag %d", st.MPI_SOURCE,
            st.MPI_TAG);
    T_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    int flag = 0;
    T_MPI(MPI_Parrived(r, 0, &flag)); /* inactive: everything is there */
    T_CHECK(flag, "Parrived on the inactive request: %d", flag);
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

/* 6 send partitions of 2 ints; 3 receive partitions of 2 "pairs", a pair
 * being 2 ints 3 apart (a vector type): 12 ints either way. */
static void other_partitioning(int next, int prev)
{
    int sb[12], rb[36];
    MPI_Datatype pair;
    MPI_Type_vector(2, 1, 3, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 6 * (MPI_Aint)sizeof(int), &pair);
    MPI_Type_commit(&pair);
    MPI_Request s, r;
    T_MPI(MPI_Psend_init(sb, 6, 2, MPI_INT, next, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    T_MPI(MPI_Precv_init(rb, 3, 2, pair, prev, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MPI_Type_free(&pair); /* the request keeps working (the type lives on) */
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 12; i++)
            sb[i] = t_rank * 100 + round * 50 + i;
        for (int i = 0; i < 36; i++)
            rb[i] = -1;
        MPI_Request both[2] = {r, s};
        T_MPI(MPI_Startall(2, both));
        T_MPI(MPI_Pready_range(3, 5, s));
        T_MPI(MPI_Pready_list(3, (int[]){2, 0, 1}, s));
        T_MPI(MPI_Waitall(2, both, MPI_STATUSES_IGNORE));
        /* element e of the message lands at pair e/2, slot e%2 */
        for (int e = 0; e < 12; e++) {
            int at = (e / 2) * 6 + (e % 2) * 3;
            T_CHECK(rb[at] == prev * 100 + round * 50 + e, "round %d element %d: %d", round, e,
                    rb[at]);
        }
        T_CHECK(rb[1] == -1 && rb[2] == -1, "round %d: a gap was written", round);
    }
    MPI_Request_free(&s);
    MPI_Request_free(&r);
}

static void proc_null_and_empty(void)
{
    int b[4] = {0};
    MPI_Request s, r;
    T_MPI(MPI_Psend_init(b, 2, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    T_MPI(MPI_Precv_init(b, 2, 2, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    T_MPI(MPI_Start(&s));
    T_MPI(MPI_Start(&r));
    T_MPI(MPI_Pready_range(0, 1, s));
    MPI_Status st;
    T_MPI(MPI_Wait(&r, &st));
    T_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "PROC_NULL receive: source %d", st.MPI_SOURCE);
    T_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    T_MPI(MPI_Psend_init(b, 0, 2, MPI_INT, t_rank, 2, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    T_MPI(MPI_Start(&s));
    T_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    MPI_Request_free(&s);
}

static void errors(int next, int prev)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int b[4] = {0}, c[4];
    MPI_Request s, r, q;
    T_MPI_CLASS(MPI_Precv_init(c, 2, 2, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_INFO_NULL,
                               &q),
                MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Psend_init(b, -1, 2, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &q),
                MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Psend_init(b, 2, -2, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &q),
                MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Psend_init(b, 2, 2, MPI_INT, next, -5, MPI_COMM_WORLD, MPI_INFO_NULL, &q),
                MPI_ERR_TAG);
    T_MPI(MPI_Psend_init(b, 2, 2, MPI_INT, next, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &s));
    T_MPI(MPI_Precv_init(c, 2, 2, MPI_INT, prev, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    T_MPI_CLASS(MPI_Pready(0, s), MPI_ERR_REQUEST); /* not started */
    T_MPI(MPI_Start(&s));
    T_MPI(MPI_Start(&r));
    T_MPI_CLASS(MPI_Pready(2, s), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Pready(0, r), MPI_ERR_REQUEST);
    int flag;
    T_MPI_CLASS(MPI_Parrived(s, 0, &flag), MPI_ERR_REQUEST);
    T_MPI_CLASS(MPI_Parrived(r, 5, &flag), MPI_ERR_ARG);
    T_MPI(MPI_Pready(0, s));
    T_MPI_CLASS(MPI_Pready(0, s), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Pready_range(1, 0, s), MPI_ERR_ARG);
    T_MPI(MPI_Pready(1, s));
    T_MPI_CLASS(MPI_Request_free(&s), MPI_ERR_REQUEST); /* active */
    T_MPI(MPI_Wait(&s, MPI_STATUS_IGNORE));
    T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_Request_free(&s);
    MPI_Request_free(&r);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int next = (t_rank + 1) % t_size, prev = (t_rank + t_size - 1) % t_size;
    same_partitioning(next, prev);
    other_partitioning(next, prev);
    proc_null_and_empty();
    errors(next, prev);
    return t_finish();
}
