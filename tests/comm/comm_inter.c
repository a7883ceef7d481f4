/*
 * comm_inter: intercommunicators.
 *  - MPI_Intercomm_create between groups of unequal sizes (A = the first
 *    third of the ranks, B = the rest), with non-zero leaders and a
 *    duplicate of MPI_COMM_WORLD as peer_comm; between two singletons
 *    built on MPI_COMM_SELF
 *  - queries: test_inter, size/rank (local), remote_size, remote_group,
 *    Comm_group, compare (CONGRUENT for a dup)
 *  - point-to-point across: ranks name the remote group, MPI_ANY_SOURCE
 *    status gives the remote rank; a dup is a separate context
 *  - MPI_Intercomm_merge: high flags (0/1, 1/0, equal) and the order of
 *    the result, same on every member
 *  - MPI_Comm_split and MPI_Comm_create on an intercommunicator (colors
 *    missing on one side, MPI_UNDEFINED, an empty group on one side)
 *  - a barrier and a broadcast over it (the collectives' local part)
 */
#include "mpitest.h"

static int nA, inA; /* size of group A, am I in it */

static void world_members(MPI_Group g, int *out, int n)
{
    MPI_Group w;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    int *in = t_malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        in[i] = i;
    MPI_Group_translate_ranks(g, n, in, w, out);
    free(in);
    MPI_Group_free(&w);
}

/* Remote group of ic must be the world ranks `exp` (n of them). */
static void check_remote(MPI_Comm ic, const int *exp, int n, const char *what)
{
    int rs = -1;
    MPI_Group rg;
    T_MPI(MPI_Comm_remote_size(ic, &rs));
    T_CHECK(rs == n, "%s: remote size %d, expected %d", what, rs, n);
    T_MPI(MPI_Comm_remote_group(ic, &rg));
    int got[64];
    if (rs == n && n <= 64) {
        world_members(rg, got, n);
        for (int i = 0; i < n; i++)
            T_CHECK(got[i] == exp[i], "%s: remote %d is world %d, expected %d", what, i, got[i],
                    exp[i]);
    }
    T_MPI(MPI_Group_free(&rg));
}

static MPI_Comm make_inter(MPI_Comm *local_p)
{
    MPI_Comm local, peer, ic;
    /* A = world ranks 0..nA-1 (reversed in local), B = nA..p-1 */
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, inA, inA ? -t_rank : t_rank, &local));
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &peer));
    int lsize;
    MPI_Comm_size(local, &lsize);
    /* leaders: A's last local rank (world 0), B's local rank 0 (world nA) */
    int lleader = inA ? lsize - 1 : 0;
    int rleader = inA ? nA : 0;
    T_MPI(MPI_Intercomm_create(local, lleader, peer, rleader, 1234, &ic));
    T_MPI(MPI_Comm_free(&peer));
    *local_p = local;
    return ic;
}

static void test_queries(MPI_Comm ic)
{
    int flag, size, rank, res;
    T_MPI(MPI_Comm_test_inter(ic, &flag));
    T_CHECK(flag, "test_inter false");
    MPI_Comm_size(ic, &size);
    MPI_Comm_rank(ic, &rank);
    int lsize = inA ? nA : t_size - nA;
    int lrank = inA ? nA - 1 - t_rank : t_rank - nA;
    T_CHECK(size == lsize && rank == lrank, "local %d/%d, expected %d/%d", rank, size, lrank,
            lsize);
    int exp[64], n = 0;
    if (inA)
        for (int r = nA; r < t_size; r++)
            exp[n++] = r;
    else
        for (int r = nA - 1; r >= 0; r--)
            exp[n++] = r;
    check_remote(ic, exp, n, "intercomm");
    MPI_Group g;
    T_MPI(MPI_Comm_group(ic, &g));
    int gs;
    MPI_Group_size(g, &gs);
    T_CHECK(gs == lsize, "Comm_group of an intercomm: size %d", gs);
    MPI_Group_free(&g);
    MPI_Comm d;
    T_MPI(MPI_Comm_dup(ic, &d));
    T_MPI(MPI_Comm_compare(ic, d, &res));
    T_CHECK(res == MPI_CONGRUENT, "intercomm vs dup: %d", res);
    T_MPI(MPI_Comm_compare(ic, MPI_COMM_WORLD, &res));
    T_CHECK(res == MPI_UNEQUAL, "intercomm vs world: %d", res);
    check_remote(d, exp, n, "dup of intercomm");
    T_MPI(MPI_Comm_free(&d));
}

/* Each local rank i sends (i, world) to remote rank i % rsize; every
 * remote rank receives what is meant for it with MPI_ANY_SOURCE. */
static void test_p2p(MPI_Comm ic, const char *what, int check_layout)
{
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    int msg[2] = {rank, t_rank};
    MPI_Request sr;
    T_MPI(MPI_Isend(msg, 2, MPI_INT, rank % rsize, 77, ic, &sr));
    /* how many remote ranks i have i % size == rank */
    int expect = 0;
    for (int i = 0; i < rsize; i++)
        if (i % size == rank)
            expect++;
    for (int k = 0; k < expect; k++) {
        int in[2];
        MPI_Status st;
        T_MPI(MPI_Recv(in, 2, MPI_INT, MPI_ANY_SOURCE, 77, ic, &st));
        T_CHECK(st.MPI_SOURCE == in[0] && in[0] % size == rank, "%s: from %d says %d", what,
                st.MPI_SOURCE, in[0]);
        int inOther = in[1] < nA;
        T_CHECK(inOther != inA, "%s: message from my own group (world %d)", what, in[1]);
    }
    T_MPI(MPI_Wait(&sr, MPI_STATUS_IGNORE));
    /* a specific source: remote rank 0 <-> remote rank 0 */
    if (rank == 0) {
        int v = t_rank, got = -1;
        T_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 5, &got, 1, MPI_INT, 0, 5, ic, MPI_STATUS_IGNORE));
        int other0 = inA ? nA : nA - 1;
        T_CHECK(!check_layout || got == other0, "%s: remote rank 0 is world %d, expected %d", what, got, other0);
    }
}

static void check_merged(MPI_Comm m, int a_first, const char *what)
{
    int p = t_size, size, rank;
    MPI_Comm_size(m, &size);
    MPI_Comm_rank(m, &rank);
    T_CHECK(size == p, "%s: size %d", what, size);
    int *all = t_malloc(sizeof(int) * (size_t)p);
    T_MPI(MPI_Allgather(&t_rank, 1, MPI_INT, all, 1, MPI_INT, m));
    /* A's order is its local order (reversed world), B's is world order */
    int k = 0, *exp = t_malloc(sizeof(int) * (size_t)p);
    for (int part = 0; part < 2; part++) {
        int doA = a_first ? part == 0 : part == 1;
        if (doA)
            for (int r = nA - 1; r >= 0; r--)
                exp[k++] = r;
        else
            for (int r = nA; r < p; r++)
                exp[k++] = r;
    }
    for (int i = 0; i < p; i++)
        T_CHECK(all[i] == exp[i], "%s: merged rank %d is world %d, expected %d", what, i, all[i],
                exp[i]);
    free(all);
    free(exp);
}

static void test_merge(MPI_Comm ic)
{
    MPI_Comm m;
    T_MPI(MPI_Intercomm_merge(ic, inA ? 0 : 1, &m));
    check_merged(m, 1, "merge(A low)");
    T_MPI(MPI_Comm_free(&m));
    T_MPI(MPI_Intercomm_merge(ic, inA ? 1 : 0, &m));
    check_merged(m, 0, "merge(A high)");
    T_MPI(MPI_Comm_free(&m));
    /* equal flags: some order, the same everywhere (checked by allgather
     * agreeing with one of the two) */
    T_MPI(MPI_Intercomm_merge(ic, 1, &m));
    int first;
    int *all = t_malloc(sizeof(int) * (size_t)t_size);
    MPI_Allgather(&t_rank, 1, MPI_INT, all, 1, MPI_INT, m);
    first = all[0];
    free(all);
    check_merged(m, first == nA - 1, "merge(equal)");
    T_MPI(MPI_Comm_free(&m));
}

static void test_split_create(MPI_Comm ic)
{
    int rank, size, rsize;
    MPI_Comm_rank(ic, &rank);
    MPI_Comm_size(ic, &size);
    MPI_Comm_remote_size(ic, &rsize);
    /* color = local rank % 2; key reverses; a color may be missing remotely */
    MPI_Comm s;
    int color = rank % 2;
    T_MPI(MPI_Comm_split(ic, color, -rank, &s));
    int remote_with_color = rsize / 2 + (color == 0 ? rsize % 2 : 0);
    if (remote_with_color == 0) {
        T_CHECK(s == MPI_COMM_NULL, "split: color %d has no remote members, got a comm", color);
    } else {
        T_CHECK(s != MPI_COMM_NULL, "split: no communicator for color %d", color);
        int flag, sr;
        MPI_Comm_test_inter(s, &flag);
        MPI_Comm_remote_size(s, &sr);
        T_CHECK(flag && sr == remote_with_color, "split: remote size %d, expected %d", sr,
                remote_with_color);
        test_p2p(s, "split intercomm", 0);
        T_MPI(MPI_Comm_free(&s));
    }
    /* MPI_UNDEFINED on one side: nobody gets anything */
    T_MPI(MPI_Comm_split(ic, inA ? MPI_UNDEFINED : 0, 0, &s));
    T_CHECK(s == MPI_COMM_NULL, "split with an undefined side gave a communicator");
    /* create: A keeps its local rank 0, B keeps everyone */
    MPI_Group g, sub;
    MPI_Comm_group(ic, &g);
    int zero = 0;
    if (inA)
        MPI_Group_incl(g, 1, &zero, &sub);
    else
        MPI_Group_incl(g, 0, NULL, &sub), MPI_Group_free(&sub), MPI_Comm_group(ic, &sub);
    MPI_Comm c;
    T_MPI(MPI_Comm_create(ic, sub, &c));
    if (inA && rank != 0) {
        T_CHECK(c == MPI_COMM_NULL, "create: a process outside the group got a comm");
    } else {
        int sr = -1;
        if (c != MPI_COMM_NULL)
            MPI_Comm_remote_size(c, &sr);
        T_CHECK(sr == (inA ? t_size - nA : 1), "create: remote size %d", sr);
        if (c != MPI_COMM_NULL) {
            test_p2p(c, "created intercomm", 0);
            T_MPI(MPI_Comm_free(&c));
        }
    }
    MPI_Group_free(&sub);
    /* an empty group on one side: MPI_COMM_NULL everywhere */
    T_MPI(MPI_Comm_create(ic, inA ? MPI_GROUP_EMPTY : g, &c));
    T_CHECK(c == MPI_COMM_NULL, "create with an empty side gave a communicator");
    MPI_Group_free(&g);
}

static void test_collectives(MPI_Comm ic)
{
    T_MPI(MPI_Barrier(ic));
    int rank;
    MPI_Comm_rank(ic, &rank);
    int v = inA ? 4242 : -1;
    int root = inA ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    T_MPI(MPI_Bcast(&v, 1, MPI_INT, root, ic));
    T_CHECK(v == 4242, "intercomm bcast: %d", v);
}

/* Pairs of singletons: rank 2i and 2i+1 over MPI_COMM_SELF. */
static void test_singletons(void)
{
    int partner = t_rank ^ 1;
    if (partner >= t_size)
        return;
    MPI_Comm ic;
    T_MPI(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, partner, 9, &ic));
    check_remote(ic, &partner, 1, "singleton intercomm");
    int v = t_rank, got = -1;
    T_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, ic, MPI_STATUS_IGNORE));
    T_CHECK(got == partner, "singleton exchange: %d", got);
    MPI_Comm m;
    T_MPI(MPI_Intercomm_merge(ic, t_rank > partner, &m));
    int mr;
    MPI_Comm_rank(m, &mr);
    T_CHECK(mr == (t_rank > partner), "singleton merge rank %d", mr);
    T_MPI(MPI_Comm_free(&m));
    T_MPI(MPI_Comm_free(&ic));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    t_need(2);
    nA = t_size / 3 > 0 ? t_size / 3 : 1;
    inA = t_rank < nA;
    MPI_Comm local, ic;
    ic = make_inter(&local);
    test_queries(ic);
    test_p2p(ic, "intercomm", 1);
    MPI_Comm d;
    T_MPI(MPI_Comm_dup(ic, &d));
    test_p2p(d, "dup of intercomm", 1);
    T_MPI(MPI_Comm_free(&d));
    test_merge(ic);
    test_split_create(ic);
    test_collectives(ic);
    T_MPI(MPI_Comm_free(&ic));
    T_MPI(MPI_Comm_free(&local));
    test_singletons();
    return t_finish();
}
