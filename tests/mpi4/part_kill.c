/*
 * part_kill MODE: a partitioned receive whose sender is SIGKILLed, under
 * each fault-tolerance mode (MODE: shrink, blank, rebuild, ulfm; the
 * launcher's --comm-mode / --with-ft must say the same), 3 ranks.
 * Rank 1 sends 4 partitions to rank 0 and dies after making 2 of them
 * ready; rank 0's MPI_Wait returns the failure (MPI_ERR_OTHER, ULFM:
 * MPIX_ERR_PROC_FAILED) instead of hanging, and the partitions that came
 * are reported by MPI_Parrived before that. Rank 2 waits at a barrier,
 * which fails too. The survivors recover (FT-MPI: MPI_Comm_dup with
 * FT_MPI_CHECK_RECOVER; ULFM: MPIX_Comm_shrink), and a whole partitioned
 * round then runs on the recovered communicator from a sender to rank 0:
 * the old rank 2 (SHRINK, ULFM: now rank 1; BLANK: rank 2, rank 1 is a
 * gap) or, under REBUILD, the replacement of rank 1 (its MPI_Init returns
 * MPI_INIT_RESTARTED_NODE). Every process that finishes prints "ok".
 */
#include <signal.h>

#include <mpi-ext.h>

#include "../mpi/mpitest.h"

#define NPART 4

/* After the recovery: rank `sender` of w sends NPART partitions of 2 ints
 * (100 + i) to rank 0, which checks them. */
static void round_after(MPI_Comm w, int sender, const char *mode)
{
    int rank, size, b[2 * NPART], rc;
    MPI_Request q;
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    int want = !strcmp(mode, "shrink") || !strcmp(mode, "ulfm") ? 2 : 3;
    T_CHECK(size == want, "%s: size %d after the recovery, want %d", mode, size, want);
    if (rank != 0 && rank != sender)
        return;
    for (int i = 0; i < 2 * NPART; i++)
        b[i] = rank == sender ? 100 + i : -1;
    if (rank == sender)
        rc = MPI_Psend_init(b, NPART, 2, MPI_INT, 0, 7, w, MPI_INFO_NULL, &q);
    else
        rc = MPI_Precv_init(b, NPART, 2, MPI_INT, sender, 7, w, MPI_INFO_NULL, &q);
    T_CHECK(rc == MPI_SUCCESS, "%s: partitioned init after the recovery: %d", mode, rc);
    if (rc != MPI_SUCCESS)
        return;
    T_MPI(MPI_Start(&q));
    if (rank == sender)
        T_MPI(MPI_Pready_range(0, NPART - 1, q));
    rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    T_CHECK(rc == MPI_SUCCESS, "%s: partitioned round after the recovery: %d", mode, rc);
    for (int i = 0; i < 2 * NPART && rank == 0; i++)
        T_CHECK(b[i] == 100 + i, "%s: after the recovery b[%d] = %d", mode, i, b[i]);
    T_MPI(MPI_Request_free(&q));
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "shrink";
    int ulfm = !strcmp(mode, "ulfm");
    int restarted = MPI_Init(&argc, &argv) == MPI_INIT_RESTARTED_NODE;
    t_set_name("part_kill");
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank = t_rank, rc = MPI_SUCCESS, b[8];
    int fail = ulfm ? MPIX_ERR_PROC_FAILED : MPI_ERR_OTHER;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request q;
    if (restarted) {
        /* REBUILD: rank 1's replacement, in the rebuilt MPI_COMM_WORLD */
        round_after(w, 1, mode);
        printf("part_kill %s rank %d (replacement): %s\n", mode, rank, t_errors ? "FAILED" : "ok");
        MPI_Finalize();
        return t_errors ? 1 : 0;
    }
    for (int i = 0; i < 8; i++)
        b[i] = rank == 1 ? 10 + i : -1;
    if (rank == 1) {
        MPI_Psend_init(b, 4, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
        MPI_Start(&q);
        MPI_Pready(0, q);
        MPI_Pready(1, q);
        MPI_Send(&rank, 1, MPI_INT, 0, 6, MPI_COMM_WORLD); /* after them */
        MPI_Recv(&rank, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        raise(SIGKILL);
    }
    if (rank == 0) {
        int tok, flag = 0;
        MPI_Precv_init(b, 4, 2, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
        MPI_Start(&q);
        MPI_Recv(&tok, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double t0 = MPI_Wtime();
        while (!flag && MPI_Wtime() - t0 < 30)
            MPI_Parrived(q, 1, &flag);
        T_CHECK(flag && b[2] == 12 && b[3] == 13, "partition 1 arrived %d: %d %d", flag, b[2],
                b[3]);
        MPI_Send(&tok, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
        T_CHECK(rc == fail, "%s: wait with a dead sender returned %d, want %d", mode, rc, fail);
        rc = MPI_Request_free(&q);
        T_CHECK(rc == MPI_SUCCESS, "free returned %d", rc);
    }
    rc = MPI_Barrier(MPI_COMM_WORLD);
    T_CHECK(rc == fail || rc == MPI_SUCCESS, "barrier returned %d", rc);
    if (ulfm) {
        rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &w);
        T_CHECK(rc == MPI_SUCCESS, "MPIX_Comm_shrink returned %d", rc);
    } else {
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        T_CHECK(rc == MPI_SUCCESS, "recovery returned %d", rc);
        if (rc == MPI_SUCCESS)
            MPI_Comm_free(&nc);
    }
    if (rc == MPI_SUCCESS)
        round_after(w, !strcmp(mode, "blank") ? 2 : 1, mode);
    if (w != MPI_COMM_WORLD)
        MPI_Comm_free(&w);
    printf("part_kill %s rank %d: %s\n", mode, rank, t_errors ? "FAILED" : "ok");
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
