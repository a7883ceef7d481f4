/*
 * Finalize with the connections busy: both ranks exchange a burst of
 * messages (eager and rendezvous, both ways at once) and call MPI_Finalize
 * right after, so that the last packets, the reliability layer's last
 * acknowledgements and both goodbyes (BYE) cross while the connections
 * close. tcp_bye.sh runs it several times and fails if a rank printed
 * anything about a connection (a reset taken for a failure, a connection
 * made again to a finalized peer: "Connection refused").
 */
#include "mpitest.h"

enum { NMSG = 2000, SMALL = 1024, BIG = 300000 };

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int peer = t_size - 1 - t_rank;
    if (peer != t_rank) {
        char *s = t_malloc((size_t)NMSG * SMALL + BIG), *r = t_malloc((size_t)NMSG * SMALL + BIG);
        t_fill(s, (size_t)NMSG * SMALL + BIG, 3 + (unsigned)t_rank);
        MPI_Request q[2 * NMSG + 2];
        for (int i = 0; i < NMSG; i++) {
            T_MPI(MPI_Irecv(r + (size_t)i * SMALL, SMALL, MPI_BYTE, peer, i, MPI_COMM_WORLD, &q[i]));
            T_MPI(MPI_Isend(s + (size_t)i * SMALL, SMALL, MPI_BYTE, peer, i, MPI_COMM_WORLD,
                            &q[NMSG + i]));
        }
        T_MPI(MPI_Irecv(r + (size_t)NMSG * SMALL, BIG, MPI_BYTE, peer, NMSG, MPI_COMM_WORLD,
                        &q[2 * NMSG]));
        T_MPI(MPI_Isend(s + (size_t)NMSG * SMALL, BIG, MPI_BYTE, peer, NMSG, MPI_COMM_WORLD,
                        &q[2 * NMSG + 1]));
        T_MPI(MPI_Waitall(2 * NMSG + 2, q, MPI_STATUSES_IGNORE));
        long bad = t_verify(r, (size_t)NMSG * SMALL + BIG, 3 + (unsigned)peer);
        T_CHECK(bad < 0, "byte %ld differs", bad);
        free(s);
        free(r);
    }
    return t_finish();
}
