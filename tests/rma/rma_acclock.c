/*
 * rma_acclock FLAVOR: an origin SIGKILLed while it holds the window's
 * accumulate lock (the process-shared robust mutex of a mapped window,
 * FLAVOR shared or allocate, or of a CMA window's lock page, FLAVOR
 * create). Run with mpirun --kill-at rma_acc_lock=3@2 under SHRINK, BLANK
 * or REBUILD: rank 2 (the victim) does 16-element MPI_Get_accumulate(SUM)
 * calls to rank 0 (each one read-modify-write under the lock); the daemon
 * kills it right after it takes the lock for the third time, before it
 * writes anything. Ranks 0 and 1 do the same calls in a loop meanwhile,
 * so they are waiting on the lock when the victim dies (or come to it
 * after): the mutex must pass to them (EOWNERDEAD made consistent), not
 * hang. They go on until a call fails with the failure (MPI_ERR_OTHER,
 * once the library knows) or they did 20 more calls after the kernel shows
 * the victim exited; MPI_Win_unlock_all (the victim is in the epoch) must
 * fail with MPI_ERR_OTHER. After the recovery every element of rank 0's
 * window holds exactly 2 (the victim's two whole calls) plus the
 * survivors' successful calls: the third was not applied at all.
 * Every rank that finishes prints "rma_acclock: ok" (REBUILD's
 * replacement too).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc_exited.h"

#define VICTIM 2
#define N 16
static int fails;
#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "rma_acclock: check failed: " __VA_ARGS__);   \
            fprintf(stderr, "\n");                                        \
            fails++;                                                      \
        }                                                                 \
    } while (0)

static int cls_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *flavor = argc > 1 ? argv[1] : "shared";
    int restarted = MPI_Init(&argc, &argv) == MPI_INIT_RESTARTED_NODE;
    int rank;
    long done = 0, total = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!restarted) {
        long vpid = (long)getpid();
        MPI_Bcast(&vpid, 1, MPI_LONG, VICTIM, MPI_COMM_WORLD);
        MPI_Win w;
        int64_t *mem = NULL, *own = NULL, one[N], old[N];
        for (int i = 0; i < N; i++)
            one[i] = 1;
        if (!strcmp(flavor, "create")) {
            mem = own = calloc(N, sizeof(int64_t));
            MPI_Win_create(mem, N * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &w);
        } else if (!strcmp(flavor, "allocate"))
            MPI_Win_allocate(N * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &mem, &w);
        else
            MPI_Win_allocate_shared(N * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                                    MPI_COMM_WORLD, &mem, &w);
        memset(mem, 0, N * sizeof(int64_t));
        MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(MPI_Win_lock_all(0, w) == MPI_SUCCESS, "lock_all");
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == VICTIM) { /* killed inside its third call */
            for (int i = 0; i < 1000000; i++) {
                MPI_Get_accumulate(one, N, MPI_INT64_T, old, N, MPI_INT64_T, 0, 0, N, MPI_INT64_T,
                                   MPI_SUM, w);
                MPI_Win_flush(0, w);
            }
            CHECK(0, "the victim was not killed at rma_acc_lock=3");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        int rc = MPI_SUCCESS, after = 0;
        for (long i = 0; i < 2000000 && after < 20; i++) {
            rc = MPI_Get_accumulate(one, N, MPI_INT64_T, old, N, MPI_INT64_T, 0, 0, N,
                                    MPI_INT64_T, MPI_SUM, w);
            if (rc != MPI_SUCCESS)
                break;
            done++;
            if (exited(vpid))
                after++;
        }
        CHECK(rc != MPI_SUCCESS || after == 20, "the victim never died");
        if (rc != MPI_SUCCESS)
            CHECK(cls_of(rc) == MPI_ERR_OTHER, "a call after the death gave class %d", cls_of(rc));
        rc = MPI_Win_unlock_all(w);
        CHECK(cls_of(rc) == MPI_ERR_OTHER, "unlock_all with the victim dead gave class %d",
              cls_of(rc));
        MPI_Comm dup = FT_MPI_CHECK_RECOVER;
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "recovery");
        MPI_Comm_free(&dup);
        if (rank == 0) /* read before the free: the window's memory is still there */
            for (int i = 0; i < N; i++)
                old[i] = mem[i];
        MPI_Win_free(&w);
        free(own);
        MPI_Reduce(&done, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            for (int i = 0; i < N; i++)
                CHECK(old[i] == 2 + total, "element %d holds %lld, want 2 + %ld", i,
                      (long long)old[i], total);
            printf("rma_acclock: %ld calls by the survivors, element 0 %lld\n", total,
                   (long long)old[0]);
        }
    } else { /* REBUILD's replacement: joins the survivors' reduction */
        MPI_Reduce(&done, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (!fails)
        (void)!write(1, "rma_acclock: ok\n", 16);
    MPI_Finalize();
    return fails ? 1 : 0;
}
