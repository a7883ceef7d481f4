/*
 * coll_errors: argument errors of the collectives are reported with the
 * right error class through the communicator's error handler (here
 * MPI_ERRORS_RETURN), on every rank alike, without hanging: bad root,
 * count, datatype, op, (op, type) pair, MPI_IN_PLACE where it is not
 * allowed, null request pointer, scan on an intercommunicator, and a
 * freed communicator. The library is still usable afterwards.
 */
#include "coll_test.h"

#define EXPECT(call, cls) T_MPI_CLASS(call, cls)

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int p = t_size;
    int a[64] = {0}, b[64] = {0}, cnt[64], dsp[64];
    for (int i = 0; i < 64; i++)
        cnt[i] = 1, dsp[i] = i;
    MPI_Request q;

    EXPECT(MPI_Bcast(a, 1, MPI_INT, p, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Bcast(a, 1, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT(MPI_Reduce(a, b, 1, MPI_INT, MPI_OP_NULL, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP);
    EXPECT(MPI_Allreduce(a, b, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Gather(a, -1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Gatherv(a, 1, MPI_INT, b, cnt, dsp, MPI_INT, p + 3, MPI_COMM_WORLD), MPI_ERR_ROOT);
    EXPECT(MPI_Scatter(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    EXPECT(MPI_Allgather(a, 1, MPI_INT, b, -1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT(MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD), MPI_ERR_TYPE);
    cnt[0] = -1;
    EXPECT(MPI_Alltoallv(a, cnt, dsp, MPI_INT, b, cnt, dsp, MPI_INT, MPI_COMM_WORLD),
           MPI_ERR_COUNT);
    EXPECT(MPI_Reduce_scatter(a, b, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    cnt[0] = 1;
    if (t_rank != 0) /* MPI_IN_PLACE is for the root only */
        EXPECT(MPI_Reduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD),
               MPI_ERR_BUFFER);
    EXPECT(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    EXPECT(MPI_Iallreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    EXPECT(MPI_Ibcast(a, 1, MPI_INT, p, MPI_COMM_WORLD, &q), MPI_ERR_ROOT);
    EXPECT(MPI_Reduce_local(a, b, 1, MPI_INT, MPI_OP_NULL), MPI_ERR_OP);
    EXPECT(MPI_Op_commutative(MPI_OP_NULL, &cnt[0]), MPI_ERR_OP);

    MPI_Comm dup;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm keep = dup;
    T_MPI(MPI_Comm_free(&dup));
    EXPECT(MPI_Barrier(keep), MPI_ERR_COMM);

    if (p >= 2) { /* scan is not defined on intercommunicators */
        MPI_Comm local, inter;
        int in_a = t_rank % 2 == 0;
        T_MPI(MPI_Comm_split(MPI_COMM_WORLD, !in_a, t_rank, &local));
        T_MPI(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 9, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        EXPECT(MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
        EXPECT(MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_COMM);
        EXPECT(MPI_Allreduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, inter), MPI_ERR_BUFFER);
        EXPECT(MPI_Bcast(a, 1, MPI_INT, 99, inter), MPI_ERR_ROOT);
        T_MPI(MPI_Comm_free(&inter));
        T_MPI(MPI_Comm_free(&local));
    }

    /* still usable */
    a[0] = t_rank;
    T_MPI(MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    T_CHECK(b[0] == p * (p - 1) / 2, "allreduce after errors: %d", b[0]);
    return t_finish();
}
