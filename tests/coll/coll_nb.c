/*
 * coll_nb: the non-blocking collectives. Every I-collective is started
 * with others outstanding on the same communicator, completed with Wait,
 * Waitall or a Test loop, and compared with the sequential reference; the
 * op and a derived datatype are freed while a collective using them is
 * still running; non-blocking collectives progress while the caller only
 * calls MPI_Test; a collective on a duplicate communicator runs
 * interleaved with one on MPI_COMM_WORLD.
 */
#include "coll_red.h"

#define NB 6

static void check_ints(const int *got, long n, int seed, int src, const char *what)
{
    for (long k = 0; k < n; k++)
        if (got[k] != t_val(seed, src, k)) {
            T_FAIL("%s: int %ld is %d, expected %d", what, k, got[k], t_val(seed, src, k));
            return;
        }
}

static void round_all(long n, int algs)
{
    int p = t_size, me = t_rank;
    static const char *const specs[][2] = {
        {"bcast=binomial,allreduce=recursive_doubling,allgather=recursive_doubling,alltoall=linear",
         "reduce=binomial,scan=recursive_doubling,gather=binomial,scatter=binomial"},
        {"bcast=pipeline:1024,allreduce=ring:512,allgather=ring,alltoall=pairwise",
         "reduce=pipeline:512,scan=linear,gather=linear,scatter=linear,reduce_scatter=ring"},
        {"bcast=scatter_allgather,allreduce=rabenseifner,allgather=bruck,alltoall=bruck",
         "reduce_scatter=reduce_scatterv,allgatherv=linear,alltoallv=pairwise"},
    };
    t_force(NULL);
    t_force(specs[algs][0]);
    t_force(specs[algs][1]);
    MPI_Request rq[16];
    int nr = 0;
    int root = p - 1;
    int *bc = t_malloc((size_t)n * sizeof(int));
    int *ars = t_malloc((size_t)n * sizeof(int)), *arr = t_malloc((size_t)n * sizeof(int));
    int *ags = t_malloc((size_t)n * sizeof(int)), *agr = t_malloc((size_t)n * p * sizeof(int));
    int *a2s = t_malloc((size_t)n * p * sizeof(int)), *a2r = t_malloc((size_t)n * p * sizeof(int));
    int *rdr = t_malloc((size_t)n * sizeof(int)), *scr = t_malloc((size_t)n * sizeof(int));
    int *exs = t_malloc((size_t)n * sizeof(int));
    int *gar = t_malloc((size_t)n * p * sizeof(int)), *scat = t_malloc((size_t)n * sizeof(int));
    int *rsr = t_malloc((size_t)n * sizeof(int)), *rss = t_malloc((size_t)n * p * sizeof(int));
    for (long k = 0; k < n; k++) {
        bc[k] = me == root ? t_val(1, root, k) : 0;
        ars[k] = t_val(2, me, k);
        ags[k] = t_val(3, me, k);
    }
    for (int j = 0; j < p; j++)
        for (long k = 0; k < n; k++) {
            a2s[j * n + k] = t_val(4, me * 64 + j, k);
            rss[j * n + k] = t_val(5, me, j * n + k);
        }
    T_MPI(MPI_Ibcast(bc, (int)n, MPI_INT, root, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Iallreduce(ars, arr, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Iallgather(ags, (int)n, MPI_INT, agr, (int)n, MPI_INT, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Ialltoall(a2s, (int)n, MPI_INT, a2r, (int)n, MPI_INT, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Ireduce(ars, rdr, (int)n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Iscan(ars, scr, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Iexscan(ars, exs, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Igather(ags, (int)n, MPI_INT, gar, (int)n, MPI_INT, root, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Iscatter(a2s, (int)n, MPI_INT, scat, (int)n, MPI_INT, 0, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Ireduce_scatter_block(rss, rsr, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[nr++]));
    T_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &rq[nr++]));
    /* complete in a scrambled way: a Test loop on the last, then Waitall */
    int flag = 0;
    while (!flag)
        T_MPI(MPI_Test(&rq[nr - 1], &flag, MPI_STATUS_IGNORE));
    T_MPI(MPI_Wait(&rq[3], MPI_STATUS_IGNORE));
    T_MPI(MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE));
    check_ints(bc, n, 1, root, "Ibcast");
    for (long k = 0; k < n; k++) {
        long sum = 0, pre = 0;
        for (int r = 0; r < p; r++) {
            sum += t_val(2, r, k);
            if (r <= me)
                pre += t_val(2, r, k);
        }
        T_CHECK(arr[k] == sum, "Iallreduce at %ld: %d vs %ld", k, arr[k], sum);
        if (me == 0)
            T_CHECK(rdr[k] == sum, "Ireduce at %ld", k);
        T_CHECK(scr[k] == pre, "Iscan at %ld", k);
        if (me > 0)
            T_CHECK(exs[k] == pre - t_val(2, me, k), "Iexscan at %ld", k);
        long rs = 0;
        for (int r = 0; r < p; r++)
            rs += t_val(5, r, me * n + k);
        T_CHECK(rsr[k] == rs, "Ireduce_scatter_block at %ld", k);
    }
    for (int i = 0; i < p; i++) {
        check_ints(agr + i * n, n, 3, i, "Iallgather");
        check_ints(a2r + i * n, n, 4, i * 64 + me, "Ialltoall");
        if (me == root)
            check_ints(gar + i * n, n, 3, i, "Igather");
    }
    for (long k = 0; k < n; k++)
        T_CHECK(scat[k] == t_val(4, 0 * 64 + me, k), "Iscatter at %ld", k);
    free(bc); free(ars); free(arr); free(ags); free(agr); free(a2s); free(a2r);
    free(rdr); free(scr); free(exs); free(gar); free(scat); free(rsr); free(rss);
}

/* v-variants and alltoallw, non-blocking. */
static void round_v(long n)
{
    int p = t_size, me = t_rank;
    int cnt[64], dsp[64], tw[64];
    MPI_Datatype types[64];
    long tot = 0;
    for (int i = 0; i < p; i++) {
        cnt[i] = (int)((n + i) % 4 == 0 ? 0 : n + i);
        dsp[i] = (int)tot;
        tw[i] = (int)(tot * sizeof(int));
        types[i] = MPI_INT;
        tot += cnt[i];
    }
    int *mine = t_malloc((size_t)(n + p) * sizeof(int)), *all = t_malloc((size_t)tot * sizeof(int));
    int *all2 = t_malloc((size_t)tot * sizeof(int)), *back = t_malloc((size_t)(n + p) * sizeof(int));
    int *a2s = t_malloc((size_t)cnt[me] * p * sizeof(int) + 4);
    int *a2r = t_malloc((size_t)tot * sizeof(int) + 4), *a2w = t_malloc((size_t)tot * sizeof(int) + 4);
    int sc[64], sd[64], sdb[64];
    for (long k = 0; k < cnt[me]; k++)
        mine[k] = t_val(6, me, k);
    for (int j = 0; j < p; j++) {
        sc[j] = cnt[me];
        sd[j] = j * cnt[me];
        sdb[j] = sd[j] * (int)sizeof(int);
        for (long k = 0; k < cnt[me]; k++)
            a2s[sd[j] + k] = t_val(7, me * 64 + j, k);
    }
    MPI_Request rq[5];
    T_MPI(MPI_Iallgatherv(mine, cnt[me], MPI_INT, all, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &rq[0]));
    T_MPI(MPI_Igatherv(mine, cnt[me], MPI_INT, all2, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD, &rq[1]));
    T_MPI(MPI_Ialltoallv(a2s, sc, sd, MPI_INT, a2r, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &rq[2]));
    T_MPI(MPI_Ialltoallw(a2s, sc, sdb, types, a2w, cnt, tw, types, MPI_COMM_WORLD, &rq[3]));
    T_MPI(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    for (int i = 0; i < p; i++) {
        check_ints(all + dsp[i], cnt[i], 6, i, "Iallgatherv");
        if (me == 0)
            check_ints(all2 + dsp[i], cnt[i], 6, i, "Igatherv");
        check_ints(a2r + dsp[i], cnt[i], 7, i * 64 + me, "Ialltoallv");
        check_ints(a2w + dsp[i], cnt[i], 7, i * 64 + me, "Ialltoallw");
    }
    T_MPI(MPI_Iscatterv(all, cnt, dsp, MPI_INT, back, cnt[me], MPI_INT, 0, MPI_COMM_WORLD, &rq[0]));
    T_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    check_ints(back, cnt[me], 6, me, "Iscatterv");
    int *rsin = t_malloc((size_t)tot * sizeof(int) + 4), *rsout = t_malloc((size_t)(n + p) * sizeof(int));
    for (long k = 0; k < tot; k++)
        rsin[k] = t_val(8, me, k);
    T_MPI(MPI_Ireduce_scatter(rsin, rsout, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[0]));
    T_MPI(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    for (long k = 0; k < cnt[me]; k++) {
        long s = 0;
        for (int r = 0; r < p; r++)
            s += t_val(8, r, dsp[me] + k);
        T_CHECK(rsout[k] == s, "Ireduce_scatter at %ld", k);
    }
    free(mine); free(all); free(all2); free(back); free(a2s); free(a2r); free(a2w);
    free(rsin); free(rsout);
}

/* The user frees the op and the datatype while the collective runs. */
static void round_free_early(void)
{
    rcase_t rc[3];
    rc_setup(rc);
    const rcase_t *r = &rc[2];
    long n = 2000;
    void *s = rc_alloc(r, n), *out = rc_alloc(r, n), *exp = rc_alloc(r, n);
    r->fill(r, s, n, 9, t_rank);
    MPI_Datatype dt;
    MPI_Op op;
    MPI_Type_dup(r->dt, &dt);
    MPI_Op_create(aff_user, 0, &op);
    MPI_Request q;
    t_force("allreduce=recursive_doubling");
    T_MPI(MPI_Iallreduce(s, out, (int)n, dt, op, MPI_COMM_WORLD, &q));
    T_MPI(MPI_Op_free(&op));
    T_MPI(MPI_Type_free(&dt));
    T_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    rc_expect(r, exp, n, 9, 0, t_size);
    rc_check(r, out, exp, n, "Iallreduce after Op_free/Type_free");
    free(s); free(out); free(exp);
    rc_teardown(rc);
}

/* Progress: only MPI_Test is called, on two communicators at once. */
static void round_progress(void)
{
    MPI_Comm dup;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    long n = 50000;
    int *a = t_malloc((size_t)n * sizeof(int)), *b = t_malloc((size_t)n * sizeof(int));
    for (long k = 0; k < n; k++)
        a[k] = t_rank == 0 ? t_val(10, 0, k) : -1;
    int x = t_rank, y = -1;
    MPI_Request q[2];
    t_force("bcast=pipeline:4096");
    T_MPI(MPI_Ibcast(a, (int)n, MPI_INT, 0, MPI_COMM_WORLD, &q[0]));
    T_MPI(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_MAX, dup, &q[1]));
    int done = 0, spins = 0;
    while (done < 2 && spins < 100000000) {
        for (int i = 0; i < 2; i++) {
            int f = 0;
            if (q[i] != MPI_REQUEST_NULL) {
                T_MPI(MPI_Test(&q[i], &f, MPI_STATUS_IGNORE));
                done += f;
            }
        }
        spins++;
    }
    T_CHECK(done == 2, "non-blocking collectives did not complete under MPI_Test");
    check_ints(a, n, 10, 0, "Ibcast under Test");
    T_CHECK(y == t_size - 1, "Iallreduce on dup: %d", y);
    (void)b;
    free(a);
    free(b);
    T_MPI(MPI_Comm_free(&dup));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    static const long ns[] = {0, 1, 100, 3000};
    for (int i = 0; i < 4; i++)
        for (int a = 0; a < 3; a++)
            round_all(ns[i], a);
    t_force(NULL);
    for (int i = 0; i < 4; i++)
        round_v(ns[i]);
    round_free_early();
    round_progress();
    t_force(NULL);
    return t_finish();
}
