/*
 * ft_races.c - the recovery races of issue 12, each made deterministic.
 * Run with 4 ranks; the victim is killed by ftmpirun at a fault point
 * (--kill-at NAME@RANK), never by timing. Argument: the scenario.
 *
 *   dup_meets_failure   the recovering MPI_Comm_dup(MPI_COMM_WORLD) is
 *                       entered before the failure is known (race 1): rank 3
 *                       dies while ranks 0-2 are already inside the dup; the
 *                       dup must recover and succeed.
 *   blocked_coll        ranks 0 and 1 are in an Allgather on a communicator
 *                       without the victim (rank 3) while rank 2, which saw
 *                       the failure, recovers (race 3): they must be told.
 *   blocked_p2p         the same with ranks 0 and 1 in MPI_Recv from rank 2
 *                       on that communicator (matters under CONT too).
 *   callback_failure    (REBUILD) the recovery callbacks communicate with the
 *                       replacement, which is killed in the middle (race 4):
 *                       ranks 1 and 2 wait in a barrier among survivors only
 *                       and must join the second round.
 *   auto_recv           (AUTO) rank 0 receives from the rank that dies, rank 2
 *                       from rank 0, rank 3 is in allreduces (race 6): every
 *                       call returns MPI_ERR_OTHER with the recovery done.
 *   finalizing          a failure while ranks 1 and 2 are in MPI_Finalize
 *                       (race 5): rank 0's recovery is refused (MPI_ERR_OTHER),
 *                       the job ends with a non-zero status, no hang.
 *   none                (REBUILD, recovery NONE) no replacement is started:
 *                       the survivors go on and finalize, status non-zero.
 *   blank_errors        (BLANK) before the recovery, point-to-point with the
 *                       failed rank returns MPI_ERR_OTHER; after it,
 *                       MPI_ERR_RANK (the rank is a gap).
 *
 *   rndv_from_dead      (REBUILD) the first replacement of rank 3 sends rank 0
 *                       a large message (rendezvous); rank 0 kills it while
 *                       the launcher is stopped and reads the message before
 *                       the failure is announced, in the pairing phase after
 *                       the first recovery, while ranks 1 and 2 wait where
 *                       no failure reaches them (issue 12 C8): the receive
 *                       must fail only once the failure is known, so that
 *                       rank 0's recovering dup starts the second recovery.
 *   wildcard_after      (CONT) rank 0 learns of rank 3's failure in one call
 *                       and posts a wildcard receive on MPI_COMM_WORLD in the
 *                       next (issue 12 C11, the sweep's lost failure): the
 *                       receive must fail at once, as one pending at the
 *                       failure does, not wait for ever.
 *
 * Every rank that completes prints "ft_races <scenario> rank R: ok" (or
 * FAILED with the reason); exit 0 only if every check held.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

static int fails, rank, launch;
static const char *scen;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "ft_races %s rank %d: check failed: ", scen, rank); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            fails++;                                                         \
        }                                                                    \
    } while (0)

static int attr_int(int key)
{
    int *v, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
    return flag ? *v : -1;
}

/* The number of live processes after `nfailed` failures, as an allreduce
 * over MPI_COMM_WORLD counts them in each comm mode. */
static int live_after(int nfailed)
{
    return attr_int(FTMPI_COMM_MODE) == FTMPI_COMM_MODE_REBUILD ? launch : launch - nfailed;
}

static int finish(void)
{
    printf("ft_races %s rank %d: %s\n", scen, rank, fails ? "FAILED" : "ok");
    fflush(stdout);
    MPI_Finalize();
    return fails ? 1 : 0;
}

/* The victim: killed at the fault point `die` (mpirun --kill-at die@RANK).
 * Returning from it is a failure of the test. */
static int die(void)
{
    FTMPI_Fault_point("die", 1);
    CHECK(0, "still alive after the fault point");
    return finish();
}

/* The survivors' recovering dup: it must succeed and report `nfailed`. */
static void recover(int nfailed)
{
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    CHECK(rc == MPI_SUCCESS, "recovering MPI_Comm_dup returned %d", rc);
    CHECK(attr_int(FTMPI_NUM_FAILED_PROCS) == nfailed, "FTMPI_NUM_FAILED_PROCS %d, want %d",
          attr_int(FTMPI_NUM_FAILED_PROCS), nfailed);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&nc);
}

/* After a recovery, everyone (replacements too) counts the live processes. */
static void count_live(int nfailed)
{
    int one = 1, sum = 0;
    int rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS && sum == live_after(nfailed), "allreduce after recovery: rc %d sum %d",
          rc, sum);
}

/* A replacement: the copy of the survivors' recovery dup, then the count. */
static int replacement(void)
{
    MPI_Comm nc = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    CHECK(rc == MPI_SUCCESS, "replacement's first dup returned %d", rc);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&nc);
    count_live(1);
    return finish();
}

/* ---- race 1 -------------------------------------------------------------- */

static int dup_meets_failure(void)
{
    int x = 0, victim = launch - 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) {
        /* ranks 0-2 are inside their dup when the failure happens */
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        usleep(200000);
        return die();
    }
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, victim, 1, MPI_COMM_WORLD);
    recover(1);
    count_live(1);
    return finish();
}

/* ---- race 3 -------------------------------------------------------------- */

static int blocked(int coll)
{
    int victim = launch - 1, x = 0, rc;
    MPI_Comm sub; /* every rank but the victim */
    MPI_Comm_split(MPI_COMM_WORLD, rank == victim ? MPI_UNDEFINED : 0, rank, &sub);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    if (rank == victim - 1) {
        /* sees the failure and recovers; never enters sub's operation */
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from the victim returned %d", rc);
    } else if (coll) {
        int mine = rank, all[64];
        rc = MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, sub);
        CHECK(rc == MPI_ERR_OTHER, "Allgather without the victim returned %d", rc);
    } else {
        rc = MPI_Recv(&x, 1, MPI_INT, victim - 1, 3, sub, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from a live rank returned %d", rc);
    }
    recover(1);
    /* the recovery destroyed the derived communicator */
    rc = MPI_Barrier(sub);
    CHECK(rc == MPI_ERR_COMM, "barrier on a destroyed communicator returned %d", rc);
    MPI_Comm_free(&sub);
    count_live(1);
    return finish();
}

/* ---- race 4 -------------------------------------------------------------- */

static int cb_again, cb_runs, cb_off;

/* The recovery callback: a split of MPI_COMM_WORLD with the replacement
 * (rank 3) in it, a message from the replacement to rank 0, then a barrier
 * among the survivors only (the replacement dies before its message). */
static int callback(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    int victim = launch - 1, x = -1, rc;
    MPI_Comm surv = MPI_COMM_NULL;
    if (cb_off)
        return MPI_SUCCESS; /* the attribute is being deleted */
    cb_runs++;
    rc = MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &surv);
    if (rc == MPI_SUCCESS && rank == 0)
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = MPI_Barrier(surv); /* ranks 1 and 2 wait here for rank 0 */
    if (surv != MPI_COMM_NULL)
        MPI_Comm_free(&surv);
    CHECK(rc == MPI_SUCCESS || rc == MPI_ERR_OTHER, "callback step returned %d", rc);
    cb_again = rc != MPI_SUCCESS;
    return MPI_SUCCESS;
}

/* The replacement's side of the callback. */
static int callback_peer(void)
{
    int x = 3;
    MPI_Comm none;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &none);
    /* the first replacement dies here, between the survivors' two steps */
    if (rc == MPI_SUCCESS)
        FTMPI_Fault_point("replacement", 1);
    if (rc == MPI_SUCCESS)
        rc = MPI_Send(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    return rc;
}

static int callback_failure(int restarted)
{
    int victim = launch - 1, x = 0, rc;
    if (restarted) {
        MPI_Comm nc = MPI_COMM_NULL;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        CHECK(rc == MPI_SUCCESS, "replacement's first dup returned %d", rc);
        MPI_Comm_free(&nc);
        rc = callback_peer();
        CHECK(rc == MPI_SUCCESS, "replacement's side of the callback returned %d", rc);
        count_live(1);
        return finish();
    }
    int key;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, callback, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    rc = MPI_Recv(&x, 1, MPI_INT, victim, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_ERR_OTHER, "receive from the victim returned %d", rc);
    int rounds = 0;
    do {
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        CHECK(rc == MPI_SUCCESS, "recovering dup %d returned %d", rounds + 1, rc);
        if (rc != MPI_SUCCESS)
            break;
        MPI_Comm_free(&nc);
        rounds++;
    } while (cb_again && rounds < 10);
    CHECK(rounds == 2 && cb_runs == 2, "%d recoveries, %d callbacks: want 2 and 2", rounds, cb_runs);
    CHECK(attr_int(FTMPI_NUM_FAILED_PROCS) == 1, "FTMPI_NUM_FAILED_PROCS %d",
          attr_int(FTMPI_NUM_FAILED_PROCS));
    count_live(1);
    cb_off = 1;
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    return finish();
}

/* ---- race 6 -------------------------------------------------------------- */

static int auto_recv(void)
{
    int victim = 1, x = 0, rc;
    rc = MPI_Barrier(MPI_COMM_WORLD);
    CHECK(rc == MPI_SUCCESS, "barrier returned %d", rc);
    if (rank == victim) {
        /* dies once every other rank is past the barrier (a NONATOMIC
         * barrier could otherwise fail, and under AUTO recover, on some) */
        for (int i = 0; i < launch - 1; i++)
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return die();
    }
    MPI_Send(&x, 1, MPI_INT, victim, 4, MPI_COMM_WORLD);
    if (rank == 0) {
        /* the victim never sends: the receive reports the failure, and the
         * recovery is complete by then */
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from the victim returned %d", rc);
    } else if (rank == 2) {
        /* rank 0 never sends either: a receive from a live process, which
         * CONT keeps open across the failure; the round must end it */
        rc = MPI_Recv(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from a live rank returned %d", rc);
    } else {
        int one = 1, sum = 0;
        rc = MPI_SUCCESS;
        while (rc == MPI_SUCCESS)
            rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_OTHER, "allreduce returned %d", rc);
    }
    CHECK(attr_int(FTMPI_NUM_FAILED_PROCS) == 1, "FTMPI_NUM_FAILED_PROCS %d after AUTO",
          attr_int(FTMPI_NUM_FAILED_PROCS));
    count_live(1);
    return finish();
}

/* ---- recovery NONE ------------------------------------------------------- */

static int none(void)
{
    int victim = 1, x = 0, rc, size;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    if (rank == 0) {
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from the failed rank returned %d", rc);
        for (int r = 2; r < launch; r++) {
            rc = MPI_Send(&x, 1, MPI_INT, r, 9, MPI_COMM_WORLD);
            CHECK(rc == MPI_SUCCESS, "send to live rank %d returned %d", r, rc);
        }
    } else {
        rc = MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "receive from rank 0 returned %d", rc);
    }
    /* time for a replacement to start, were one started: it would wait in
     * MPI_Init for a recovery that never comes, and the job would hang */
    usleep(300000);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == launch, "size %d under NONE", size);
    return finish();
}

/* ---- race 5 -------------------------------------------------------------- */

static int finalizing(void)
{
    int victim = launch - 1, x = 0, rc;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim) {
        /* dies once rank 0 knows that ranks 1 and 2 are finalizing */
        MPI_Recv(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return die();
    }
    if (rank != 0) {
        MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
        return finish(); /* into MPI_Finalize */
    }
    for (int r = 1; r < victim; r++)
        MPI_Recv(&x, 1, MPI_INT, r, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    usleep(200000); /* ranks 1 and 2 reach MPI_Finalize */
    MPI_Send(&x, 1, MPI_INT, victim, 6, MPI_COMM_WORLD);
    rc = MPI_Recv(&x, 1, MPI_INT, victim, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_ERR_OTHER, "receive from the victim returned %d", rc);
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    /* the job is ending: no recovery; the launcher reports "not recovered" */
    CHECK(rc == MPI_ERR_OTHER, "recovery while the job finalizes returned %d", rc);
    return finish();
}

/* ---- BLANK error classes ------------------------------------------------- */

static int blank_errors(void)
{
    int victim = 1, x = 0, rc;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    if (rank == 0) {
        /* the failure is known once a receive from the victim fails */
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive from the failed rank returned %d", rc);
        rc = MPI_Send(&x, 1, MPI_INT, victim, 8, MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_OTHER, "send to the failed rank returned %d", rc);
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "second receive from the failed rank returned %d", rc);
    } else {
        rc = MPI_Barrier(MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_OTHER, "barrier with the failed rank returned %d", rc);
    }
    recover(1);
    if (rank == 0) {
        rc = MPI_Send(&x, 1, MPI_INT, victim, 8, MPI_COMM_WORLD);
        CHECK(rc == MPI_ERR_RANK, "send to the gap returned %d", rc);
        rc = MPI_Recv(&x, 1, MPI_INT, victim, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_RANK, "receive from the gap returned %d", rc);
    }
    count_live(1);
    return finish();
}

/* ---- issue 12 C8: a dead sender seen by the transport first ---------------- */

#define BIG (1 << 18) /* doubles (2 MiB): above the eager limit, a rendezvous */
static int n_recoveries;

static int count_recovery(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)val, (void)extra;
    n_recoveries += !cb_off;
    return MPI_SUCCESS;
}

/* Rank 3's replacements (both run this): the copy of the survivors' dup,
 * then a large message and the pid to rank 0 (in that order, so that rank 0
 * has queued the large message when it has the pid), then rank 0's
 * go-ahead, which the first replacement never gets: rank 0 kills it. */
static int rndv_sender(void)
{
    MPI_Comm nc = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc), pid = (int)getpid(), go = 0;
    CHECK(rc == MPI_SUCCESS, "replacement's first dup returned %d", rc);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&nc);
    double *big = malloc(BIG * sizeof(double));
    for (int i = 0; i < BIG; i++)
        big[i] = i;
    MPI_Request req;
    MPI_Isend(big, BIG, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &req);
    MPI_Send(&pid, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS, "second replacement's large send returned %d", rc);
    free(big);
    count_live(1);
    return finish();
}

static char proc_state(int pid)
{
    char path[64], buf[256], *p;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    p = strrchr(buf, ')');
    return p && p[1] ? p[2] : 0;
}

/* Kill `pid` while the launcher (this rank's parent: the head and this
 * host's daemon) is stopped, so that the process is gone (a zombie) and its
 * failure not yet announced; a child resumes the launcher 0.3 s later. */
static void kill_unannounced(int pid)
{
    pid_t head = getppid();
    kill(head, SIGSTOP);
    kill(pid, SIGKILL);
    for (int i = 0; i < 5000 && proc_state(pid) != 'Z'; i++)
        usleep(1000);
    CHECK(proc_state(pid) == 'Z', "the replacement (pid %d) is not a zombie", pid);
    if (fork() == 0) {
        usleep(300000);
        kill(head, SIGCONT);
        _exit(0);
    }
}

/* Rank 0's side of one replacement: its pid, then the go-ahead or (the
 * first one) its death, then the large message. */
static int rndv_receive(int victim, int kill_it)
{
    int pid = 0, rc = MPI_Recv(&pid, 1, MPI_INT, victim, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS, "receive of the replacement's pid returned %d", rc);
    if (kill_it)
        kill_unannounced(pid);
    else
        MPI_Send(&pid, 1, MPI_INT, victim, 7, MPI_COMM_WORLD);
    double *big = calloc(BIG, sizeof(double));
    rc = MPI_Recv(big, BIG, MPI_DOUBLE, victim, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < BIG; i++)
        bad += big[i] != i;
    CHECK(!bad, "%d wrong values in the large message", bad);
    free(big);
    return rc;
}

static int rndv_from_dead(void)
{
    int victim = launch - 1, key, rc, rounds = 0;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_recovery, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    rc = MPI_Barrier(MPI_COMM_WORLD);
    CHECK(rc == MPI_ERR_OTHER, "barrier with the victim returned %d", rc);
    recover(1);
    if (rank == 0) {
        rc = rndv_receive(victim, 1);
        CHECK(rc == MPI_ERR_OTHER, "receive from the dead replacement returned %d", rc);
    } else {
        /* Blocked where no failure reaches: only the round that rank 0
         * starts ends this (so rank 0 is the first to recover). */
        int x;
        rc = MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive ended by the second round returned %d", rc);
    }
    do {
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        if (rc == MPI_SUCCESS)
            MPI_Comm_free(&nc);
    } while (rc != MPI_SUCCESS && ++rounds < 10);
    CHECK(rc == MPI_SUCCESS && n_recoveries == 2, "second recovery: dup %d, %d recoveries, want 2",
          rc, n_recoveries);
    if (rank == 0)
        CHECK(rndv_receive(victim, 0) == MPI_SUCCESS, "large message from the second replacement");
    count_live(1);
    cb_off = 1;
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    return finish();
}

/* ---- issue 12 C11: a wildcard receive posted after the failure ---------- */

static int wildcard_after(void)
{
    int victim = launch - 1, x = 0, rc, known = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == victim)
        return die();
    if (rank == 0) {
        /* Take the failure in with calls that do not fail on it (a probe
         * on MPI_COMM_SELF), until a send to the victim says it is known. */
        for (int i = 0; i < 10000 && !known; i++) {
            int flag;
            MPI_Iprobe(0, 99, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
            known = MPI_Send(&x, 1, MPI_INT, victim, 11, MPI_COMM_WORLD) != MPI_SUCCESS;
            if (!known)
                usleep(1000);
        }
        CHECK(known, "the failure of rank %d never became known", victim);
        rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "wildcard receive after the failure returned %d", rc);
        int flag;
        rc = MPI_Iprobe(MPI_ANY_SOURCE, 12, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "wildcard probe after the failure returned %d", rc);
    } else {
        /* Blocked where no failure reaches: only the round that rank 0
         * starts ends this (so nobody else makes rank 0's receive fail). */
        rc = MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "receive ended by the round returned %d", rc);
    }
    recover(1);
    count_live(1);
    return finish();
}

int main(int argc, char **argv)
{
    scen = argc > 1 ? argv[1] : "";
    int rc = MPI_Init(&argc, &argv);
    int restarted = rc == MPI_INIT_RESTARTED_NODE;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &launch);
    if (launch != 4) {
        if (rank == 0)
            fprintf(stderr, "ft_races: run with 4 ranks\n");
        MPI_Finalize();
        return 2;
    }
    if (!strcmp(scen, "callback_failure"))
        return callback_failure(restarted);
    if (restarted && !strcmp(scen, "rndv_from_dead"))
        return rndv_sender();
    if (restarted)
        return replacement();
    if (!strcmp(scen, "dup_meets_failure"))
        return dup_meets_failure();
    if (!strcmp(scen, "blocked_coll"))
        return blocked(1);
    if (!strcmp(scen, "blocked_p2p"))
        return blocked(0);
    if (!strcmp(scen, "auto_recv"))
        return auto_recv();
    if (!strcmp(scen, "finalizing"))
        return finalizing();
    if (!strcmp(scen, "blank_errors"))
        return blank_errors();
    if (!strcmp(scen, "none"))
        return none();
    if (!strcmp(scen, "rndv_from_dead"))
        return rndv_from_dead();
    if (!strcmp(scen, "wildcard_after"))
        return wildcard_after();
    if (rank == 0)
        fprintf(stderr, "ft_races: unknown scenario '%s'\n", scen);
    MPI_Finalize();
    return 2;
}
