/*
 * pp_count: a fixed number of ping-pong round trips between ranks 0 and 1,
 * with no timing, for counting instructions per message under
 * valgrind --tool=callgrind (bench/pp_instr.sh). A plain MPI program: it
 * builds against any MPI, so the counts of implementations can be compared.
 *
 *   mpirun -np 2 ./pp_count [rounds] [bytes] [mode]
 *
 * mode "posted" (default): the receiver posts MPI_Recv and waits for the
 * message, as bench/pingpong does. mode "queued": rank 0 sends a batch of
 * (at most 64) messages, then both ranks meet in a barrier, and rank 1
 * receives them only then, batch after batch: every receive finds its
 * message already there, so the receiver's count has no waiting in it (the
 * unexpected-message path).
 * The received bytes are checked; exit status 1 on a wrong byte.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long rounds = argc > 1 ? atol(argv[1]) : 10000;
    long bytes = argc > 2 ? atol(argv[2]) : 0;
    int queued = argc > 3 && strcmp(argv[3], "queued") == 0;
    if (size < 2 || rounds < 1 || bytes < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s [rounds>0] [bytes>=0] [posted|queued]\n",
                    argv[0]);
        MPI_Finalize();
        return 2;
    }
    char *buf = malloc((size_t)bytes + 1);
    int bad = 0;
    if (rank < 2) {
        int peer = 1 - rank;
        if (queued) {
            /* In batches of at most 64 messages: the steady state of a
             * program whose messages often arrive first (what an
             * implementation keeps for reuse is reused), not one queue of
             * `rounds` messages that only grows. */
            for (long b = 0; b < rounds; b += 64) {
                long end = b + 64 < rounds ? b + 64 : rounds;
                for (long i = b; i < end && rank == 0; i++) {
                    memset(buf, (int)(i & 0x7f), (size_t)bytes);
                    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                }
                MPI_Barrier(MPI_COMM_WORLD);
                for (long i = b; i < end && rank == 1; i++) {
                    MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                    if (bytes &&
                        (buf[0] != (char)(i & 0x7f) || buf[bytes - 1] != (char)(i & 0x7f)))
                        bad = 1;
                }
            }
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            memset(buf, 0x5a, (size_t)bytes);
            for (long i = 0; i < rounds; i++) {
                if (rank == 0) {
                    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                    MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                }
            }
            if (bytes && (buf[0] != 0x5a || buf[bytes - 1] != 0x5a))
                bad = 1;
        }
    }
    if (!queued)
        MPI_Barrier(MPI_COMM_WORLD);
    if (bad)
        fprintf(stderr, "pp_count: rank %d: wrong data received\n", rank);
    free(buf);
    MPI_Finalize();
    return bad;
}
