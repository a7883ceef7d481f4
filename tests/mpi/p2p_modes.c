/*
 * p2p_modes: the four send modes (standard, buffered, synchronous, ready),
 * each blocking, non-blocking and persistent, at the sizes around the
 * eager/rendezvous boundaries (0 .. 4 MiB), in both directions of each
 * rank pair (0-1, 2-3, ...). Ready sends start only after the receiver has
 * told the sender that its receive is posted. Also checks that a
 * synchronous send does not complete before the receive is posted.
 */
#include "mpitest.h"

enum { M_STD, M_BUF, M_SYNC, M_READY, M_COUNT };
enum { K_BLOCK, K_NONBLOCK, K_PERSIST, K_COUNT };
static const char *mode_name[] = {"standard", "buffered", "synchronous", "ready"};
static const char *kind_name[] = {"blocking", "non-blocking", "persistent"};

#define TAG_DATA 7
#define TAG_GO 8
#define PERSIST_ROUNDS 3

static int do_send(int mode, const void *buf, int n, int dest)
{
    switch (mode) {
    case M_STD: return MPI_Send(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD);
    case M_BUF: return MPI_Bsend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD);
    case M_SYNC: return MPI_Ssend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD);
    default: return MPI_Rsend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD);
    }
}

static int do_isend(int mode, const void *buf, int n, int dest, MPI_Request *r)
{
    switch (mode) {
    case M_STD: return MPI_Isend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    case M_BUF: return MPI_Ibsend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    case M_SYNC: return MPI_Issend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    default: return MPI_Irsend(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    }
}

static int do_send_init(int mode, const void *buf, int n, int dest, MPI_Request *r)
{
    switch (mode) {
    case M_STD: return MPI_Send_init(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    case M_BUF: return MPI_Bsend_init(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    case M_SYNC: return MPI_Ssend_init(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    default: return MPI_Rsend_init(buf, n, MPI_BYTE, dest, TAG_DATA, MPI_COMM_WORLD, r);
    }
}

static unsigned seed_of(int mode, int kind, int si, int dir, int round)
{
    return (unsigned)(((mode * 5 + kind) * 16 + si) * 4 + dir) * 8u + (unsigned)round + 1u;
}

/* The receiving side of one exchange; sender is `peer`. */
static void recv_side(int mode, int kind, int si, int dir, char *buf, int peer)
{
    int n = t_sizes[si];
    MPI_Status st;
    int ready = mode == M_READY;
    if (kind == K_PERSIST) {
        MPI_Request r;
        T_MPI(MPI_Recv_init(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r));
        for (int round = 0; round < PERSIST_ROUNDS; round++) {
            memset(buf, 0xee, (size_t)n);
            T_MPI(MPI_Start(&r));
            if (ready)
                T_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD));
            T_MPI(MPI_Wait(&r, &st));
            T_CHECK(r != MPI_REQUEST_NULL, "persistent receive request freed by MPI_Wait");
            T_STATUS(st, peer, TAG_DATA, n);
            long bad = t_verify(buf, (size_t)n, seed_of(mode, kind, si, dir, round));
            T_CHECK(bad < 0, "%s %s %d bytes round %d: byte %ld wrong", kind_name[kind],
                    mode_name[mode], n, round, bad);
        }
        T_MPI(MPI_Request_free(&r));
        T_CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free did not set MPI_REQUEST_NULL");
        return;
    }
    memset(buf, 0xee, (size_t)n);
    if (kind == K_NONBLOCK || ready) {
        MPI_Request r;
        T_MPI(MPI_Irecv(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &r));
        if (ready)
            T_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD));
        T_MPI(MPI_Wait(&r, &st));
        T_CHECK(r == MPI_REQUEST_NULL, "MPI_Wait did not free the request");
    } else {
        T_MPI(MPI_Recv(buf, n, MPI_BYTE, peer, TAG_DATA, MPI_COMM_WORLD, &st));
    }
    T_STATUS(st, peer, TAG_DATA, n);
    long bad = t_verify(buf, (size_t)n, seed_of(mode, kind, si, dir, 0));
    T_CHECK(bad < 0, "%s %s send of %d bytes: byte %ld wrong", kind_name[kind],
            mode_name[mode], n, bad);
}

static void send_side(int mode, int kind, int si, int dir, char *buf, int peer)
{
    int n = t_sizes[si];
    int ready = mode == M_READY;
    MPI_Request r;
    MPI_Status st;
    if (kind == K_PERSIST) {
        T_MPI(do_send_init(mode, buf, n, peer, &r));
        for (int round = 0; round < PERSIST_ROUNDS; round++) {
            t_fill(buf, (size_t)n, seed_of(mode, kind, si, dir, round));
            if (ready)
                T_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            T_MPI(MPI_Start(&r));
            T_MPI(MPI_Wait(&r, &st));
            T_CHECK(r != MPI_REQUEST_NULL, "persistent send request freed by MPI_Wait");
        }
        T_MPI(MPI_Request_free(&r));
        return;
    }
    t_fill(buf, (size_t)n, seed_of(mode, kind, si, dir, 0));
    if (ready)
        T_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (kind == K_BLOCK) {
        T_MPI(do_send(mode, buf, n, peer));
    } else {
        T_MPI(do_isend(mode, buf, n, peer, &r));
        T_MPI(MPI_Wait(&r, &st));
        T_CHECK(r == MPI_REQUEST_NULL, "MPI_Wait did not free the send request");
    }
}

/* Issend must not complete before the matching receive is posted. */
static void sync_semantics(int peer, int sender)
{
    static const int sizes[] = {0, 8, 4096, 65536};
    char *buf = t_malloc(65536);
    for (int i = 0; i < 4; i++) {
        int n = sizes[i];
        if (sender) {
            MPI_Request r;
            int flag = 0;
            t_fill(buf, (size_t)n, 900u + (unsigned)i);
            T_MPI(MPI_Issend(buf, n, MPI_BYTE, peer, 30 + i, MPI_COMM_WORLD, &r));
            for (int k = 0; k < 20 && !flag; k++) {
                T_MPI(MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
                t_sleep_ms(1);
            }
            T_CHECK(!flag, "MPI_Issend of %d bytes completed before the receive was posted", n);
            T_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD));
            if (!flag)
                T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            MPI_Status st;
            T_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            T_MPI(MPI_Recv(buf, n, MPI_BYTE, peer, 30 + i, MPI_COMM_WORLD, &st));
            T_STATUS(st, peer, 30 + i, n);
            T_CHECK(t_verify(buf, (size_t)n, 900u + (unsigned)i) < 0, "Issend data wrong (%d bytes)", n);
        }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int peer = t_rank ^ 1;
    int active = peer < t_size;
    size_t maxn = (size_t)t_sizes[T_NSIZES - 1];
    char *buf = t_malloc(maxn);
    /* Room for every buffered message that can be outstanding at once: the
     * persistent rounds may all be queued before the receiver matches one. */
    int bsize = (PERSIST_ROUNDS + 1) * ((int)maxn + MPI_BSEND_OVERHEAD + 16);
    char *bbuf = t_malloc((size_t)bsize);
    T_MPI(MPI_Buffer_attach(bbuf, bsize));

    if (active) {
        for (int mode = 0; mode < M_COUNT; mode++)
            for (int kind = 0; kind < K_COUNT; kind++)
                for (int si = 0; si < T_NSIZES; si++)
                    for (int dir = 0; dir < 2; dir++) {
                        /* dir 0: even rank sends; dir 1: odd rank sends */
                        int i_send = (t_rank & 1) == dir;
                        if (i_send)
                            send_side(mode, kind, si, dir, buf, peer);
                        else
                            recv_side(mode, kind, si, dir, buf, peer);
                    }
        sync_semantics(peer, (t_rank & 1) == 0);
    }

    void *det = NULL;
    int detsize = 0;
    T_MPI(MPI_Buffer_detach(&det, &detsize));
    T_CHECK(det == bbuf && detsize == bsize,
            "MPI_Buffer_detach gave (%p, %d), attached (%p, %d)", det, detsize, (void *)bbuf, bsize);
    free(bbuf);
    free(buf);
    return t_finish();
}
