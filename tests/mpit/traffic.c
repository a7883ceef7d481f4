/*
 * traffic: the performance variables against known traffic, and control
 * variables whose writes the library honours (2 ranks).
 *
 *  - messages and bytes sent and received: rank 0 sends N messages of B
 *    bytes to rank 1 while both counters are started; nothing else moves in
 *    between, so the counts are exact; stopped, they no longer move;
 *    readreset returns them and starts again at 0;
 *  - the eager limit (ftmpi_p2p_eager_limit) written at run time changes
 *    the protocol: a 2 KiB message goes by rendezvous under a 1 KiB limit
 *    (ftmpi_p2p_rendezvous_sends grows by one), eagerly under a 4 KiB one;
 *  - unexpected messages: K messages sent before rank 1 posts receives
 *    are queued on MPI_COMM_WORLD (the communicator-bound queue length is
 *    K, a duplicate's is 0), the high watermark reaches K and stays after
 *    they are received, a reset brings it back to the level (0);
 *  - the collective calls per kind count MPI_Allreduce calls one by one;
 *    the forced algorithm (ftmpi_coll_allreduce_algorithm) written on both
 *    ranks reads back and is the one the next call uses
 *    (FTMPI_Coll_last_algorithm), and auto (-1) unforces it;
 *  - ftmpi_p2p_single_copy can be turned off, not back on.
 */
#include "../mpi/mpitest.h"

#define N 20
#define B 100
#define K 5

static MPI_T_pvar_session s;

static MPI_T_pvar_handle handle(const char *name, int cls, void *obj)
{
    int i = -1, cnt = 0;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    T_CHECK(MPI_T_pvar_get_index(name, cls, &i) == MPI_SUCCESS, "no pvar %s", name);
    T_CHECK(MPI_T_pvar_handle_alloc(s, i, obj, &h, &cnt) == MPI_SUCCESS, "alloc %s", name);
    return h;
}

static unsigned long long rd(MPI_T_pvar_handle h)
{
    unsigned long long v = ~0ull;
    T_CHECK(MPI_T_pvar_read(s, h, &v) == MPI_SUCCESS, "pvar read");
    return v;
}

static MPI_T_cvar_handle cvar(const char *name)
{
    int i = -1, cnt;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    T_CHECK(MPI_T_cvar_get_index(name, &i) == MPI_SUCCESS, "no cvar %s", name);
    T_CHECK(MPI_T_cvar_handle_alloc(i, NULL, &h, &cnt) == MPI_SUCCESS, "alloc %s", name);
    return h;
}

/* run with exactly 2 ranks (the counts assume one sender, one receiver) */
static void counters(void)
{
    MPI_T_pvar_handle msent = handle("ftmpi_p2p_messages_sent", MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_pvar_handle bsent = handle("ftmpi_p2p_bytes_sent", MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_pvar_handle mrecv =
        handle("ftmpi_p2p_messages_received", MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_pvar_handle brecv = handle("ftmpi_p2p_bytes_received", MPI_T_PVAR_CLASS_COUNTER, NULL);
    char buf[B] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    T_CHECK(rd(msent) == 0 && rd(mrecv) == 0, "not started: counters are not 0");
    MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES);
    for (int i = 0; i < N; i++) {
        if (t_rank == 0)
            MPI_Send(buf, B, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        else
            MPI_Recv(buf, B, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES);
    unsigned long long want_ms = t_rank == 0 ? N : 0, want_mr = t_rank == 1 ? N : 0;
    T_CHECK(rd(msent) == want_ms && rd(bsent) == want_ms * B, "sent %llu msgs %llu bytes",
            rd(msent), rd(bsent));
    T_CHECK(rd(mrecv) == want_mr && rd(brecv) == want_mr * B, "received %llu msgs %llu bytes",
            rd(mrecv), rd(brecv));
    /* stopped: an exchange is not counted */
    int x = t_rank, y = -1, peer = 1 - t_rank;
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 5, &y, 1, MPI_INT, peer, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    T_CHECK(rd(msent) == want_ms && rd(mrecv) == want_mr, "stopped counters moved");
    /* started again: they add up; readreset gives the sum and restarts at 0 */
    MPI_T_pvar_start(s, msent);
    MPI_T_pvar_start(s, mrecv);
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 5, &y, 1, MPI_INT, peer, 5, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    unsigned long long v = 0;
    T_CHECK(MPI_T_pvar_readreset(s, msent, &v) == MPI_SUCCESS, "readreset");
    T_CHECK(v == want_ms + 1, "after one more message: %llu, want %llu", v, want_ms + 1);
    T_CHECK(rd(msent) == 0, "after readreset: %llu", rd(msent));
    T_CHECK(rd(mrecv) == want_mr + 1, "received after one more: %llu", rd(mrecv));
    MPI_T_pvar_handle_free(s, &msent);
    MPI_T_pvar_handle_free(s, &bsent);
    MPI_T_pvar_handle_free(s, &mrecv);
    MPI_T_pvar_handle_free(s, &brecv);
}

static void eager_limit(void)
{
    MPI_T_cvar_handle lim = cvar("ftmpi_p2p_eager_limit");
    MPI_T_pvar_handle rndv = handle("ftmpi_p2p_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_pvar_start(s, rndv);
    unsigned long old = 0, v = 1024, back = 0;
    char buf[2048] = {0};
    MPI_T_cvar_read(lim, &old);
    T_CHECK(MPI_T_cvar_write(lim, &v) == MPI_SUCCESS, "eager limit write");
    MPI_T_cvar_read(lim, &back);
    T_CHECK(back == 1024, "eager limit reads %lu after writing 1024", back);
    for (int round = 0; round < 2; round++) {
        unsigned long long before = rd(rndv);
        if (t_rank == 0)
            MPI_Send(buf, 2048, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        else
            MPI_Recv(buf, 2048, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        unsigned long long want = t_rank == 0 && round == 0 ? 1 : 0;
        T_CHECK(rd(rndv) - before == want, "limit %lu: %llu rendezvous sends, want %llu", v,
                rd(rndv) - before, want);
        v = 4096;
        T_CHECK(MPI_T_cvar_write(lim, &v) == MPI_SUCCESS, "eager limit write");
    }
    MPI_T_cvar_write(lim, &old);
    MPI_T_cvar_handle_free(&lim);
    MPI_T_pvar_handle_free(s, &rndv);
}

static void unexpected(void)
{
    MPI_Comm world = MPI_COMM_WORLD, dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_T_pvar_handle hwm =
        handle("ftmpi_p2p_unexpected_high_watermark", MPI_T_PVAR_CLASS_HIGHWATERMARK, NULL);
    MPI_T_pvar_handle qw = handle("ftmpi_p2p_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL,
                                  &world);
    MPI_T_pvar_handle qd = handle("ftmpi_p2p_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL,
                                  &dup);
    MPI_T_pvar_handle lvl = handle("ftmpi_p2p_unexpected_messages", MPI_T_PVAR_CLASS_LEVEL, NULL);
    int x = 7, marker = 0;
    MPI_Request mr = MPI_REQUEST_NULL;
    T_CHECK(rd(hwm) == 0 && rd(qw) == 0 && rd(lvl) == 0, "unexpected messages at the start");
    /* rank 0 sends K messages, then a marker that rank 1 has posted its
     * receive for (so the marker itself is never unexpected): messages
     * between two ranks arrive in order, so when the marker is received the
     * K messages are all queued */
    if (t_rank == 1)
        MPI_Irecv(&marker, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &mr);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        for (int i = 0; i < K; i++)
            MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
    }
    if (t_rank == 1) {
        MPI_Wait(&mr, MPI_STATUS_IGNORE);
        T_CHECK(rd(qw) == K && rd(qd) == 0 && rd(lvl) == K, "queued: world %llu dup %llu all %llu",
                rd(qw), rd(qd), rd(lvl));
        for (int i = 0; i < K; i++)
            MPI_Recv(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        T_CHECK(rd(qw) == 0 && rd(lvl) == 0, "received: world %llu", rd(qw));
        T_CHECK(rd(hwm) == K, "high watermark %llu, want %d", rd(hwm), K);
        MPI_T_pvar_reset(s, hwm);
        T_CHECK(rd(hwm) == 0, "high watermark after reset %llu", rd(hwm));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_T_pvar_handle_free(s, &qd);
    MPI_Comm_free(&dup);
    /* the communicator is gone: reading its handle fails, it does not crash */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_free(&dup);
    MPI_T_pvar_handle_free(s, &hwm);
    MPI_T_pvar_handle_free(s, &qw);
    MPI_T_pvar_handle_free(s, &lvl);
}

static void collectives(void)
{
    MPI_T_pvar_handle calls = handle("ftmpi_coll_calls", MPI_T_PVAR_CLASS_COUNTER, NULL);
    MPI_T_cvar_handle alg = cvar("ftmpi_coll_allreduce_algorithm");
    MPI_T_enum en;
    int idx, ring = -1, n = 0, v = 0;
    MPI_T_cvar_get_index("ftmpi_coll_allreduce_algorithm", &idx);
    MPI_T_cvar_get_info(idx, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL, NULL);
    MPI_T_enum_get_info(en, &n, NULL, NULL);
    for (int i = 0; i < n; i++) {
        char name[32];
        int len = sizeof name, val;
        MPI_T_enum_get_item(en, i, &val, name, &len);
        if (strcmp(name, "ring") == 0)
            ring = val;
        if (i == 0)
            T_CHECK(strcmp(name, "auto") == 0 && val == -1, "first item %s=%d", name, val);
    }
    T_CHECK(ring >= 0, "no ring algorithm in the enumeration");
    MPI_T_pvar_start(s, calls);
    unsigned long long c0[16], c1[16];
    MPI_T_pvar_read(s, calls, c0);
    T_CHECK(MPI_T_cvar_write(alg, &ring) == MPI_SUCCESS, "force ring");
    MPI_T_cvar_read(alg, &v);
    T_CHECK(v == ring, "algorithm reads %d, want %d", v, ring);
    int in = t_rank + 1, out = 0;
    for (int i = 0; i < 3; i++)
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    T_CHECK(out == 3, "allreduce sum %d", out);
    char name[64] = "";
    unsigned long nchoices = 0;
    FTMPI_Coll_last_algorithm("allreduce", name, (int)sizeof name, &nchoices);
    T_CHECK(strcmp(name, "ring") == 0, "the forced ring ran as '%s'", name);
    MPI_T_pvar_read(s, calls, c1);
    T_CHECK(c1[3] - c0[3] == 3, "allreduce calls counted %llu, want 3", c1[3] - c0[3]);
    T_CHECK(c1[1] == c0[1], "bcast calls moved");
    v = -1;
    T_CHECK(MPI_T_cvar_write(alg, &v) == MPI_SUCCESS, "unforce");
    MPI_T_cvar_read(alg, &v);
    T_CHECK(v == -1, "unforced reads %d", v);
    v = 99;
    T_CHECK(MPI_T_cvar_write(alg, &v) == MPI_T_ERR_INVALID, "a bad algorithm was taken");
    MPI_T_cvar_handle_free(&alg);
    MPI_T_pvar_handle_free(s, &calls);
}

static void single_copy(void)
{
    MPI_T_cvar_handle h = cvar("ftmpi_p2p_single_copy");
    int v = -1, off = 0, on = 1;
    MPI_T_cvar_read(h, &v);
    T_CHECK(v == 0 || v == 1, "single copy reads %d", v);
    T_CHECK(MPI_T_cvar_write(h, &off) == MPI_SUCCESS, "turn single copy off");
    MPI_T_cvar_read(h, &v);
    T_CHECK(v == 0, "single copy still %d", v);
    T_CHECK(MPI_T_cvar_write(h, &on) == MPI_T_ERR_CVAR_SET_NOT_NOW, "turned back on");
    MPI_T_cvar_handle_free(&h);
    /* a large message still arrives (streamed) */
    static char big[1 << 20];
    if (t_rank == 0) {
        memset(big, 5, sizeof big);
        MPI_Send(big, sizeof big, MPI_BYTE, 1, 4, MPI_COMM_WORLD);
    } else {
        MPI_Recv(big, sizeof big, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        T_CHECK(big[0] == 5 && big[sizeof big - 1] == 5, "streamed message wrong");
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    t_init(&argc, &argv);
    t_need(2);
    MPI_T_pvar_session_create(&s);
    counters();
    eager_limit();
    unexpected();
    collectives();
    single_copy();
    MPI_T_pvar_session_free(&s);
    MPI_T_finalize();
    return t_finish();
}
