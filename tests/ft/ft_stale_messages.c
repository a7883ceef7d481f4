/*
 * Messages from before a failure must not reach the communicators made
 * after the recovery, except what CONT promises (user messages between
 * survivors). Context ids are reused on purpose after a recovery, so the
 * danger is real: a message queued for a context this process has not
 * created yet (an orphan), or from a process that has since failed.
 *
 * 4 ranks, --comm-mode=shrink, --msg-mode=reset or cont. Rank 3 dies; after
 * the first recovery, dups of MPI_COMM_WORLD need no communication until
 * the first collective, so rank 2 makes a second duplicate D that rank 0
 * does not have yet, and sends on it: a point-to-point message (111) and a
 * broadcast (222) that wait at rank 0 as orphans. Rank 1 sends rank 0 a
 * message on MPI_COMM_WORLD (555) and dies. After the second recovery,
 * ranks 0 and 1 (old 2) dup again (the new D2 gets D's context id) and:
 *   - rank 1 sends 333 on D2 and broadcasts 444 on D2: rank 0 must receive
 *     333 (after 111 under CONT, which keeps user messages between
 *     survivors; RESET drops 111) and 444 (the old broadcast is collective
 *     traffic: dropped in both modes);
 *   - rank 1 sends 666 on MPI_COMM_WORLD: rank 0's wildcard receive gets
 *     it, not the failed process's 555 (dropped in both modes).
 * Exit 0 only if every check held.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int fails, rank;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "ft_stale_messages rank %d: check failed: ", rank); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            fails++;                                                         \
        }                                                                    \
    } while (0)

/* Until this process has met the failure (a collective fails), then
 * recover with the idiom. */
static MPI_Comm meet_failure_and_recover(void)
{
    int rc;
    do
        rc = MPI_Barrier(MPI_COMM_WORLD);
    while (rc == MPI_SUCCESS);
    CHECK(rc == MPI_ERR_OTHER, "the failure gave %d", rc);
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
    return nc;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int size, flag, *mm, rc, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_MSG_MODE, &mm, &flag);
    int cont = flag && *mm == FTMPI_MSG_MODE_CONT;
    if (size != 4) {
        fprintf(stderr, "ft_stale_messages: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Buffers of non-blocking sends live to the end (a rendezvous under
     * CONT is read after the recovery). */
    static int v111 = 111, v222 = 222, v333 = 333, v555 = 555, v666 = 666, sync = 1;
    MPI_Request r111 = MPI_REQUEST_NULL, r222 = MPI_REQUEST_NULL, r333, r555;

    /* Generation 0: rank 3 dies. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
        raise(SIGKILL);
    MPI_Comm nc1 = meet_failure_and_recover();

    /* Generation 1 (ranks 0, 1, 2), no collective yet. */
    if (rank == 2) {
        MPI_Comm D;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &D); /* rank 0 has no D: orphans */
        CHECK(rc == MPI_SUCCESS, "second dup returned %d", rc);
        MPI_Isend(&v111, 1, MPI_INT, 0, 9, D, &r111);
        MPI_Ibcast(&v222, 1, MPI_INT, 2, D, &r222);
        /* same ring, after them: once rank 0 has this, it has them */
        MPI_Send(&sync, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Comm_free(&D);
    } else if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&sync, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend(&v555, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r555);
        raise(SIGKILL);
    }
    /* Rank 1 dies. The broadcast involved it: it fails (or has already
     * completed) everywhere. */
    if (rank == 2)
        MPI_Wait(&r222, MPI_STATUS_IGNORE);
    MPI_Comm nc2 = meet_failure_and_recover();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 2, "size %d after two failures", size);

    /* Generation 2 (ranks 0 and 1, old 2). */
    MPI_Comm D2;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &D2);
    CHECK(rc == MPI_SUCCESS, "dup after the second recovery returned %d", rc);
    if (rank == 1) {
        MPI_Isend(&v333, 1, MPI_INT, 0, 9, D2, &r333);
        int b = 444;
        rc = MPI_Bcast(&b, 1, MPI_INT, 1, D2);
        CHECK(rc == MPI_SUCCESS, "broadcast returned %d", rc);
        MPI_Send(&v666, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        rc = MPI_Wait(&r333, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "send of 333 completed with %d", rc);
        /* CONT: a send that returned MPI_SUCCESS delivers its data. */
        rc = MPI_Wait(&r111, MPI_STATUS_IGNORE);
        if (cont)
            CHECK(rc == MPI_SUCCESS, "CONT: pre-failure send completed with %d", rc);
    } else {
        MPI_Status st;
        if (cont) {
            x = -1;
            rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, D2, &st);
            CHECK(rc == MPI_SUCCESS && x == 111 && st.MPI_SOURCE == 1,
                  "CONT: pre-failure message between survivors: rc %d value %d source %d", rc,
                  x, st.MPI_SOURCE);
        }
        x = -1;
        rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, D2, &st);
        CHECK(rc == MPI_SUCCESS && x == 333 && st.MPI_SOURCE == 1,
              "message on the new duplicate: rc %d value %d source %d (111: a pre-failure "
              "orphan under RESET)", rc, x, st.MPI_SOURCE);
        x = -1;
        rc = MPI_Bcast(&x, 1, MPI_INT, 1, D2);
        CHECK(rc == MPI_SUCCESS && x == 444,
              "broadcast on the new duplicate: rc %d value %d (222: a pre-failure orphan)", rc,
              x);
        x = -1;
        rc = MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
        CHECK(rc == MPI_SUCCESS && x == 666 && st.MPI_SOURCE == 1,
              "wildcard receive: rc %d value %d source %d (555: from the failed process)", rc,
              x, st.MPI_SOURCE);
        rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, D2, &flag, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && !flag, "a message is left on the new duplicate");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&D2);
    MPI_Comm_free(&nc1);
    MPI_Comm_free(&nc2);
    printf("ft_stale_messages %s rank %d: %s\n", cont ? "cont" : "reset", rank,
           fails ? "FAILED" : "ok");
    MPI_Finalize();
    return fails ? 1 : 0;
}
