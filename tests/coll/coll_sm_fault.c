/*
 * coll_sm_fault: a member is killed (real SIGKILL) in the middle of a
 * shared-memory collective: at iteration KILL_AT the last rank raises
 * SIGKILL inside the user reduction operation of an MPI_Allreduce, after
 * every member has posted its input and while the others wait on the
 * segment's flags. Every survivor's collective must return MPI_ERR_OTHER
 * (no hang, within a bound), then recover with MPI_Comm_dup(MPI_COMM_WORLD,
 * FT_MPI_CHECK_RECOVER); afterwards Barrier, Bcast, Reduce and Allreduce
 * (8 B and 4 KiB: the shared-memory component's sizes) give the right
 * results over the recovered MPI_COMM_WORLD: SHRINK (size - 1), BLANK (the
 * live members around the gap) and REBUILD (a replacement joins: it goes
 * straight to the checks). Launched as
 *   ftmpirun --comm-mode=shrink|blank|rebuild -np N coll_sm_fault
 */
#include "coll_test.h"

#include <signal.h>

#define ITERS 300
#define KILL_AT 40
#define NBIG 1024 /* ints: 4 KiB */

static int victim, iter, me;

/* Sum that kills the victim inside the collective at iteration KILL_AT. */
static void sum_or_die(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    if (me == victim && iter == KILL_AT)
        raise(SIGKILL);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* One of the four calls; returns its error code, checks its result. */
static int one_call(int kind, int n, int *a, int *b, int expect, MPI_Op op)
{
    int rc;
    for (int k = 0; k < n; k++)
        a[k] = 1, b[k] = -7;
    switch (kind) {
    case 0:
        rc = MPI_Allreduce(a, b, n, MPI_INT, op, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == expect && b[n - 1] == expect, "allreduce: %d, want %d", b[0], expect);
        return rc;
    case 1:
        for (int k = 0; k < n; k++)
            a[k] = t_rank == 0 ? 1000 + k : -1;
        rc = MPI_Bcast(a, n, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(a[0] == 1000 && a[n - 1] == 999 + n, "bcast: %d", a[0]);
        return rc;
    case 2:
        rc = MPI_Reduce(a, b, n, MPI_INT, op, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && t_rank == 0)
            T_CHECK(b[0] == expect && b[n - 1] == expect, "reduce: %d, want %d", b[0], expect);
        return rc;
    default:
        return MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    t_set_name(argv[0]);
    int rc = MPI_Init(&argc, &argv), restarted = rc == MPI_INIT_RESTARTED_NODE;
    if (rc != MPI_SUCCESS && !restarted)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    t_need(3);
    int launch = t_size, *cmode, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &cmode, &flag);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    victim = launch - 1;
    me = t_rank;
    MPI_Op op;
    MPI_Op_create(sum_or_die, 1, &op);
    int a[NBIG], b[NBIG], failed_at = -1;
    if (!restarted) {
        T_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        for (iter = 0; iter < ITERS && failed_at < 0; iter++) {
            rc = one_call(iter % 4, iter % 8 < 4 ? 2 : NBIG, a, b, launch,
                          iter % 4 == 0 ? op : MPI_SUM);
            if (rc != MPI_SUCCESS)
                failed_at = iter;
        }
        T_CHECK(rc == MPI_ERR_OTHER, "iteration %d: error %d, expected MPI_ERR_OTHER", failed_at,
                rc);
        T_CHECK(failed_at >= KILL_AT - 1, "no collective failed after the kill (%d)", failed_at);
        T_CHECK(MPI_Wtime() - t0 < 30.0, "the failure took %.1f s to be reported",
                MPI_Wtime() - t0);
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &nc));
    }
    /* After the recovery (or as the replacement): the live members. */
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    int live = *cmode == FTMPI_COMM_MODE_REBUILD ? launch : launch - 1;
    if (*cmode == FTMPI_COMM_MODE_SHRINK)
        T_CHECK(t_size == live, "SHRINK: size %d, want %d", t_size, live);
    iter = -1;
    for (int it = 0; it < 40; it++)
        T_MPI(one_call(it % 4, it % 8 < 4 ? 2 : NBIG, a, b, live, it % 4 == 0 ? op : MPI_SUM));
    MPI_Op_free(&op);
    int r = t_finish();
    if (r == 0)
        printf("coll_sm_fault rank %d%s: ok\n", t_rank, restarted ? " (replacement)" : "");
    return r;
}
