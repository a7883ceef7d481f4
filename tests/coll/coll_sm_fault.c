/*
 * coll_sm_fault: a member is killed (real SIGKILL) in the middle of a
 * shared-memory collective: at iteration kill_at the last rank raises
 * SIGKILL inside the user reduction operation of an MPI_Allreduce (or, with
 * argument "blocks", of an MPI_Reduce_scatter_block, after which the
 * survivors wait for it in an MPI_Allgather; with argument "medium", of a
 * 64 KiB MPI_Allreduce, cut in chunks of one buffer, each reduced in
 * slices by all members; with argument "cma", the victim SIGKILLs itself
 * instead of entering an 8 KiB-per-rank MPI_Alltoall, which does not fit
 * one buffer and goes by single copy out of the members' own memory, while
 * the others wait inside it for its data), after every member has posted
 * its input and while the others wait on the segment's flags. Every
 * survivor's collective must return MPI_ERR_OTHER (no hang, within a
 * bound), then recover with MPI_Comm_dup(MPI_COMM_WORLD,
 * FT_MPI_CHECK_RECOVER); afterwards Barrier, Bcast, Reduce, Allreduce,
 * Reduce_scatter_block, Allgather, Alltoall, Gather and Scatter
 * (8 B and 4 KiB, or 64 KiB with "medium": the shared-memory component's
 * sizes) give the right
 * results over the recovered MPI_COMM_WORLD: SHRINK (size - 1), BLANK (the
 * live members around the gap) and REBUILD (a replacement joins: it goes
 * straight to the checks). Launched as
 *   ftmpirun --comm-mode=shrink|blank|rebuild -np N coll_sm_fault [blocks|medium]
 */
#include "coll_test.h"

#include <signal.h>

#define ITERS 300
#define NBIG 1024 /* ints: 4 KiB */
#define NMED 16384 /* ints: 64 KiB */
#define NCMA 2048 /* ints: 8 KiB per rank, p blocks do not fit a 16 KiB buffer */
#define NKINDS 9
#define MAXP 8

static int victim, iter, me, kill_at = 36, live, nlarge = NBIG, kill_before;

/* Sum that kills the victim inside the collective at iteration kill_at. */
static void sum_or_die(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    if (me == victim && iter == kill_at)
        raise(SIGKILL);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void expect_sm(const char *kind)
{
    char alg[32];
    unsigned long n;
    T_MPI(FTMPI_Coll_last_algorithm(kind, alg, (int)sizeof(alg), &n));
    T_CHECK(!strcmp(alg, "sm"), "%s ran '%s', not the shared-memory component", kind, alg);
}

/* The block calls (kind 4..8); ranks 0 and live - 1 are live in every mode
 * (BLANK: the victim, the last rank, is the gap). */
static int block_call(int kind, int n, int *a, int *b, int expect, MPI_Op op)
{
    int rc, hi = live - 1, r = t_rank;
    for (int k = 0; k < n * t_size; k++)
        a[k] = kind == 4 ? 1 : kind == 6 ? r * 100 + k / n : kind == 8 ? k / n + 1 : r + 1;
    switch (kind) {
    case 4:
        rc = MPI_Reduce_scatter_block(a, b, n, MPI_INT, op, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == expect && b[n - 1] == expect, "reduce_scatter: %d, want %d", b[0],
                    expect);
        return rc;
    case 5:
        rc = MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == 1 && b[hi * n + n - 1] == live, "allgather: %d %d", b[0],
                    b[hi * n + n - 1]);
        return rc;
    case 6:
        rc = MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == r && b[hi * n + n - 1] == hi * 100 + r, "alltoall: %d %d", b[0],
                    b[hi * n + n - 1]);
        return rc;
    case 7:
        rc = MPI_Gather(a, n, MPI_INT, b, n, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && r == 0)
            T_CHECK(b[0] == 1 && b[hi * n + n - 1] == live, "gather: %d %d", b[0],
                    b[hi * n + n - 1]);
        return rc;
    default:
        rc = MPI_Scatter(a, n, MPI_INT, b, n, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == r + 1 && b[n - 1] == r + 1, "scatter: %d, want %d", b[0], r + 1);
        return rc;
    }
}

/* One of the calls; returns its error code, checks its result. */
static int one_call(int kind, int n, int *a, int *b, int expect, MPI_Op op)
{
    int rc;
    for (int k = 0; k < n; k++)
        a[k] = 1, b[k] = -7;
    switch (kind) {
    case 0:
        rc = MPI_Allreduce(a, b, n, MPI_INT, op, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(b[0] == expect && b[n - 1] == expect, "allreduce: %d, want %d", b[0], expect);
        return rc;
    case 1:
        for (int k = 0; k < n; k++)
            a[k] = t_rank == 0 ? 1000 + k : -1;
        rc = MPI_Bcast(a, n, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS)
            T_CHECK(a[0] == 1000 && a[n - 1] == 999 + n, "bcast: %d", a[0]);
        return rc;
    case 2:
        rc = MPI_Reduce(a, b, n, MPI_INT, op, 0, MPI_COMM_WORLD);
        if (rc == MPI_SUCCESS && t_rank == 0)
            T_CHECK(b[0] == expect && b[n - 1] == expect, "reduce: %d, want %d", b[0], expect);
        return rc;
    case 3:
        return MPI_Barrier(MPI_COMM_WORLD);
    default:
        return block_call(kind, n, a, b, expect, op);
    }
}

int main(int argc, char **argv)
{
    t_set_name(argv[0]);
    int rc = MPI_Init(&argc, &argv), restarted = rc == MPI_INIT_RESTARTED_NODE;
    if (rc != MPI_SUCCESS && !restarted)
        return 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    t_need(3);
    int launch = t_size, *cmode, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, FTMPI_COMM_MODE, &cmode, &flag);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    victim = launch - 1;
    me = t_rank;
    live = launch;
    if (argc > 1 && !strcmp(argv[1], "blocks"))
        kill_at = 40; /* a Reduce_scatter_block: 40 % NKINDS == 4 */
    if (argc > 1 && !strcmp(argv[1], "medium"))
        nlarge = NMED; /* the kill: iteration 36, an Allreduce of nlarge ints */
    if (argc > 1 && !strcmp(argv[1], "cma")) /* 60 % NKINDS == 6, 60 % 8 >= 4: */
        nlarge = NCMA, kill_at = 60, kill_before = 1; /* an Alltoall of nlarge ints */
    T_CHECK(launch <= MAXP, "at most %d ranks", MAXP);
    MPI_Op op;
    MPI_Op_create(sum_or_die, 1, &op);
    static int a[NMED * MAXP], b[NMED * MAXP];
    int failed_at = -1;
    if (!restarted) {
        T_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = MPI_Wtime();
        for (iter = 0; iter < ITERS && failed_at < 0; iter++) {
            int kind = iter % NKINDS;
            if (kill_before && me == victim && iter == kill_at)
                raise(SIGKILL);
            rc = one_call(kind, iter % 8 < 4 ? 2 : nlarge, a, b, launch,
                          kind == 0 || kind == 4 ? op : MPI_SUM);
            if (rc != MPI_SUCCESS)
                failed_at = iter;
            if (kill_before && rc == MPI_SUCCESS && kind == 6 && iter % 8 >= 4)
                expect_sm("alltoall"); /* the single-copy path really ran */
        }
        T_CHECK(rc == MPI_ERR_OTHER, "iteration %d: error %d, expected MPI_ERR_OTHER", failed_at,
                rc);
        T_CHECK(failed_at >= kill_at - 1, "no collective failed after the kill (%d)", failed_at);
        T_CHECK(MPI_Wtime() - t0 < 30.0, "the failure took %.1f s to be reported",
                MPI_Wtime() - t0);
        MPI_Comm nc = FT_MPI_CHECK_RECOVER;
        T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &nc));
    }
    /* After the recovery (or as the replacement): the live members. */
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    live = *cmode == FTMPI_COMM_MODE_REBUILD ? launch : launch - 1;
    if (*cmode == FTMPI_COMM_MODE_SHRINK)
        T_CHECK(t_size == live, "SHRINK: size %d, want %d", t_size, live);
    iter = -1;
    for (int it = 0; it < 4 * NKINDS; it++)
        T_MPI(one_call(it % NKINDS, it % 8 < 4 ? 2 : nlarge, a, b, live,
                       it % NKINDS == 0 || it % NKINDS == 4 ? op : MPI_SUM));
    MPI_Op_free(&op);
    int r = t_finish();
    if (r == 0)
        printf("coll_sm_fault rank %d%s: ok\n", t_rank, restarted ? " (replacement)" : "");
    return r;
}
