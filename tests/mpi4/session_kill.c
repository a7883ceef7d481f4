/*
 * session_kill MODE: the fault-tolerance modes apply to communicators made
 * from a session (no MPI_Init; MODE shrink, blank or rebuild with
 * --recovery=auto, or ulfm with --with-ft=ulfm; the launcher's options must
 * say the same). 4 ranks build a communicator from the mpi://WORLD pset
 * and run MPI_Allreduce on it round after round; rank 3 is SIGKILLed
 * before round 3. The survivors' round fails with the FT error
 * (MPI_ERR_OTHER; ULFM: MPIX_ERR_PROC_FAILED) instead of hanging. Then:
 *   shrink   the automatic recovery shrinks the job: the pset has 3
 *            processes, and a communicator made from it sums over them;
 *   blank    the job keeps a gap for rank 3: the pset has the 3 live
 *            processes (a gap cannot be a member of a communicator);
 *   rebuild  rank 3 is replaced: the replacement's MPI_Session_init
 *            returns MPI_INIT_RESTARTED_NODE, and it joins the survivors'
 *            new communicator over the 4 processes of the pset;
 *   ulfm     nothing is recovered by itself: MPIX_Comm_shrink of the
 *            session's communicator gives the 3 survivors.
 * Every process that finishes prints "session_kill rank R: ok".
 */
#include <signal.h>

#include <mpi-ext.h>

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

/* After the failure: a communicator over the pset again (ULFM: the shrunk
 * one), its size, and a sum over it. */
static void after(MPI_Session s, MPI_Comm c, const char *mode)
{
    int size = -1, rank = -1, out = -1, in = 100, rc;
    int want = !strcmp(mode, "rebuild") ? 4 : 3;
    MPI_Comm n = MPI_COMM_NULL;
    if (!strcmp(mode, "ulfm"))
        T_MPI(MPIX_Comm_shrink(c, &n));
    else
        n = world_comm(s, "org.ftmpi.test.kill.after");
    if (strcmp(mode, "ulfm")) { /* the pset's mpi_size says the same */
        MPI_Info pi;
        char v[16] = "";
        int flag = 0;
        T_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &pi));
        MPI_Info_get(pi, "mpi_size", sizeof v - 1, v, &flag);
        T_CHECK(flag && atoi(v) == want, "%s: pset mpi_size '%s', want %d", mode, v, want);
        MPI_Info_free(&pi);
    }
    if (n == MPI_COMM_NULL)
        return;
    MPI_Comm_size(n, &size);
    MPI_Comm_rank(n, &rank);
    T_CHECK(size == want, "%s: after the failure the communicator has %d processes, want %d",
            mode, size, want);
    rc = MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, n);
    T_CHECK(rc == MPI_SUCCESS && out == 100 * want, "%s: after the failure: rc %d sum %d", mode,
            rc, out);
    MPI_Comm_free(&n);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "shrink";
    t_set_name(argv[0]);
    MPI_Session s;
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    if (rc == MPI_INIT_RESTARTED_NODE) {
        /* REBUILD: the replacement of rank 3 */
        T_CHECK(!strcmp(mode, "rebuild"), "%s: MPI_Session_init says restarted", mode);
        after(s, MPI_COMM_NULL, mode);
        T_MPI(MPI_Session_finalize(&s));
        printf("session_kill %s rank 3 (replacement): %s\n", mode, t_errors ? "FAILED" : "ok");
        return t_errors ? 1 : 0;
    }
    T_CHECK(rc == MPI_SUCCESS, "MPI_Session_init returned %d", rc);
    MPI_Comm c = world_comm(s, "org.ftmpi.test.kill");
    int rank = -1, size = -1, round, out = -1;
    int fail = !strcmp(mode, "ulfm") ? MPIX_ERR_PROC_FAILED : MPI_ERR_OTHER;
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
    T_CHECK((round == 2 || round == 3) && rc == fail,
            "%s: the failure was reported in round %d, rc %d", mode, round, rc);
    after(s, c, mode);
    MPI_Comm_free(&c);
    T_MPI(MPI_Session_finalize(&s));
    printf("session_kill %s rank %d: %s\n", mode, rank, t_errors ? "FAILED" : "ok");
    return t_errors ? 1 : 0;
}
