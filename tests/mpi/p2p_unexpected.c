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

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    for (int round = 0; round < 2; round++)
        round_trip(round);
    return t_finish();
}
