/*
 * The MPIX_ functions outside the ULFM mode (an FT-MPI mode or none):
 * MPIX_FT is 0, the calls that need the ULFM machinery return
 * MPI_ERR_UNSUPPORTED_OPERATION (with a line saying why), is_revoked and
 * get_failed work.
 */
#include "ulfm_test.h"

int main(int argc, char **argv)
{
    u_init(&argc, &argv);
    int *v, fl = 0, flag = 1, n = -1;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPIX_FT, &v, &fl) == MPI_SUCCESS && fl && *v == 0,
          "MPIX_FT outside the ULFM mode");
    EXPECT(MPIX_Comm_agree(MPI_COMM_WORLD, &flag), MPI_ERR_UNSUPPORTED_OPERATION);
    EXPECT(MPIX_Comm_revoke(MPI_COMM_WORLD), MPI_ERR_UNSUPPORTED_OPERATION);
    MPI_Comm s;
    EXPECT(MPIX_Comm_shrink(MPI_COMM_WORLD, &s), MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(MPIX_Comm_is_revoked(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == 0, "is_revoked");
    MPI_Group g;
    CHECK(MPIX_Comm_get_failed(MPI_COMM_WORLD, &g) == MPI_SUCCESS, "get_failed");
    MPI_Group_size(g, &n);
    CHECK(n == 0, "failed group of %d", n);
    MPI_Group_free(&g);
    return u_finish();
}
