/*
 * ATOMIC collectives while the members disagree about who is live
 * (docs/ft.md, "ATOMIC without the head"): one member has learned of a
 * death when it enters the collective, the others have not.
 *
 *   ft_atomic_views allreduce | bcast     (np 4, --kill-at atomic_views=3@3)
 *
 * Iterations 0-2: an ATOMIC Allreduce on MPI_COMM_WORLD (the first makes
 * the shared decision slots, the next two decide in them). Iteration 3,
 * with rank 3 the victim:
 *   - ranks 1 and 2 send rank 3 a "go" (an eager send: it returns without
 *     looking at any event), read the MPI_T counter ftmpi_ft_failures (0:
 *     they have not learned of any failure, and nothing between here and
 *     the collective's start looks at events) and enter the collective;
 *   - rank 3 waits for both "go"s and reaches the fault point atomic_views
 *     where the launcher SIGKILLs it: it never enters;
 *   - rank 0 first waits in a receive from rank 3, which fails when the
 *     death is announced (it now knows), and then enters.
 * The collective is an Allreduce, or a Bcast rooted at the victim (a
 * failed rank that no recovery has handled yet is not a BLANK gap: the
 * call fails with MPI_ERR_OTHER, not MPI_ERR_RANK). Every survivor must
 * fail iteration 3 with MPI_ERR_OTHER and its receive buffer untouched;
 * after the recovery the checks of atomic_after_recovery hold.
 * Prints "ft_atomic: rank R: ok" when every check held on this rank.
 */
#include "atomic_common.h"

#include <string.h>

enum { N = 4, VICTIM = 3, KNOWER = 0, DISAGREE = 3, TAG_GO = 77, TAG_NEVER = 78 };

/* Iteration it's collective: 0 on success (data checked), else its error
 * (receive buffer checked). */
static int collective(int it, int bcast, int rank)
{
    int size, in[N] = {1, it, rank, 7}, out[N] = {-7, -7, -7, -7};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc;
    if (bcast) {
        int root = it % size;
        if (rank == root)
            for (int k = 0; k < N; k++)
                out[k] = 1000 + it;
        rc = MPI_Bcast(out, N, MPI_INT, root, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            for (int k = 0; k < N; k++)
                CHECK(out[k] == 1000 + it, "rank %d iteration %d: bcast element %d is %d", rank,
                      it, k, out[k]);
        else
            atomic_check_failure(rank, it, rc, out, N, rank == root ? 1000 + it : -7);
        return rc;
    }
    rc = MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rc == MPI_SUCCESS)
        CHECK(out[0] == size && out[1] == it * size && out[3] == 7 * size,
              "rank %d iteration %d: %d %d %d", rank, it, out[0], out[1], out[3]);
    else
        atomic_check_failure(rank, it, rc, out, N, -7);
    return rc;
}

/* Before iteration DISAGREE: make the views differ (see the top). */
static void disagree(int rank, MPI_T_pvar_handle failures)
{
    int go = 1;
    if (rank == VICTIM) {
        for (int k = 1; k <= 2; k++)
            CHECK(MPI_Recv(&go, 1, MPI_INT, k, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
                      MPI_SUCCESS, "rank 3: go from rank %d", k);
        FTMPI_Fault_point("atomic_views", DISAGREE); /* the launcher kills us here */
        CHECK(0, "rank 3: still alive after the fault point (run with --kill-at "
                 "atomic_views=3@3)");
    } else if (rank == KNOWER) {
        int rc = MPI_Recv(&go, 1, MPI_INT, VICTIM, TAG_NEVER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_ERR_OTHER, "rank 0: the receive from the victim gave %d", rc);
        CHECK(atomic_read(failures) >= 1, "rank 0: enters without knowing of the failure");
    } else {
        CHECK(MPI_Send(&go, 1, MPI_INT, VICTIM, TAG_GO, MPI_COMM_WORLD) == MPI_SUCCESS,
              "rank %d: go", rank);
        unsigned long long f = atomic_read(failures);
        CHECK(f == 0, "rank %d: knew of %llu failures before entering (the views agree)", rank, f);
    }
}

int main(int argc, char **argv)
{
    int rank;
    int restarted = atomic_init(&argc, &argv, &rank);
    int bcast = argc > 1 && !strcmp(argv[1], "bcast");
    if (restarted) { /* REBUILD: the victim's replacement */
        atomic_after_recovery(-1);
        return atomic_finish(rank);
    }
    MPI_T_pvar_handle failures = atomic_counter("ftmpi_ft_failures");
    int size, fail_iter = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 4, "run with -np 4");
    for (int it = 0; it <= DISAGREE && fail_iter < 0 && size == 4; it++) {
        if (it == DISAGREE)
            disagree(rank, failures);
        if (collective(it, bcast && it == DISAGREE, rank) != MPI_SUCCESS)
            fail_iter = it;
    }
    CHECK(fail_iter == DISAGREE, "rank %d: first failure at %d, want %d", rank, fail_iter,
          DISAGREE);
    atomic_recover();
    atomic_after_recovery(fail_iter);
    return atomic_finish(rank);
}
