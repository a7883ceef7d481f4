/*
 * Library issue (docs/master_worker.md, "Library issues"): SHRINK + CONT:
 * a message sent before a failure on a duplicate of MPI_COMM_WORLD and
 * received after the recovery on the recovery's duplicate (which gets the
 * same context id) still names its sender by its old rank: p2p_renumber()
 * renumbers only MPI_COMM_WORLD's unexpected queue, and adopt_orphans()
 * (ftmpi/p2p/p2p.c) hands the other messages over as they are. A receive
 * from the sender's new rank does not match it.
 *   mpirun --comm-mode=shrink --msg-mode=cont -np 4 ./lib_orphan_source
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, x = 42, y = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm c, nc = FT_MPI_CHECK_RECOVER;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    if (rank == 3)
        MPI_Send(&x, 1, MPI_INT, 0, 5, c);       /* to rank 0, not received yet */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)
        raise(SIGKILL);
    /* fails: rank 1 died. From rank 1, not MPI_ANY_SOURCE: under CONT a
       wildcard receive posted after the failure was noticed waits for the
       live ranks (docs/ft.md, "What happens at a failure"), so with
       MPI_ANY_SOURCE the job hung whenever the notice came first */
    MPI_Recv(&y, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &st);
    MPI_Comm_dup(MPI_COMM_WORLD, &nc);           /* recovery: ranks 0 2 3 become 0 1 2 */
    if (rank == 0) {
        int rc = MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 5, nc, &st);
        printf("rank 0: rc %d, got %d from MPI_SOURCE %d (the sender is now rank 2)%s\n", rc, y,
               st.MPI_SOURCE, st.MPI_SOURCE == 2 ? "" : "  <-- BUG: old rank");
    }
    MPI_Comm_free(&nc);
    MPI_Comm_free(&c);
    MPI_Finalize();
    return 0;
}
