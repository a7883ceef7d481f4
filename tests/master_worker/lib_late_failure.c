/*
 * Library issue (docs/master_worker.md, "Library issues"): a failure
 * announced while a survivor is still inside MPI_Comm_dup's recovery, after
 * the round it joined has closed, is lost on that survivor: apply() in
 * ftmpi/ft/ft_recover.c sets peer_dead[] from the round's `alive` list and
 * MPI_COMM_WORLD back to OK, so the dead process looks alive and nothing
 * fails, although ft_recovery_pending() is true. Rank 2 runs at the lowest
 * priority so that, on one busy core, both events wait for it together:
 *   taskset -c 0 mpirun --comm-mode=blank -np 4 ./lib_late_failure
 * prints "BUG" on rank 2 most of the time (SHRINK too).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv)
{
    int rank, buf = 0, flag = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) { usleep(100000); raise(SIGKILL); }
    if (rank == 2) setpriority(PRIO_PROCESS, 0, 19); /* rank 2 runs last on a busy core */
    MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);  /* fails: rank 1 died */
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    MPI_Comm_dup(MPI_COMM_WORLD, &nc);                                       /* recovery 1 */
    if (rank == 3) raise(SIGKILL);                                           /* a failure right after it */
    MPI_Request r;
    MPI_Irecv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &r);     /* nobody sends: must fail */
    double t0 = now();
    while (!flag && now() - t0 < 3.0) { MPI_Test(&r, &flag, &st); if (!flag) usleep(1000); }
    printf("rank %d: %s\n", rank, flag ? "the failure of rank 3 was reported" : "BUG: the failure of rank 3 was never reported (3 s)");
    if (!flag) { MPI_Cancel(&r); MPI_Wait(&r, &st); }
    MPI_Finalize();
    return flag ? 0 : 1;
}
