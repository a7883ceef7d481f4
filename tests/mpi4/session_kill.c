/*
 * session_kill: the FT-MPI modes apply to communicators made from a
 * session (run under SHRINK with --recovery=auto, without MPI_Init).
 * 4 ranks build a communicator from the mpi://WORLD pset and run
 * MPI_Allreduce on it round after round; rank 3 is SIGKILLed before round
 * 3. The survivors' round fails with the FT error (MPI_ERR_OTHER) instead
 * of hanging; the automatic recovery shrinks the job, the pset now has 3
 * processes, and a communicator made from it again sums over the three.
 */
#include <signal.h>

#include "../mpi/mpitest.h"

static MPI_Comm world_comm(MPI_Session s, const char *tag)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    T_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    T_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Group_free(&g);
    return c;
}

int main(int argc, char **argv)
{
    (void)argc;
    t_set_name(argv[0]);
    MPI_Session s;
    T_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_Comm c = world_comm(s, "org.ftmpi.test.kill");
    int rank = -1, size = -1, rc = MPI_SUCCESS, round, out = -1;
    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    T_CHECK(size == 4, "size %d, want 4", size);
    for (round = 0; round < 10; round++) {
        if (round == 3 && rank == 3)
            raise(SIGKILL);
        int in = rank + 1 + round;
        rc = MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
        if (rc != MPI_SUCCESS)
            break;
        T_CHECK(out == 10 + 4 * round, "round %d: sum %d, want %d", round, out, 10 + 4 * round);
    }
    /* Round 2 may fail too: rank 3 may finish its part of it and die
     * while the others are still in it. */
    T_CHECK((round == 2 || round == 3) && rc == MPI_ERR_OTHER,
            "the failure was reported in round %d, rc %d", round, rc);
    MPI_Comm_free(&c);
    c = world_comm(s, "org.ftmpi.test.kill.after");
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    T_CHECK(size == 3, "after the recovery the pset has %d processes", size);
    int in = 100;
    rc = MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, c);
    T_CHECK(rc == MPI_SUCCESS && out == 300, "after the recovery: rc %d sum %d", rc, out);
    MPI_Comm_free(&c);
    T_MPI(MPI_Session_finalize(&s));
    printf("session_kill rank %d: %s\n", rank, t_errors ? "FAILED" : "ok");
    return t_errors ? 1 : 0;
}
