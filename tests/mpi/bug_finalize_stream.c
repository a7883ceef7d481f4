/*
 * bug_finalize_stream: reproducer for a library bug (not in the CTest list
 * until fixed; docs/testing.md "Known library bugs"). Run with
 * FTMPI_NO_CMA=1 (the streaming fallback) and 2 ranks.
 *
 * A rendezvous-size send the application no longer holds a request for
 * (MPI_Isend + MPI_Request_free, or MPI_Bsend) must still be delivered when
 * the sender calls MPI_Finalize right away (MPI-2.2 3.7.3 and 3.6: Finalize
 * completes such sends / buffered messages). runtime/init.c ft_lib_finalize
 * waits only while p2p_has_pending() is true, and p2p/p2p.c
 * p2p_has_pending() returns xmit_pending() alone: rendezvous sends still
 * waiting for the receiver's clear-to-send (waiting_sends) and active
 * streams (p2p/stream.c `streams`) are not counted. The sender therefore
 * enters rtc_finalize (a blocking wait on the runtime, no progress) before
 * the receiver has matched; the receiver's CTS then asks for a stream that
 * the sender never pushes, and the receiver hangs in MPI_Recv for ever.
 * (With single copy it happens to work: the receiver reads the sender's
 * memory while the sender waits in rtc_finalize.)
 *
 * Expected: "passed", exit 0. With the bug: hangs (run it under
 * `FTMPI_NO_CMA=1 mpirun --timeout 10 -np 2`).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N (1 << 20)

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    static char bbuf[N + MPI_BSEND_OVERHEAD + 64];
    char *b = malloc(N);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        MPI_Finalize();
        return 0;
    }
    if (rank == 1) {
        MPI_Request r;
        memset(b, 7, N);
        MPI_Isend(b, N, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &r);
        MPI_Request_free(&r);
        MPI_Buffer_attach(bbuf, sizeof bbuf);
        char *c = malloc(N);
        memset(c, 9, N);
        MPI_Bsend(c, N, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        free(c); /* buffered: the library has its copy */
        /* straight to MPI_Finalize: b stays allocated (the send is freed,
         * not complete), which is what the standard asks of the program */
    } else if (rank == 0) {
        usleep(200000); /* the sender is in MPI_Finalize by now */
        MPI_Recv(b, N, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (b[i] != 7) {
                bad++;
                break;
            }
        MPI_Recv(b, N, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            if (b[i] != 9) {
                bad++;
                break;
            }
        printf(bad ? "bug_finalize_stream: data wrong\n" : "bug_finalize_stream: passed\n");
    }
    MPI_Finalize();
    free(b); /* the freed send is complete once MPI_Finalize returns */
    return bad ? 1 : 0;
}
