/* Group functions (MPI-1): queries, set operations, constructors, free. */
#include "api/comm_int.h"

API_WEAK(Group_size)
int PMPI_Group_size(MPI_Group group, int *size)
{
    API_BEGIN("MPI_Group_size");
    group_t *g;
    CHECK_GROUP(group, g);
    CHECK_PTR(size);
    *size = g->size;
    API_END();
}

API_WEAK(Group_rank)
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    API_BEGIN("MPI_Group_rank");
    group_t *g;
    CHECK_GROUP(group, g);
    CHECK_PTR(rank);
    *rank = g->rank;
    API_END();
}

API_WEAK(Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                               int ranks2[])
{
    API_BEGIN("MPI_Group_translate_ranks");
    group_t *a, *b;
    CHECK_GROUP(group1, a);
    CHECK_GROUP(group2, b);
    if (n < 0)
        API_FAIL(MPI_ERR_ARG);
    if (n > 0) {
        CHECK_PTR(ranks1);
        CHECK_PTR(ranks2);
    }
    rc = group_translate(a, n, ranks1, b, ranks2);
    API_END();
}

API_WEAK(Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    API_BEGIN("MPI_Group_compare");
    group_t *a, *b;
    CHECK_GROUP(group1, a);
    CHECK_GROUP(group2, b);
    CHECK_PTR(result);
    *result = group_compare(a, b);
    API_END();
}

typedef int group_op_fn(const group_t *a, const group_t *b, group_t **out);

static int set_op(const char *fname, group_op_fn *fn, MPI_Group group1, MPI_Group group2,
                  MPI_Group *newgroup)
{
    API_BEGIN(fname);
    group_t *a, *b, *g;
    CHECK_GROUP(group1, a);
    CHECK_GROUP(group2, b);
    CHECK_PTR(newgroup);
    rc = fn(a, b, &g);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(g, newgroup);
    API_END();
}

API_WEAK(Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_union", group_union, group1, group2, newgroup);
}

API_WEAK(Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_intersection", group_intersection, group1, group2, newgroup);
}

API_WEAK(Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return set_op("MPI_Group_difference", group_difference, group1, group2, newgroup);
}

API_WEAK(Group_incl)
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    API_BEGIN("MPI_Group_incl");
    group_t *g, *out;
    CHECK_GROUP(group, g);
    CHECK_PTR(newgroup);
    if (n > 0)
        CHECK_PTR(ranks);
    rc = group_incl(g, n, ranks, &out);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(out, newgroup);
    API_END();
}

API_WEAK(Group_excl)
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    API_BEGIN("MPI_Group_excl");
    group_t *g, *out;
    CHECK_GROUP(group, g);
    CHECK_PTR(newgroup);
    if (n > 0)
        CHECK_PTR(ranks);
    rc = group_excl(g, n, ranks, &out);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(out, newgroup);
    API_END();
}

API_WEAK(Group_range_incl)
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    API_BEGIN("MPI_Group_range_incl");
    group_t *g, *out;
    CHECK_GROUP(group, g);
    CHECK_PTR(newgroup);
    if (n > 0)
        CHECK_PTR(ranges);
    rc = group_range_incl(g, n, ranges, &out);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(out, newgroup);
    API_END();
}

API_WEAK(Group_range_excl)
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    API_BEGIN("MPI_Group_range_excl");
    group_t *g, *out;
    CHECK_GROUP(group, g);
    CHECK_PTR(newgroup);
    if (n > 0)
        CHECK_PTR(ranges);
    rc = group_range_excl(g, n, ranges, &out);
    if (rc == MPI_SUCCESS)
        rc = api_group_out(out, newgroup);
    API_END();
}

API_WEAK(Group_free)
int PMPI_Group_free(MPI_Group *group)
{
    API_BEGIN("MPI_Group_free");
    CHECK_PTR(group);
    group_t *g = group_get(*group); /* a stale group (FT) may be freed */
    if (!g)
        API_FAIL(MPI_ERR_GROUP);
    if (!g->predefined) {
        /* the handle goes now; communicators may keep the object */
        group_drop_handle(g);
    }
    *group = MPI_GROUP_NULL;
    API_END();
}
