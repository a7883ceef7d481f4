/*
 * ATOMIC collectives on an intercommunicator with a member killed
 * (docs/ft.md, "ATOMIC without the head": intercommunicators decide
 * through the head, both groups voting).
 *
 *   ft_atomic_inter      (np 4, one --kill-at, FT_EXPECT_FAIL=iterations)
 *
 * The even and the odd ranks form the two groups of an intercommunicator.
 * A loop of ATOMIC collectives on it: iteration it runs Allreduce (it % 3
 * == 0: each group gets the sum over the other), Bcast (1: from local rank
 * 0 of group (it / 3) % 2 to the other group) or Barrier (2), with every
 * result checked. The launcher kills a rank at a fault point: atomic_iter=N
 * (the program's own, before iteration N: the others are inside its
 * collective), atomic_head_before_vote=N or atomic_head_after_vote=N (the
 * library's, around the N-th head vote on a communicator: here iteration
 * N-1). Every survivor, on both sides, must see the same first failing
 * iteration (in FT_EXPECT_FAIL), with MPI_ERR_OTHER and its receive buffer
 * untouched; after the recovery the checks of atomic_after_recovery hold.
 * Prints "ft_atomic: rank R: ok" when every check held on this rank.
 */
#include "atomic_common.h"

enum { N = 4, ITERS = 10 };

/* Iteration it on inter: MPI_SUCCESS (results checked) or the error
 * (receive buffer checked). */
static int step(MPI_Comm inter, int it, int rank)
{
    int rsize, color = rank % 2, rc;
    MPI_Comm_remote_size(inter, &rsize);
    if (it % 3 == 0) {
        int in[N] = {1, it, rank, 7}, out[N] = {-7, -7, -7, -7};
        int rsum = color ? 0 + 2 : 1 + 3; /* world ranks of the other group */
        rc = MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, inter);
        if (rc == MPI_SUCCESS)
            CHECK(out[0] == rsize && out[1] == it * rsize && out[2] == rsum && out[3] == 7 * rsize,
                  "rank %d iteration %d: allreduce %d %d %d %d", rank, it, out[0], out[1], out[2],
                  out[3]);
        else
            atomic_check_failure(rank, it, rc, out, N, -7);
        return rc;
    }
    if (it % 3 == 1) {
        int rootside = (it / 3) % 2, lrank, buf[N], was;
        MPI_Comm_rank(inter, &lrank);
        int root = color != rootside ? 0 : lrank == 0 ? MPI_ROOT : MPI_PROC_NULL;
        was = root == MPI_ROOT ? 1000 + it : -7;
        for (int k = 0; k < N; k++)
            buf[k] = was;
        rc = MPI_Bcast(buf, N, MPI_INT, root, inter);
        if (rc == MPI_SUCCESS)
            for (int k = 0; k < N; k++)
                CHECK(buf[k] == (root == MPI_PROC_NULL ? -7 : 1000 + it),
                      "rank %d iteration %d: bcast element %d is %d", rank, it, k, buf[k]);
        else
            atomic_check_failure(rank, it, rc, buf, N, was);
        return rc;
    }
    rc = MPI_Barrier(inter);
    if (rc != MPI_SUCCESS)
        atomic_check_failure(rank, it, rc, NULL, 0, 0);
    return rc;
}

int main(int argc, char **argv)
{
    int rank;
    if (atomic_init(&argc, &argv, &rank)) { /* REBUILD: a replacement */
        atomic_after_recovery(-1);
        return atomic_finish(rank);
    }
    int size, fail_iter = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == 4, "run with -np 4");
    MPI_Comm local = MPI_COMM_NULL, inter = MPI_COMM_NULL;
    if (size == 4) {
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &local) == MPI_SUCCESS, "split");
        CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - rank % 2, 5, &inter) ==
                  MPI_SUCCESS, "intercomm_create");
        for (int it = 0; it < ITERS && fail_iter < 0; it++) {
            FTMPI_Fault_point("atomic_iter", it);
            if (step(inter, it, rank) != MPI_SUCCESS)
                fail_iter = it;
        }
    }
    CHECK(fail_iter >= 0, "rank %d: no collective failed", rank);
    atomic_recover();
    if (inter != MPI_COMM_NULL)
        MPI_Comm_free(&inter);
    if (local != MPI_COMM_NULL)
        MPI_Comm_free(&local);
    atomic_after_recovery(fail_iter);
    return atomic_finish(rank);
}
