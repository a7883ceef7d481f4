/*
 * dt_ctor: every constructor and query with values worked out by hand
 * from the standard: size, extent, lb/ub (MPI-1 and MPI-2 calls and the _x
 * variants), true extent, markers, struct padding, negative strides and
 * displacements, zero counts, resized types; get_envelope/get_contents
 * for every combiner; names; attributes (copied by dup, deleted by free);
 * addresses; the predefined types; Type_match_size; argument errors.
 */
#include "dtzoo.h"

#define EXPECT_BOUNDS(t, sz, lb_, ext_, tlb_, text_)                                     \
    do {                                                                                  \
        int s_;                                                                           \
        MPI_Aint l_, e_, tl_, te_, lbo_, ubo_, exo_;                                      \
        MPI_Count sx_, lx_, ex_, tlx_, tex_;                                              \
        MPI_Type_size(t, &s_);                                                            \
        MPI_Type_get_extent(t, &l_, &e_);                                                 \
        MPI_Type_get_true_extent(t, &tl_, &te_);                                          \
        MPI_Type_lb(t, &lbo_);                                                            \
        MPI_Type_ub(t, &ubo_);                                                            \
        MPI_Type_extent(t, &exo_);                                                        \
        MPI_Type_size_x(t, &sx_);                                                         \
        MPI_Type_get_extent_x(t, &lx_, &ex_);                                             \
        MPI_Type_get_true_extent_x(t, &tlx_, &tex_);                                      \
        T_CHECK(s_ == (sz) && sx_ == (sz), "%s: size %d/%lld, expected %d", #t, s_,       \
                (long long)sx_, (int)(sz));                                               \
        T_CHECK(l_ == (lb_) && e_ == (ext_) && lx_ == (lb_) && ex_ == (ext_),             \
                "%s: lb/extent %ld/%ld, expected %ld/%ld", #t, (long)l_, (long)e_,        \
                (long)(lb_), (long)(ext_));                                               \
        T_CHECK(lbo_ == l_ && ubo_ == l_ + e_ && exo_ == e_, "%s: MPI-1 lb/ub/extent", #t); \
        T_CHECK(tl_ == (tlb_) && te_ == (text_) && tlx_ == (tlb_) && tex_ == (text_),      \
                "%s: true lb/extent %ld/%ld, expected %ld/%ld", #t, (long)tl_, (long)te_, \
                (long)(tlb_), (long)(text_));                                             \
    } while (0)

static void check_bounds(void)
{
    MPI_Datatype t, a;

    /* vector(3, 2, 4) of int: blocks at 0, 16, 32 */
    MPI_Type_vector(3, 2, 4, MPI_INT, &t);
    EXPECT_BOUNDS(t, 24, 0, 40, 0, 40);
    MPI_Type_free(&t);

    /* negative stride: blocks at 0, -12, -24 */
    MPI_Type_vector(3, 1, -3, MPI_INT, &t);
    EXPECT_BOUNDS(t, 12, -24, 28, -24, 28);
    MPI_Type_free(&t);

    /* hvector with a byte stride; no padding outside struct */
    MPI_Type_create_hvector(2, 1, 12, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 16, 0, 20, 0, 20);
    MPI_Type_free(&t);

    /* indexed with negative displacement and a zero block */
    int bl[3] = {2, 0, 1}, d[3] = {-3, 10, 4};
    MPI_Type_indexed(3, bl, d, MPI_SHORT, &t);
    EXPECT_BOUNDS(t, 6, -6, 16, -6, 16);
    MPI_Type_free(&t);

    /* struct: padded to the largest alignment */
    {
        int b2[2] = {1, 1};
        MPI_Aint d2[2] = {0, 8};
        MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_CHAR};
        MPI_Type_create_struct(2, b2, d2, ty, &t);
        EXPECT_BOUNDS(t, 9, 0, 16, 0, 9);
        MPI_Type_free(&t);
        /* int at 0 and char at 1: extent 4 (padded), true extent 4 */
        ty[0] = MPI_INT;
        d2[1] = 1;
        MPI_Type_create_struct(2, b2, d2, ty, &t);
        EXPECT_BOUNDS(t, 5, 0, 4, 0, 4);
        MPI_Type_free(&t);
    }

    /* MPI-1 markers: LB and UB define the bounds, data does not */
    {
        int b4[4] = {1, 1, 1, 1};
        MPI_Aint d4[4] = {-4, 0, 8, 20};
        MPI_Datatype ty[4] = {MPI_LB, MPI_INT, MPI_CHAR, MPI_UB};
        MPI_Type_struct(4, b4, d4, ty, &t);
        EXPECT_BOUNDS(t, 5, -4, 24, 0, 9);
        /* markers are sticky: contiguous(2) of it is 2 extents */
        MPI_Type_contiguous(2, t, &a);
        EXPECT_BOUNDS(a, 10, -4, 48, 0, 33);
        MPI_Type_free(&a);
        /* ... and an outer struct keeps the inner markers, not its data */
        int b1[2] = {1, 1};
        MPI_Aint d1[2] = {100, 0};
        MPI_Datatype ty2[2] = {t, MPI_DOUBLE};
        MPI_Type_struct(2, b1, d1, ty2, &a);
        /* lb marker at 96, ub marker at 120; data 0..8 and 100..109 */
        EXPECT_BOUNDS(a, 13, 96, 24, 0, 109);
        MPI_Type_free(&a);
        MPI_Type_free(&t);
    }

    /* resized with holes, and resized again */
    MPI_Type_contiguous(2, MPI_INT, &a);
    MPI_Type_create_resized(a, -8, 32, &t);
    EXPECT_BOUNDS(t, 8, -8, 32, 0, 8);
    MPI_Type_free(&a);
    MPI_Type_create_resized(t, 4, 4, &a);
    EXPECT_BOUNDS(a, 8, 4, 4, 0, 8);
    MPI_Type_free(&a);
    /* vector of the resized type: stride in its extent */
    MPI_Type_vector(2, 1, 2, t, &a);
    EXPECT_BOUNDS(a, 16, -8, 96, 0, 72);
    MPI_Type_free(&a);
    MPI_Type_free(&t);

    /* zero counts */
    MPI_Type_contiguous(0, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);
    MPI_Type_vector(0, 1, 1, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);
    MPI_Type_indexed(0, NULL, NULL, MPI_INT, &t);
    EXPECT_BOUNDS(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);
    MPI_Type_create_struct(0, NULL, NULL, NULL, &t);
    EXPECT_BOUNDS(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);

    /* indexed_block and hindexed_block */
    int d3[3] = {6, -2, 1};
    MPI_Type_create_indexed_block(3, 2, d3, MPI_FLOAT, &t);
    EXPECT_BOUNDS(t, 24, -8, 40, -8, 40);
    MPI_Type_free(&t);
    MPI_Aint ad[2] = {40, -24};
    MPI_Type_create_hindexed_block(2, 3, ad, MPI_SHORT, &t);
    EXPECT_BOUNDS(t, 12, -24, 70, -24, 70);
    MPI_Type_free(&t);
    int hb[2] = {1, 2};
    MPI_Type_hindexed(2, hb, ad, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 24, -24, 72, -24, 72);
    MPI_Type_free(&t);
    MPI_Type_hvector(2, 2, -40, MPI_SHORT, &t);
    EXPECT_BOUNDS(t, 8, -40, 44, -40, 44);
    MPI_Type_free(&t);

    /* subarray: 4x5 ints, 2x3 block at (1,2); extent is the whole array */
    int sz[2] = {4, 5}, sub[2] = {2, 3}, st[2] = {1, 2};
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t);
    EXPECT_BOUNDS(t, 24, 0, 80, 28, 32);
    MPI_Type_free(&t);
    MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t);
    /* Fortran: dim 0 fastest: elements (1..2, 2..4): 1+2*4=9 .. 2+4*4=18 */
    EXPECT_BOUNDS(t, 24, 0, 80, 36, 40);
    MPI_Type_free(&t);

    /* darray: 8 doubles over 2 processes, block: rank 1 has 4..7 */
    int gs[1] = {8}, di[1] = {MPI_DISTRIBUTE_BLOCK}, da[1] = {MPI_DISTRIBUTE_DFLT_DARG},
        ps[1] = {2};
    MPI_Type_create_darray(2, 1, 1, gs, di, da, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 32, 0, 64, 32, 32);
    MPI_Type_free(&t);
    /* cyclic(2) over 3 processes of 8: rank 1 has 2,3 */
    di[0] = MPI_DISTRIBUTE_CYCLIC;
    da[0] = 2;
    ps[0] = 3;
    MPI_Type_create_darray(3, 1, 1, gs, di, da, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 16, 0, 64, 16, 16);
    MPI_Type_free(&t);
    /* rank 0 has 0,1 and 6,7 */
    MPI_Type_create_darray(3, 0, 1, gs, di, da, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
    EXPECT_BOUNDS(t, 32, 0, 64, 0, 64);
    MPI_Type_free(&t);

    /* dup keeps everything */
    MPI_Type_vector(3, 1, -3, MPI_INT, &a);
    MPI_Type_dup(a, &t);
    EXPECT_BOUNDS(t, 12, -24, 28, -24, 28);
    MPI_Type_free(&t);
    MPI_Type_free(&a);
}

/* get_envelope/get_contents of each combiner. */
static void check_one_envelope(MPI_Datatype t, int comb, int ni, int na, int nd,
                               const int *ints, const MPI_Aint *aints,
                               const MPI_Datatype *types, const char *what)
{
    int gi, ga, gd, gc;
    MPI_Type_get_envelope(t, &gi, &ga, &gd, &gc);
    T_CHECK(gc == comb && gi == ni && ga == na && gd == nd,
            "%s: envelope %d/%d/%d comb %d, expected %d/%d/%d comb %d", what, gi, ga, gd, gc,
            ni, na, nd, comb);
    if (gc != comb || gi != ni || ga != na || gd != nd)
        return;
    int Iv[64];
    MPI_Aint Av[16];
    MPI_Datatype D[16];
    T_MPI(MPI_Type_get_contents(t, 64, 16, 16, Iv, Av, D));
    for (int i = 0; i < ni; i++)
        T_CHECK(Iv[i] == ints[i], "%s: ints[%d] = %d, expected %d", what, i, Iv[i], ints[i]);
    for (int i = 0; i < na; i++)
        T_CHECK(Av[i] == aints[i], "%s: aints[%d] = %ld, expected %ld", what, i, (long)Av[i],
                (long)aints[i]);
    for (int i = 0; i < nd; i++) {
        T_CHECK(D[i] == types[i], "%s: types[%d] differs", what, i);
        int ci, ca, cd, cc;
        MPI_Type_get_envelope(D[i], &ci, &ca, &cd, &cc);
        if (cc != MPI_COMBINER_NAMED)
            MPI_Type_free(&D[i]);
    }
}

static void check_envelopes(void)
{
    MPI_Datatype t, v;
    int ni, na, nd, comb;
    MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &comb);
    T_CHECK(comb == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "named envelope");

    MPI_Type_contiguous(7, MPI_INT, &t);
    check_one_envelope(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, (int[]){7}, NULL,
                       (MPI_Datatype[]){MPI_INT}, "contiguous");
    MPI_Type_vector(3, 2, -5, t, &v);
    check_one_envelope(v, MPI_COMBINER_VECTOR, 3, 0, 1, (int[]){3, 2, -5}, NULL,
                       (MPI_Datatype[]){t}, "vector");
    MPI_Type_free(&v);
    MPI_Type_create_hvector(3, 2, -40, t, &v);
    check_one_envelope(v, MPI_COMBINER_HVECTOR, 2, 1, 1, (int[]){3, 2}, (MPI_Aint[]){-40},
                       (MPI_Datatype[]){t}, "hvector");
    MPI_Type_free(&v);
    MPI_Type_hvector(3, 2, 40, t, &v);
    check_one_envelope(v, MPI_COMBINER_HVECTOR, 2, 1, 1, (int[]){3, 2}, (MPI_Aint[]){40},
                       (MPI_Datatype[]){t}, "hvector (MPI-1)");
    MPI_Type_free(&v);
    MPI_Type_indexed(2, (int[]){1, 3}, (int[]){4, -1}, MPI_INT, &v);
    check_one_envelope(v, MPI_COMBINER_INDEXED, 5, 0, 1, (int[]){2, 1, 3, 4, -1}, NULL,
                       (MPI_Datatype[]){MPI_INT}, "indexed");
    MPI_Type_free(&v);
    MPI_Type_create_hindexed(2, (int[]){1, 3}, (MPI_Aint[]){4, -1}, t, &v);
    check_one_envelope(v, MPI_COMBINER_HINDEXED, 3, 2, 1, (int[]){2, 1, 3},
                       (MPI_Aint[]){4, -1}, (MPI_Datatype[]){t}, "hindexed");
    MPI_Type_free(&v);
    MPI_Type_create_indexed_block(3, 2, (int[]){0, 9, -4}, MPI_INT, &v);
    check_one_envelope(v, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, (int[]){3, 2, 0, 9, -4}, NULL,
                       (MPI_Datatype[]){MPI_INT}, "indexed_block");
    MPI_Type_free(&v);
    MPI_Type_create_hindexed_block(2, 4, (MPI_Aint[]){8, 64}, MPI_INT, &v);
    check_one_envelope(v, MPI_COMBINER_HINDEXED_BLOCK, 2, 2, 1, (int[]){2, 4},
                       (MPI_Aint[]){8, 64}, (MPI_Datatype[]){MPI_INT}, "hindexed_block");
    MPI_Type_free(&v);
    MPI_Type_create_struct(3, (int[]){1, 2, 1}, (MPI_Aint[]){0, 8, 40},
                           (MPI_Datatype[]){MPI_CHAR, t, MPI_UB}, &v);
    check_one_envelope(v, MPI_COMBINER_STRUCT, 4, 3, 3, (int[]){3, 1, 2, 1},
                       (MPI_Aint[]){0, 8, 40}, (MPI_Datatype[]){MPI_CHAR, t, MPI_UB},
                       "struct");
    MPI_Type_free(&v);
    MPI_Type_create_resized(t, -2, 50, &v);
    check_one_envelope(v, MPI_COMBINER_RESIZED, 0, 2, 1, NULL, (MPI_Aint[]){-2, 50},
                       (MPI_Datatype[]){t}, "resized");
    MPI_Type_free(&v);
    MPI_Type_dup(t, &v);
    check_one_envelope(v, MPI_COMBINER_DUP, 0, 0, 1, NULL, NULL, (MPI_Datatype[]){t}, "dup");
    MPI_Type_free(&v);
    MPI_Type_create_subarray(2, (int[]){4, 5}, (int[]){2, 3}, (int[]){1, 0}, MPI_ORDER_FORTRAN,
                             t, &v);
    check_one_envelope(v, MPI_COMBINER_SUBARRAY, 8, 0, 1,
                       (int[]){2, 4, 5, 2, 3, 1, 0, MPI_ORDER_FORTRAN}, NULL,
                       (MPI_Datatype[]){t}, "subarray");
    MPI_Type_free(&v);
    MPI_Type_create_darray(4, 2, 2, (int[]){6, 7},
                           (int[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
                           (int[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, (int[]){2, 2}, MPI_ORDER_C,
                           MPI_INT, &v);
    check_one_envelope(v, MPI_COMBINER_DARRAY, 12, 0, 1,
                       (int[]){4, 2, 2, 6, 7, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                               MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 2, MPI_ORDER_C},
                       NULL, (MPI_Datatype[]){MPI_INT}, "darray");
    MPI_Type_free(&v);

    /* The child stays alive for get_contents after the user freed it. */
    MPI_Type_vector(2, 1, 2, t, &v);
    MPI_Type_free(&t);
    MPI_Datatype D[1];
    int Iv[3];
    T_MPI(MPI_Type_get_contents(v, 3, 0, 1, Iv, NULL, D));
    int sz = 0;
    MPI_Type_size(D[0], &sz);
    T_CHECK(sz == 28, "child of a freed handle: size %d, expected 28", sz);
    MPI_Type_free(&D[0]);
    MPI_Type_free(&v);

    /* named types have no contents */
    T_MPI_CLASS(MPI_Type_get_contents(MPI_INT, 0, 0, 0, NULL, NULL, NULL), MPI_ERR_TYPE);
}

static int deleted, copied;
static int copy_fn(MPI_Datatype t, int kv, void *extra, void *in, void *out, int *flag)
{
    copied++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}
static int delete_fn(MPI_Datatype t, int kv, void *val, void *extra)
{
    deleted++;
    return MPI_SUCCESS;
}

static void check_names_attrs(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    T_CHECK(strcmp(name, "MPI_DOUBLE") == 0 && len == 10, "name of MPI_DOUBLE: '%s'", name);
    MPI_Type_get_name(MPI_UINT64_T, name, &len);
    T_CHECK(strcmp(name, "MPI_UINT64_T") == 0, "name of MPI_UINT64_T: '%s'", name);
    MPI_Datatype t, d;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_get_name(t, name, &len);
    T_CHECK(len == 0 && name[0] == 0, "a new type has an empty name, got '%s'", name);
    MPI_Type_set_name(t, "pair of ints");
    MPI_Type_get_name(t, name, &len);
    T_CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "set/get name: '%s'", name);

    int kv;
    T_MPI(MPI_Type_create_keyval(copy_fn, delete_fn, &kv, NULL));
    T_MPI(MPI_Type_set_attr(t, kv, (void *)(intptr_t)100));
    void *val = NULL;
    int flag = 0;
    MPI_Type_get_attr(t, kv, &val, &flag);
    T_CHECK(flag && val == (void *)(intptr_t)100, "type attribute: flag %d val %p", flag, val);
    T_MPI(MPI_Type_dup(t, &d));
    T_CHECK(copied == 1, "dup calls the copy callback once (%d)", copied);
    MPI_Type_get_attr(d, kv, &val, &flag);
    T_CHECK(flag && val == (void *)(intptr_t)101, "dup'ed attribute: flag %d val %p", flag,
            val);
    T_MPI(MPI_Type_delete_attr(d, kv));
    T_CHECK(deleted == 1, "delete_attr calls the delete callback (%d)", deleted);
    MPI_Type_get_attr(d, kv, &val, &flag);
    T_CHECK(!flag, "attribute gone after delete");
    MPI_Type_free(&d);
    MPI_Type_free(&t);
    T_CHECK(deleted == 2, "free calls the delete callback (%d)", deleted);
    T_CHECK(t == MPI_DATATYPE_NULL, "Type_free sets the handle to MPI_DATATYPE_NULL");
    /* attributes on a predefined type */
    T_MPI(MPI_Type_set_attr(MPI_INT, kv, (void *)(intptr_t)5));
    MPI_Type_get_attr(MPI_INT, kv, &val, &flag);
    T_CHECK(flag && val == (void *)(intptr_t)5, "attribute on MPI_INT");
    T_MPI(MPI_Type_delete_attr(MPI_INT, kv));
    MPI_Type_free_keyval(&kv);
}

static void check_addresses(void)
{
    double a[10] = {0};
    MPI_Aint p0, p5, q;
    MPI_Get_address(&a[0], &p0);
    MPI_Get_address(&a[5], &p5);
    T_CHECK(MPI_Aint_diff(p5, p0) == 40, "Aint_diff %ld", (long)MPI_Aint_diff(p5, p0));
    T_CHECK(MPI_Aint_add(p0, 40) == p5, "Aint_add");
    MPI_Address(&a[5], &q);
    T_CHECK(q == p5, "MPI_Address");
    /* struct with absolute addresses, used from MPI_BOTTOM */
    int x = 7;
    double y = 1.5;
    MPI_Aint ax, ay;
    MPI_Get_address(&x, &ax);
    MPI_Get_address(&y, &ay);
    MPI_Datatype t;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){ax, ay},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    char buf[16];
    int pos = 0;
    T_MPI(MPI_Pack(MPI_BOTTOM, 1, t, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    int x2;
    double y2;
    memcpy(&x2, buf, 4);
    memcpy(&y2, buf + 4, 8);
    T_CHECK(pos == 12 && x2 == 7 && y2 == 1.5, "pack from MPI_BOTTOM: %d %d %g", pos, x2, y2);
    MPI_Type_free(&t);
}

static void check_predefined(void)
{
    static const struct {
        MPI_Datatype t;
        int size;
        const char *name;
    } p[] = {
        {MPI_CHAR, 1, "MPI_CHAR"}, {MPI_SIGNED_CHAR, 1, "MPI_SIGNED_CHAR"},
        {MPI_UNSIGNED_CHAR, 1, "MPI_UNSIGNED_CHAR"}, {MPI_BYTE, 1, "MPI_BYTE"},
        {MPI_WCHAR, sizeof(wchar_t), "MPI_WCHAR"}, {MPI_SHORT, sizeof(short), "MPI_SHORT"},
        {MPI_UNSIGNED_SHORT, sizeof(short), "MPI_UNSIGNED_SHORT"},
        {MPI_INT, sizeof(int), "MPI_INT"}, {MPI_UNSIGNED, sizeof(int), "MPI_UNSIGNED"},
        {MPI_LONG, sizeof(long), "MPI_LONG"},
        {MPI_UNSIGNED_LONG, sizeof(long), "MPI_UNSIGNED_LONG"},
        {MPI_LONG_LONG_INT, sizeof(long long), "MPI_LONG_LONG_INT"},
        {MPI_LONG_LONG, sizeof(long long), "MPI_LONG_LONG_INT"},
        {MPI_UNSIGNED_LONG_LONG, sizeof(long long), "MPI_UNSIGNED_LONG_LONG"},
        {MPI_FLOAT, 4, "MPI_FLOAT"}, {MPI_DOUBLE, 8, "MPI_DOUBLE"},
        {MPI_LONG_DOUBLE, sizeof(long double), "MPI_LONG_DOUBLE"}, {MPI_PACKED, 1, "MPI_PACKED"},
        {MPI_INT8_T, 1, "MPI_INT8_T"}, {MPI_INT16_T, 2, "MPI_INT16_T"},
        {MPI_INT32_T, 4, "MPI_INT32_T"}, {MPI_INT64_T, 8, "MPI_INT64_T"},
        {MPI_UINT8_T, 1, "MPI_UINT8_T"}, {MPI_UINT16_T, 2, "MPI_UINT16_T"},
        {MPI_UINT32_T, 4, "MPI_UINT32_T"}, {MPI_UINT64_T, 8, "MPI_UINT64_T"},
        {MPI_C_BOOL, sizeof(bool), "MPI_C_BOOL"},
        {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex), "MPI_C_FLOAT_COMPLEX"},
        {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex), "MPI_C_DOUBLE_COMPLEX"},
        {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex), "MPI_C_LONG_DOUBLE_COMPLEX"},
        {MPI_AINT, sizeof(MPI_Aint), "MPI_AINT"}, {MPI_OFFSET, sizeof(MPI_Offset), "MPI_OFFSET"},
        {MPI_COUNT, sizeof(MPI_Count), "MPI_COUNT"},
        {MPI_FLOAT_INT, 8, "MPI_FLOAT_INT"}, {MPI_DOUBLE_INT, 12, "MPI_DOUBLE_INT"},
        {MPI_LONG_INT, sizeof(long) + 4, "MPI_LONG_INT"}, {MPI_2INT, 8, "MPI_2INT"},
        {MPI_SHORT_INT, sizeof(short) + 4, "MPI_SHORT_INT"},
        {MPI_LONG_DOUBLE_INT, sizeof(long double) + 4, "MPI_LONG_DOUBLE_INT"},
    };
    for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
        int s = -1, len;
        char name[MPI_MAX_OBJECT_NAME];
        MPI_Type_size(p[i].t, &s);
        MPI_Type_get_name(p[i].t, name, &len);
        T_CHECK(s == p[i].size, "%s: size %d, expected %d", p[i].name, s, p[i].size);
        T_CHECK(strcmp(name, p[i].name) == 0, "name '%s', expected '%s'", name, p[i].name);
    }
    struct { double v; int i; } di[2];
    struct { short v; int i; } si[2];
    MPI_Aint lb, ext;
    MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext);
    T_CHECK(ext == sizeof(di[0]), "MPI_DOUBLE_INT extent %ld", (long)ext);
    MPI_Type_get_extent(MPI_SHORT_INT, &lb, &ext);
    T_CHECK(ext == sizeof(si[0]), "MPI_SHORT_INT extent %ld", (long)ext);
    MPI_Datatype m;
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &m);
    T_CHECK(m == MPI_REAL8, "match_size real 8");
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &m);
    T_CHECK(m == MPI_INTEGER4, "match_size integer 4");
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &m);
    T_CHECK(m == MPI_DOUBLE_COMPLEX, "match_size complex 16");
    T_MPI_CLASS(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &m), MPI_ERR_ARG);
}

static void check_errors(void)
{
    MPI_Datatype t;
    T_MPI_CLASS(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    T_MPI_CLASS(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Type_indexed(2, (int[]){1, -2}, (int[]){0, 4}, MPI_INT, &t), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Type_create_struct(1, (int[]){1}, (MPI_Aint[]){0},
                                       (MPI_Datatype[]){MPI_DATATYPE_NULL}, &t),
                MPI_ERR_TYPE);
    T_MPI_CLASS(MPI_Type_create_subarray(1, (int[]){4}, (int[]){3}, (int[]){2}, MPI_ORDER_C,
                                         MPI_INT, &t),
                MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Type_create_darray(4, 0, 1, (int[]){8}, (int[]){MPI_DISTRIBUTE_BLOCK},
                                       (int[]){MPI_DISTRIBUTE_DFLT_DARG}, (int[]){2},
                                       MPI_ORDER_C, MPI_INT, &t),
                MPI_ERR_ARG);
    MPI_Datatype p = MPI_INT;
    T_MPI_CLASS(MPI_Type_free(&p), MPI_ERR_TYPE);
    /* Sending an uncommitted type is an error; committing twice is not. */
    MPI_Type_contiguous(2, MPI_INT, &t);
    int buf[2];
    MPI_Request r;
    T_MPI_CLASS(MPI_Isend(buf, 1, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r), MPI_ERR_TYPE);
    T_MPI(MPI_Type_commit(&t));
    T_MPI(MPI_Type_commit(&t));
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    check_bounds();
    check_envelopes();
    check_names_attrs();
    check_addresses();
    check_predefined();
    check_errors();
    return t_finish();
}
