/*
 * The large-count datatype functions: every constructor, the envelope and
 * contents queries, and the pack functions, with small values (the int
 * layout) and with values beyond INT_MAX (sizes, extents and contents
 * checked; no memory behind them).
 */
#include "../mpi/mpitest.h"

#define BIG 3000000000LL

static void size_extent(MPI_Datatype t, MPI_Count size, MPI_Count lb, MPI_Count extent,
                        const char *what)
{
    MPI_Count s = -1, l = -1, e = -1;
    T_MPI(MPI_Type_size_c(t, &s));
    T_MPI(MPI_Type_get_extent_c(t, &l, &e));
    T_CHECK(s == size && l == lb && e == extent, "%s: size %lld lb %lld extent %lld, want %lld %lld %lld",
            what, s, l, e, size, lb, extent);
}

static void envelope_is(MPI_Datatype t, MPI_Count ni, MPI_Count na, MPI_Count nl, MPI_Count nd,
                        int comb, const char *what)
{
    MPI_Count i = -1, a = -1, l = -1, d = -1;
    int c = -1;
    T_MPI(MPI_Type_get_envelope_c(t, &i, &a, &l, &d, &c));
    T_CHECK(i == ni && a == na && l == nl && d == nd && c == comb,
            "%s: envelope_c %lld %lld %lld %lld combiner %d", what, i, a, l, d, c);
}

static void constructors_small(void)
{
    MPI_Datatype t;
    MPI_Count bl[2] = {2, 1}, d[2] = {0, 3}, bd[2] = {0, 12};
    T_MPI(MPI_Type_contiguous_c(3, MPI_INT, &t));
    size_extent(t, 12, 0, 12, "contiguous_c(3)");
    envelope_is(t, 1, 0, 0, 1, MPI_COMBINER_CONTIGUOUS, "contiguous_c(3)");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_vector_c(2, 3, 4, MPI_INT, &t));
    size_extent(t, 24, 0, 28, "vector_c(2,3,4)");
    envelope_is(t, 3, 0, 0, 1, MPI_COMBINER_VECTOR, "vector_c(2,3,4)");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_hvector_c(2, 2, 16, MPI_INT, &t));
    size_extent(t, 16, 0, 24, "hvector_c(2,2,16)");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_indexed_c(2, bl, d, MPI_INT, &t));
    size_extent(t, 12, 0, 16, "indexed_c");
    envelope_is(t, 5, 0, 0, 1, MPI_COMBINER_INDEXED, "indexed_c");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_hindexed_c(2, bl, bd, MPI_INT, &t));
    size_extent(t, 12, 0, 16, "hindexed_c");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_indexed_block_c(2, 2, d, MPI_INT, &t));
    size_extent(t, 16, 0, 20, "indexed_block_c");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_hindexed_block_c(2, 1, bd, MPI_INT, &t));
    size_extent(t, 8, 0, 16, "hindexed_block_c");
    MPI_Type_free(&t);
    MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Count sd[2] = {0, 8};
    T_MPI(MPI_Type_create_struct_c(2, bl, sd, ts, &t));
    size_extent(t, 16, 0, 16, "struct_c");
    MPI_Type_free(&t);
    MPI_Count sizes[2] = {4, 4}, sub[2] = {2, 2}, st[2] = {1, 1};
    T_MPI(MPI_Type_create_subarray_c(2, sizes, sub, st, MPI_ORDER_C, MPI_INT, &t));
    size_extent(t, 16, 0, 64, "subarray_c");
    MPI_Type_free(&t);
    MPI_Count gs[1] = {8};
    int dist[1] = {MPI_DISTRIBUTE_BLOCK}, darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {1};
    T_MPI(MPI_Type_create_darray_c(1, 0, 1, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &t));
    size_extent(t, 32, 0, 32, "darray_c");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_resized_c(MPI_INT, -4, 16, &t));
    size_extent(t, 4, -4, 16, "resized_c");
    MPI_Type_free(&t);
}

static void constructors_big(void)
{
    MPI_Datatype t;
    MPI_Count ni, na, nl, nd, L[3] = {0};
    int comb, ii, ia, id;
    MPI_Datatype child;
    T_MPI(MPI_Type_contiguous_c(BIG, MPI_CHAR, &t));
    T_MPI(MPI_Type_commit(&t));
    size_extent(t, BIG, 0, BIG, "contiguous_c(3e9)");
    envelope_is(t, 0, 0, 1, 1, MPI_COMBINER_CONTIGUOUS, "contiguous_c(3e9)");
    T_MPI(MPI_Type_get_contents_c(t, 0, 0, 1, 1, NULL, NULL, L, &child));
    T_CHECK(L[0] == BIG && child == MPI_CHAR, "contents_c: %lld", L[0]);
    int s32 = 0;
    T_MPI(MPI_Type_size(t, &s32));
    T_CHECK(s32 == MPI_UNDEFINED, "Type_size of 3e9 bytes: %d", s32);
    /* the int envelope cannot hold it */
    T_MPI_CLASS(MPI_Type_get_envelope(t, &ii, &ia, &id, &comb), MPI_ERR_TYPE);
    MPI_Count psz = -1;
    T_MPI(MPI_Pack_size_c(1, t, MPI_COMM_WORLD, &psz));
    T_CHECK(psz == BIG, "Pack_size_c: %lld", psz);
    T_MPI_CLASS(MPI_Pack_size(1, t, MPI_COMM_WORLD, &s32), MPI_ERR_COUNT);
    MPI_Type_free(&t);

    T_MPI(MPI_Type_vector_c(2, 1, BIG, MPI_CHAR, &t));
    size_extent(t, 2, 0, BIG + 1, "vector_c(2,1,3e9)");
    T_MPI(MPI_Type_get_envelope_c(t, &ni, &na, &nl, &nd, &comb));
    T_MPI(MPI_Type_get_contents_c(t, ni, na, nl, nd, NULL, NULL, L, &child));
    T_CHECK(nl == 3 && L[0] == 2 && L[1] == 1 && L[2] == BIG, "vector_c contents %lld: %lld %lld %lld",
            nl, L[0], L[1], L[2]);
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_hvector_c(BIG, 1, 1, MPI_CHAR, &t));
    size_extent(t, BIG, 0, BIG, "hvector_c(3e9,1,1)");
    MPI_Type_free(&t);

    /* displacements and block lengths beyond int: the same type map as hindexed/struct */
    MPI_Count bl[2] = {1, 1}, d[2] = {0, BIG};
    T_MPI(MPI_Type_indexed_c(2, bl, d, MPI_CHAR, &t));
    size_extent(t, 2, 0, BIG + 1, "indexed_c with a 3e9 displacement");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_indexed_block_c(2, 1, d, MPI_SHORT, &t));
    size_extent(t, 4, 0, 2 * BIG + 2, "indexed_block_c with a 3e9 displacement");
    MPI_Type_free(&t);
    MPI_Count bigbl[1] = {BIG}, zd[1] = {8};
    T_MPI(MPI_Type_create_hindexed_c(1, bigbl, zd, MPI_CHAR, &t));
    size_extent(t, BIG, 8, BIG, "hindexed_c of a 3e9-element block");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_hindexed_block_c(1, BIG, zd, MPI_CHAR, &t));
    size_extent(t, BIG, 8, BIG, "hindexed_block_c of a 3e9-element block");
    MPI_Type_free(&t);
    MPI_Datatype ts[1] = {MPI_INT};
    T_MPI(MPI_Type_create_struct_c(1, bigbl, zd, ts, &t));
    size_extent(t, 4 * BIG, 8, 4 * BIG, "struct_c of a 3e9-element block");
    MPI_Type_free(&t);
    T_MPI(MPI_Type_create_resized_c(MPI_CHAR, 0, BIG, &t));
    size_extent(t, 1, 0, BIG, "resized_c to 3e9");
    MPI_Type_free(&t);
    MPI_Count sizes[1] = {BIG}, sub[1] = {1}, st[1] = {0};
    T_MPI_CLASS(MPI_Type_create_subarray_c(1, sizes, sub, st, MPI_ORDER_C, MPI_CHAR, &t),
                MPI_ERR_COUNT);
}

static void pack(void)
{
    int in[4] = {1, 2, 3, 4}, out[4] = {0};
    char buf[64];
    MPI_Count pos = 0, sz = -1;
    T_MPI(MPI_Pack_size_c(4, MPI_INT, MPI_COMM_WORLD, &sz));
    T_CHECK(sz == 16, "Pack_size_c = %lld", sz);
    T_MPI(MPI_Pack_c(in, 4, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    T_CHECK(pos == 16, "Pack_c position %lld", pos);
    pos = 0;
    T_MPI(MPI_Unpack_c(buf, sizeof buf, &pos, out, 4, MPI_INT, MPI_COMM_WORLD));
    T_CHECK(pos == 16 && memcmp(in, out, sizeof in) == 0, "Unpack_c position %lld", pos);
    T_MPI(MPI_Pack_external_size_c("external32", 4, MPI_INT, &sz));
    T_CHECK(sz == 16, "Pack_external_size_c = %lld", sz);
    T_MPI(MPI_Pack_external_size_c("external32", BIG, MPI_INT, &sz));
    T_CHECK(sz == 4 * BIG, "Pack_external_size_c(3e9) = %lld", sz);
    pos = 0;
    T_MPI(MPI_Pack_external_c("external32", in, 4, MPI_INT, buf, sizeof buf, &pos));
    T_CHECK(pos == 16 && buf[3] == 1 && buf[0] == 0, "Pack_external_c: big-endian, position %lld", pos);
    memset(out, 0, sizeof out);
    pos = 0;
    T_MPI(MPI_Unpack_external_c("external32", buf, sizeof buf, &pos, out, 4, MPI_INT));
    T_CHECK(pos == 16 && memcmp(in, out, sizeof in) == 0, "Unpack_external_c");
    pos = 60;
    T_MPI_CLASS(MPI_Pack_c(in, 4, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    T_MPI_CLASS(MPI_Pack_c(in, -1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    constructors_small();
    constructors_big();
    pack();
    MPI_Datatype t;
    T_MPI_CLASS(MPI_Type_contiguous_c(-1, MPI_INT, &t), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Type_vector_c(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    MPI_Count bl[1] = {1}, d[1] = {0};
    T_MPI_CLASS(MPI_Type_indexed_c(-1, bl, d, MPI_INT, &t), MPI_ERR_COUNT);
    return t_finish();
}
