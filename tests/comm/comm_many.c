/*
 * comm_many (white box): many communicators, context ids.
 *  - 10,000 MPI_Comm_dup + MPI_Comm_free in a loop on 2 processes (3,000
 *    on more), then thousands of splits, creates, intercommunicators,
 *    merges, Cartesian and idup'ed communicators: no context id and no
 *    communicator object is lost
 *    (the free-pair count and the live-communicator list are the same
 *    before and after; more than 8192 creations could not succeed without
 *    reuse anyway);
 *  - reuse: a freed communicator's context pair is the next one taken;
 *  - reproducible: the same sequence of creations gives the same ids, on
 *    every process; live communicators never share a pair.
 * Run it under valgrind (docs/communicators.md) to see that no memory leaks.
 */
#include "mpitest.h"

#include "core/comm.h"

static int free_pairs(void)
{
    uint32_t m[COMM_CTX_WORDS];
    comm_ctx_mask(m);
    int n = 0;
    for (int i = 0; i < COMM_CTX_WORDS; i++)
        n += __builtin_popcount(m[i]);
    return n;
}

static int live_comms(void)
{
    int n = 0;
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c))
        n++;
    return n;
}

static unsigned ctx_of(MPI_Comm h)
{
    comm_t *c = comm_get(h);
    return c ? c->ctx : 0xffffffffu;
}

/* A fixed sequence of creations; ids[] gets every context pair they took. */
#define SEQ_MAX 16
static int sequence(MPI_Comm out[], unsigned ids[])
{
    int k = 0, n = 0;
    MPI_Comm_dup(MPI_COMM_WORLD, &out[k]);
    ids[n++] = ctx_of(out[k++]);
    MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, t_rank, &out[k]);
    ids[n++] = ctx_of(out[k++]);
    int dims[1] = {t_size}, per[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &out[k]);
    ids[n++] = ctx_of(out[k++]);
    MPI_Comm_dup(out[0], &out[k]);
    ids[n++] = ctx_of(out[k++]);
    if (t_size >= 2) {
        /* intercommunicator between the even and the odd ranks */
        MPI_Comm ic;
        MPI_Intercomm_create(out[1], 0, MPI_COMM_WORLD, t_rank % 2 ? 0 : 1, 11, &ic);
        ids[n++] = ctx_of(ic);
        ids[n++] = comm_get(ic)->local_comm->ctx;
        out[k++] = ic;
        MPI_Comm m;
        MPI_Intercomm_merge(ic, t_rank % 2, &m);
        ids[n++] = ctx_of(m);
        out[k++] = m;
    }
    for (int i = n; i < SEQ_MAX; i++)
        ids[i] = 0;
    return k;
}

static void test_reproducible(void)
{
    MPI_Comm a[SEQ_MAX], b[SEQ_MAX];
    unsigned ia[SEQ_MAX], ib[SEQ_MAX];
    int before = free_pairs();
    int ka = sequence(a, ia);
    for (int i = ka - 1; i >= 0; i--)
        MPI_Comm_free(&a[i]);
    T_CHECK(free_pairs() == before, "sequence leaked context pairs: %d free, was %d",
            free_pairs(), before);
    int kb = sequence(b, ib);
    T_CHECK(ka == kb, "sequence made %d then %d communicators", ka, kb);
    for (int i = 0; i < SEQ_MAX; i++)
        T_CHECK(ia[i] == ib[i], "id %d: %u the first time, %u the second", i, ia[i], ib[i]);
    /* live ones are distinct */
    for (int i = 0; i < SEQ_MAX; i++)
        for (int j = i + 1; j < SEQ_MAX; j++)
            T_CHECK(!ib[i] || ib[i] != ib[j], "ids %d and %d are both %u", i, j, ib[i]);
    /* the same on every process (communicators every process is in) */
    unsigned mine[2] = {ib[0], ib[2]}, *all = t_malloc(2 * sizeof(unsigned) * (size_t)t_size);
    MPI_Allgather(mine, 2, MPI_UNSIGNED, all, 2, MPI_UNSIGNED, MPI_COMM_WORLD);
    for (int r = 0; r < t_size; r++)
        T_CHECK(all[2 * r] == mine[0] && all[2 * r + 1] == mine[1],
                "rank %d has ids %u %u, I have %u %u", r, all[2 * r], all[2 * r + 1], mine[0],
                mine[1]);
    free(all);
    for (int i = kb - 1; i >= 0; i--)
        MPI_Comm_free(&b[i]);
}

static void test_reuse(void)
{
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    unsigned x = ctx_of(a);
    MPI_Comm_free(&a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    T_CHECK(ctx_of(b) == x, "freed pair %u not reused (got %u)", x, ctx_of(b));
    MPI_Comm_free(&b);
}

/* 10,000 duplicates on 2 processes (the valgrind run); fewer on more
 * processes, which share few cores in CI. */
static void loops(void)
{
    int big = t_size <= 2;
    int n_dup = big ? 10000 : 3000, n_split = big ? 3000 : 1000;
    int n_inter = big ? 2000 : 500, n_cart = big ? 1000 : 300;
    int pairs = free_pairs(), comms = live_comms();
    for (int i = 0; i < n_dup; i++) {
        MPI_Comm d;
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &d);
        if (rc != MPI_SUCCESS) {
            T_FAIL("MPI_Comm_dup failed at iteration %d: %s", i, t_errstr(rc));
            return;
        }
        MPI_Comm_free(&d);
    }
    T_CHECK(free_pairs() == pairs, "dup loop: %d free pairs, was %d", free_pairs(), pairs);
    for (int i = 0; i < n_split; i++) {
        MPI_Comm s, c;
        MPI_Group g, h;
        MPI_Comm_split(MPI_COMM_WORLD, i % 3 == t_rank % 3 ? 1 : MPI_UNDEFINED, i, &s);
        if (s != MPI_COMM_NULL)
            MPI_Comm_free(&s);
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        int excl = i % t_size;
        MPI_Group_excl(g, 1, &excl, &h);
        MPI_Comm_create(MPI_COMM_WORLD, h, &c);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        MPI_Group_free(&h);
        MPI_Group_free(&g);
    }
    for (int i = 0; i < n_inter; i++) {
        MPI_Comm half, ic, m, d;
        MPI_Comm_split(MPI_COMM_WORLD, t_rank % 2, 0, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, t_rank % 2 ? 0 : 1, i, &ic);
        MPI_Comm_dup(ic, &d);
        MPI_Intercomm_merge(d, 0, &m);
        MPI_Comm_free(&m);
        MPI_Comm_free(&d);
        MPI_Comm_free(&ic);
        MPI_Comm_free(&half);
    }
    for (int i = 0; i < n_cart; i++) {
        MPI_Comm cart, sub, d;
        MPI_Request r;
        int dims[2] = {0, 0}, per[2] = {1, 0}, keep[2] = {1, 0};
        MPI_Dims_create(t_size, 2, dims);
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
        MPI_Cart_sub(cart, keep, &sub);
        MPI_Comm_idup(sub, &d, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Comm_free(&d);
        MPI_Comm_free(&sub);
        MPI_Comm_free(&cart);
    }
    T_CHECK(free_pairs() == pairs, "after all loops: %d free pairs, was %d", free_pairs(), pairs);
    T_CHECK(live_comms() == comms, "after all loops: %d communicators, was %d", live_comms(),
            comms);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    test_reuse();
    test_reproducible();
    loops();
    test_reuse();
    return t_finish();
}
