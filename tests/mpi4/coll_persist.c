/*
 * Persistent collectives (MPI-4.0 6.13): every MPI_*_init of an
 * intracommunicator collective, started and completed over several rounds
 * with new data each round (the request keeps the buffers by address),
 * MPI_Startall over several of them at once, and the request states:
 * Wait/Test on an inactive request return at once with an empty status,
 * MPI_Start on an active one and MPI_Request_free of an active one are
 * MPI_ERR_REQUEST, freeing an inactive one works.
 */
#include "../mpi/mpitest.h"

#define ROUNDS 4
#define N 5

static int val(int round, int rank, int i)
{
    return 1000 * round + 10 * rank + i;
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int p = t_size, me = t_rank, root = p - 1;
    int *sb = t_malloc((size_t)p * N * sizeof(int)), *rb = t_malloc((size_t)p * N * sizeof(int));
    int *cnt = t_malloc((size_t)p * sizeof(int)), *dsp = t_malloc((size_t)p * sizeof(int));
    int *rcnt = t_malloc((size_t)p * sizeof(int));
    MPI_Datatype *types = t_malloc((size_t)p * sizeof(MPI_Datatype));
    for (int i = 0; i < p; i++) {
        cnt[i] = N;
        dsp[i] = i * N;
        rcnt[i] = N;
        types[i] = MPI_INT;
    }
    int bc[N], red[N], scan[N];
    enum { BAR, BC, GA, GAV, SC, SCV, AG, AGV, A2A, A2AV, A2AW, RED, ARED, RS, RSB, SCAN, EXSCAN,
           NREQ };
    static const char *names[NREQ] = {"barrier", "bcast", "gather", "gatherv", "scatter",
                                      "scatterv", "allgather", "allgatherv", "alltoall",
                                      "alltoallv", "alltoallw", "reduce", "allreduce",
                                      "reduce_scatter", "reduce_scatter_block", "scan", "exscan"};
    MPI_Request rq[NREQ];
    MPI_Info info = MPI_INFO_NULL;
    /* Each kind has its own receive buffer where the results would clash. */
    int *ga = t_malloc((size_t)p * N * sizeof(int)), *gav = t_malloc((size_t)p * N * sizeof(int));
    int *ag = t_malloc((size_t)p * N * sizeof(int)), *agv = t_malloc((size_t)p * N * sizeof(int));
    int *a2a = t_malloc((size_t)p * N * sizeof(int)), *a2av = t_malloc((size_t)p * N * sizeof(int));
    int *a2aw = t_malloc((size_t)p * N * sizeof(int));
    int sc[N], scv[N], ared[N], rs[N], rsb[N], exs[N];
    int *bdsp = t_malloc((size_t)p * sizeof(int));
    for (int i = 0; i < p; i++)
        bdsp[i] = i * N * (int)sizeof(int); /* alltoallw: byte displacements */
    T_MPI(MPI_Barrier_init(MPI_COMM_WORLD, info, &rq[BAR]));
    T_MPI(MPI_Bcast_init(bc, N, MPI_INT, root, MPI_COMM_WORLD, info, &rq[BC]));
    T_MPI(MPI_Gather_init(sb, N, MPI_INT, ga, N, MPI_INT, root, MPI_COMM_WORLD, info, &rq[GA]));
    T_MPI(MPI_Gatherv_init(sb, N, MPI_INT, gav, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD, info,
                           &rq[GAV]));
    T_MPI(MPI_Scatter_init(sb, N, MPI_INT, sc, N, MPI_INT, root, MPI_COMM_WORLD, info, &rq[SC]));
    T_MPI(MPI_Scatterv_init(sb, cnt, dsp, MPI_INT, scv, N, MPI_INT, root, MPI_COMM_WORLD, info,
                            &rq[SCV]));
    T_MPI(MPI_Allgather_init(sb, N, MPI_INT, ag, N, MPI_INT, MPI_COMM_WORLD, info, &rq[AG]));
    T_MPI(MPI_Allgatherv_init(sb, N, MPI_INT, agv, cnt, dsp, MPI_INT, MPI_COMM_WORLD, info,
                              &rq[AGV]));
    T_MPI(MPI_Alltoall_init(sb, N, MPI_INT, a2a, N, MPI_INT, MPI_COMM_WORLD, info, &rq[A2A]));
    T_MPI(MPI_Alltoallv_init(sb, cnt, dsp, MPI_INT, a2av, cnt, dsp, MPI_INT, MPI_COMM_WORLD, info,
                             &rq[A2AV]));
    T_MPI(MPI_Alltoallw_init(sb, cnt, bdsp, types, a2aw, cnt, bdsp, types, MPI_COMM_WORLD, info,
                             &rq[A2AW]));
    T_MPI(MPI_Reduce_init(sb, red, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, info, &rq[RED]));
    T_MPI(MPI_Allreduce_init(sb, ared, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &rq[ARED]));
    T_MPI(MPI_Reduce_scatter_init(sb, rs, rcnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &rq[RS]));
    T_MPI(MPI_Reduce_scatter_block_init(sb, rsb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info,
                                        &rq[RSB]));
    T_MPI(MPI_Scan_init(sb, scan, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &rq[SCAN]));
    T_MPI(MPI_Exscan_init(sb, exs, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, info, &rq[EXSCAN]));

    /* Inactive: Wait and Test return at once with an empty status. */
    MPI_Status st;
    int flag = 0;
    T_MPI(MPI_Wait(&rq[BC], &st));
    T_CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
            "inactive wait: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    T_MPI(MPI_Test(&rq[ARED], &flag, MPI_STATUS_IGNORE));
    T_CHECK(flag, "Test of an inactive persistent collective: flag 0");
    T_CHECK(rq[BC] != MPI_REQUEST_NULL, "inactive wait freed the persistent request");

    for (int round = 0; round < ROUNDS; round++) {
        /* The block for destination d holds val(round, me, d*N + i). */
        for (int i = 0; i < p * N; i++)
            sb[i] = val(round, me, i);
        if (me == root)
            for (int i = 0; i < N; i++)
                bc[i] = val(round, 99, i);
        int sums[N];
        if (round % 2 == 0) {
            T_MPI(MPI_Startall(NREQ, rq));
            /* Active now: a second start and a free are refused. */
            if (round == 0) {
                T_MPI_CLASS(MPI_Start(&rq[BAR]), MPI_ERR_REQUEST);
                MPI_Request keep = rq[ARED];
                T_MPI_CLASS(MPI_Request_free(&rq[ARED]), MPI_ERR_REQUEST);
                T_CHECK(rq[ARED] == keep, "refused free changed the handle");
            }
            T_MPI(MPI_Waitall(NREQ, rq, MPI_STATUSES_IGNORE));
        } else {
            for (int k = 0; k < NREQ; k++) {
                T_MPI(MPI_Start(&rq[k]));
                do
                    T_MPI(MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE));
                while (!flag);
            }
        }
        for (int k = 0; k < NREQ; k++)
            T_CHECK(rq[k] != MPI_REQUEST_NULL, "round %d: %s request freed by its completion",
                    round, names[k]);
        for (int i = 0; i < N; i++) {
            T_CHECK(bc[i] == val(round, 99, i), "round %d bcast[%d] = %d", round, i, bc[i]);
            T_CHECK(sc[i] == val(round, root, me * N + i), "round %d scatter[%d]", round, i);
            T_CHECK(scv[i] == val(round, root, me * N + i), "round %d scatterv[%d]", round, i);
            sums[i] = 0;
            int pre = 0;
            for (int r = 0; r < p; r++) {
                sums[i] += val(round, r, i);
                if (r < me)
                    pre += val(round, r, i);
            }
            T_CHECK(ared[i] == sums[i], "round %d allreduce[%d] = %d want %d", round, i, ared[i],
                    sums[i]);
            if (me == root)
                T_CHECK(red[i] == sums[i], "round %d reduce[%d]", round, i);
            T_CHECK(scan[i] == pre + val(round, me, i), "round %d scan[%d]", round, i);
            if (me > 0)
                T_CHECK(exs[i] == pre, "round %d exscan[%d] = %d want %d", round, i, exs[i], pre);
            int want_rs = 0;
            for (int r = 0; r < p; r++)
                want_rs += val(round, r, me * N + i);
            T_CHECK(rs[i] == want_rs, "round %d reduce_scatter[%d]", round, i);
            T_CHECK(rsb[i] == want_rs, "round %d reduce_scatter_block[%d]", round, i);
        }
        for (int r = 0; r < p; r++)
            for (int i = 0; i < N; i++) {
                int want = val(round, r, i);
                T_CHECK(ag[r * N + i] == want, "round %d allgather[%d][%d]", round, r, i);
                T_CHECK(agv[r * N + i] == want, "round %d allgatherv[%d][%d]", round, r, i);
                if (me == root) {
                    T_CHECK(ga[r * N + i] == want, "round %d gather[%d][%d]", round, r, i);
                    T_CHECK(gav[r * N + i] == want, "round %d gatherv[%d][%d]", round, r, i);
                }
                int want2 = val(round, r, me * N + i);
                T_CHECK(a2a[r * N + i] == want2, "round %d alltoall[%d][%d]", round, r, i);
                T_CHECK(a2av[r * N + i] == want2, "round %d alltoallv[%d][%d]", round, r, i);
                T_CHECK(a2aw[r * N + i] == want2, "round %d alltoallw[%d][%d]", round, r, i);
            }
    }
    for (int k = 0; k < NREQ; k++) {
        T_MPI(MPI_Request_free(&rq[k]));
        T_CHECK(rq[k] == MPI_REQUEST_NULL, "freed %s request not MPI_REQUEST_NULL", names[k]);
    }
    /* Errors: a bad communicator at init, a bad datatype found at start. */
    MPI_Request bad;
    T_MPI_CLASS(MPI_Bcast_init(bc, N, MPI_INT, 0, MPI_COMM_NULL, info, &bad), MPI_ERR_COMM);
    T_MPI(MPI_Bcast_init(bc, N, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, info, &bad));
    T_MPI_CLASS(MPI_Start(&bad), MPI_ERR_TYPE);
    T_MPI(MPI_Request_free(&bad));
    free(sb), free(rb), free(cnt), free(dsp), free(rcnt), free(types), free(ga), free(gav);
    free(ag), free(agv), free(a2a), free(a2av), free(a2aw), free(bdsp);
    return t_finish();
}
