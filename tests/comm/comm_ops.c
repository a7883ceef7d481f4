/*
 * comm_ops: intracommunicator constructors and queries.
 *  - compare: IDENT, CONGRUENT (dup), SIMILAR (same members reordered),
 *    UNEQUAL; test_inter; names (set, get, not inherited, truncated)
 *  - dup: a separate context (messages never cross), attributes copied
 *    through their callbacks, delete callbacks run at MPI_Comm_free
 *  - split: several colors, MPI_UNDEFINED, key order and ties, size-1
 *    communicators, every member sees the same membership (allgather)
 *  - create: a subgroup, MPI_GROUP_EMPTY, disjoint subgroups (MPI-2.2)
 *  - create_group: only the members call, two groups at once
 *  - split_type(MPI_COMM_TYPE_SHARED): one node here; MPI_UNDEFINED
 *  - derived of derived (split of a split), COMM_SELF
 */
#include "mpitest.h"

/* Every member of c reports its world rank; check they are `expect`. */
static void check_members(MPI_Comm c, const int *expect, int n, const char *what)
{
    int size, rank;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    T_CHECK(size == n, "%s: size %d, expected %d", what, size, n);
    if (size != n)
        return;
    int *all = t_malloc(sizeof(int) * (size_t)n);
    T_MPI(MPI_Allgather(&t_rank, 1, MPI_INT, all, 1, MPI_INT, c));
    for (int i = 0; i < n; i++)
        T_CHECK(all[i] == expect[i], "%s: rank %d is world %d, expected %d", what, i, all[i],
                expect[i]);
    T_CHECK(all[rank] == t_rank, "%s: my rank %d is not me", what, rank);
    free(all);
}

static void test_compare_and_names(void)
{
    int res, flag;
    MPI_Comm d, s;
    T_MPI(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res));
    T_CHECK(res == MPI_IDENT, "world vs world: %d", res);
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    T_MPI(MPI_Comm_compare(MPI_COMM_WORLD, d, &res));
    T_CHECK(res == MPI_CONGRUENT, "world vs dup: %d", res);
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, t_size - t_rank, &s));
    T_MPI(MPI_Comm_compare(d, s, &res));
    T_CHECK(res == (t_size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "world vs reversed: %d", res);
    T_MPI(MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res));
    T_CHECK(res == (t_size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "self vs world: %d", res);
    T_MPI(MPI_Comm_test_inter(d, &flag));
    T_CHECK(!flag, "dup of world is an intercommunicator");

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    T_MPI(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len));
    T_CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14, "world name '%s' (%d)", name, len);
    T_MPI(MPI_Comm_get_name(MPI_COMM_SELF, name, &len));
    T_CHECK(!strcmp(name, "MPI_COMM_SELF"), "self name '%s'", name);
    T_MPI(MPI_Comm_get_name(d, name, &len));
    T_CHECK(len == 0 && name[0] == '\0', "a dup has a name: '%s'", name);
    T_MPI(MPI_Comm_set_name(d, "solver"));
    T_MPI(MPI_Comm_get_name(d, name, &len));
    T_CHECK(!strcmp(name, "solver") && len == 6, "name '%s' (%d)", name, len);
    MPI_Comm d2;
    T_MPI(MPI_Comm_dup(d, &d2));
    T_MPI(MPI_Comm_get_name(d2, name, &len));
    T_CHECK(len == 0, "the name was inherited by a dup: '%s'", name);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    T_MPI(MPI_Comm_set_name(d2, longname));
    T_MPI(MPI_Comm_get_name(d2, name, &len));
    T_CHECK(len == MPI_MAX_OBJECT_NAME - 1 && (int)strlen(name) == len, "long name kept %d", len);
    T_MPI(MPI_Comm_free(&d2));
    T_MPI(MPI_Comm_free(&s));
    T_MPI(MPI_Comm_free(&d));
    T_CHECK(d == MPI_COMM_NULL, "Comm_free did not null the handle");
}

/* Messages on a duplicate never match receives on the original. */
static void test_isolation(void)
{
    if (t_size < 2)
        return;
    MPI_Comm d;
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    if (t_rank == 0) {
        int a = 1, b = 2;
        T_MPI(MPI_Send(&a, 1, MPI_INT, 1, 5, d));
        T_MPI(MPI_Send(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD));
    } else if (t_rank == 1) {
        int x = 0, y = 0;
        MPI_Status st;
        T_MPI(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        T_MPI(MPI_Recv(&x, 1, MPI_INT, 0, 5, d, &st));
        T_CHECK(x == 1 && y == 2, "messages crossed communicators: dup got %d, world %d", x, y);
    }
    T_MPI(MPI_Comm_free(&d));
}

static int copies, deletes;
static int copy_fn(MPI_Comm c, int kv, void *extra, void *in, void *out, int *flag)
{
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}
static int delete_fn(MPI_Comm c, int kv, void *val, void *extra)
{
    deletes++;
    return MPI_SUCCESS;
}

static void test_attributes(void)
{
    int kv, flag;
    void *v;
    MPI_Comm d, e;
    T_MPI(MPI_Comm_create_keyval(copy_fn, delete_fn, &kv, NULL));
    T_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    T_MPI(MPI_Comm_set_attr(d, kv, (void *)(intptr_t)100));
    T_MPI(MPI_Comm_dup(d, &e));
    T_MPI(MPI_Comm_get_attr(e, kv, &v, &flag));
    T_CHECK(flag && (intptr_t)v == 101 && copies == 1, "dup attribute %d %ld (%d copies)", flag,
            (long)(intptr_t)v, copies);
    T_MPI(MPI_Comm_free(&e));
    T_CHECK(deletes == 1, "delete callback not run at Comm_free (%d)", deletes);
    /* split and create do not copy attributes */
    T_MPI(MPI_Comm_split(d, 0, 0, &e));
    T_MPI(MPI_Comm_get_attr(e, kv, &v, &flag));
    T_CHECK(!flag, "split copied an attribute");
    T_MPI(MPI_Comm_free(&e));
    T_MPI(MPI_Comm_free(&d));
    T_CHECK(deletes == 2, "delete callback count %d", deletes);
    T_MPI(MPI_Comm_free_keyval(&kv));
}

static void test_split(void)
{
    int p = t_size;
    MPI_Comm c;
    int *exp = t_malloc(sizeof(int) * (size_t)p);
    /* three colors, reversed keys */
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, t_rank % 3, -t_rank, &c));
    int n = 0;
    for (int r = p - 1; r >= 0; r--)
        if (r % 3 == t_rank % 3)
            exp[n++] = r;
    check_members(c, exp, n, "split by rank % 3");
    /* split of a split: everyone alone */
    MPI_Comm one;
    T_MPI(MPI_Comm_split(c, t_rank, 0, &one));
    check_members(one, &t_rank, 1, "split into singletons");
    int x = 7, y = 0;
    T_MPI(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, one));
    T_CHECK(y == 7, "allreduce on a size-1 communicator: %d", y);
    T_MPI(MPI_Barrier(one));
    T_MPI(MPI_Comm_free(&one));
    T_MPI(MPI_Comm_free(&c));
    /* equal keys: ties keep the old rank order; MPI_UNDEFINED drops out */
    int color = t_rank == p - 1 && p > 1 ? MPI_UNDEFINED : 1;
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, color, 0, &c));
    if (color == MPI_UNDEFINED) {
        T_CHECK(c == MPI_COMM_NULL, "MPI_UNDEFINED color gave a communicator");
    } else {
        for (int i = 0; i < p - (p > 1); i++)
            exp[i] = i;
        check_members(c, exp, p - (p > 1), "split with ties");
        T_MPI(MPI_Comm_free(&c));
    }
    /* everyone MPI_UNDEFINED */
    T_MPI(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &c));
    T_CHECK(c == MPI_COMM_NULL, "all-undefined split gave a communicator");
    /* size-1 parent */
    T_MPI(MPI_Comm_split(MPI_COMM_SELF, 0, 0, &c));
    check_members(c, &t_rank, 1, "split of COMM_SELF");
    T_MPI(MPI_Comm_free(&c));
    free(exp);
}

static void test_create(void)
{
    int p = t_size;
    MPI_Group w, g;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    /* the even ranks */
    int ranges[1][3] = {{0, p - 1, 2}};
    T_MPI(MPI_Group_range_incl(w, 1, ranges, &g));
    T_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    if (t_rank % 2) {
        T_CHECK(c == MPI_COMM_NULL, "odd rank got a communicator");
    } else {
        int exp[64], n = 0;
        for (int r = 0; r < p; r += 2)
            exp[n++] = r;
        check_members(c, exp, n, "create(even)");
        T_MPI(MPI_Comm_free(&c));
    }
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    T_CHECK(c == MPI_COMM_NULL, "create(MPI_GROUP_EMPTY) gave a communicator");
    /* disjoint subgroups: each parity names its own */
    int pr[1][3] = {{t_rank % 2, p - 1, 2}};
    T_MPI(MPI_Group_range_incl(w, 1, pr, &g));
    T_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    int exp[64], n = 0;
    for (int r = t_rank % 2; r < p; r += 2)
        exp[n++] = r;
    check_members(c, exp, n, "create(parity)");
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Group_free(&g));
    /* the whole group, reordered */
    int *rev = t_malloc(sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++)
        rev[i] = p - 1 - i;
    T_MPI(MPI_Group_incl(w, p, rev, &g));
    T_MPI(MPI_Comm_create(MPI_COMM_WORLD, g, &c));
    check_members(c, rev, p, "create(reversed)");
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Group_free(&g));
    free(rev);
    T_MPI(MPI_Group_free(&w));
}

static void test_create_group(void)
{
    int p = t_size;
    MPI_Group w, g;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    /* two groups at once (even / odd ranks), only members call */
    int pr[1][3] = {{t_rank % 2, p - 1, 2}};
    T_MPI(MPI_Group_range_incl(w, 1, pr, &g));
    T_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 42 + t_rank % 2, &c));
    int exp[64], n = 0;
    for (int r = t_rank % 2; r < p; r += 2)
        exp[n++] = r;
    check_members(c, exp, n, "create_group(parity)");
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Group_free(&g));
    /* a group of ranks 0 and p-1 only; the others go on meanwhile */
    int ends[2] = {0, p - 1};
    T_MPI(MPI_Group_incl(w, p > 1 ? 2 : 1, ends, &g));
    if (t_rank == 0 || t_rank == p - 1) {
        T_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, g, 7, &c));
        check_members(c, ends, p > 1 ? 2 : 1, "create_group(ends)");
        T_MPI(MPI_Comm_free(&c));
    }
    T_MPI(MPI_Group_free(&g));
    T_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 7, &c));
    T_CHECK(c == MPI_COMM_NULL, "create_group(empty) gave a communicator");
    T_MPI(MPI_Group_free(&w));
}

static void test_split_type(void)
{
    MPI_Comm c;
    T_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, t_rank, MPI_INFO_NULL, &c));
    int *exp = t_malloc(sizeof(int) * (size_t)t_size);
    for (int i = 0; i < t_size; i++)
        exp[i] = i;
    check_members(c, exp, t_size, "split_type(shared) on one node");
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &c));
    T_CHECK(c == MPI_COMM_NULL, "split_type(MPI_UNDEFINED) gave a communicator");
    free(exp);
}

static void test_self(void)
{
    MPI_Comm d;
    T_MPI(MPI_Comm_dup(MPI_COMM_SELF, &d));
    check_members(d, &t_rank, 1, "dup(self)");
    int res;
    T_MPI(MPI_Comm_compare(MPI_COMM_SELF, d, &res));
    T_CHECK(res == MPI_CONGRUENT, "self vs its dup: %d", res);
    int v = 3, w = 0;
    T_MPI(MPI_Sendrecv(&v, 1, MPI_INT, 0, 1, &w, 1, MPI_INT, 0, 1, d, MPI_STATUS_IGNORE));
    T_CHECK(w == 3, "send to self on dup(self): %d", w);
    T_MPI(MPI_Comm_free(&d));
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_compare_and_names();
    test_isolation();
    test_attributes();
    test_split();
    test_create();
    test_create_group();
    test_split_type();
    test_self();
    return t_finish();
}
