/*
 * p2p_probe: MPI_Probe / MPI_Iprobe (then a receive sized by the probed
 * count), and matched probes MPI_Mprobe / MPI_Mrecv / MPI_Improbe /
 * MPI_Imrecv, eager and rendezvous sizes. A matched message is taken out
 * of the matching queue: a later receive must not get it.
 * Rank pairs (0-1, 2-3, ...): the odd rank sends, the even rank probes.
 */
#include "mpitest.h"

static const int psizes[] = {0, 1, 4096, 4097, 65536, 1 << 20};
#define NP ((int)(sizeof psizes / sizeof psizes[0]))

static void probe_recv(int peer, int sender)
{
    for (int i = 0; i < NP; i++) {
        int n = psizes[i];
        if (sender) {
            char *b = t_malloc((size_t)n);
            t_fill(b, (size_t)n, 10u + (unsigned)i);
            T_MPI(MPI_Send(b, n, MPI_BYTE, peer, 50 + i, MPI_COMM_WORLD));
            t_fill(b, (size_t)n, 20u + (unsigned)i);
            T_MPI(MPI_Send(b, n, MPI_BYTE, peer, 70 + i, MPI_COMM_WORLD));
            free(b);
            continue;
        }
        MPI_Status st;
        int count = -1, flag = 0;
        /* blocking probe, any source and tag */
        T_MPI(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        T_CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 50 + i, "Probe: status (%d, %d), expected (%d, %d)",
                st.MPI_SOURCE, st.MPI_TAG, peer, 50 + i);
        MPI_Get_count(&st, MPI_BYTE, &count);
        T_CHECK(count == n, "Probe: count %d, expected %d", count, n);
        /* probing again finds the same message */
        T_MPI(MPI_Probe(peer, 50 + i, MPI_COMM_WORLD, &st));
        char *b = t_malloc((size_t)(count > 0 ? count : 1));
        T_MPI(MPI_Recv(b, count, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st));
        T_STATUS(st, peer, 50 + i, n);
        T_CHECK(t_verify(b, (size_t)n, 10u + (unsigned)i) < 0, "probed message of %d bytes: data wrong", n);
        free(b);
        /* non-blocking probe until it is there */
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30) {
            T_MPI(MPI_Iprobe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
            if (!flag)
                t_sleep_ms(1);
        }
        T_CHECK(flag, "Iprobe never found the message of %d bytes", n);
        if (!flag)
            return;
        MPI_Get_count(&st, MPI_BYTE, &count);
        T_CHECK(count == n && st.MPI_TAG == 70 + i, "Iprobe: count %d tag %d, expected %d, %d", count,
                st.MPI_TAG, n, 70 + i);
        b = t_malloc((size_t)(count > 0 ? count : 1));
        T_MPI(MPI_Recv(b, count, MPI_BYTE, peer, st.MPI_TAG, MPI_COMM_WORLD, &st));
        T_CHECK(t_verify(b, (size_t)n, 20u + (unsigned)i) < 0, "iprobed message of %d bytes: data wrong", n);
        free(b);
    }
    if (!sender) {
        /* nothing left: Iprobe says so */
        int flag = 1;
        T_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        T_CHECK(!flag, "Iprobe found a message when none was pending");
    }
}

/* Two messages, same source and tag: Mprobe takes the first; a plain
 * receive then gets the second; Mrecv gets the first. */
static void matched(int peer, int sender)
{
    for (int i = 0; i < NP; i++) {
        int n = psizes[i];
        int tag = 90;
        if (sender) {
            /* non-blocking: the receiver takes the second before the first */
            char *b = t_malloc((size_t)n * 3 + 1);
            MPI_Request r[3];
            for (int k = 0; k < 3; k++) {
                t_fill(b + (size_t)k * n, (size_t)n, 300u + (unsigned)(i * 4 + k));
                T_MPI(MPI_Isend(b + (size_t)k * n, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r[k]));
            }
            T_MPI(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
            free(b);
            continue;
        }
        char *b1 = t_malloc((size_t)n), *b2 = t_malloc((size_t)n), *b3 = t_malloc((size_t)n);
        MPI_Message m1, m3;
        MPI_Status st;
        int count = -1, flag = 0;
        T_MPI(MPI_Mprobe(peer, tag, MPI_COMM_WORLD, &m1, &st));
        T_CHECK(m1 != MPI_MESSAGE_NULL, "Mprobe returned MPI_MESSAGE_NULL");
        MPI_Get_count(&st, MPI_BYTE, &count);
        T_CHECK(count == n && st.MPI_SOURCE == peer && st.MPI_TAG == tag,
                "Mprobe status (%d, %d, %d), expected (%d, %d, %d)", st.MPI_SOURCE, st.MPI_TAG, count,
                peer, tag, n);
        T_MPI(MPI_Recv(b2, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &st));
        T_CHECK(t_verify(b2, (size_t)n, 300u + (unsigned)(i * 4 + 1)) < 0,
                "receive after Mprobe (%d bytes) did not get the second message", n);
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30) {
            T_MPI(MPI_Improbe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &flag, &m3, &st));
            if (!flag)
                t_sleep_ms(1);
        }
        T_CHECK(flag, "Improbe never found the third message (%d bytes)", n);
        if (!flag)
            return;
        T_MPI(MPI_Mrecv(b1, n, MPI_BYTE, &m1, &st));
        T_CHECK(m1 == MPI_MESSAGE_NULL, "Mrecv did not set the message to MPI_MESSAGE_NULL");
        T_STATUS(st, peer, tag, n);
        T_CHECK(t_verify(b1, (size_t)n, 300u + (unsigned)(i * 4)) < 0, "Mrecv (%d bytes): data wrong", n);
        MPI_Request r;
        T_MPI(MPI_Imrecv(b3, n, MPI_BYTE, &m3, &r));
        T_CHECK(m3 == MPI_MESSAGE_NULL, "Imrecv did not set the message to MPI_MESSAGE_NULL");
        T_MPI(MPI_Wait(&r, &st));
        T_STATUS(st, peer, tag, n);
        T_CHECK(t_verify(b3, (size_t)n, 300u + (unsigned)(i * 4 + 2)) < 0, "Imrecv (%d bytes): data wrong", n);
        free(b1);
        free(b2);
        free(b3);
    }
    if (!sender) {
        /* MPI_PROC_NULL: the no-process message */
        MPI_Message m;
        MPI_Status st;
        int flag = 0, x = 5;
        T_MPI(MPI_Mprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &m, &st));
        T_CHECK(m == MPI_MESSAGE_NO_PROC, "Mprobe(MPI_PROC_NULL) did not give MPI_MESSAGE_NO_PROC");
        T_CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Mprobe(MPI_PROC_NULL) status source %d", st.MPI_SOURCE);
        T_MPI(MPI_Mrecv(&x, 1, MPI_INT, &m, &st));
        T_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
                "Mrecv(MPI_MESSAGE_NO_PROC) status (%d, %d)", st.MPI_SOURCE, st.MPI_TAG);
        T_CHECK(x == 5, "Mrecv(MPI_MESSAGE_NO_PROC) changed the buffer");
        T_MPI(MPI_Improbe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &flag, &m, &st));
        T_CHECK(flag && m == MPI_MESSAGE_NO_PROC, "Improbe(MPI_PROC_NULL): flag %d", flag);
        flag = 1;
        T_MPI(MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st));
        T_CHECK(!flag, "Improbe found a message when none was pending");
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int peer = t_rank ^ 1;
    if (peer < t_size) {
        probe_recv(peer, t_rank & 1);
        MPI_Barrier(MPI_COMM_WORLD);
        matched(peer, t_rank & 1);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return t_finish();
}
