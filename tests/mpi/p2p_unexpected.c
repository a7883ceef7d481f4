/*
 * p2p_unexpected: messages that arrive before their receive (the
 * unexpected-message store, p2p/umsg.c). Rank 0 starts NMSG sends whose
 * sizes cycle over the edges of the pooled records (0, 1, 255, 256, 257
 * bytes) and larger ones, with tags 0..NTAG-1; then a barrier; rank 1
 * receives them tag by tag from the last tag to the first (so matching
 * takes messages from the middle of the queue), every 5th one through
 * MPI_Mprobe/MPI_Mrecv, and checks size, source, tag and every byte.
 * Two rounds, so the second reuses the records the first gave back; more
 * pooled-size messages than the pool keeps, so some are freed for real.
 * Then arrived_first: a blocking MPI_Recv whose message is already queued
 * (made sure by MPI_Probe) is completed without a request (p2p_recv_now):
 * truncation (MPI_ERR_TRUNCATE, status), an MPI_Issend that completes only
 * by that receive's acknowledgement, wildcards, a vector receive type, and
 * a rendezvous message (which takes the request path) between eager ones.
 */
#include "mpitest.h"

#define NMSG 1600
#define NTAG 7

static const int sizes[] = {0, 1, 255, 256, 257, 24, 1000, 4000};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void round_trip(int round)
{
    char *buf = t_malloc(4096);
    /* Isend: a standard send may wait for its receive (it does under
     * FTMPI_EAGER_LIMIT=0), and the receives come after the barrier. */
    char *sb = t_rank == 0 ? t_malloc((size_t)NMSG * 4096) : NULL;
    MPI_Request *sr = t_rank == 0 ? t_malloc(NMSG * sizeof(MPI_Request)) : NULL;
    if (t_rank == 0) {
        for (int i = 0; i < NMSG; i++) {
            int n = sizes[i % NSIZES];
            char *b = sb + (size_t)i * 4096;
            t_fill(b, (size_t)n, (unsigned)(round * NMSG + i));
            T_MPI(MPI_Isend(b, n, MPI_BYTE, 1, i % NTAG, MPI_COMM_WORLD, &sr[i]));
        }
    }
    T_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (t_rank == 1) {
        for (int tag = NTAG - 1; tag >= 0; tag--) {
            for (int i = tag; i < NMSG; i += NTAG) {
                int n = sizes[i % NSIZES], count = -1;
                MPI_Status st;
                memset(buf, 0xee, 4096);
                if (i % 5 == 0) {
                    MPI_Message msg;
                    T_MPI(MPI_Mprobe(0, tag, MPI_COMM_WORLD, &msg, &st));
                    T_MPI(MPI_Mrecv(buf, 4096, MPI_BYTE, &msg, &st));
                } else {
                    T_MPI(MPI_Recv(buf, 4096, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &st));
                }
                MPI_Get_count(&st, MPI_BYTE, &count);
                long bad = t_verify(buf, (size_t)n, (unsigned)(round * NMSG + i));
                T_CHECK(count == n && st.MPI_SOURCE == 0 && st.MPI_TAG == tag && bad < 0,
                        "round %d message %d (tag %d): count %d (want %d), source %d, tag %d, "
                        "first wrong byte %ld", round, i, tag, count, n, st.MPI_SOURCE,
                        st.MPI_TAG, bad);
                T_CHECK(n == 4096 || (unsigned char)buf[n] == 0xee,
                        "round %d message %d: byte %d past the message written", round, i, n);
            }
        }
    }
    if (t_rank == 0)
        T_MPI(MPI_Waitall(NMSG, sr, MPI_STATUSES_IGNORE));
    free(sb);
    free(sr);
    free(buf);
}

#define BIG (64 * 1024) /* over the eager limit: an RTS in the queue */

static void arrived_first(void)
{
    int small[8], vec[16], got[8];
    char *big = t_malloc(BIG);
    MPI_Request sr[6];
    MPI_Status st;
    int count = -1, flag = 0;
    if (t_rank == 0) {
        for (int k = 0; k < 8; k++)
            small[k] = 100 + k;
        t_fill(big, BIG, 77);
        T_MPI(MPI_Isend(small, 8, MPI_INT, 1, 50, MPI_COMM_WORLD, &sr[0]));  /* truncated */
        T_MPI(MPI_Issend(small, 3, MPI_INT, 1, 51, MPI_COMM_WORLD, &sr[1])); /* needs the ack */
        T_MPI(MPI_Isend(small, 2, MPI_INT, 1, 52, MPI_COMM_WORLD, &sr[2]));  /* wildcards */
        T_MPI(MPI_Isend(big, BIG, MPI_BYTE, 1, 53, MPI_COMM_WORLD, &sr[3])); /* RTS */
        T_MPI(MPI_Isend(small, 8, MPI_INT, 1, 54, MPI_COMM_WORLD, &sr[4]));  /* into a vector */
        T_MPI(MPI_Isend(small, 0, MPI_INT, 1, 55, MPI_COMM_WORLD, &sr[5]));  /* empty */
        /* The synchronous send cannot complete before rank 1 receives it. */
        T_MPI(MPI_Test(&sr[1], &flag, MPI_STATUS_IGNORE));
        T_CHECK(!flag, "an MPI_Issend completed before its receive was posted");
    }
    T_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (t_rank == 1) {
        for (int tag = 50; tag <= 55; tag++)
            T_MPI(MPI_Probe(0, tag, MPI_COMM_WORLD, &st)); /* every one is queued */
        T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
        memset(got, 0, sizeof(got));
        int rc = MPI_Recv(got, 4, MPI_INT, 0, 50, MPI_COMM_WORLD, &st);
        int cl = -1;
        MPI_Error_class(rc, &cl);
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(cl == MPI_ERR_TRUNCATE && count == 4 && got[3] == 103 && got[4] == 0,
                "arrived 8 ints into 4: class %d (want MPI_ERR_TRUNCATE), count %d, got[3] %d, "
                "got[4] %d", cl, count, got[3], got[4]);
        T_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
        T_MPI(MPI_Recv(got, 8, MPI_INT, 0, 51, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == 3 && got[2] == 102, "arrived Issend: count %d, got[2] %d", count, got[2]);
        /* Wildcards match the earliest queued message: tag 52 (50 and 51 are taken). */
        T_MPI(MPI_Recv(got, 8, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 52 && count == 2 && got[1] == 101,
                "arrived wildcard: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
        /* Tag 54 first, past the RTS of tag 53; then the RTS. */
        MPI_Datatype v;
        T_MPI(MPI_Type_vector(8, 1, 2, MPI_INT, &v));
        T_MPI(MPI_Type_commit(&v));
        for (int k = 0; k < 16; k++)
            vec[k] = -1;
        T_MPI(MPI_Recv(vec, 1, v, 0, 54, MPI_COMM_WORLD, &st));
        int ok = 1;
        for (int k = 0; k < 16; k++)
            ok &= vec[k] == (k % 2 ? -1 : 100 + k / 2);
        T_CHECK(ok, "arrived message into a vector type: wrong layout");
        T_MPI(MPI_Type_free(&v));
        char *rb = t_malloc(BIG);
        T_MPI(MPI_Recv(rb, BIG, MPI_BYTE, 0, 53, MPI_COMM_WORLD, &st));
        T_CHECK(t_verify(rb, BIG, 77) < 0, "arrived rendezvous message: wrong data");
        free(rb);
        st.MPI_TAG = -1;
        T_MPI(MPI_Recv(got, 8, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_INT, &count);
        T_CHECK(count == 0 && st.MPI_TAG == 55, "arrived empty message: count %d tag %d", count,
                st.MPI_TAG);
    }
    if (t_rank == 0)
        T_MPI(MPI_Waitall(6, sr, MPI_STATUSES_IGNORE));
    free(big);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    for (int round = 0; round < 2; round++)
        round_trip(round);
    arrived_first();
    return t_finish();
}
