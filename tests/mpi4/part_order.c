/*
 * part_order: partitioned requests match in the order of their
 * initialization calls (MPI-4.0 4.2), whatever the order of the starts.
 * Rank 0 initializes three partitioned sends to rank 1 on one communicator
 * and tag (0, 1, 2; of different sizes), rank 1 the three receives in the
 * same order. Then:
 *  - the sends start in the order 2, 0, 1 and the receives 0, 1, 2: every
 *    receive gets its own request's data;
 *  - the receives start in the order 2, 1, 0 (each completed before the
 *    next starts) while all three sends ran first: the messages of the
 *    requests not started yet are kept for them;
 *  - the sender runs one round ahead (round k + 1 of request 0 sent before
 *    the receiver starts round k): rounds stay in order.
 * Run with 2 ranks (more: the others only take part in the barriers).
 */
#include "../mpi/mpitest.h"

#define NREQ 3
#define NPART 4

static int count_of(int k)
{
    return 2 + 3 * k; /* ints per partition: 2, 5, 8 */
}

static int value(int k, int round, int i)
{
    return 100000 * (k + 1) + 1000 * round + i;
}

static void fill(int *b, int k, int round)
{
    for (int i = 0; i < NPART * count_of(k); i++)
        b[i] = value(k, round, i);
}

static void check(const int *b, int k, int round, const char *what)
{
    for (int i = 0; i < NPART * count_of(k); i++)
        if (b[i] != value(k, round, i)) {
            T_CHECK(0, "%s: request %d round %d element %d is %d, not %d", what, k, round, i,
                    b[i], value(k, round, i));
            return;
        }
}

static void send_round(MPI_Request *q, int *b[], const int *order, int round)
{
    for (int j = 0; j < NREQ; j++) {
        int k = order[j];
        T_MPI(MPI_Start(&q[k]));
        fill(b[k], k, round);
        T_MPI(MPI_Pready_range(0, NPART - 1, q[k]));
    }
    T_MPI(MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    MPI_Request q[NREQ];
    int *b[NREQ];
    for (int k = 0; k < NREQ; k++) {
        b[k] = calloc((size_t)(NPART * count_of(k)), sizeof(int));
        if (t_rank == 0)
            T_MPI(MPI_Psend_init(b[k], NPART, count_of(k), MPI_INT, 1, 5, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &q[k]));
        else if (t_rank == 1)
            T_MPI(MPI_Precv_init(b[k], NPART, count_of(k), MPI_INT, 0, 5, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &q[k]));
    }
    /* 1: sends started 2, 0, 1; receives 0, 1, 2 */
    if (t_rank == 0) {
        send_round(q, b, (const int[]){2, 0, 1}, 1);
    } else if (t_rank == 1) {
        for (int k = 0; k < NREQ; k++)
            T_MPI(MPI_Start(&q[k]));
        T_MPI(MPI_Waitall(NREQ, q, MPI_STATUSES_IGNORE));
        for (int k = 0; k < NREQ; k++)
            check(b[k], k, 1, "starts 2, 0, 1");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* 2: all sends first (0, 1, 2), then the receives one by one 2, 1, 0 */
    if (t_rank == 0)
        send_round(q, b, (const int[]){0, 1, 2}, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1)
        for (int k = NREQ - 1; k >= 0; k--) {
            T_MPI(MPI_Start(&q[k]));
            T_MPI(MPI_Wait(&q[k], MPI_STATUS_IGNORE));
            check(b[k], k, 2, "receives started 2, 1, 0");
        }
    MPI_Barrier(MPI_COMM_WORLD);
    /* 3: the sender sends rounds 3 and 4 of request 0 before the receiver
     * starts round 3 */
    if (t_rank == 0) {
        for (int round = 3; round <= 4; round++) {
            T_MPI(MPI_Start(&q[0]));
            fill(b[0], 0, round);
            T_MPI(MPI_Pready_range(0, NPART - 1, q[0]));
            T_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 1)
        for (int round = 3; round <= 4; round++) {
            T_MPI(MPI_Start(&q[0]));
            T_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
            check(b[0], 0, round, "the sender a round ahead");
        }
    for (int k = 0; k < NREQ; k++) {
        if (t_rank < 2)
            T_MPI(MPI_Request_free(&q[k]));
        free(b[k]);
    }
    return t_finish();
}
