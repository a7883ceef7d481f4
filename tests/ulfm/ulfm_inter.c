/*
 * The ULFM calls on an intercommunicator, and the non-blocking shrink.
 * np 6: world ranks 0-2 form group A, 3-5 group B, joined by
 * MPI_Intercomm_create; world rank 4 (B's rank 1) dies by SIGKILL.
 *  - agree: each side gets the AND of the other side's flags (A gives
 *    0xF0 | its bit, B 0x0F | its bit: A reads 0x0F, B 0xF0), before the
 *    failure and after it (MPIX_ERR_PROC_FAILED on every survivor while
 *    unacknowledged, MPI_SUCCESS after MPIX_Comm_failure_ack);
 *  - revoke from one side interrupts receives blocked on both sides;
 *  - shrink: an intercommunicator of the survivors (A: 3 local, 2 remote;
 *    B: 2 and 3), which carries messages and merges into 5 processes;
 *  - ishrink on the intercommunicator and on a duplicate of
 *    MPI_COMM_WORLD, each request waited for after other work;
 *  - MPI_Finalize after the failure.
 */
#include "ulfm_test.h"

#define VICTIM 4

static int color, lrank;

static int my_flag(void)
{
    return color == 0 ? 0xF0 | (1 << lrank) : 0x0F | (1 << (8 + lrank));
}

static void check_agree(MPI_Comm inter, int want_cls, const char *when)
{
    int flag = my_flag(), want = color == 0 ? 0x0F : 0xF0;
    int rc = MPIX_Comm_agree(inter, &flag);
    CHECK(u_class(rc) == want_cls, "agree %s: class %d, wanted %d", when, u_class(rc),
          want_cls);
    CHECK(flag == want, "agree %s: flag 0x%x, wanted 0x%x", when, flag, want);
}

/* The shrunk intercommunicator: sizes, a message across, a merge. */
static void check_shrunk(MPI_Comm sh, const char *what)
{
    int lsize = -1, rsize = -1, inter = 0;
    MPI_Comm_test_inter(sh, &inter);
    MPI_Comm_size(sh, &lsize);
    MPI_Comm_remote_size(sh, &rsize);
    CHECK(inter && lsize == (color == 0 ? 3 : 2) && rsize == (color == 0 ? 2 : 3),
          "%s: inter %d, sizes %d/%d", what, inter, lsize, rsize);
    int lr = -1;
    MPI_Comm_rank(sh, &lr);
    int x = 100 + u_rank, y = -1;
    if (color == 0 && lr == 0)
        CHECK(MPI_Send(&x, 1, MPI_INT, 1, 11, sh) == MPI_SUCCESS, "%s: send", what);
    if (color == 1 && lr == 1) { /* world rank 5, B's rank 1 after the shrink */
        CHECK(MPI_Recv(&y, 1, MPI_INT, 0, 11, sh, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                  y == 100, "%s: received %d", what, y);
    }
    MPI_Comm m;
    CHECK(MPI_Intercomm_merge(sh, color, &m) == MPI_SUCCESS, "%s: merge", what);
    int sum = -1, msize = -1;
    MPI_Comm_size(m, &msize);
    MPI_Allreduce(&u_rank, &sum, 1, MPI_INT, MPI_SUM, m);
    CHECK(msize == 5 && sum == 0 + 1 + 2 + 3 + 5, "%s: merged size %d, sum %d", what, msize,
          sum);
    MPI_Comm_free(&m);
}

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    color = u_rank < 3 ? 0 : 1;
    MPI_Comm local, inter, dup;
    MPI_Comm_split(MPI_COMM_WORLD, color, u_rank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? 3 : 0, 5, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    check_agree(inter, MPI_SUCCESS, "before the failure");

    MPI_Barrier(MPI_COMM_WORLD);
    if (u_rank == VICTIM)
        u_die();
    u_await_failure(MPI_COMM_WORLD, VICTIM);

    /* Revoke from B's rank 0 while everyone else is blocked in a receive
     * from the other side's rank 0 (alive, never sends). */
    int x;
    if (u_rank == 3) {
        CHECK(MPIX_Comm_revoke(inter) == MPI_SUCCESS, "revoke");
    } else {
        EXPECT(MPI_Recv(&x, 1, MPI_INT, 0, 77, inter, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    }
    int revoked = 0;
    MPIX_Comm_is_revoked(inter, &revoked);
    CHECK(revoked, "not revoked");
    EXPECT(MPI_Send(&x, 1, MPI_INT, 0, 78, inter), MPIX_ERR_REVOKED);

    /* Agreement on the revoked intercommunicator: the failure is not
     * acknowledged yet, then it is. */
    check_agree(inter, MPIX_ERR_PROC_FAILED, "with the failure unacknowledged");
    CHECK(MPIX_Comm_failure_ack(inter) == MPI_SUCCESS, "failure_ack");
    MPI_Group g;
    int n = -1;
    MPIX_Comm_failure_get_acked(inter, &g);
    MPI_Group_size(g, &n);
    CHECK(n == 1, "acked group size %d", n);
    MPI_Group_free(&g);
    check_agree(inter, MPI_SUCCESS, "with the failure acknowledged");

    MPI_Comm sh;
    CHECK(MPIX_Comm_shrink(inter, &sh) == MPI_SUCCESS, "shrink");
    check_shrunk(sh, "shrink");

    /* Non-blocking shrinks, finished after other work. */
    MPI_Comm ish = MPI_COMM_NULL, dsh = MPI_COMM_NULL;
    MPI_Request r[2];
    CHECK(MPIX_Comm_ishrink(inter, &ish, &r[0]) == MPI_SUCCESS, "ishrink inter");
    CHECK(MPIX_Comm_ishrink(dup, &dsh, &r[1]) == MPI_SUCCESS, "ishrink dup");
    int token = u_rank, got = -1, lr = -1, ls = -1;
    MPI_Comm_rank(sh, &lr);
    MPI_Comm_size(sh, &ls);
    if (color == 0) { /* a ring in A over the shrunk intercomm's local side */
        MPI_Sendrecv(&token, 1, MPI_INT, (lrank + 1) % 3, 9, &got, 1, MPI_INT,
                     (lrank + 2) % 3, 9, local, MPI_STATUS_IGNORE);
        CHECK(got == (lrank + 2) % 3, "ring in A: %d", got);
    }
    MPI_Status sts[2];
    int wrc = MPI_Waitall(2, r, sts);
    CHECK(wrc == MPI_SUCCESS, "ishrink waits: %d (%d, %d)", u_class(wrc),
          u_class(sts[0].MPI_ERROR), u_class(sts[1].MPI_ERROR));
    CHECK(ish != MPI_COMM_NULL && dsh != MPI_COMM_NULL, "ishrink gave no communicator");
    if (ish != MPI_COMM_NULL) {
        check_shrunk(ish, "ishrink");
        MPI_Comm_free(&ish);
    }
    if (dsh != MPI_COMM_NULL) {
        int dsize = -1, sum = -1;
        MPI_Comm_size(dsh, &dsize);
        MPI_Allreduce(&u_rank, &sum, 1, MPI_INT, MPI_SUM, dsh);
        CHECK(dsize == 5 && sum == 11, "ishrink of the duplicate: size %d, sum %d", dsize, sum);
        MPI_Comm_free(&dsh);
    }
    MPI_Comm_free(&sh);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&local);
    return u_finish();
}
