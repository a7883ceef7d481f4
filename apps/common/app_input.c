/*
 * app_input.c - the input check before a run (app_common.h): world rank 0
 * checks, the verdict is broadcast, so every rank ends with the same exit
 * status and the line naming the problem is printed before anything else
 * can happen (no MPI_Abort racing with it).
 */
#include "app_common.h"

#include <math.h>
#include <unistd.h>

double app_host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && psize > 0 ? (double)pages * (double)psize : INFINITY;
}

int app_memory_check(const char *what, const char *size, double need, char *err, size_t errlen)
{
    double have = app_host_memory_bytes();
    if (need > have) {
        snprintf(err, errlen, "%s: too large: %s about %.1f GiB, more than this host's %.1f GiB "
                              "of memory", what, size, need / 1073741824.0, have / 1073741824.0);
        return -1;
    }
    return 0;
}

int app_input_verdict(const char *prog, app_check_fn check, const void *ctx, int rank,
                      int nprocs)
{
    char err[512] = "";
    int bad = 0;
    if (rank == 0) {
        bad = check(ctx, err, sizeof err) != 0;
        if (bad) {
            fprintf(stderr, "%s: bad input: %s\n", prog, err);
            fflush(stderr);
        }
    }
    if (nprocs == 1)
        return bad;
    int rc = MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS && rank != 0) {
        /* a process failed during the start-up (the skeleton recovers from
           it next): the verdict may be lost, so decide alone; the check is
           deterministic, every rank that gets here agrees with rank 0 */
        bad = check(ctx, err, sizeof err) != 0;
        if (bad) {
            fprintf(stderr, "%s: rank %d: bad input: %s\n", prog, rank, err);
            fflush(stderr);
        }
    }
    return bad;
}
