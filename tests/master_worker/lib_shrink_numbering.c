/*
 * Library issue (docs/master_worker.md, "Library issues"): under SHRINK,
 * once a first recovery has renumbered the ranks, FTMPI_ERROR_FAILURE of
 * the next recovery names a failed process by its launch rank, not by its
 * MPI_COMM_WORLD rank before that recovery as docs/ft.md, contract section 1 says:
 * set_failure_attributes() in ftmpi/ft/ft_recover.c prints the runtime's
 * ranks (rec->failed) as they are.
 *   mpirun --comm-mode=shrink -np 4 ./lib_shrink_numbering
 * prints "failed ranks: 1" then "failed ranks: 3"; the second should be 2.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
static void recover(int *rank)
{
    int y, *ec, flag, len;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Status st;
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &st); /* fails: someone died */
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_ERROR_FAILURE, &ec, &flag);
    MPI_Error_string(*ec, s, &len);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    if (*rank == 0)
        printf("%s\n", s);
    MPI_Comm_free(&nc);
}
int main(int argc, char **argv)
{
    int rank, launch;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &launch);
    if (launch == 1)
        raise(SIGKILL);
    recover(&rank);                 /* "failed ranks: 1"; launch rank 3 is now rank 2 */
    MPI_Barrier(MPI_COMM_WORLD);
    if (launch == 3)
        raise(SIGKILL);
    recover(&rank);                 /* want "failed ranks: 2" (its rank before this recovery) */
    int bad = 0, *ec, flag, len;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_ERROR_FAILURE, &ec, &flag);
    MPI_Error_string(*ec, s, &len);
    if (rank == 0 && s[len - 1] != '2') {
        printf("BUG: the second recovery names launch rank 3, not rank 2\n");
        bad = 1;
    }
    MPI_Finalize();
    return bad;
}
