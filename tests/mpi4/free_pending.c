/*
 * Requests freed before they complete, then MPI_Finalize (issue 19: hung
 * about 2 times in 10). MPI_Request_free on an active request lets the
 * communication go on; MPI_Finalize must complete it (MPI-4.0, 3.7.3 and
 * 11.2.2): a freed send is delivered, a freed receive's buffer holds the
 * message once MPI_Finalize has returned, which is checked here after
 * MPI_Finalize. Rounds: eager and rendezvous sizes, the receiver's
 * request freed before or after the sender starts, the sender finalizing
 * at once. Every odd rank receives from the even rank below it.
 */
#include "../mpi/mpitest.h"

#define NMSG 4
static const int sizes[NMSG] = {8, 4096, 200000, 1 << 20};

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int pairs = t_size / 2;
    int peer = t_rank ^ 1;
    int active = t_rank < 2 * pairs;
    unsigned char *buf[NMSG];
    for (int i = 0; i < NMSG; i++)
        buf[i] = t_malloc((size_t)sizes[i]);
    if (active && (t_rank & 1) == 0) {
        /* Sender: the first two sends are freed at once, the last two go
         * after a zero-byte message from the receiver (so its freed
         * receives are surely posted), and are freed too. */
        for (int i = 0; i < NMSG; i++) {
            t_fill(buf[i], (size_t)sizes[i], (unsigned)(i + 1));
            if (i == 2)
                T_MPI(MPI_Recv(NULL, 0, MPI_BYTE, peer, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            MPI_Request r;
            T_MPI(MPI_Isend(buf[i], sizes[i], MPI_BYTE, peer, i, MPI_COMM_WORLD, &r));
            T_MPI(MPI_Request_free(&r));
            T_CHECK(r == MPI_REQUEST_NULL, "freed request not set to MPI_REQUEST_NULL");
        }
    } else if (active) {
        for (int i = 0; i < NMSG; i++) {
            memset(buf[i], 0, (size_t)sizes[i]);
            MPI_Request r;
            T_MPI(MPI_Irecv(buf[i], sizes[i], MPI_BYTE, peer, i, MPI_COMM_WORLD, &r));
            T_MPI(MPI_Request_free(&r));
        }
        T_MPI(MPI_Send(NULL, 0, MPI_BYTE, peer, 99, MPI_COMM_WORLD));
    }
    /* No barrier: the ranks reach MPI_Finalize with their requests still
     * in flight. */
    int errs = t_errors;
    if (MPI_Finalize() != MPI_SUCCESS)
        errs++;
    if (active && (t_rank & 1) == 1)
        for (int i = 0; i < NMSG; i++) {
            long bad = t_verify(buf[i], (size_t)sizes[i], (unsigned)(i + 1));
            if (bad >= 0) {
                fprintf(stderr, "FAIL [%s rank %d] freed receive %d (%d bytes): byte %ld wrong "
                                "after MPI_Finalize\n", t_name, t_rank, i, sizes[i], bad);
                errs++;
            }
        }
    for (int i = 0; i < NMSG; i++)
        free(buf[i]);
    if (errs == 0 && t_rank == 0)
        printf("%s: passed on %d rank(s)\n", t_name, t_size);
    return errs ? 1 : 0;
}
