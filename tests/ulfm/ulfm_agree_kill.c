/*
 * Failures during MPIX_Comm_agree and MPIX_Comm_shrink (np 6). The victim
 * is killed by mpirun --kill-at at a fault point inside the agreement:
 *   ulfm_agree_down=0@R  R has decided and sent the decision to its first
 *                        child only (R = 0: the root);
 *   ulfm_agree_up=0@R    R dies with its subtree's contributions, before
 *                        sending them up.
 * usage: ulfm_agree_kill agree|shrink VICTIM WANT_FLAG WANT_CLASS WANT_SIZE [NDEAD]
 * (NDEAD: how many processes the kills take, default 1)
 * The victim contributes flag 0x1, the others 0x3. Every survivor must
 * return the same flag, error class and (shrink) size, and the expected
 * ones; this is checked over a second shrink's communicator.
 * With FTMPI_EAGER_LIMIT=0 (every message by rendezvous: a decision "sent"
 * by a process that dies before the receiver reads it is lost with it) and
 * over TCP (FTMPI_TRANSPORT=tcp: a send completes once the transport has
 * queued the message; the victim may die before its socket takes it) the
 * outcome may also be the one without the victim: flag 0x3, class
 * MPIX_ERR_PROC_FAILED, size 5; uniformity is still required.
 */
#include "ulfm_test.h"

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: %s agree|shrink VICTIM FLAG CLASS SIZE\n", argv[0]);
        return 2;
    }
    int shrink = strcmp(argv[1], "shrink") == 0, victim = atoi(argv[2]);
    int want_flag = (int)strtol(argv[3], NULL, 0), want_class = atoi(argv[4]);
    int want_size = atoi(argv[5]), ndead = argc == 7 ? atoi(argv[6]) : 1;
    int got[3] = {0, 0, 0}; /* class, flag, size */
    if (shrink) {
        MPI_Comm s;
        int rc = MPIX_Comm_shrink(MPI_COMM_WORLD, &s);
        got[0] = u_class(rc);
        if (rc == MPI_SUCCESS) {
            MPI_Comm_size(s, &got[2]);
            MPI_Comm_free(&s);
        }
    } else {
        int flag = u_rank == victim ? 0x1 : 0x3;
        got[0] = u_class(MPIX_Comm_agree(MPI_COMM_WORLD, &flag));
        got[1] = flag;
    }
    /* Survivors only from here (the victim was killed inside the call). */
    const char *eager = getenv("FTMPI_EAGER_LIMIT"), *tp = getenv("FTMPI_TRANSPORT");
    int may_lose = (eager && atoi(eager) == 0) || (tp && strcmp(tp, "tcp") == 0);
    int lost = may_lose &&
               (shrink ? got[0] == MPI_SUCCESS && got[2] == u_size - ndead
                       : got[0] == MPIX_ERR_PROC_FAILED && got[1] == 0x3);
    if (!lost) {
        CHECK(got[0] == want_class, "class %d, want %d", got[0], want_class);
        if (shrink)
            CHECK(got[2] == want_size, "size %d, want %d", got[2], want_size);
        else
            CHECK(got[1] == want_flag, "flag %#x, want %#x", got[1], want_flag);
    }

    MPI_Comm s;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &s) == MPI_SUCCESS, "second shrink");
    int n = 0;
    MPI_Comm_size(s, &n);
    CHECK(n == u_size - ndead, "second shrink: %d members", n);
    int *all = malloc(3 * (size_t)n * sizeof(int));
    CHECK(MPI_Allgather(got, 3, MPI_INT, all, 3, MPI_INT, s) == MPI_SUCCESS, "allgather");
    for (int i = 0; i < n; i++)
        CHECK(memcmp(all + 3 * i, got, sizeof got) == 0,
              "not uniform: member %d got (%d,%#x,%d), I got (%d,%#x,%d)", i, all[3 * i],
              all[3 * i + 1], all[3 * i + 2], got[0], got[1], got[2]);
    free(all);
    MPI_Comm_free(&s);
    return u_finish();
}
