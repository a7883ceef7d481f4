/*
 * p2p_order: the non-overtaking rule. Messages from one sender with the
 * same (communicator, tag) are received in the order they were sent:
 *  - many small messages, receives posted one by one (blocking),
 *  - the same with every receive pre-posted (Irecv) before the sends,
 *  - the same with every message unexpected (sent before any receive),
 *  - mixed eager and rendezvous sizes in one stream (a small message must
 *    not overtake a large one sent before it), with MPI_ANY_SOURCE from
 *    every other rank at once,
 *  - selective receive by tag in the reverse of the sending order.
 * Rank 0 receives; every other rank sends.
 */
#include "mpitest.h"

#define NSMALL 1000
#define NMIX 48

static const int mix_sizes[] = {8, 70000, 0, 4096, 4097, 16, 1 << 20, 4, 4095, 65536, 200000, 12};
#define NMIXSIZES ((int)(sizeof mix_sizes / sizeof mix_sizes[0]))

static int mix_size(int sender, int i) { return mix_sizes[(i + sender) % NMIXSIZES]; }

static void small_stream(int phase)
{
    int tag = 10 + phase;
    if (t_rank != 0) {
        if (phase == 1) /* receiver pre-posts first */
            MPI_Barrier(MPI_COMM_WORLD);
        if (phase == 2) {
            /* all sent before any receive is posted: non-blocking, so that
             * nothing relies on the library buffering the messages */
            int *v = t_malloc(2 * NSMALL * sizeof(int));
            MPI_Request *r = t_malloc(NSMALL * sizeof(MPI_Request));
            for (int i = 0; i < NSMALL; i++) {
                v[2 * i] = t_rank;
                v[2 * i + 1] = i;
                T_MPI(MPI_Isend(&v[2 * i], 2, MPI_INT, 0, tag, MPI_COMM_WORLD, &r[i]));
            }
            MPI_Barrier(MPI_COMM_WORLD);
            T_MPI(MPI_Waitall(NSMALL, r, MPI_STATUSES_IGNORE));
            free(v);
            free(r);
            return;
        }
        for (int i = 0; i < NSMALL; i++) {
            int v[2] = {t_rank, i};
            T_MPI(MPI_Send(v, 2, MPI_INT, 0, tag, MPI_COMM_WORLD));
        }
        return;
    }
    int nsend = t_size - 1;
    int *next = calloc((size_t)t_size, sizeof(int));
    if (phase == 1) {
        /* one sender at a time so that the posted receives name it */
        MPI_Request *r = t_malloc((size_t)NSMALL * nsend * sizeof(MPI_Request));
        int *v = t_malloc((size_t)NSMALL * nsend * 2 * sizeof(int));
        for (int s = 1; s < t_size; s++)
            for (int i = 0; i < NSMALL; i++) {
                int k = (s - 1) * NSMALL + i;
                T_MPI(MPI_Irecv(&v[2 * k], 2, MPI_INT, s, tag, MPI_COMM_WORLD, &r[k]));
            }
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_Waitall(NSMALL * nsend, r, MPI_STATUSES_IGNORE));
        for (int s = 1; s < t_size; s++)
            for (int i = 0; i < NSMALL; i++) {
                int k = (s - 1) * NSMALL + i;
                if (v[2 * k] != s || v[2 * k + 1] != i) {
                    T_FAIL("pre-posted receive %d from rank %d got message (%d, %d)", i, s,
                           v[2 * k], v[2 * k + 1]);
                    break;
                }
            }
        free(r);
        free(v);
    } else {
        if (phase == 2)
            MPI_Barrier(MPI_COMM_WORLD);
        for (int k = 0; k < NSMALL * nsend; k++) {
            int v[2];
            MPI_Status st;
            T_MPI(MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
            int s = st.MPI_SOURCE;
            if (s < 1 || s >= t_size || v[0] != s) {
                T_FAIL("phase %d: message from %d says sender %d", phase, s, v[0]);
                break;
            }
            if (v[1] != next[s]) {
                T_FAIL("phase %d: from rank %d got message %d, expected %d (overtaken)", phase,
                       s, v[1], next[s]);
                break;
            }
            next[s]++;
        }
    }
    free(next);
}

/* Stream of mixed sizes; each message starts with its sequence number. */
static void mixed_stream(int nonblocking)
{
    int tag = 20 + nonblocking;
    int maxn = 1 << 20;
    if (t_rank != 0) {
        char *bufs = t_malloc((size_t)maxn * 4);
        MPI_Request r[NMIX];
        for (int i = 0; i < NMIX; i++) {
            int n = mix_size(t_rank, i);
            char *b = nonblocking ? bufs + (size_t)(i % 4) * maxn : bufs;
            if (nonblocking && i >= 4)
                T_MPI(MPI_Wait(&r[i - 4], MPI_STATUS_IGNORE));
            t_fill(b, (size_t)n, (unsigned)(t_rank * 1000 + i));
            if (nonblocking)
                T_MPI(MPI_Isend(b, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &r[i]));
            else
                T_MPI(MPI_Send(b, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
        }
        if (nonblocking)
            T_MPI(MPI_Waitall(4, &r[NMIX - 4], MPI_STATUSES_IGNORE));
        free(bufs);
        return;
    }
    char *buf = t_malloc((size_t)maxn);
    int *next = calloc((size_t)t_size, sizeof(int));
    for (int k = 0; k < NMIX * (t_size - 1); k++) {
        MPI_Status st;
        int count = -1;
        T_MPI(MPI_Recv(buf, maxn, MPI_BYTE, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
        int s = st.MPI_SOURCE;
        if (s < 1 || s >= t_size) {
            T_FAIL("mixed stream: bad source %d", s);
            break;
        }
        int i = next[s]++;
        int n = mix_size(s, i);
        MPI_Get_count(&st, MPI_BYTE, &count);
        if (count != n) {
            T_FAIL("mixed stream from rank %d: message %d has %d bytes, expected %d "
                   "(a message overtook another)", s, i, count, n);
            break;
        }
        long bad = t_verify(buf, (size_t)n, (unsigned)(s * 1000 + i));
        if (bad >= 0) {
            T_FAIL("mixed stream from rank %d: message %d (%d bytes) byte %ld wrong", s, i, n, bad);
            break;
        }
    }
    free(next);
    free(buf);
}

/* Sender sends tags 0..N-1 (eager and rendezvous); the receiver selects
 * them by tag in the order N-1..0, so it must look past earlier ones. */
static void selective(void)
{
    enum { N = 16 };
    /* reverse-order selection of already-sent (unexpected) messages */
    if (t_rank == 1) {
        char *b = t_malloc((size_t)N * 8192);
        MPI_Request r[N];
        for (int t = 0; t < N; t++) {
            int n = t % 2 ? 8 : 8192;
            t_fill(b + (size_t)t * 8192, (size_t)n, 700u + (unsigned)t);
            T_MPI(MPI_Isend(b + (size_t)t * 8192, n, MPI_BYTE, 0, 200 + t, MPI_COMM_WORLD, &r[t]));
        }
        T_MPI(MPI_Waitall(N, r, MPI_STATUSES_IGNORE));
        free(b);
    } else if (t_rank == 0) {
        char *b = t_malloc(8192);
        for (int t = N - 1; t >= 0; t--) {
            int n = t % 2 ? 8 : 8192;
            MPI_Status st;
            memset(b, 0, 8192);
            T_MPI(MPI_Recv(b, 8192, MPI_BYTE, 1, 200 + t, MPI_COMM_WORLD, &st));
            T_STATUS(st, 1, 200 + t, n);
            T_CHECK(t_verify(b, (size_t)n, 700u + (unsigned)t) < 0,
                    "selective receive of tag %d: data wrong", 200 + t);
        }
        free(b);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    for (int phase = 0; phase < 3; phase++) {
        small_stream(phase);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    mixed_stream(0);
    MPI_Barrier(MPI_COMM_WORLD);
    mixed_stream(1);
    MPI_Barrier(MPI_COMM_WORLD);
    selective();
    return t_finish();
}
