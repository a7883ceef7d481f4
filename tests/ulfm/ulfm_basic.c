/*
 * Every MPIX_ function without failures, and revoke while the other
 * members are blocked in a receive, in a collective, and between two rounds
 * of a collective (np >= 3).
 */
#include "ulfm_test.h"

#if !defined(OMPI_HAVE_MPI_EXT_FTMPI) || !defined(MPIX_ERR_PROC_FAILED)
#error "mpi-ext.h does not announce the ULFM interface"
#endif

static void no_failure_calls(void)
{
    int flag = ~0 & ~(1 << u_rank), rc;
    rc = MPIX_Comm_agree(MPI_COMM_WORLD, &flag);
    CHECK(rc == MPI_SUCCESS, "agree: %d", rc);
    int want = ~0;
    for (int r = 0; r < u_size; r++)
        want &= ~(1 << r);
    CHECK(flag == want, "agree flag %#x, want %#x", flag, want);

    MPI_Request req;
    int iflag = u_rank == 1 ? 0 : 1;
    MPI_Status st;
    CHECK(MPIX_Comm_iagree(MPI_COMM_WORLD, &iflag, &req) == MPI_SUCCESS, "iagree");
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && iflag == 0, "iagree result %d", iflag);

    MPI_Group g;
    int n = -1, acked = -1;
    CHECK(MPIX_Comm_get_failed(MPI_COMM_WORLD, &g) == MPI_SUCCESS, "get_failed");
    MPI_Group_size(g, &n);
    CHECK(n == 0, "failed group of size %d", n);
    MPI_Group_free(&g);
    CHECK(MPIX_Comm_ack_failed(MPI_COMM_WORLD, 5, &acked) == MPI_SUCCESS && acked == 0,
          "ack_failed: %d", acked);
    CHECK(MPIX_Comm_failure_ack(MPI_COMM_WORLD) == MPI_SUCCESS, "failure_ack");
    CHECK(MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, &g) == MPI_SUCCESS, "get_acked");
    MPI_Group_size(g, &n);
    CHECK(n == 0, "acked group of size %d", n);
    MPI_Group_free(&g);
    EXPECT(MPIX_Comm_ack_failed(MPI_COMM_WORLD, -1, &acked), MPI_ERR_ARG);

    MPI_Comm s;
    CHECK(MPIX_Comm_shrink(MPI_COMM_WORLD, &s) == MPI_SUCCESS, "shrink");
    int ss = -1, sr = -1;
    MPI_Comm_size(s, &ss);
    MPI_Comm_rank(s, &sr);
    CHECK(ss == u_size && sr == u_rank, "shrink without failure: %d/%d", sr, ss);
    int sum = 0;
    CHECK(MPI_Allreduce(&u_rank, &sum, 1, MPI_INT, MPI_SUM, s) == MPI_SUCCESS &&
              sum == u_size * (u_size - 1) / 2, "allreduce on the shrunk comm: %d", sum);
    MPI_Comm s2;
    CHECK(MPIX_Comm_ishrink(s, &s2, &req) == MPI_SUCCESS, "ishrink");
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS, "ishrink wait");
    MPI_Comm_size(s2, &ss);
    CHECK(ss == u_size, "ishrink size %d", ss);
    MPI_Comm_free(&s2);
    MPI_Comm_free(&s);

    int *v, fl = 0;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPIX_FT, &v, &fl) == MPI_SUCCESS && fl && *v,
          "MPIX_FT attribute %d", fl ? *v : -1);
    char str[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPIX_ERR_REVOKED, str, &len);
    CHECK(strstr(str, "revoked") != NULL, "string of MPIX_ERR_REVOKED: %s", str);
    int cls;
    MPI_Error_class(MPIX_ERR_PROC_FAILED_PENDING, &cls);
    CHECK(cls == MPIX_ERR_PROC_FAILED_PENDING, "class %d", cls);
}

/* Rank 0 revokes while the others wait in a receive from rank 0. */
static void revoke_blocked_recv(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int x = 0, flag = -1;
    if (u_rank == 0) {
        /* the others are in their receive once they told rank 1 so */
        MPI_Barrier(MPI_COMM_WORLD);
        usleep(20000);
        CHECK(MPIX_Comm_revoke(c) == MPI_SUCCESS, "revoke");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        EXPECT(MPI_Recv(&x, 1, MPI_INT, 0, 1, c, MPI_STATUS_IGNORE), MPIX_ERR_REVOKED);
    }
    MPIX_Comm_is_revoked(c, &flag);
    CHECK(flag == 1, "is_revoked %d", flag);
    /* every later non-local operation fails; local ones work */
    EXPECT(MPI_Send(&x, 1, MPI_INT, (u_rank + 1) % u_size, 2, c), MPIX_ERR_REVOKED);
    EXPECT(MPI_Barrier(c), MPIX_ERR_REVOKED);
    int r;
    CHECK(MPI_Comm_rank(c, &r) == MPI_SUCCESS && r == u_rank, "rank on a revoked comm");
    /* agree and shrink work on it */
    flag = 1;
    CHECK(MPIX_Comm_agree(c, &flag) == MPI_SUCCESS && flag == 1, "agree on revoked");
    MPI_Comm s;
    CHECK(MPIX_Comm_shrink(c, &s) == MPI_SUCCESS, "shrink of revoked");
    int sf = 1;
    MPIX_Comm_is_revoked(s, &sf);
    CHECK(sf == 0, "the shrunk communicator is not revoked");
    CHECK(MPI_Barrier(s) == MPI_SUCCESS, "barrier on shrunk");
    MPI_Comm_free(&s);
    MPI_Comm_free(&c);
}

/* Rank 0 revokes while the others are in an allreduce on the communicator
 * (rank 0 never joins it). */
static void revoke_blocked_coll(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int one = 1, sum = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (u_rank == 0) {
        usleep(20000);
        MPIX_Comm_revoke(c);
    } else {
        EXPECT(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c), MPIX_ERR_REVOKED);
    }
    /* the revocation of c leaves MPI_COMM_WORLD alone */
    CHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS &&
              sum == u_size, "world after revoke: %d", sum);
    MPI_Comm_free(&c);
}

/* The revocation reaches the others anywhere in a run of collectives:
 * inside a round, or between two rounds, when a member has not posted its
 * next receive yet (that post must fail too, or it waits for ever for a
 * member that has left). Rank 0 revokes instead of its k-th allreduce, k
 * = 0..29: every other rank must end its loop with MPIX_ERR_REVOKED. */
static void revoke_between_rounds(void)
{
    for (int k = 0; k < 30; k++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        int one = 1, sum = 0, rc = MPI_SUCCESS, calls = 0;
        if (u_rank == 0) {
            for (int i = 0; i < k; i++)
                MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
            MPIX_Comm_revoke(c);
        } else {
            while (rc == MPI_SUCCESS && calls++ < 100000)
                rc = MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
            EXPECT(rc, MPIX_ERR_REVOKED);
        }
        MPI_Comm_free(&c); /* its context is not reused (stale rounds) */
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    no_failure_calls();
    revoke_blocked_recv();
    revoke_blocked_coll();
    revoke_between_rounds();
    return u_finish();
}
