/* Binding (docs/runtime.md, "Binding"), run by rt_bind.sh. Every process
 * prints its affinity as "affinity rank R pid P cpus LIST" when it starts.
 * With BIND_VICTIM=V, rank V SIGKILLs itself after a first barrier; the
 * survivors recover (SHRINK or REBUILD, as ftmpirun says), and each
 * process then prints "affinity-after rank R pid P cpus LIST", which for a
 * survivor must equal its first mask (checked here too). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void cpus_of_self(char *out, size_t cap)
{
    cpu_set_t set;
    size_t k = 0;
    out[0] = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return;
    for (int c = 0; c < CPU_SETSIZE && k + 24 < cap; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        k += (size_t)snprintf(out + k, cap - k, e > c ? "%s%d-%d" : "%s%d",
                              k ? "," : "", c, e);
        c = e;
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE, rank, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char first[1024], now[1024];
    cpus_of_self(first, sizeof first);
    printf("affinity rank %d pid %d cpus %s\n", rank, (int)getpid(), first);
    const char *v = getenv("BIND_VICTIM");
    if (!v) {
        MPI_Finalize();
        return 0;
    }
    if (!restarted) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == atoi(v))
            raise(SIGKILL);
        int one = 1, sum;
        rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) {
            MPI_Comm nc = FT_MPI_CHECK_RECOVER;
            if (MPI_Comm_dup(MPI_COMM_WORLD, &nc) != MPI_SUCCESS) {
                fprintf(stderr, "rt_bind: check failed: recovery\n");
                bad = 1;
            }
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    }
    int one = 1, sum = 0;
    if (MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "rt_bind: check failed: allreduce after recovery\n");
        bad = 1;
    }
    cpus_of_self(now, sizeof now);
    printf("affinity-after rank %d pid %d cpus %s\n", rank, (int)getpid(), now);
    if (strcmp(now, first) != 0) {
        fprintf(stderr, "rt_bind: check failed: rank %d mask %s became %s\n", rank, first, now);
        bad = 1;
    }
    if (!bad)
        printf("rank %d: ok\n", rank);
    MPI_Finalize();
    return bad;
}
