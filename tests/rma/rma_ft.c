/*
 * rma_ft: a target process SIGKILLed inside an RMA epoch. The survivors'
 * synchronization call must fail with the failure class of the mode
 * (MPI_ERR_OTHER under FT-MPI's modes, MPIX_ERR_PROC_FAILED under ULFM),
 * through the window's error handler, instead of hanging; then they
 * recover (FT-MPI: MPI_Comm_dup of MPI_COMM_WORLD; ULFM: MPIX_Comm_shrink),
 * free the dead window and run an epoch on a new window over the result
 * (REBUILD: with the replacement, which joins at that point; BLANK: over
 * MPI_COMM_WORLD with its gap, which is MPI_ERR_RANK as a target).
 *
 *   rma_ft SYNC FLAVOR [unnoticed]
 *                          SYNC: fence | pscw | lock | lockall | flush |
 *                          qflush | qunlock
 *                          FLAVOR: create (CMA on one host; messages with
 *                          FTMPI_RMA_NO_SHM=1) | shared (shared memory)
 * Rank 2 (of 3) is the victim; it kills itself once the window is set up,
 * and the survivors wait for the failure notice before the epoch.
 * qflush, qunlock: the victim dies inside the epoch instead, between the
 * survivors' put to it (queued on a CMA window, gathered into a message
 * otherwise) and their MPI_Win_flush (in MPI_Win_lock_all) or
 * MPI_Win_unlock (of a shared lock): after a barrier with them it raises
 * SIGKILL; the survivors wait for the failure notice (a receive from it
 * fails) or, with "unnoticed", only until the kernel says the process has
 * exited (/proc/PID/stat, without calling MPI), so the library may not
 * know yet; either way the flush or unlock must fail.
 * Every rank that finishes prints "rma_ft: ok".
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc_exited.h"

#define VICTIM 2
static int fails;
#define CHECK(cond, ...)                                              \
    do {                                                              \
        if (!(cond)) {                                                \
            fprintf(stderr, "rma_ft: check failed: " __VA_ARGS__);    \
            fprintf(stderr, "\n");                                    \
            fails++;                                                  \
        }                                                             \
    } while (0)

static int handler_calls;
static void handler(MPI_Win *w, int *code, ...) { (void)w; (void)code; handler_calls++; }

/* Memory given to MPI_Win_create, freed before MPI_Finalize. */
static long *created[2];
static int ncreated;

static void free_created(void)
{
    while (ncreated > 0)
        free(created[--ncreated]);
}

static MPI_Win make_win(MPI_Comm comm, const char *flavor, long **mem)
{
    MPI_Win w;
    int rc;
    if (!strcmp(flavor, "shared"))
        rc = MPI_Win_allocate_shared(8 * sizeof(long), sizeof(long), MPI_INFO_NULL, comm, mem, &w);
    else { /* MPI_Win_create: CMA, or messages with FTMPI_RMA_NO_SHM */
        *mem = malloc(8 * sizeof(long));
        created[ncreated++] = *mem;
        rc = MPI_Win_create(*mem, 8 * sizeof(long), sizeof(long), MPI_INFO_NULL, comm, &w);
    }
    CHECK(rc == MPI_SUCCESS, "window creation: %d", rc);
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < 8; i++)
        (*mem)[i] = 0;
    return w;
}


/* Wait (sleeping, 10 s at most) until the kernel says pid has exited. */
static int wait_exit(long pid)
{
    struct timespec ms = {0, 1000000};
    for (int i = 0; i < 10000; i++) {
        if (exited(pid))
            return 1;
        nanosleep(&ms, NULL);
    }
    return 0;
}

/* qflush / qunlock: the victim dies between the survivors' put to it and
 * their flush (unlock); the error of that call. */
static int kill_mid_epoch(MPI_Win w, const char *sync, int rank, int unnoticed, long vpid)
{
    int flush = !strcmp(sync, "qflush"), rc = MPI_SUCCESS;
    long v = 7, dummy;
    if (flush)
        CHECK(MPI_Win_lock_all(0, w) == MPI_SUCCESS, "lock_all before the kill");
    else if (rank != VICTIM)
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, VICTIM, 0, w) == MPI_SUCCESS, "lock before the kill");
    if (rank != VICTIM)
        CHECK(MPI_Put(&v, 1, MPI_LONG, VICTIM, rank, 1, MPI_LONG, w) == MPI_SUCCESS,
              "%s: the put to the live victim failed", sync);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == VICTIM)
        raise(SIGKILL);
    if (unnoticed)
        CHECK(wait_exit(vpid), "the victim (pid %ld) did not exit", vpid);
    else
        CHECK(MPI_Recv(&dummy, 1, MPI_LONG, VICTIM, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                  MPI_SUCCESS, "a receive from the dead victim succeeded");
    rc = flush ? MPI_Win_flush(VICTIM, w) : MPI_Win_unlock(VICTIM, w);
    if (flush)
        MPI_Win_unlock_all(w); /* fails too: the victim is in the epoch */
    if (unnoticed) /* the library knows before the recovery */
        CHECK(MPI_Recv(&dummy, 1, MPI_LONG, VICTIM, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                  MPI_SUCCESS, "a receive from the dead victim succeeded");
    return rc;
}

/* One epoch of sync mode `sync` writing into `target`; the first error.
 * gap: a BLANK gap of comm (-1: none), in no PSCW group. */
static int epoch(MPI_Win w, MPI_Comm comm, const char *sync, int target, int gap)
{
    int me, rc = MPI_SUCCESS, e;
    long v = 42;
    MPI_Comm_rank(comm, &me);
#define STEP(call) do { e = (call); if (rc == MPI_SUCCESS) rc = e; } while (0)
    if (!strcmp(sync, "fence")) {
        STEP(MPI_Win_fence(0, w));
        STEP(MPI_Put(&v, 1, MPI_LONG, target, me, 1, MPI_LONG, w));
        STEP(MPI_Win_fence(0, w));
    } else if (!strcmp(sync, "pscw")) {
        MPI_Group g, tg, og;
        MPI_Comm_group(comm, &g);
        MPI_Group_incl(g, 1, &target, &tg);
        int n, *all;
        MPI_Comm_size(comm, &n);
        all = malloc(n * sizeof(int));
        int k = 0;
        for (int r = 0; r < n; r++)
            if (r != target && r != gap)
                all[k++] = r;
        MPI_Group_incl(g, k, all, &og);
        if (me == target) {
            STEP(MPI_Win_post(og, 0, w));
            STEP(MPI_Win_wait(w));
        } else {
            STEP(MPI_Win_start(tg, 0, w));
            if (rc == MPI_SUCCESS)
                STEP(MPI_Put(&v, 1, MPI_LONG, target, me, 1, MPI_LONG, w));
            STEP(MPI_Win_complete(w));
        }
        free(all);
        MPI_Group_free(&g);
        MPI_Group_free(&tg);
        MPI_Group_free(&og);
    } else if (!strcmp(sync, "lock")) {
        if (me != target) {
            STEP(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, w));
            if (rc == MPI_SUCCESS) {
                STEP(MPI_Accumulate(&v, 1, MPI_LONG, target, me, 1, MPI_LONG, MPI_SUM, w));
                STEP(MPI_Win_unlock(target, w));
            }
        }
        e = MPI_Barrier(comm);
        if (rc == MPI_SUCCESS)
            rc = e;
    } else if (!strcmp(sync, "qflush") || !strcmp(sync, "qunlock")) {
        int flush = !strcmp(sync, "qflush");
        if (flush)
            STEP(MPI_Win_lock_all(0, w));
        if (me != target) {
            if (!flush)
                STEP(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, w));
            STEP(MPI_Put(&v, 1, MPI_LONG, target, me, 1, MPI_LONG, w));
            STEP(flush ? MPI_Win_flush(target, w) : MPI_Win_unlock(target, w));
        }
        if (flush)
            STEP(MPI_Win_unlock_all(w));
        e = MPI_Barrier(comm);
        if (rc == MPI_SUCCESS)
            rc = e;
    } else if (!strcmp(sync, "lockall") || !strcmp(sync, "flush")) {
        STEP(MPI_Win_lock_all(0, w));
        if (me != target) {
            long old;
            STEP(MPI_Fetch_and_op(&v, &old, MPI_LONG, target, me, MPI_SUM, w));
            STEP(MPI_Win_flush(target, w));
        }
        STEP(MPI_Win_unlock_all(w));
        e = MPI_Barrier(comm);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    return rc;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *sync = argc > 1 ? argv[1] : "fence";
    const char *flavor = argc > 2 ? argv[2] : "create";
    int unnoticed = argc > 3 && !strcmp(argv[3], "unnoticed");
    int queued = !strcmp(sync, "qflush") || !strcmp(sync, "qunlock");
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    int rank, size, *mode, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag);
    int ulfm = *mode == FTMPI_COMM_MODE_ULFM;
    MPI_Errhandler eh;
    MPI_Win_create_errhandler(handler, &eh);
    MPI_Comm comm = MPI_COMM_WORLD;
    long *mem;
    if (!restarted) {
        long vpid = (long)getpid(); /* the victim's, for "unnoticed" */
        MPI_Bcast(&vpid, 1, MPI_LONG, VICTIM, MPI_COMM_WORLD);
        MPI_Win w = make_win(MPI_COMM_WORLD, flavor, &mem);
        MPI_Win_set_errhandler(w, eh);
        /* A good epoch first: the window works with everyone alive. */
        CHECK(epoch(w, MPI_COMM_WORLD, sync, VICTIM, -1) == MPI_SUCCESS, "epoch before the kill");
        int before = handler_calls;
        if (queued) {
            rc = kill_mid_epoch(w, sync, rank, unnoticed, vpid);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == VICTIM)
                raise(SIGKILL);
            /* Deterministic: the survivors learn of the death before the
             * epoch (a receive from the victim, which never sends, fails),
             * so no epoch can complete with the victim's help before it
             * dies. The window's calls then meet a known-dead target. */
            long dummy;
            CHECK(MPI_Recv(&dummy, 1, MPI_LONG, VICTIM, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
                      MPI_SUCCESS, "a receive from the dead victim succeeded");
            before = handler_calls;
            rc = epoch(w, MPI_COMM_WORLD, sync, VICTIM, -1);
        }
        int cls = -1;
        MPI_Error_class(rc, &cls);
        int want = ulfm ? MPIX_ERR_PROC_FAILED : MPI_ERR_OTHER;
        CHECK(cls == want, "%s/%s: the epoch with a dead target gave class %d, want %d", sync,
              flavor, cls, want);
        /* MPI_Barrier's error is the communicator's; the window's calls
         * raise theirs on the window's handler. */
        CHECK(handler_calls > before || strcmp(sync, "lock") == 0,
              "%s/%s: the window's error handler was not called", sync, flavor);
        if (ulfm) {
            MPIX_Comm_failure_ack(MPI_COMM_WORLD);
            CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &comm) == MPI_SUCCESS, "shrink");
        } else {
            MPI_Comm dup = FT_MPI_CHECK_RECOVER;
            CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS, "recovery");
            MPI_Comm_free(&dup);
        }
        MPI_Win_free(&w); /* its communicator died with the failure: freed all the same */
        CHECK(w == MPI_WIN_NULL, "free of the dead window");
    }
    /* A new window over what the recovery gave. BLANK: MPI_COMM_WORLD keeps
     * its size and the victim's rank is a gap: the window is made over the
     * live members, targets keep their ranks, the gap is MPI_ERR_RANK. */
    MPI_Comm live = comm;
    int gap = *mode == FTMPI_COMM_MODE_BLANK ? VICTIM : -1;
    MPI_Comm_size(live, &size);
    MPI_Comm_rank(live, &rank);
    MPI_Win w2 = make_win(live, flavor, &mem);
    int target = gap >= 0 ? 1 : size - 1;
    if (gap >= 0) {
        MPI_Group g;
        int gsize = -1, cls = -1;
        long v = 1;
        MPI_Win_get_group(w2, &g);
        MPI_Group_size(g, &gsize);
        MPI_Group_free(&g);
        CHECK(gsize == size, "BLANK: the window's group has %d members, want %d", gsize, size);
        MPI_Error_class(MPI_Put(&v, 1, MPI_LONG, gap, 0, 1, MPI_LONG, w2), &cls);
        CHECK(cls == MPI_ERR_RANK, "BLANK: a put to the gap gave class %d", cls);
        MPI_Error_class(MPI_Win_lock(MPI_LOCK_SHARED, gap, 0, w2), &cls);
        CHECK(cls == MPI_ERR_RANK, "BLANK: a lock of the gap gave class %d", cls);
    }
    CHECK(epoch(w2, live, sync, target, gap) == MPI_SUCCESS, "epoch after the recovery");
    MPI_Barrier(live);
    if (rank == target && strcmp(sync, "lockall") && strcmp(sync, "flush") && strcmp(sync, "lock"))
        for (int r = 0; r < size; r++)
            if (r != gap && (r != target || (strcmp(sync, "pscw") && !queued)))
                CHECK(mem[r] == 42, "after recovery: mem[%d]=%ld", r, mem[r]);
    MPI_Win_free(&w2);
    free_created();
    MPI_Errhandler_free(&eh);
    if (live != comm)
        MPI_Comm_free(&live);
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    if (!fails) /* one write: lines of several ranks must not mix */
        (void)!write(1, "rma_ft: ok\n", 11);
    MPI_Finalize();
    return fails ? 1 : 0;
}
