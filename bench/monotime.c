/* monotime CMD [ARGS...]: print CLOCK_MONOTONIC (seconds, the clock of
 * ftmpirun's event log: "t" + "monotonic_t0") on stdout, then exec CMD.
 * bench/nodeloss.sh uses it to time the moment of a fault. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: monotime CMD [ARGS...]\n");
        return 2;
    }
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("%.6f\n", (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
    fflush(stdout);
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    return 127;
}
