/*
 * rma_ulfm: the ULFM draft's window calls (docs/rma.md, "Fault tolerance").
 * Under the ULFM mode (3 ranks):
 *   - MPIX_Win_get_failed of a healthy window is the empty group;
 *   - MPIX_Win_revoke by rank 0 while ranks 1 and 2 wait in MPI_Win_wait
 *     for rank 0's access epoch, which never comes: their wait (or their
 *     post, when the revoke came first) ends with MPIX_ERR_REVOKED, and
 *     every later call on that window too, at every rank; MPI_COMM_WORLD
 *     is untouched (a barrier over it works);
 *   - MPIX_Win_revoke by rank 0 while ranks 1 and 2 are inside
 *     MPI_Win_fence (they told rank 0 they were entering it): their fence
 *     ends with MPIX_ERR_REVOKED, whatever step it was at (30 rounds);
 *   - rank 2 SIGKILLs itself while ranks 0 and 1 are inside MPI_Win_fence
 *     (it waits for their notes first): their fence ends with
 *     MPIX_ERR_PROC_FAILED; once they know (a receive from it fails),
 *     MPIX_Win_get_failed of that window is {2}.
 * In another mode (2 ranks): revoke is MPI_ERR_UNSUPPORTED_OPERATION,
 * get_failed the empty group.
 * Every rank that finishes prints "rma_ulfm: ok".
 */
#include <mpi.h>
#include <mpi-ext.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static int fails;
#define CHECK(cond, ...)                                                \
    do {                                                                \
        if (!(cond)) {                                                  \
            fprintf(stderr, "rma_ulfm: check failed: " __VA_ARGS__);    \
            fprintf(stderr, "\n");                                      \
            fails++;                                                    \
        }                                                               \
    } while (0)

static int cls(int rc)
{
    int c = rc;
    MPI_Error_class(rc, &c);
    return c;
}

static int failed_size(MPI_Win w, int *first)
{
    MPI_Group g, wg;
    int n = -1, zero = 0;
    CHECK(MPIX_Win_get_failed(w, &g) == MPI_SUCCESS, "MPIX_Win_get_failed");
    MPI_Group_size(g, &n);
    if (n > 0 && first) {
        MPI_Win_get_group(w, &wg);
        MPI_Group_translate_ranks(g, 1, &zero, wg, first);
        MPI_Group_free(&wg);
    }
    MPI_Group_free(&g);
    return n;
}

/* Rounds of the fence/revoke race: where the revoke lands in the others'
 * fence (before it, in its flush, between two rounds of its barrier) is
 * scheduling; every place must end the fence with MPIX_ERR_REVOKED. */
#define FENCE_ROUNDS 30

/* Ranks 1 and 2 tell rank 0 that they are entering MPI_Win_fence and call
 * it; rank 0 never does: once it has both notes it revokes the window.
 * Their fence waits for rank 0 and must end with MPIX_ERR_REVOKED. */
static void fence_revoke(int rank, long *mem, size_t bytes)
{
    MPI_Win w;
    long note = 0;
    MPI_Win_create(mem, (MPI_Aint)bytes, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    if (rank == 0) {
        MPI_Recv(&note, 1, MPI_LONG, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&note, 1, MPI_LONG, 2, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(MPIX_Win_revoke(w) == MPI_SUCCESS, "MPIX_Win_revoke during the fence");
    } else {
        MPI_Send(&note, 1, MPI_LONG, 0, 7, MPI_COMM_WORLD);
        int rc = MPI_Win_fence(0, w);
        CHECK(cls(rc) == MPIX_ERR_REVOKED, "fence while the window was revoked gave class %d",
              cls(rc));
    }
    MPI_Win_free(&w);
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "barrier after the fence/revoke round");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    MPI_Init(&argc, &argv);
    int rank, size, *mode, flag;
    long mem[4] = {0}, v = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &mode, &flag);
    MPI_Win w;
    MPI_Win_create(mem, sizeof(mem), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    CHECK(failed_size(w, NULL) == 0, "a healthy window has failed members");
    if (*mode != FTMPI_COMM_MODE_ULFM) {
        CHECK(cls(MPIX_Win_revoke(w)) == MPI_ERR_UNSUPPORTED_OPERATION,
              "revoke outside the ULFM mode");
        MPI_Win_free(&w);
        goto done;
    }
    if (rank == 0) {
        CHECK(MPIX_Win_revoke(w) == MPI_SUCCESS, "MPIX_Win_revoke");
    } else {
        /* An exposure epoch for rank 0, which never starts one: only the
         * revoke can end the wait (its receives fail), or the post already
         * fails when the revoke came first. */
        MPI_Group g, g0;
        int zero = 0;
        MPI_Win_get_group(w, &g);
        MPI_Group_incl(g, 1, &zero, &g0);
        int rc = MPI_Win_post(g0, 0, w);
        if (rc == MPI_SUCCESS)
            rc = MPI_Win_wait(w);
        CHECK(cls(rc) == MPIX_ERR_REVOKED, "post/wait on a revoked window gave class %d", cls(rc));
        MPI_Group_free(&g);
        MPI_Group_free(&g0);
    }
    int rc = MPI_Put(&v, 1, MPI_LONG, (rank + 1) % size, 0, 1, MPI_LONG, w);
    CHECK(cls(rc) == MPIX_ERR_REVOKED || cls(rc) == MPI_ERR_RMA_SYNC,
          "put on a revoked window gave class %d", cls(rc));
    rc = MPI_Win_fence(0, w);
    CHECK(cls(rc) == MPIX_ERR_REVOKED, "fence after the revoke gave class %d", cls(rc));
    MPI_Win_free(&w);
    CHECK(w == MPI_WIN_NULL, "free of the revoked window");
    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_COMM_WORLD revoked with the window");

    /* MPIX_Win_revoke while the others wait inside MPI_Win_fence. */
    for (int round = 0; round < FENCE_ROUNDS; round++)
        fence_revoke(rank, mem, sizeof(mem));

    /* A death while the others wait inside MPI_Win_fence: ranks 0 and 1
     * tell rank 2 that they are entering it, rank 2 SIGKILLs itself once
     * it has both notes; their fence waits for rank 2 and must fail. */
    MPI_Win w2;
    MPI_Win_create(mem, sizeof(mem), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2) {
        MPI_Recv(&v, 1, MPI_LONG, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_LONG, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        raise(SIGKILL);
    }
    MPI_Send(&v, 1, MPI_LONG, 2, 7, MPI_COMM_WORLD);
    rc = MPI_Win_fence(0, w2);
    CHECK(cls(rc) == MPIX_ERR_PROC_FAILED, "fence with a member dying gave class %d", cls(rc));
    long dummy;
    CHECK(MPI_Recv(&dummy, 1, MPI_LONG, 2, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS,
          "a receive from the dead rank succeeded");
    int who = -1, n = failed_size(w2, &who);
    CHECK(n == 1 && who == 2, "MPIX_Win_get_failed: %d members, first %d (want 1, 2)", n, who);
    MPI_Win_free(&w2);
done:
    if (!fails)
        (void)!write(1, "rma_ulfm: ok\n", 13);
    MPI_Finalize();
    return fails ? 1 : 0;
}
