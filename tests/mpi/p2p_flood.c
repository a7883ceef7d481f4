/*
 * p2p_flood: many outstanding sends to one peer, far more than the
 * shared-memory ring holds.
 *  - one way: rank 0 starts 2000 Isends of 8 KiB (and 2000 of 1 KiB,
 *    eager) to rank 1 before rank 1 posts anything; rank 1 then receives
 *    them in order;
 *  - both ways at once: every rank pair Isends 2000 messages to each other
 *    before either posts a receive, then both receive (a classic deadlock
 *    trap if the sender blocks when its ring is full).
 * Every message carries its index and a pattern. Pairs (0-1, 2-3, ...).
 */
#include "mpitest.h"

#define NMSG 2000

static void flood(int peer, int send, int recv, int n, int tag)
{
    char *sb = send ? t_malloc((size_t)NMSG * n) : NULL;
    char *rb = recv ? t_malloc((size_t)NMSG * n) : NULL;
    MPI_Request *sr = send ? t_malloc(NMSG * sizeof(MPI_Request)) : NULL;
    MPI_Request *rr = recv ? t_malloc(NMSG * sizeof(MPI_Request)) : NULL;
    if (send) {
        for (int i = 0; i < NMSG; i++) {
            char *b = sb + (size_t)i * n;
            t_fill(b, (size_t)n, (unsigned)(t_rank * 7919 + i));
            memcpy(b, &i, sizeof i);
            T_MPI(MPI_Isend(b, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &sr[i]));
        }
    }
    /* the receiver starts late on purpose */
    t_sleep_ms(20);
    if (recv) {
        for (int i = 0; i < NMSG; i++)
            T_MPI(MPI_Irecv(rb + (size_t)i * n, n, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &rr[i]));
    }
    if (send)
        T_MPI(MPI_Waitall(NMSG, sr, MPI_STATUSES_IGNORE));
    if (recv) {
        MPI_Status *sts = t_malloc(NMSG * sizeof(MPI_Status));
        T_MPI(MPI_Waitall(NMSG, rr, sts));
        int bad = 0;
        for (int i = 0; i < NMSG && bad < 3; i++) {
            char *b = rb + (size_t)i * n;
            int idx = -1, count = -1;
            memcpy(&idx, b, sizeof idx);
            MPI_Get_count(&sts[i], MPI_BYTE, &count);
            if (idx != i || count != n || sts[i].MPI_SOURCE != peer) {
                T_FAIL("flood of %d x %d bytes: receive %d got message %d (%d bytes from %d)",
                       NMSG, n, i, idx, count, sts[i].MPI_SOURCE);
                bad++;
                continue;
            }
            /* restore the pattern under the index, then check it all */
            char first[sizeof(int)];
            t_fill(first, sizeof first, (unsigned)(peer * 7919 + i));
            memcpy(b, first, sizeof first);
            if (t_verify(b, (size_t)n, (unsigned)(peer * 7919 + i)) >= 0) {
                T_FAIL("flood of %d x %d bytes: message %d data wrong", NMSG, n, i);
                bad++;
            }
        }
        free(sts);
    }
    free(sb);
    free(rb);
    free(sr);
    free(rr);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int peer = t_rank ^ 1;
    if (peer < t_size) {
        int even = !(t_rank & 1);
        flood(peer, even, !even, 8192, 1);
        flood(peer, even, !even, 1024, 2);
        flood(peer, 1, 1, 8192, 3);
        flood(peer, 1, 1, 1024, 4);
        flood(peer, 1, 1, 16, 5);
    }
    return t_finish();
}
