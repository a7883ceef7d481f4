/*
 * rma_fence_lock: a fence that no RMA call follows starts no epoch
 * (MPI-3.1 11.5.1), so MPI_Win_lock, MPI_Win_lock_all and MPI_Win_start /
 * MPI_Win_post may follow it; after a fence and an RMA call they are
 * MPI_ERR_RMA_SYNC. MPI_Get_accumulate with MPI_NO_OP and MPI_DATATYPE_NULL
 * as origin type. On a created and an allocated window (2 ranks).
 */
#include <mpi.h>
#include <stdio.h>

static int fails;
#define EXPECT(call, want)                                                          \
    do {                                                                            \
        int c_ = -1;                                                                \
        MPI_Error_class((call), &c_);                                               \
        if (c_ != (want)) {                                                         \
            fprintf(stderr, "rma_fence_lock: check failed: %s gave %d, want %d\n", #call, \
                    c_, (want));                                                    \
            fails++;                                                                \
        }                                                                           \
    } while (0)

static void run(MPI_Win w, long *mem, int rank)
{
    long v = 5;
    int peer = 1 - rank;
    MPI_Group g, pg;
    MPI_Win_get_group(w, &g);
    MPI_Group_incl(g, 1, &peer, &pg);
    EXPECT(MPI_Win_fence(0, w), MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, peer, 0, w), MPI_SUCCESS); /* bare fence: no epoch */
    EXPECT(MPI_Put(&v, 1, MPI_LONG, peer, 0, 1, MPI_LONG, w), MPI_SUCCESS);
    EXPECT(MPI_Win_unlock(peer, w), MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT(MPI_Win_fence(0, w), MPI_SUCCESS);
    EXPECT(MPI_Win_lock_all(0, w), MPI_SUCCESS);
    EXPECT(MPI_Win_unlock_all(w), MPI_SUCCESS);
    EXPECT(MPI_Win_fence(0, w), MPI_SUCCESS);
    EXPECT(MPI_Win_post(pg, 0, w), MPI_SUCCESS);
    EXPECT(MPI_Win_start(pg, 0, w), MPI_SUCCESS);
    EXPECT(MPI_Put(&v, 1, MPI_LONG, peer, 1, 1, MPI_LONG, w), MPI_SUCCESS);
    EXPECT(MPI_Win_complete(w), MPI_SUCCESS);
    EXPECT(MPI_Win_wait(w), MPI_SUCCESS);
    /* a fence followed by an RMA call is an epoch */
    EXPECT(MPI_Win_fence(0, w), MPI_SUCCESS);
    EXPECT(MPI_Put(&v, 1, MPI_LONG, peer, 2, 1, MPI_LONG, w), MPI_SUCCESS);
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_lock_all(0, w), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_start(pg, 0, w), MPI_ERR_RMA_SYNC);
    EXPECT(MPI_Win_fence(MPI_MODE_NOSUCCEED, w), MPI_SUCCESS);
    /* MPI_NO_OP ignores the origin: MPI_DATATYPE_NULL and count 0 are fine */
    long got = -1;
    EXPECT(MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w), MPI_SUCCESS);
    EXPECT(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &got, 1, MPI_LONG, peer, 0, 1, MPI_LONG,
                              MPI_NO_OP, w), MPI_SUCCESS);
    EXPECT(MPI_Win_unlock(peer, w), MPI_SUCCESS);
    if (got != 5) {
        fprintf(stderr, "rma_fence_lock: check failed: no-op get-accumulate read %ld\n", got);
        fails++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mem[0] != 5 || mem[1] != 5 || mem[2] != 5) {
        fprintf(stderr, "rma_fence_lock: check failed: mem %ld %ld %ld\n", mem[0], mem[1], mem[2]);
        fails++;
    }
    MPI_Group_free(&pg);
    MPI_Group_free(&g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long cmem[4] = {0}, *amem;
    MPI_Win w;
    MPI_Win_create(cmem, sizeof(cmem), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    run(w, cmem, rank);
    MPI_Win_free(&w);
    MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &w);
    for (int i = 0; i < 4; i++)
        amem[i] = 0;
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    MPI_Barrier(MPI_COMM_WORLD);
    run(w, amem, rank);
    MPI_Win_free(&w);
    if (!fails)
        printf("rma_fence_lock rank %d: ok\n", rank);
    MPI_Finalize();
    return fails ? 1 : 0;
}
