/*
 * coll_fault: a member dies (real SIGKILL, raised by itself at a fixed
 * iteration) while the others are inside collectives. Every survivor's
 * collective must return MPI_ERR_OTHER instead of hanging; after the
 * recovery (MPI_Comm_dup on MPI_COMM_WORLD, BLANK mode) collectives run
 * over the live members and give the right results. Under
 * --coll-mode=atomic all survivors must also fail at the same collective
 * (the one the victim died in, or the next), with its receive buffer
 * untouched. Launched as
 *   ftmpirun --comm-mode=blank --coll-mode=nonatomic|atomic -np N coll_fault [atomic]
 */
#include "coll_test.h"

#include <signal.h>
#include <unistd.h>

#define ITERS 400
#define KILL_AT 57

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(3);
    int atomic = argc > 1 && !strcmp(argv[1], "atomic");
    int victim = t_size - 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n = 3000;
    int *a = t_malloc((size_t)n * t_size * sizeof(int)), *b = t_malloc((size_t)n * t_size * sizeof(int));
    int failed_at = -1, rc = MPI_SUCCESS;
    double t0 = MPI_Wtime();
    for (int it = 0; it < ITERS && failed_at < 0; it++) {
        if (t_rank == victim && it == KILL_AT)
            raise(SIGKILL);
        for (int k = 0; k < n * t_size; k++) {
            a[k] = it + t_rank;
            b[k] = -7;
        }
        switch (it % 4) {
        case 0: rc = MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD); break;
        case 1: rc = MPI_Bcast(a, n, MPI_INT, it % t_size, MPI_COMM_WORLD); break;
        case 2: rc = MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD); break;
        default: rc = MPI_Barrier(MPI_COMM_WORLD); break;
        }
        if (rc != MPI_SUCCESS) {
            failed_at = it;
            T_CHECK(rc == MPI_ERR_OTHER, "iteration %d: error %d, expected MPI_ERR_OTHER", it, rc);
            if (atomic && it % 4 != 1)
                T_CHECK(b[0] == -7 && b[n - 1] == -7,
                        "ATOMIC: a failed collective changed the receive buffer");
        }
    }
    double dt = MPI_Wtime() - t0;
    T_CHECK(failed_at >= KILL_AT - 1, "no collective failed after the kill (failed_at %d)",
            failed_at);
    T_CHECK(dt < 20.0, "failure took %.1f s to be reported", dt);

    /* recover: BLANK keeps the size, the victim is a gap */
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &nc));
    int one = 1, live = 0;
    T_MPI(MPI_Allreduce(&one, &live, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    T_CHECK(live == t_size - 1, "after recovery %d live members summed, expected %d", live,
            t_size - 1);
    /* every survivor failed at the same collective under ATOMIC */
    int lo = 0, hi = 0;
    T_MPI(MPI_Allreduce(&failed_at, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    T_MPI(MPI_Allreduce(&failed_at, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    if (atomic)
        T_CHECK(lo == hi, "ATOMIC: survivors failed at different collectives (%d..%d)", lo, hi);
    /* a gathered vector leaves the gap's slot untouched */
    for (int k = 0; k < t_size; k++)
        b[k] = -9;
    int mine = 100 + t_rank;
    T_MPI(MPI_Allgather(&mine, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD));
    for (int k = 0; k < t_size; k++)
        T_CHECK(b[k] == (k == victim ? -9 : 100 + k), "allgather after recovery: slot %d = %d",
                k, b[k]);
    if (nc != MPI_COMM_NULL && nc != FT_MPI_CHECK_RECOVER)
        MPI_Comm_free(&nc);
    free(a);
    free(b);
    if (t_rank == 0)
        printf("coll_fault: survivors failed at collectives %d..%d (kill at %d)%s\n", lo, hi,
               KILL_AT, atomic ? ", atomic" : "");
    return t_finish();
}
