/*
 * rma_ulfm: the ULFM draft's window calls (docs/rma.md, "Fault tolerance").
 * Under the ULFM mode (3 ranks):
 *   - MPIX_Win_get_failed of a healthy window is the empty group;
 *   - MPIX_Win_revoke by rank 0 while ranks 1 and 2 wait in MPI_Win_wait
 *     for rank 0's access epoch, which never comes: their wait (or their
 *     post, when the revoke came first) ends with MPIX_ERR_REVOKED, and
 *     every later call on that window too, at every rank; MPI_COMM_WORLD
 *     is untouched (a barrier over it works);
 *   - rank 2 SIGKILLs itself; once the survivors know (a receive from it
 *     fails), MPIX_Win_get_failed of a second window is {2}.
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

    MPI_Win w2;
    MPI_Win_create(mem, sizeof(mem), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 2)
        raise(SIGKILL);
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
