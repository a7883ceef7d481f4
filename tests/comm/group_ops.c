/*
 * group_ops: every MPI-1 group function on groups of MPI_COMM_WORLD.
 *  - size/rank (MPI_UNDEFINED outside), MPI_GROUP_EMPTY (size 0)
 *  - translate_ranks (MPI_UNDEFINED, MPI_PROC_NULL), compare
 *    (IDENT/SIMILAR/UNEQUAL), union/intersection/difference order rules
 *  - incl/excl/range_incl/range_excl, negative strides, empty results
 *    (MPI_GROUP_EMPTY), n = 0
 *  - Group_free (also of MPI_GROUP_EMPTY), handle set to MPI_GROUP_NULL
 *  - errors: bad handle (MPI_ERR_GROUP), bad/duplicate ranks
 *    (MPI_ERR_RANK), bad counts and zero strides (MPI_ERR_ARG)
 */
#include "mpitest.h"

static int members(MPI_Group g, int *out, int max)
{
    MPI_Group w;
    int n;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_size(g, &n);
    int *in = t_malloc(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        in[i] = i;
    if (n <= max)
        MPI_Group_translate_ranks(g, n, in, w, out);
    free(in);
    MPI_Group_free(&w);
    return n;
}

#define EXPECT_MEMBERS(g, ...)                                                     \
    do {                                                                           \
        int exp_[] = {__VA_ARGS__};                                                \
        int nexp_ = (int)(sizeof exp_ / sizeof exp_[0]);                           \
        int got_[64];                                                              \
        int n_ = members(g, got_, 64);                                             \
        T_CHECK(n_ == nexp_, "%s: size %d, expected %d", #g, n_, nexp_);           \
        for (int i_ = 0; i_ < n_ && i_ < nexp_; i_++)                              \
            T_CHECK(got_[i_] == exp_[i_], "%s: member %d is %d, expected %d", #g,  \
                    i_, got_[i_], exp_[i_]);                                       \
    } while (0)

static void test_basics(MPI_Group w)
{
    int n, r;
    T_MPI(MPI_Group_size(w, &n));
    T_MPI(MPI_Group_rank(w, &r));
    T_CHECK(n == t_size && r == t_rank, "world group %d/%d", r, n);
    T_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    T_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
    T_CHECK(n == 0 && r == MPI_UNDEFINED, "MPI_GROUP_EMPTY %d/%d", r, n);
    int res;
    T_MPI(MPI_Group_compare(w, w, &res));
    T_CHECK(res == MPI_IDENT, "compare(w, w) = %d", res);
    T_MPI(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &res));
    T_CHECK(res == MPI_IDENT, "compare(empty, empty) = %d", res);
    MPI_Group w2;
    T_MPI(MPI_Comm_group(MPI_COMM_WORLD, &w2));
    T_MPI(MPI_Group_compare(w, w2, &res));
    T_CHECK(res == MPI_IDENT, "two world groups compare %d", res);
    T_MPI(MPI_Group_free(&w2));
    T_CHECK(w2 == MPI_GROUP_NULL, "Group_free did not null the handle");
    /* the self group */
    MPI_Group s;
    T_MPI(MPI_Comm_group(MPI_COMM_SELF, &s));
    T_MPI(MPI_Group_size(s, &n));
    T_MPI(MPI_Group_rank(s, &r));
    T_CHECK(n == 1 && r == 0, "self group %d/%d", r, n);
    int zero = 0, back;
    T_MPI(MPI_Group_translate_ranks(s, 1, &zero, w, &back));
    T_CHECK(back == t_rank, "self rank 0 is world %d", back);
    T_MPI(MPI_Group_free(&s));
}

static void test_incl_excl(MPI_Group w)
{
    int p = t_size;
    MPI_Group g, h;
    /* reverse order */
    int *rev = t_malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++)
        rev[i] = p - 1 - i;
    T_MPI(MPI_Group_incl(w, p, rev, &g));
    int res, r;
    T_MPI(MPI_Group_compare(w, g, &res));
    T_CHECK(res == (p == 1 ? MPI_IDENT : MPI_SIMILAR), "reversed compare %d", res);
    T_MPI(MPI_Group_rank(g, &r));
    T_CHECK(r == p - 1 - t_rank, "rank in reversed %d", r);
    int *tr = t_malloc(sizeof(int) * (size_t)p);
    T_MPI(MPI_Group_translate_ranks(g, p, rev, w, tr));
    for (int i = 0; i < p; i++)
        T_CHECK(tr[i] == i, "translate reversed[%d] = %d", rev[i], tr[i]);
    T_MPI(MPI_Group_free(&g));
    free(tr);
    /* n = 0: empty */
    T_MPI(MPI_Group_incl(w, 0, NULL, &g));
    T_CHECK(g == MPI_GROUP_EMPTY, "incl of nothing is not MPI_GROUP_EMPTY");
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Group_excl(w, p, rev, &g));
    T_CHECK(g == MPI_GROUP_EMPTY, "excl of everything is not MPI_GROUP_EMPTY");
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Group_excl(w, 0, NULL, &g));
    T_MPI(MPI_Group_compare(w, g, &res));
    T_CHECK(res == MPI_IDENT, "excl of nothing compare %d", res);
    T_MPI(MPI_Group_free(&g));
    free(rev);
    if (p >= 4) {
        int odd[] = {3, 1};
        T_MPI(MPI_Group_incl(w, 2, odd, &g));
        EXPECT_MEMBERS(g, 3, 1);
        T_MPI(MPI_Group_excl(w, 2, odd, &h));
        if (p == 4)
            EXPECT_MEMBERS(h, 0, 2);
        T_MPI(MPI_Group_rank(g, &r));
        T_CHECK(r == (t_rank == 3 ? 0 : t_rank == 1 ? 1 : MPI_UNDEFINED), "rank in {3,1}: %d", r);
        /* translate into a group that lacks the process, and PROC_NULL */
        int in[3] = {0, 1, MPI_PROC_NULL}, out[3];
        T_MPI(MPI_Group_translate_ranks(g, 3, in, h, out));
        T_CHECK(out[0] == MPI_UNDEFINED && out[1] == MPI_UNDEFINED && out[2] == MPI_PROC_NULL,
                "translate into disjoint group: %d %d %d", out[0], out[1], out[2]);
        T_MPI(MPI_Group_translate_ranks(g, 0, NULL, h, NULL));
        T_MPI(MPI_Group_compare(g, h, &res));
        T_CHECK(res == MPI_UNEQUAL, "disjoint compare %d", res);
        /* set operations keep the first group's order */
        MPI_Group u, x, d;
        T_MPI(MPI_Group_union(g, h, &u));
        if (p == 4)
            EXPECT_MEMBERS(u, 3, 1, 0, 2);
        T_MPI(MPI_Group_free(&u));
        T_MPI(MPI_Group_union(g, w, &u));
        int want[64], k = 0;
        want[k++] = 3, want[k++] = 1;
        for (int i = 0; i < p; i++)
            if (i != 3 && i != 1)
                want[k++] = i;
        int got[64];
        T_CHECK(members(u, got, 64) == p, "union(g, w) size");
        for (int i = 0; i < p; i++)
            T_CHECK(got[i] == want[i], "union(g, w)[%d] = %d, expected %d", i, got[i], want[i]);
        T_MPI(MPI_Group_free(&u));
        T_MPI(MPI_Group_intersection(w, g, &x));
        EXPECT_MEMBERS(x, 1, 3);
        T_MPI(MPI_Group_free(&x));
        T_MPI(MPI_Group_intersection(g, h, &x));
        T_CHECK(x == MPI_GROUP_EMPTY, "empty intersection is not MPI_GROUP_EMPTY");
        T_MPI(MPI_Group_difference(w, g, &d));
        T_MPI(MPI_Group_compare(d, h, &res));
        T_CHECK(res == MPI_IDENT, "w - g != h: %d", res);
        T_MPI(MPI_Group_free(&d));
        T_MPI(MPI_Group_difference(g, w, &d));
        T_CHECK(d == MPI_GROUP_EMPTY, "g - w is not MPI_GROUP_EMPTY");
        /* operations with the empty group */
        T_MPI(MPI_Group_union(MPI_GROUP_EMPTY, g, &u));
        T_MPI(MPI_Group_compare(u, g, &res));
        T_CHECK(res == MPI_IDENT, "empty + g compare %d", res);
        T_MPI(MPI_Group_free(&u));
        T_MPI(MPI_Group_free(&x));
        T_MPI(MPI_Group_free(&d));
        T_MPI(MPI_Group_free(&g));
        T_MPI(MPI_Group_free(&h));
    }
}

static void test_ranges(MPI_Group w)
{
    int p = t_size;
    MPI_Group g;
    int all[1][3] = {{0, p - 1, 1}};
    T_MPI(MPI_Group_range_incl(w, 1, all, &g));
    int res;
    T_MPI(MPI_Group_compare(w, g, &res));
    T_CHECK(res == MPI_IDENT, "range 0..p-1 compare %d", res);
    T_MPI(MPI_Group_free(&g));
    int back[1][3] = {{p - 1, 0, -1}};
    T_MPI(MPI_Group_range_incl(w, 1, back, &g));
    int r;
    T_MPI(MPI_Group_rank(g, &r));
    T_CHECK(r == p - 1 - t_rank, "negative stride rank %d", r);
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Group_range_excl(w, 1, all, &g));
    T_CHECK(g == MPI_GROUP_EMPTY, "range_excl of all is not MPI_GROUP_EMPTY");
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Group_range_incl(w, 0, NULL, &g));
    T_CHECK(g == MPI_GROUP_EMPTY, "range_incl of no ranges is not MPI_GROUP_EMPTY");
    T_MPI(MPI_Group_free(&g));
    if (p >= 4) {
        /* the even ranks up, then the odd ones down: with p = 4, 0 2 3 1 */
        int rr[2][3] = {{0, p - 1, 2}, {(p - 1) % 2 ? p - 1 : p - 2, 1, -2}};
        T_MPI(MPI_Group_range_incl(w, 2, rr, &g));
        int got[64], n = members(g, got, 64), k = 0;
        for (int i = 0; i < p; i += 2)
            T_CHECK(got[k++] == i, "range even member %d", got[k - 1]);
        for (int i = rr[1][0]; i >= 1; i -= 2)
            T_CHECK(got[k++] == i, "range odd member %d", got[k - 1]);
        T_CHECK(n == p, "ranges cover %d of %d", n, p);
        T_MPI(MPI_Group_free(&g));
        int ex[1][3] = {{1, p - 1, 2}};
        T_MPI(MPI_Group_range_excl(w, 1, ex, &g));
        n = members(g, got, 64);
        T_CHECK(n == (p + 1) / 2, "range_excl odd: size %d", n);
        for (int i = 0; i < n; i++)
            T_CHECK(got[i] == 2 * i, "range_excl odd member %d = %d", i, got[i]);
        T_MPI(MPI_Group_free(&g));
    }
}

static void test_errors(MPI_Group w)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int p = t_size, n, res;
    MPI_Group g = MPI_GROUP_NULL, bad = (MPI_Group)12345;
    T_MPI_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    T_MPI_CLASS(MPI_Group_rank(bad, &n), MPI_ERR_GROUP);
    T_MPI_CLASS(MPI_Group_compare(w, MPI_GROUP_NULL, &res), MPI_ERR_GROUP);
    T_MPI_CLASS(MPI_Group_union(MPI_GROUP_NULL, w, &g), MPI_ERR_GROUP);
    T_MPI_CLASS(MPI_Group_free(&g), MPI_ERR_GROUP);
    int big = p, neg = -1, dup2[2] = {0, 0};
    T_MPI_CLASS(MPI_Group_incl(w, 1, &big, &g), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Group_incl(w, 1, &neg, &g), MPI_ERR_RANK);
    if (p >= 2)
        T_MPI_CLASS(MPI_Group_incl(w, 2, dup2, &g), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Group_incl(w, -1, dup2, &g), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Group_incl(w, p + 1, dup2, &g), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Group_excl(w, 1, &big, &g), MPI_ERR_RANK);
    if (p >= 2)
        T_MPI_CLASS(MPI_Group_excl(w, 2, dup2, &g), MPI_ERR_RANK);
    int out;
    T_MPI_CLASS(MPI_Group_translate_ranks(w, 1, &big, w, &out), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Group_translate_ranks(w, -1, &big, w, &out), MPI_ERR_ARG);
    int zero_stride[1][3] = {{0, p - 1, 0}};
    T_MPI_CLASS(MPI_Group_range_incl(w, 1, zero_stride, &g), MPI_ERR_ARG);
    int outside[1][3] = {{0, p, 1}};
    T_MPI_CLASS(MPI_Group_range_incl(w, 1, outside, &g), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Group_range_excl(w, 1, outside, &g), MPI_ERR_RANK);
    int twice[2][3] = {{0, 0, 1}, {0, 0, 1}};
    T_MPI_CLASS(MPI_Group_range_incl(w, 2, twice, &g), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Group_range_incl(w, -1, twice, &g), MPI_ERR_ARG);
    T_CHECK(g == MPI_GROUP_NULL, "a failed call wrote the output handle");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Freeing MPI_GROUP_EMPTY is allowed; a group outlives its handle inside
 * a communicator. */
static void test_lifetime(MPI_Group w)
{
    MPI_Group e = MPI_GROUP_EMPTY;
    T_MPI(MPI_Group_free(&e));
    T_CHECK(e == MPI_GROUP_NULL, "freeing MPI_GROUP_EMPTY did not null the handle");
    int n;
    T_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
    MPI_Group g;
    T_MPI(MPI_Group_incl(w, 1, &t_rank, &g));
    MPI_Comm c;
    T_MPI(MPI_Comm_create(MPI_COMM_SELF, g, &c));
    T_MPI(MPI_Group_free(&g));
    MPI_Group cg;
    T_MPI(MPI_Comm_group(c, &cg));
    int r;
    T_MPI(MPI_Group_translate_ranks(cg, 1, (int[]){0}, w, &r));
    T_CHECK(r == t_rank, "group of a communicator made from a freed group: %d", r);
    T_MPI(MPI_Group_free(&cg));
    T_MPI(MPI_Comm_free(&c));
    for (int i = 0; i < 1000; i++) {
        T_MPI(MPI_Comm_group(MPI_COMM_WORLD, &g));
        T_MPI(MPI_Group_free(&g));
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Group w;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    test_basics(w);
    test_incl_excl(w);
    test_ranges(w);
    test_errors(w);
    test_lifetime(w);
    MPI_Group_free(&w);
    return t_finish();
}
