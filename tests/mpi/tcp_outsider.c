/*
 * Ranks that talk over TCP while an outsider (tcp_outsider.sh) connects to
 * their listening sockets with garbage, a handshake with a wrong key and a
 * truncated handshake: the ranks log and close those connections and go on.
 * Protocol with the script: rank 0 prints "outsider: ready" after a first
 * exchange, then every rank waits (at most 30 s) for the file argv[1] to
 * exist (calling MPI_Iprobe meanwhile), and exchanges again. Exit 0 only if both exchanges were intact.
 */
#include "mpitest.h"

#include <unistd.h>

static void exchange(unsigned seed)
{
    int peer = 1 - t_rank, n = 100000;
    char *s = t_malloc((size_t)n), *r = t_malloc((size_t)n);
    t_fill(s, (size_t)n, seed + (unsigned)t_rank);
    T_MPI(MPI_Sendrecv(s, n, MPI_BYTE, peer, 1, r, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    T_CHECK(t_verify(r, (size_t)n, seed + (unsigned)peer) < 0, "exchange %u differs", seed);
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    if (t_size != 2 || argc < 2) {
        fprintf(stderr, "tcp_outsider: run with 2 ranks and a file name\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    exchange(1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t_rank == 0) {
        printf("outsider: ready\n");
        fflush(stdout);
    }
    /* Inside MPI meanwhile (MPI_Iprobe makes progress): the outsider's
     * connections are served as they come. */
    for (int i = 0; i < 3000 && access(argv[1], F_OK) != 0; i++) {
        int flag;
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        t_sleep_ms(10);
    }
    T_CHECK(access(argv[1], F_OK) == 0, "the outsider never finished");
    exchange(2);
    return t_finish();
}
