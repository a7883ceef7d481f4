/*
 * One process dies (a real SIGKILL); np >= 5, victim world rank 2.
 *  - communicators keep their size; point-to-point among live processes
 *    works (0 <-> 4), the failure is reported only where the dead process
 *    is needed: a receive from it, a send to it, a collective with it;
 *  - a wildcard receive: MPIX_ERR_PROC_FAILED_PENDING, the request stays
 *    pending, completes after MPIX_Comm_ack_failed; a blocking wildcard
 *    receive with an unacknowledged failure: MPIX_ERR_PROC_FAILED;
 *  - get_failed / ack_failed / failure_get_acked;
 *  - agree and iagree: MPIX_ERR_PROC_FAILED on every survivor while the
 *    failure is not acknowledged everywhere, with the AND of the survivors'
 *    flags;
 *    MPI_SUCCESS once every survivor acknowledged it;
 *  - shrink: size - 1, order kept, collectives work on it;
 *  - MPI_Finalize after the failure.
 */
#include "ulfm_test.h"

#define VICTIM 2

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Request wild = MPI_REQUEST_NULL;
    int wbuf = -1;
    if (u_rank == 3) /* posted before the failure */
        MPI_Irecv(&wbuf, 1, MPI_INT, MPI_ANY_SOURCE, 7, c, &wild);
    MPI_Request from_victim = MPI_REQUEST_NULL;
    int vbuf;
    if (u_rank == 1)
        MPI_Irecv(&vbuf, 1, MPI_INT, VICTIM, 3, c, &from_victim);
    MPI_Barrier(MPI_COMM_WORLD);
    if (u_rank == VICTIM)
        u_die();

    /* Everyone learns of the failure through a receive from the victim. */
    u_await_failure(MPI_COMM_WORLD, VICTIM);
    int size = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size == u_size, "size changed to %d", size);
    int x = 42;
    EXPECT(MPI_Send(&x, 1, MPI_INT, VICTIM, 0, MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    EXPECT(MPI_Barrier(MPI_COMM_WORLD), MPIX_ERR_PROC_FAILED);
    if (u_rank == 1) { /* the status of a request in an array names the class too */
        MPI_Status sts[1];
        EXPECT(MPI_Waitall(1, &from_victim, sts), MPI_ERR_IN_STATUS);
        CHECK(u_class(sts[0].MPI_ERROR) == MPIX_ERR_PROC_FAILED, "status error class %d",
              u_class(sts[0].MPI_ERROR));
    }
    if (u_rank == 0)
        CHECK(MPI_Send(&x, 1, MPI_INT, 4, 5, MPI_COMM_WORLD) == MPI_SUCCESS, "0 -> 4");
    if (u_rank == 4) {
        int y = 0;
        CHECK(MPI_Recv(&y, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
                  y == 42, "0 -> 4: %d", y);
    }

    /* The wildcard receive of rank 3. */
    if (u_rank == 3) {
        MPI_Status st;
        EXPECT(MPI_Wait(&wild, &st), MPIX_ERR_PROC_FAILED_PENDING);
        CHECK(wild != MPI_REQUEST_NULL, "the pending request was freed");
        int flag = 1;
        EXPECT(MPI_Test(&wild, &flag, &st), MPIX_ERR_PROC_FAILED_PENDING);
        /* A new blocking wildcard receive ends at once. */
        EXPECT(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 8, c, MPI_STATUS_IGNORE),
               MPIX_ERR_PROC_FAILED);
        MPI_Group g;
        int n = -1, acked = -1, wr = -1, zero = 0;
        MPIX_Comm_get_failed(c, &g);
        MPI_Group_size(g, &n);
        MPI_Group wg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Group_translate_ranks(g, 1, &zero, wg, &wr);
        CHECK(n == 1 && wr == VICTIM, "failed group: size %d, member %d", n, wr);
        MPI_Group_free(&g);
        MPI_Group_free(&wg);
        MPIX_Comm_failure_get_acked(c, &g);
        MPI_Group_size(g, &n);
        CHECK(n == 0, "acked before the ack: %d", n);
        MPI_Group_free(&g);
        CHECK(MPIX_Comm_ack_failed(c, 1, &acked) == MPI_SUCCESS && acked == 1, "acked %d", acked);
        MPIX_Comm_failure_get_acked(c, &g);
        MPI_Group_size(g, &n);
        CHECK(n == 1, "acked after the ack: %d", n);
        MPI_Group_free(&g);
        /* tell rank 0 to send now; the request completes with its message */
        MPI_Send(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        CHECK(MPI_Wait(&wild, &st) == MPI_SUCCESS && wbuf == 77 && st.MPI_SOURCE == 0,
              "the wildcard receive after the ack: %d from %d", wbuf, st.MPI_SOURCE);
    }
    if (u_rank == 0) {
        int y = 77;
        MPI_Recv(&x, 1, MPI_INT, 3, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&y, 1, MPI_INT, 3, 7, c);
    }

    /* Agreement: the failure is not acknowledged by all (rank 3 acked on c
     * only; nobody on MPI_COMM_WORLD). */
    int flag = u_rank == 4 ? 0x6 : 0x7;
    EXPECT(MPIX_Comm_agree(MPI_COMM_WORLD, &flag), MPIX_ERR_PROC_FAILED);
    CHECK(flag == 0x6, "agreed flag %#x", flag);
    MPI_Request ar;
    int iflag = 1;
    CHECK(MPIX_Comm_iagree(MPI_COMM_WORLD, &iflag, &ar) == MPI_SUCCESS, "iagree");
    EXPECT(MPI_Wait(&ar, MPI_STATUS_IGNORE), MPIX_ERR_PROC_FAILED);
    CHECK(iflag == 1 && ar == MPI_REQUEST_NULL, "iagree: flag %d", iflag);
    int acked = 0;
    MPIX_Comm_ack_failed(MPI_COMM_WORLD, u_size, &acked);
    CHECK(acked == 1, "acked %d", acked);
    flag = 1;
    CHECK(MPIX_Comm_agree(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == 1,
          "agree after every survivor acknowledged");

    /* Shrink. */
    MPI_Comm s;
    CHECK(MPIX_Comm_shrink(c, &s) == MPI_SUCCESS, "shrink");
    int sr = -1, ss = -1;
    MPI_Comm_rank(s, &sr);
    MPI_Comm_size(s, &ss);
    CHECK(ss == u_size - 1 && sr == (u_rank < VICTIM ? u_rank : u_rank - 1),
          "shrunk: rank %d of %d", sr, ss);
    int sum = 0;
    CHECK(MPI_Allreduce(&u_rank, &sum, 1, MPI_INT, MPI_SUM, s) == MPI_SUCCESS &&
              sum == u_size * (u_size - 1) / 2 - VICTIM, "allreduce on the shrunk comm %d", sum);
    MPI_Comm_free(&s);
    MPI_Comm_free(&c);
    return u_finish();
}
