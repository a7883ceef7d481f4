/*
 * Zero-size collectives (issue 19): every collective, blocking and
 * non-blocking, with zero counts, NULL buffers and, where the standard
 * allows it, MPI_IN_PLACE with the ignored send arguments given as -1 and
 * MPI_DATATYPE_NULL. After each call the ranks check that they are still
 * in step: an allreduce of the call's number (MIN and MAX must agree),
 * then a real allgather whose result is checked. A rank that left a
 * zero-size collective early (MPI_Allgather at np 3, 5, 6, 7 before the
 * fix) makes the step check fail or the run time out.
 */
#include "../mpi/mpitest.h"

static int step;

static void in_step(const char *what)
{
    int s[2] = {step, -step}, r[2];
    T_MPI(MPI_Allreduce(s, r, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
    T_CHECK(r[0] == step && r[1] == -step, "after %s (call %d): ranks out of step (%d..%d)", what,
            step, r[0], -r[1]);
    int *all = t_malloc((size_t)t_size * sizeof(int));
    int mine = 1000 * step + t_rank;
    T_MPI(MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    for (int i = 0; i < t_size; i++)
        T_CHECK(all[i] == 1000 * step + i, "after %s: allgather block %d is %d", what, i, all[i]);
    free(all);
    step++;
}

/* Run a collective blocking (nb = 0) or as its I-form plus MPI_Wait. */
#define COLL(name, iname, nb, ...)                                           \
    do {                                                                     \
        if (nb) {                                                            \
            MPI_Request r_ = MPI_REQUEST_NULL;                               \
            T_MPI(MPI_##iname(__VA_ARGS__, &r_));                            \
            T_MPI(MPI_Wait(&r_, MPI_STATUS_IGNORE));                         \
        } else {                                                             \
            T_MPI(MPI_##name(__VA_ARGS__));                                  \
        }                                                                    \
        in_step(nb ? #iname : #name);                                        \
    } while (0)

static void all_collectives(MPI_Comm w, int nb)
{
    int p = t_size;
    int *zeros = calloc((size_t)p, sizeof(int));
    MPI_Datatype *bytes = t_malloc((size_t)p * sizeof(MPI_Datatype));
    for (int i = 0; i < p; i++)
        bytes[i] = MPI_BYTE;
    if (nb) {
        MPI_Request r;
        T_MPI(MPI_Ibarrier(w, &r));
        T_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
        in_step("Ibarrier");
    }
    for (int root = 0; root < p; root++) {
        int me_root = t_rank == root;
        COLL(Bcast, Ibcast, nb, NULL, 0, MPI_INT, root, w);
        COLL(Gather, Igather, nb, NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, w);
        COLL(Gather, Igather, nb, me_root ? MPI_IN_PLACE : NULL, me_root ? -1 : 0,
             me_root ? MPI_DATATYPE_NULL : MPI_INT, NULL, 0, MPI_INT, root, w);
        COLL(Gatherv, Igatherv, nb, NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, root, w);
        COLL(Scatter, Iscatter, nb, NULL, 0, MPI_INT, NULL, 0, MPI_INT, root, w);
        COLL(Scatter, Iscatter, nb, NULL, 0, MPI_INT, me_root ? MPI_IN_PLACE : NULL, me_root ? -1 : 0,
             me_root ? MPI_DATATYPE_NULL : MPI_INT, root, w);
        COLL(Scatterv, Iscatterv, nb, NULL, zeros, zeros, MPI_INT, NULL, 0, MPI_INT, root, w);
        COLL(Reduce, Ireduce, nb, NULL, NULL, 0, MPI_INT, MPI_SUM, root, w);
        COLL(Reduce, Ireduce, nb, me_root ? MPI_IN_PLACE : NULL, NULL, 0, MPI_INT, MPI_SUM, root, w);
    }
    COLL(Allgather, Iallgather, nb, NULL, 0, MPI_INT, NULL, 0, MPI_INT, w);
    COLL(Allgather, Iallgather, nb, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_BYTE, w);
    COLL(Allgatherv, Iallgatherv, nb, NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, w);
    COLL(Allgatherv, Iallgatherv, nb, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, zeros, zeros, MPI_BYTE, w);
    COLL(Alltoall, Ialltoall, nb, NULL, 0, MPI_INT, NULL, 0, MPI_INT, w);
    COLL(Alltoall, Ialltoall, nb, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, NULL, 0, MPI_INT, w);
    COLL(Alltoallv, Ialltoallv, nb, NULL, zeros, zeros, MPI_INT, NULL, zeros, zeros, MPI_INT, w);
    COLL(Alltoallv, Ialltoallv, nb, MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, NULL, zeros, zeros, MPI_INT,
         w);
    COLL(Alltoallw, Ialltoallw, nb, NULL, zeros, zeros, bytes, NULL, zeros, zeros, bytes, w);
    COLL(Alltoallw, Ialltoallw, nb, MPI_IN_PLACE, NULL, NULL, NULL, NULL, zeros, zeros, bytes, w);
    COLL(Allreduce, Iallreduce, nb, NULL, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Allreduce, Iallreduce, nb, MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Reduce_scatter, Ireduce_scatter, nb, NULL, NULL, zeros, MPI_INT, MPI_SUM, w);
    COLL(Reduce_scatter, Ireduce_scatter, nb, MPI_IN_PLACE, NULL, zeros, MPI_INT, MPI_SUM, w);
    COLL(Reduce_scatter_block, Ireduce_scatter_block, nb, NULL, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Reduce_scatter_block, Ireduce_scatter_block, nb, MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Scan, Iscan, nb, NULL, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Scan, Iscan, nb, MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Exscan, Iexscan, nb, NULL, NULL, 0, MPI_INT, MPI_SUM, w);
    COLL(Exscan, Iexscan, nb, MPI_IN_PLACE, NULL, 0, MPI_INT, MPI_SUM, w);
    free(zeros);
    free(bytes);
}

/* Neighborhood collectives with zero counts on a periodic ring. */
static void neighbor_collectives(void)
{
    MPI_Comm ring;
    int dims[1] = {t_size}, periods[1] = {1};
    T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    int zeros[2] = {0, 0};
    MPI_Aint azeros[2] = {0, 0};
    MPI_Datatype bytes[2] = {MPI_BYTE, MPI_BYTE};
    T_MPI(MPI_Neighbor_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, ring));
    in_step("Neighbor_allgather");
    T_MPI(MPI_Neighbor_allgatherv(NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, ring));
    in_step("Neighbor_allgatherv");
    T_MPI(MPI_Neighbor_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, ring));
    in_step("Neighbor_alltoall");
    T_MPI(MPI_Neighbor_alltoallv(NULL, zeros, zeros, MPI_INT, NULL, zeros, zeros, MPI_INT, ring));
    in_step("Neighbor_alltoallv");
    T_MPI(MPI_Neighbor_alltoallw(NULL, zeros, azeros, bytes, NULL, zeros, azeros, bytes, ring));
    in_step("Neighbor_alltoallw");
    T_MPI(MPI_Comm_free(&ring));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int nb = 0; nb < 2; nb++)
        all_collectives(MPI_COMM_WORLD, nb);
    neighbor_collectives();
    return t_finish();
}
