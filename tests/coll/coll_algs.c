/*
 * coll_algs: every collective, with every algorithm forced in turn, on
 * every root (0, p-1, p/2), counts 0, 1, 5, 300 and 5000 elements, MPI_INT
 * and a vector type with holes, MPI_IN_PLACE where the standard allows it,
 * compared with a sequential reference computed locally (coll_test.h).
 * Pipelined algorithms are forced with small segments as well, so that
 * every message is cut into many pieces.
 */
#include "coll_red.h"

static const long counts[] = {0, 1, 5, 300, 5000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))
static int seed = 1;

#define FOR_ALGS(list, var) \
    for (const char *const *var = list; *var; var++)

static const char *const bcast_algs[] = {"bcast=binomial", "bcast=pipeline:1024",
    "bcast=pipeline", "bcast=bintree:512", "bcast=bintree", "bcast=scatter_allgather", "bcast=sm", NULL};
static const char *const gather_algs[] = {"gather=linear", "gather=binomial", "gather=sm", NULL};
static const char *const scatter_algs[] = {"scatter=linear", "scatter=binomial", "scatter=sm", NULL};
static const char *const allgather_algs[] = {"allgather=ring", "allgather=recursive_doubling",
    "allgather=bruck", "allgather=sm", NULL};
static const char *const allgatherv_algs[] = {"allgatherv=ring", "allgatherv=linear", NULL};
static const char *const alltoall_algs[] = {"alltoall=linear", "alltoall=pairwise",
    "alltoall=bruck", "alltoall=sm", NULL};
static const char *const alltoallv_algs[] = {"alltoallv=linear", "alltoallv=pairwise", NULL};
static const char *const reduce_algs[] = {"reduce=binomial", "reduce=pipeline:512",
    "reduce=pipeline", "reduce=sm", NULL};
static const char *const allreduce_algs[] = {"allreduce=recursive_doubling",
    "allreduce=rabenseifner", "allreduce=ring", "allreduce=ring:256",
    "allreduce=reduce_bcast", "allreduce=sm", NULL};
static const char *const rs_algs[] = {"reduce_scatter=reduce_scatterv", "reduce_scatter=ring",
    "reduce_scatter=sm", NULL};
static const char *const scan_algs[] = {"scan=linear", "scan=recursive_doubling", NULL};

static void test_bcast(const tb_t *t, long n, const char *alg)
{
    int roots[3], nr = t_roots(t_size, roots);
    int *exp = t_malloc((size_t)tb_len(t, n) * sizeof(int) + 1);
    for (int ri = 0; ri < nr; ri++) {
        int root = roots[ri];
        int *b = tb_alloc(t, n);
        if (t_rank == root)
            tb_fill(t, b, n, seed, root, 0);
        T_MPI(MPI_Bcast(b, (int)n, t->dt, root, MPI_COMM_WORLD));
        t_expect_block(exp, tb_len(t, n), seed, root, 0);
        tb_check(t, b, exp, n, alg);
        free(b);
        seed++;
    }
    free(exp);
}

/* Root sends n vectors, the others receive 6n ints: same signature. */
static void test_bcast_mixed(const tb_t *vec, long n, const char *alg)
{
    tb_t ti;
    tb_init_int(&ti);
    int root = t_size - 1;
    const tb_t *t = t_rank == root ? vec : &ti;
    long cnt = t_rank == root ? n : n * vec->ipe;
    int *b = tb_alloc(t, cnt);
    int *exp = t_malloc((size_t)tb_len(t, cnt) * sizeof(int) + 1);
    if (t_rank == root)
        tb_fill(t, b, cnt, seed, root, 0);
    T_MPI(MPI_Bcast(b, (int)cnt, t->dt, root, MPI_COMM_WORLD));
    t_expect_block(exp, tb_len(t, cnt), seed, root, 0);
    tb_check(t, b, exp, cnt, alg);
    free(b);
    free(exp);
    seed++;
}

static void test_gather(const tb_t *t, long n, const char *alg, int in_place)
{
    int roots[3], nr = t_roots(t_size, roots);
    long bl = tb_len(t, n);
    int *exp = t_malloc((size_t)(bl * t_size) * sizeof(int) + 1);
    for (int ri = 0; ri < nr; ri++) {
        int root = roots[ri];
        int *s = tb_alloc(t, n), *r = tb_alloc(t, n * t_size);
        tb_fill(t, s, n, seed, t_rank, 0);
        if (in_place && t_rank == root)
            tb_fill(t, r + (long)root * n * t->ext, n, seed, root, 0);
        const void *sb = in_place && t_rank == root ? MPI_IN_PLACE : s;
        T_MPI(MPI_Gather(sb, (int)n, t->dt, r, (int)n, t->dt, root, MPI_COMM_WORLD));
        if (t_rank == root) {
            for (int i = 0; i < t_size; i++)
                t_expect_block(exp + i * bl, bl, seed, i, 0);
            tb_check(t, r, exp, n * t_size, alg);
        }
        free(s);
        free(r);
        seed++;
    }
    free(exp);
}

static void test_scatter(const tb_t *t, long n, const char *alg, int in_place)
{
    int roots[3], nr = t_roots(t_size, roots);
    long bl = tb_len(t, n);
    int *exp = t_malloc((size_t)bl * sizeof(int) + 1);
    for (int ri = 0; ri < nr; ri++) {
        int root = roots[ri];
        int *s = tb_alloc(t, n * t_size), *r = tb_alloc(t, n);
        if (t_rank == root)
            for (int i = 0; i < t_size; i++)
                tb_fill(t, s + (long)i * n * t->ext, n, seed, i, 0);
        void *rb = in_place && t_rank == root ? MPI_IN_PLACE : r;
        T_MPI(MPI_Scatter(s, (int)n, t->dt, rb, (int)n, t->dt, root, MPI_COMM_WORLD));
        t_expect_block(exp, bl, seed, t_rank, 0);
        if (rb == MPI_IN_PLACE) { /* the root's block stays where it is */
            memcpy(r, s + (long)root * n * t->ext, (size_t)(n * t->ext) * sizeof(int));
            tb_check(t, r, exp, n, alg);
        } else
            tb_check(t, r, exp, n, alg);
        free(s);
        free(r);
        seed++;
    }
    free(exp);
}

/* v-variants: rank i's block has cnt(i) elements, placed in reverse rank
 * order with one element of gap; some blocks are empty. */
static long vcnt(long n, int i) { return i % 3 == 1 ? 0 : n + i; }
static void vlayout(long n, int *cnts, int *displs, long *total)
{
    long at = 0;
    for (int i = t_size - 1; i >= 0; i--) {
        cnts[i] = (int)vcnt(n, i);
        displs[i] = (int)at;
        at += cnts[i] + 1;
    }
    *total = at;
}

static void test_gatherv_scatterv(const tb_t *t, long n)
{
    int cnts[64], displs[64];
    long total;
    vlayout(n, cnts, displs, &total);
    int roots[3], nr = t_roots(t_size, roots);
    for (int ri = 0; ri < nr; ri++) {
        int root = roots[ri];
        long mine = cnts[t_rank];
        int *s = tb_alloc(t, mine), *r = tb_alloc(t, total);
        int *exp = t_malloc((size_t)tb_len(t, n + t_size) * sizeof(int) + 1);
        tb_fill(t, s, mine, seed, t_rank, 0);
        T_MPI(MPI_Gatherv(s, (int)mine, t->dt, r, cnts, displs, t->dt, root, MPI_COMM_WORLD));
        if (t_rank == root)
            for (int i = 0; i < t_size; i++) {
                t_expect_block(exp, tb_len(t, cnts[i]), seed, i, 0);
                tb_check(t, r + (long)displs[i] * t->ext, exp, cnts[i], "gatherv");
            }
        seed++;
        /* scatterv back: root's r holds block i for rank i */
        int *r2 = tb_alloc(t, mine);
        if (t_rank == root)
            for (int i = 0; i < t_size; i++)
                tb_fill(t, r + (long)displs[i] * t->ext, cnts[i], seed, i, 0);
        T_MPI(MPI_Scatterv(r, cnts, displs, t->dt, r2, (int)mine, t->dt, root, MPI_COMM_WORLD));
        t_expect_block(exp, tb_len(t, mine), seed, t_rank, 0);
        tb_check(t, r2, exp, mine, "scatterv");
        seed++;
        free(s);
        free(r);
        free(r2);
        free(exp);
    }
}

static void test_allgather(const tb_t *t, long n, const char *alg, int in_place)
{
    long bl = tb_len(t, n);
    int *s = tb_alloc(t, n), *r = tb_alloc(t, n * t_size);
    int *exp = t_malloc((size_t)(bl * t_size) * sizeof(int) + 1);
    tb_fill(t, s, n, seed, t_rank, 0);
    if (in_place)
        tb_fill(t, r + (long)t_rank * n * t->ext, n, seed, t_rank, 0);
    T_MPI(MPI_Allgather(in_place ? MPI_IN_PLACE : s, (int)n, t->dt, r, (int)n, t->dt,
                        MPI_COMM_WORLD));
    for (int i = 0; i < t_size; i++)
        t_expect_block(exp + i * bl, bl, seed, i, 0);
    tb_check(t, r, exp, n * t_size, alg);
    free(s);
    free(r);
    free(exp);
    seed++;
}

static void test_allgatherv(const tb_t *t, long n, const char *alg, int in_place)
{
    int cnts[64], displs[64];
    long total;
    vlayout(n, cnts, displs, &total);
    long mine = cnts[t_rank];
    int *s = tb_alloc(t, mine), *r = tb_alloc(t, total);
    int *exp = t_malloc((size_t)tb_len(t, n + t_size) * sizeof(int) + 1);
    tb_fill(t, s, mine, seed, t_rank, 0);
    if (in_place)
        tb_fill(t, r + (long)displs[t_rank] * t->ext, mine, seed, t_rank, 0);
    T_MPI(MPI_Allgatherv(in_place ? MPI_IN_PLACE : s, (int)mine, t->dt, r, cnts, displs, t->dt,
                         MPI_COMM_WORLD));
    for (int i = 0; i < t_size; i++) {
        t_expect_block(exp, tb_len(t, cnts[i]), seed, i, 0);
        tb_check(t, r + (long)displs[i] * t->ext, exp, cnts[i], alg);
    }
    free(s);
    free(r);
    free(exp);
    seed++;
}

/* Block from rank i to rank j is t_val(seed, i * 64 + j, k). */
static void test_alltoall(const tb_t *t, long n, const char *alg, int in_place)
{
    long bl = tb_len(t, n);
    int *s = tb_alloc(t, n * t_size), *r = tb_alloc(t, n * t_size);
    int *exp = t_malloc((size_t)(bl * t_size) * sizeof(int) + 1);
    for (int j = 0; j < t_size; j++)
        tb_fill(t, (in_place ? r : s) + (long)j * n * t->ext, n, seed, t_rank * 64 + j, 0);
    T_MPI(MPI_Alltoall(in_place ? MPI_IN_PLACE : s, (int)n, t->dt, r, (int)n, t->dt,
                       MPI_COMM_WORLD));
    for (int i = 0; i < t_size; i++)
        t_expect_block(exp + i * bl, bl, seed, i * 64 + t_rank, 0);
    tb_check(t, r, exp, n * t_size, alg);
    free(s);
    free(r);
    free(exp);
    seed++;
}

/* Alltoallv: i sends (i + j) % 3 * n / 2 + (j == i) elements to j. */
static int a2v(long n, int i, int j) { return (int)((i + j) % 3 * n / 2 + (i == j)); }

static void test_alltoallv(const tb_t *t, long n, const char *alg, int in_place, int w)
{
    int sc[64], sd[64], rcn[64], rd[64];
    MPI_Datatype sts[64], rts[64];
    long stot = 0, rtot = 0;
    for (int j = t_size - 1; j >= 0; j--) { /* reversed placement, gaps of 1 */
        sc[j] = a2v(n, t_rank, j);
        sd[j] = (int)stot;
        stot += sc[j] + 1;
        rcn[j] = a2v(n, j, t_rank);
        rd[j] = (int)rtot;
        rtot += rcn[j] + 1;
    }
    if (in_place) { /* the same layout for sending and receiving */
        for (int j = 0; j < t_size; j++) {
            sc[j] = rcn[j];
            sd[j] = rd[j];
        }
        stot = rtot;
    }
    int *s = tb_alloc(t, stot), *r = tb_alloc(t, rtot);
    int *exp = t_malloc((size_t)tb_len(t, 2 * n + 2) * sizeof(int) + 1);
    for (int j = 0; j < t_size; j++)
        tb_fill(t, (in_place ? r : s) + (long)sd[j] * t->ext, sc[j], seed, t_rank * 64 + j, 0);
    if (w) {
        int sdb[64], rdb[64];
        for (int j = 0; j < t_size; j++) {
            sdb[j] = sd[j] * t->ext * (int)sizeof(int);
            rdb[j] = rd[j] * t->ext * (int)sizeof(int);
            sts[j] = rts[j] = t->dt;
        }
        T_MPI(MPI_Alltoallw(in_place ? MPI_IN_PLACE : s, sc, sdb, sts, r, rcn, rdb, rts,
                            MPI_COMM_WORLD));
    } else {
        T_MPI(MPI_Alltoallv(in_place ? MPI_IN_PLACE : s, sc, sd, t->dt, r, rcn, rd, t->dt,
                            MPI_COMM_WORLD));
    }
    for (int i = 0; i < t_size; i++) {
        t_expect_block(exp, tb_len(t, rcn[i]), seed, i * 64 + t_rank, 0);
        tb_check(t, r + (long)rd[i] * t->ext, exp, rcn[i], alg);
    }
    free(s);
    free(r);
    free(exp);
    seed++;
}

/* ---- reductions ---------------------------------------------------------- */

static void test_reduce(const rcase_t *rc, long n, const char *alg, int in_place)
{
    int roots[3], nr = t_roots(t_size, roots);
    for (int ri = 0; ri < nr; ri++) {
        int root = roots[ri];
        void *s = rc_alloc(rc, n), *r = rc_alloc(rc, n), *exp = rc_alloc(rc, n);
        rc->fill(rc, in_place && t_rank == root ? r : s, n, seed, t_rank);
        const void *sb = in_place && t_rank == root ? MPI_IN_PLACE : s;
        T_MPI(MPI_Reduce(sb, r, (int)n, rc->dt, rc->op, root, MPI_COMM_WORLD));
        if (t_rank == root) {
            rc_expect(rc, exp, n, seed, 0, t_size);
            rc_check(rc, r, exp, n, alg);
        }
        free(s);
        free(r);
        free(exp);
        seed++;
    }
}

static void test_allreduce(const rcase_t *rc, long n, const char *alg, int in_place)
{
    void *s = rc_alloc(rc, n), *r = rc_alloc(rc, n), *exp = rc_alloc(rc, n);
    rc->fill(rc, in_place ? r : s, n, seed, t_rank);
    T_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : s, r, (int)n, rc->dt, rc->op, MPI_COMM_WORLD));
    rc_expect(rc, exp, n, seed, 0, t_size);
    rc_check(rc, r, exp, n, alg);
    free(s);
    free(r);
    free(exp);
    seed++;
}

/* Reduce_scatter with pieces cnt(i) (some empty), and _block. */
static void test_reduce_scatter(const rcase_t *rc, long n, const char *alg, int in_place,
                                int block)
{
    int cnts[64];
    long total = 0;
    for (int i = 0; i < t_size; i++) {
        cnts[i] = block ? (int)n : (int)vcnt(n, i);
        total += cnts[i];
    }
    void *s = rc_alloc(rc, total), *r = rc_alloc(rc, total), *exp = rc_alloc(rc, total);
    rc->fill(rc, in_place ? r : s, total, seed, t_rank);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    if (block)
        T_MPI(MPI_Reduce_scatter_block(sb, r, (int)n, rc->dt, rc->op, MPI_COMM_WORLD));
    else
        T_MPI(MPI_Reduce_scatter(sb, r, cnts, rc->dt, rc->op, MPI_COMM_WORLD));
    rc_expect(rc, exp, total, seed, 0, t_size);
    long off = 0;
    for (int i = 0; i < t_rank; i++)
        off += cnts[i];
    /* compare my piece; with MPI_IN_PLACE the rest of r is unspecified */
    const unsigned char *g = r, *e = exp;
    if (memcmp(g, e + off * rc->ext, rc->ext * (size_t)cnts[t_rank]) != 0)
        T_FAIL("%s%s: %s: piece of rank %d wrong (n=%ld)", alg, block ? " block" : "", rc->name,
               t_rank, n);
    free(s);
    free(r);
    free(exp);
    seed++;
}

static void test_scan(const rcase_t *rc, long n, const char *alg, int in_place, int ex)
{
    void *s = rc_alloc(rc, n), *r = rc_alloc(rc, n), *exp = rc_alloc(rc, n);
    rc->fill(rc, in_place ? r : s, n, seed, t_rank);
    const void *sb = in_place ? MPI_IN_PLACE : s;
    if (ex)
        T_MPI(MPI_Exscan(sb, r, (int)n, rc->dt, rc->op, MPI_COMM_WORLD));
    else
        T_MPI(MPI_Scan(sb, r, (int)n, rc->dt, rc->op, MPI_COMM_WORLD));
    if (!ex || t_rank > 0) {
        rc_expect(rc, exp, n, seed, 0, ex ? t_rank : t_rank + 1);
        rc_check(rc, r, exp, n, alg);
    }
    free(s);
    free(r);
    free(exp);
    seed++;
}

/* With the shared-memory variants forced, small blocking calls must really
 * take them (not fall back to point-to-point), else the "=sm" runs above
 * test nothing new. Not over TCP, where the component is off. */
static void check_sm_taken(void)
{
    const char *tp = getenv("FTMPI_TRANSPORT"), *off = getenv("FTMPI_COLL_SM");
    if (t_size < 2 || (tp && !strcmp(tp, "tcp")) || (off && !strcmp(off, "0")))
        return;
    int in[64], out[64], cnt[64];
    for (int i = 0; i < 64; i++)
        in[i] = i, cnt[i] = 1;
    static const char *const kinds[] = {"gather", "scatter", "allgather", "alltoall",
                                        "reduce_scatter"};
    t_force("gather=sm,scatter=sm,allgather=sm,alltoall=sm,reduce_scatter=sm");
    T_MPI(MPI_Gather(in, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD));
    T_MPI(MPI_Scatter(in, 1, MPI_INT, out, 1, MPI_INT, 0, MPI_COMM_WORLD));
    T_MPI(MPI_Allgather(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD));
    T_MPI(MPI_Alltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD));
    T_MPI(MPI_Reduce_scatter(in, out, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int k = 0; k < 5; k++) {
        char alg[32];
        unsigned long n;
        T_MPI(FTMPI_Coll_last_algorithm(kinds[k], alg, (int)sizeof(alg), &n));
        if (strcmp(alg, "sm") != 0)
            T_FAIL("%s with sm forced ran '%s'", kinds[k], alg);
    }
    t_force(NULL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    tb_t types[2];
    tb_init_int(&types[0]);
    tb_init_vec(&types[1]);
    rcase_t rc[3];
    int nrc = rc_setup(rc);

    for (int ci = 0; ci < NCOUNTS; ci++) {
        long n = counts[ci];
        if (quick && n > 300)
            continue;
        for (int ti = 0; ti < 2; ti++) {
            const tb_t *t = &types[ti];
            long nn = ti ? (n + 5) / 6 : n; /* about as many ints for both types */
            FOR_ALGS(bcast_algs, a) { t_force(*a); test_bcast(t, nn, *a); }
            FOR_ALGS(gather_algs, a) { t_force(*a); test_gather(t, nn, *a, 0); test_gather(t, nn, *a, 1); }
            FOR_ALGS(scatter_algs, a) { t_force(*a); test_scatter(t, nn, *a, 0); test_scatter(t, nn, *a, 1); }
            test_gatherv_scatterv(t, nn);
            FOR_ALGS(allgather_algs, a) { t_force(*a); test_allgather(t, nn, *a, 0); test_allgather(t, nn, *a, 1); }
            FOR_ALGS(allgatherv_algs, a) { t_force(*a); test_allgatherv(t, nn, *a, 0); test_allgatherv(t, nn, *a, 1); }
            FOR_ALGS(alltoall_algs, a) { t_force(*a); test_alltoall(t, nn, *a, 0); test_alltoall(t, nn, *a, 1); }
            FOR_ALGS(alltoallv_algs, a) {
                t_force(*a);
                for (int w = 0; w < 2; w++) { test_alltoallv(t, nn, *a, 0, w); test_alltoallv(t, nn, *a, 1, w); }
            }
        }
        FOR_ALGS(bcast_algs, a) { t_force(*a); test_bcast_mixed(&types[1], (n + 5) / 6, *a); }
        for (int k = 0; k < nrc; k++) {
            const rcase_t *r = &rc[k];
            long nn = k == 1 ? (n + 5) / 6 : k == 2 ? (n + 3) / 4 : n;
            FOR_ALGS(reduce_algs, a) { t_force(*a); test_reduce(r, nn, *a, 0); test_reduce(r, nn, *a, 1); }
            FOR_ALGS(allreduce_algs, a) { t_force(*a); test_allreduce(r, nn, *a, 0); test_allreduce(r, nn, *a, 1); }
            FOR_ALGS(rs_algs, a) {
                t_force(*a);
                for (int b = 0; b < 2; b++) { test_reduce_scatter(r, nn, *a, 0, b); test_reduce_scatter(r, nn, *a, 1, b); }
            }
            FOR_ALGS(scan_algs, a) {
                t_force(*a);
                for (int ex = 0; ex < 2; ex++) { test_scan(r, nn, *a, 0, ex); test_scan(r, nn, *a, 1, ex); }
            }
        }
        t_force(NULL);
    }
    check_sm_taken();
    rc_teardown(rc);
    tb_free(&types[1]);
    return t_finish();
}
