/*
 * MPI_Sendrecv with a failed peer, on an intracommunicator and on an
 * intercommunicator, where point-to-point among live processes goes on
 * after a failure (message mode CONT, or recovery mode NONE).
 *
 * 4 ranks; {0,1} and {2,3} are the two groups of an intercommunicator made
 * before the failure. Rank 3 dies; ranks 0, 1 and 2 first learn it (a
 * receive from it fails). Then each Sendrecv has one live and one dead
 * peer. It behaves as a send and a receive started together and both
 * waited for: the call returns MPI_ERR_OTHER, the part with the live peer
 * still happens (the message is sent / received), and nothing waits for
 * ever (a receive that could not be posted is not waited for).
 *   MPI_COMM_WORLD: rank 0 sends 10 to rank 1, receives from dead 3;
 *                   rank 1 sends to dead 3, receives 10 from rank 0.
 *   intercomm:      rank 0 sends 20 to remote 0 (world 2), receives from
 *                   remote 1 (dead world 3); rank 1 sends to remote 1
 *                   (dead), receives 21 from remote 0 (world 2); rank 2
 *                   (both peers live) sends 21 to remote 1 and receives 20
 *                   from remote 0.
 * Under CONT the survivors then recover (the job ends with status 0);
 * under NONE nothing recovers (status non-zero).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>

static int fails, rank;
#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            fprintf(stderr, "ft_sendrecv_dead rank %d: check failed: ", rank); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, "\n");                                          \
            fails++;                                                        \
        }                                                                   \
    } while (0)

static void sendrecv(int sv, int dest, int source, MPI_Comm c, const char *what, int want_rc,
                     int want)
{
    int got = -1;
    MPI_Status st;
    int rc = MPI_Sendrecv(&sv, 1, MPI_INT, dest, 5, &got, 1, MPI_INT, source, 5, c, &st);
    CHECK(rc == want_rc, "%s: MPI_Sendrecv returned %d, want %d", what, rc, want_rc);
    if (want >= 0)
        CHECK(got == want && st.MPI_SOURCE == source, "%s: received %d from %d, want %d from %d",
              what, got, st.MPI_SOURCE, want, source);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    int size, flag, *rm, rc, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        fprintf(stderr, "ft_sendrecv_dead: run with 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_RECOVERY_MODE, &rm, &flag);
    int none = flag && *rm == FTMPI_RECOVERY_MODE_NONE;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 7, &inter);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 3)
        raise(SIGKILL);
    rc = MPI_Recv(&x, 1, MPI_INT, 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_ERR_OTHER, "receive from the dead rank returned %d", rc);

    /* Nobody may start the recovery while another survivor is still in
     * its Sendrecvs: once a round waits, communicating calls fail
     * (docs/ft.md, "Who is told to recover"). Each survivor tells the
     * others when it is done; the receives are posted now, so a token that
     * arrived before a round was announced completes them. */
    MPI_Request tok[4];
    int ntok = 0, tin[2], tout = 1;
    for (int p = 0; p < 3; p++)
        if (p != rank && rank < 3) {
            MPI_Irecv(&tin[ntok], 1, MPI_INT, p, 9, MPI_COMM_WORLD, &tok[ntok]);
            ntok++;
        }

    if (rank == 0)
        sendrecv(10, 1, 3, MPI_COMM_WORLD, "intra, dead source", MPI_ERR_OTHER, -1);
    else if (rank == 1)
        sendrecv(11, 3, 0, MPI_COMM_WORLD, "intra, dead destination", MPI_ERR_OTHER, 10);

    if (rank == 0)
        sendrecv(20, 0, 1, inter, "inter, dead source", MPI_ERR_OTHER, -1);
    else if (rank == 1)
        sendrecv(31, 1, 0, inter, "inter, dead destination", MPI_ERR_OTHER, 21);
    else if (rank == 2)
        sendrecv(21, 1, 0, inter, "inter, live peers", MPI_SUCCESS, 20);

    for (int p = 0; p < 3; p++)
        if (p != rank && rank < 3)
            MPI_Isend(&tout, 1, MPI_INT, p, 9, MPI_COMM_WORLD, &tok[ntok++]);
    rc = MPI_Waitall(ntok, tok, MPI_STATUSES_IGNORE);
    CHECK(rc == MPI_SUCCESS, "exchange of done tokens among survivors returned %d", rc);

    if (!none) {
        do
            rc = MPI_Barrier(MPI_COMM_WORLD);
        while (rc == MPI_SUCCESS);
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
        CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
        MPI_Comm_free(&nc);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    printf("ft_sendrecv_dead %s rank %d: %s\n", none ? "none" : "cont", rank,
           fails ? "FAILED" : "ok");
    MPI_Finalize();
    return fails ? 1 : 0;
}
