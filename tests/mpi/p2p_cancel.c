/*
 * p2p_cancel: MPI_Cancel.
 *  - an Irecv that nothing matches (fixed source, and MPI_ANY_SOURCE):
 *    Cancel + Wait complete it, MPI_Test_cancelled is true, the buffer is
 *    untouched, and a later message is not swallowed by it; the same for
 *    a started persistent receive, which can then be started again;
 *  - an Isend / Issend (eager and rendezvous sizes) that nobody receives:
 *    Cancel + Wait, MPI_Test_cancelled true, and the receiver never sees
 *    the message (Iprobe finds nothing, a later message with the same tag
 *    is the one received);
 *  - a request that completed normally: MPI_Test_cancelled is false.
 * Ranks 0 and 1 take part; others only join the barriers.
 */
#include "mpitest.h"

static void cancel_recv(void)
{
    if (t_rank == 0) {
        int buf[4] = {7, 7, 7, 7};
        for (int k = 0; k < 2; k++) {
            MPI_Request r;
            MPI_Status st;
            int flag = 0;
            int src = k ? MPI_ANY_SOURCE : 1;
            T_MPI(MPI_Irecv(buf, 4, MPI_INT, src, 11, MPI_COMM_WORLD, &r));
            T_MPI(MPI_Cancel(&r));
            T_MPI(MPI_Wait(&r, &st));
            T_CHECK(r == MPI_REQUEST_NULL, "Wait on a cancelled Irecv did not free it");
            T_MPI(MPI_Test_cancelled(&st, &flag));
            T_CHECK(flag, "cancelled Irecv (source %d): Test_cancelled is false", src);
            T_CHECK(buf[0] == 7 && buf[3] == 7, "cancelled Irecv wrote the buffer");
        }
        /* a started persistent receive: cancel, then start it again */
        int v = -1, flag = 0;
        MPI_Status st;
        MPI_Request p;
        T_MPI(MPI_Recv_init(&v, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, &p));
        T_MPI(MPI_Start(&p));
        T_MPI(MPI_Cancel(&p));
        T_MPI(MPI_Wait(&p, &st));
        T_MPI(MPI_Test_cancelled(&st, &flag));
        T_CHECK(flag, "cancelled persistent receive: Test_cancelled is false");
        T_CHECK(p != MPI_REQUEST_NULL, "Wait freed the cancelled persistent request");
        T_CHECK(v == -1, "cancelled persistent receive wrote the buffer");
        /* the cancelled receives do not steal the next message */
        T_MPI(MPI_Start(&p));
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_Wait(&p, &st));
        T_CHECK(v == 1234, "message after cancelled receives: %d", v);
        flag = 1;
        T_MPI(MPI_Test_cancelled(&st, &flag));
        T_CHECK(!flag, "Test_cancelled true for a normal receive");
        T_MPI(MPI_Request_free(&p));
    } else if (t_rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        int v = 1234;
        T_MPI(MPI_Send(&v, 1, MPI_INT, 0, 11, MPI_COMM_WORLD));
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static const int csizes[] = {4, 4096, 65536, 1 << 20};

/* Rank 1 sends (tag 20+i) and cancels; rank 0 checks nothing arrives,
 * then rank 1 sends a marker with the same tag which rank 0 receives. */
static void cancel_send(int sync)
{
    for (int i = 0; i < 4; i++) {
        int n = csizes[i];
        int tag = 20 + i;
        if (t_rank == 1) {
            char *b = t_malloc((size_t)n);
            t_fill(b, (size_t)n, 1u);
            MPI_Request r;
            MPI_Status st;
            int flag = 0;
            if (sync)
                T_MPI(MPI_Issend(b, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &r));
            else
                T_MPI(MPI_Isend(b, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &r));
            t_sleep_ms(2); /* let the envelope reach the receiver */
            T_MPI(MPI_Cancel(&r));
            T_MPI(MPI_Wait(&r, &st));
            T_MPI(MPI_Test_cancelled(&st, &flag));
            T_CHECK(flag, "%s of %d bytes nobody receives: Test_cancelled is false",
                    sync ? "Issend" : "Isend", n);
            MPI_Barrier(MPI_COMM_WORLD); /* cancel done */
            MPI_Barrier(MPI_COMM_WORLD); /* receiver has probed */
            t_fill(b, (size_t)n, 2u);
            T_MPI(MPI_Send(b, n, MPI_BYTE, 0, tag, MPI_COMM_WORLD));
            free(b);
        } else if (t_rank == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            int flag = 1;
            MPI_Status st;
            for (int k = 0; k < 5 && flag; k++) {
                T_MPI(MPI_Iprobe(1, tag, MPI_COMM_WORLD, &flag, &st));
                t_sleep_ms(1);
            }
            T_CHECK(!flag, "the cancelled %s of %d bytes is still visible to Iprobe",
                    sync ? "Issend" : "Isend", n);
            MPI_Barrier(MPI_COMM_WORLD);
            char *b = t_malloc((size_t)n);
            T_MPI(MPI_Recv(b, n, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &st));
            T_CHECK(t_verify(b, (size_t)n, 2u) < 0,
                    "after a cancelled %s of %d bytes, the receive got the cancelled data",
                    sync ? "Issend" : "Isend", n);
            free(b);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
}

/* Cancel after completion: the request completes normally. */
static void cancel_late(void)
{
    if (t_rank == 0) {
        int v = 0, flag = 1;
        MPI_Request r;
        MPI_Status st;
        T_MPI(MPI_Irecv(&v, 1, MPI_INT, 1, 30, MPI_COMM_WORLD, &r));
        MPI_Barrier(MPI_COMM_WORLD);
        /* the message is there by now; wait for it to be matched */
        T_MPI(MPI_Probe(1, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        T_MPI(MPI_Cancel(&r));
        T_MPI(MPI_Wait(&r, &st));
        T_MPI(MPI_Test_cancelled(&st, &flag));
        T_CHECK(!flag && v == 99, "Cancel of a completed Irecv: cancelled %d, value %d", flag, v);
        T_MPI(MPI_Recv(&v, 1, MPI_INT, 1, 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (t_rank == 1) {
        int v = 99;
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_Send(&v, 1, MPI_INT, 0, 30, MPI_COMM_WORLD));
        T_MPI(MPI_Send(&v, 1, MPI_INT, 0, 31, MPI_COMM_WORLD));
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    cancel_recv();
    MPI_Barrier(MPI_COMM_WORLD);
    cancel_send(0);
    cancel_send(1);
    MPI_Barrier(MPI_COMM_WORLD);
    cancel_late();
    return t_finish();
}
