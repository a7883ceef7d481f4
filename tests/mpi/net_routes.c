/*
 * net_routes: large messages across hosts joined by several routes
 * (tests/netns/netns_routes.sh cuts one route in the middle and restores
 * it). Rank 0 sends ROUNDS messages of MIB MiB to rank 1, each with its
 * own pattern; rank 1 checks every byte and answers with the count of bad
 * bytes' first offset (-1: intact), so a message lost, delivered twice
 * (the next one would not match its pattern) or damaged fails the test.
 * Rank 0 prints "net_routes: round R sent" before each send and "round R
 * intact" after each answer (flushed: the script cuts the route on them),
 * and sleeps PAUSE_MS between rounds; with LOG, rank 0 also appends those
 * lines to the file LOG at once (a script can watch it while the job runs).
 * With STOP, ROUNDS is a bound: rank 0 ends after the first round at whose
 * end the file STOP exists (the script decides when it has seen enough).
 *   net_routes [ROUNDS [MIB [PAUSE_MS [LOG [STOP]]]]]   (default 4 64 0)
 */
#include "mpitest.h"

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

static const char *log_path;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[160];
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    fputs(line, stdout);
    fflush(stdout);
    FILE *f = log_path ? fopen(log_path, "a") : NULL;
    if (f) {
        fputs(line, f);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    int rounds = argc > 1 ? atoi(argv[1]) : 4;
    size_t len = (size_t)(argc > 2 ? atoi(argv[2]) : 64) << 20;
    int pause_ms = argc > 3 ? atoi(argv[3]) : 0;
    log_path = argc > 4 ? argv[4] : NULL;
    const char *stop_path = argc > 5 ? argv[5] : NULL;
    T_CHECK(rounds > 0 && len > 0 && pause_ms >= 0, "bad arguments");
    char *b = t_malloc(len);
    int r = 0, more = 1;
    for (; more; r++) {
        long bad = -1;
        if (t_rank == 0) {
            t_fill(b, len, 1000u + (unsigned)r);
            say("net_routes: round %d sent\n", r);
            double t0 = MPI_Wtime();
            T_MPI(MPI_Send(b, (int)len, MPI_BYTE, 1, r, MPI_COMM_WORLD));
            T_MPI(MPI_Recv(&bad, 1, MPI_LONG, 1, 100 + r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            T_CHECK(bad < 0, "round %d: byte %ld differs", r, bad);
            say("net_routes: round %d intact (%.1f MB/s)\n", r,
                (double)len / (MPI_Wtime() - t0) * 1e-6);
            if (pause_ms) {
                struct timespec ts = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
                nanosleep(&ts, NULL);
            }
        } else if (t_rank == 1) {
            memset(b, 0, len);
            T_MPI(MPI_Recv(b, (int)len, MPI_BYTE, 0, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            bad = t_verify(b, len, 1000u + (unsigned)r);
            T_MPI(MPI_Send(&bad, 1, MPI_LONG, 0, 100 + r, MPI_COMM_WORLD));
        }
        more = r + 1 < rounds && !(stop_path && access(stop_path, F_OK) == 0);
        T_MPI(MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD));
    }
    T_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (t_rank == 0)
        say("net_routes: %d rounds of %zu MiB intact\n", r, len >> 20);
    free(b);
    return t_finish();
}
