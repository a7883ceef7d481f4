/*
 * net_corrupt: does corruption on the network reach the application?
 * Rank 0 sends NMSG eager messages of 4 KiB with a known pattern to rank 1,
 * which checks each one and counts the damaged ones (no collective, so
 * every frame on the wire carries a payload for the injector to hit).
 *   net_corrupt clean    -> exit 1 if any message arrived damaged
 *   net_corrupt corrupt  -> exit 1 if none did (the injector must be able
 *                           to make the test above fail; docs/network.md)
 * Run with FTMPI_TRANSPORT=tcp and FTMPI_NET_FAULTS, reliability on or off.
 */
#include "mpitest.h"

#define NMSG 400
#define LEN 4096

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int want_corrupt = argc > 1 && !strcmp(argv[1], "corrupt");
    char *b = t_malloc(LEN);
    int bad = 0;
    if (t_rank == 0) {
        for (int i = 0; i < NMSG; i++) {
            t_fill(b, LEN, (unsigned)i);
            T_MPI(MPI_Send(b, LEN, MPI_BYTE, 1, 7, MPI_COMM_WORLD));
        }
        T_MPI(MPI_Recv(&bad, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (t_rank == 1) {
        for (int i = 0; i < NMSG; i++) {
            T_MPI(MPI_Recv(b, LEN, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (t_verify(b, LEN, (unsigned)i) >= 0)
                bad++;
        }
        T_MPI(MPI_Send(&bad, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
    }
    if (t_rank == 0) {
        printf("net_corrupt: %d of %d messages arrived damaged\n", bad, NMSG);
        fflush(stdout);
        T_CHECK(want_corrupt ? bad > 0 : bad == 0,
                "expected %s deliveries, got %d damaged", want_corrupt ? "damaged" : "clean",
                bad);
    }
    free(b);
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
