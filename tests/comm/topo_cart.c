/*
 * topo_cart: Cartesian topologies and MPI_Dims_create.
 *  - Dims_create: balanced factors in non-increasing order, fixed entries
 *    kept, MPI_ERR_DIMS when they cannot divide nnodes
 *  - Cart_create (grids equal to and smaller than the communicator,
 *    0 dimensions), Topo_test, Cartdim_get, Cart_get, Cart_coords /
 *    Cart_rank round trips (periodic coordinates wrap), Cart_shift at the
 *    edges (MPI_PROC_NULL off non-periodic ones), Cart_sub, Cart_map, dup
 *    keeps the topology
 *  - errors: MPI_ERR_DIMS, MPI_ERR_ARG, MPI_ERR_TOPOLOGY, MPI_ERR_RANK
 */
#include "mpitest.h"

static void dims_case(int nnodes, int ndims, const int *in, const int *want)
{
    int d[8];
    memcpy(d, in, sizeof(int) * (size_t)ndims);
    T_MPI(MPI_Dims_create(nnodes, ndims, d));
    for (int i = 0; i < ndims; i++)
        T_CHECK(d[i] == want[i], "Dims_create(%d, %d): dim %d is %d, expected %d", nnodes, ndims,
                i, d[i], want[i]);
}

static void test_dims(void)
{
    dims_case(12, 2, (int[]){0, 0}, (int[]){4, 3});
    dims_case(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    dims_case(7, 2, (int[]){0, 0}, (int[]){7, 1});
    dims_case(36, 3, (int[]){0, 0, 0}, (int[]){4, 3, 3});
    dims_case(72, 3, (int[]){0, 0, 0}, (int[]){6, 4, 3});
    dims_case(24, 3, (int[]){0, 0, 0}, (int[]){4, 3, 2});
    dims_case(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    dims_case(6, 2, (int[]){0, 3}, (int[]){2, 3});
    dims_case(24, 3, (int[]){0, 2, 0}, (int[]){4, 2, 3});
    dims_case(64, 4, (int[]){0, 0, 0, 0}, (int[]){4, 4, 2, 2});
    dims_case(1000000, 2, (int[]){0, 0}, (int[]){1000, 1000});
    dims_case(8, 1, (int[]){0}, (int[]){8});
    dims_case(6, 2, (int[]){2, 3}, (int[]){2, 3});
    T_MPI(MPI_Dims_create(1, 0, NULL));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int d[2] = {0, 4};
    T_MPI_CLASS(MPI_Dims_create(6, 2, d), MPI_ERR_DIMS);
    int n[2] = {-1, 0};
    T_MPI_CLASS(MPI_Dims_create(6, 2, n), MPI_ERR_DIMS);
    int z[2] = {0, 0};
    T_MPI_CLASS(MPI_Dims_create(6, -1, z), MPI_ERR_DIMS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void test_grid(void)
{
    int p = t_size, dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(p, 2, dims);
    MPI_Comm c;
    T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &c));
    int st, nd, rank;
    T_MPI(MPI_Topo_test(c, &st));
    T_CHECK(st == MPI_CART, "Topo_test %d", st);
    T_MPI(MPI_Topo_test(MPI_COMM_WORLD, &st));
    T_CHECK(st == MPI_UNDEFINED, "Topo_test of world %d", st);
    T_MPI(MPI_Cartdim_get(c, &nd));
    T_CHECK(nd == 2, "Cartdim_get %d", nd);
    MPI_Comm_rank(c, &rank);
    T_CHECK(rank == t_rank, "no reordering: rank %d", rank);
    int gd[2], gp[2], gc[2];
    T_MPI(MPI_Cart_get(c, 2, gd, gp, gc));
    T_CHECK(gd[0] == dims[0] && gd[1] == dims[1] && gp[0] == 1 && gp[1] == 0, "Cart_get");
    T_CHECK(gc[0] == rank / dims[1] && gc[1] == rank % dims[1], "coords %d,%d", gc[0], gc[1]);
    for (int r = 0; r < p; r++) {
        int co[2], back;
        T_MPI(MPI_Cart_coords(c, r, 2, co));
        T_MPI(MPI_Cart_rank(c, co, &back));
        T_CHECK(back == r && co[0] == r / dims[1], "round trip %d -> %d,%d -> %d", r, co[0],
                co[1], back);
    }
    /* periodic dimension 0 wraps in Cart_rank */
    int wrap[2] = {gc[0] + dims[0], gc[1]}, back;
    T_MPI(MPI_Cart_rank(c, wrap, &back));
    T_CHECK(back == rank, "wrapped coords give %d", back);
    wrap[0] = gc[0] - 3 * dims[0];
    T_MPI(MPI_Cart_rank(c, wrap, &back));
    T_CHECK(back == rank, "negative wrapped coords give %d", back);
    /* shifts */
    int src, dst;
    T_MPI(MPI_Cart_shift(c, 0, 1, &src, &dst));
    T_CHECK(dst == ((gc[0] + 1) % dims[0]) * dims[1] + gc[1] &&
                src == ((gc[0] - 1 + dims[0]) % dims[0]) * dims[1] + gc[1],
            "periodic shift %d %d", src, dst);
    T_MPI(MPI_Cart_shift(c, 1, 1, &src, &dst));
    T_CHECK(src == (gc[1] == 0 ? MPI_PROC_NULL : rank - 1), "edge shift source %d", src);
    T_CHECK(dst == (gc[1] == dims[1] - 1 ? MPI_PROC_NULL : rank + 1), "edge shift dest %d", dst);
    T_MPI(MPI_Cart_shift(c, 1, -2, &src, &dst));
    T_CHECK(dst == (gc[1] - 2 < 0 ? MPI_PROC_NULL : rank - 2), "shift -2 dest %d", dst);
    T_CHECK(src == (gc[1] + 2 >= dims[1] ? MPI_PROC_NULL : rank + 2), "shift -2 source %d", src);
    T_MPI(MPI_Cart_shift(c, 1, 0, &src, &dst));
    T_CHECK(src == rank && dst == rank, "shift 0: %d %d", src, dst);
    /* a message along the periodic ring */
    T_MPI(MPI_Cart_shift(c, 0, 1, &src, &dst));
    int got = -1;
    T_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, c, MPI_STATUS_IGNORE));
    T_CHECK(got == src, "ring message from %d, expected %d", got, src);
    /* sub-grids */
    MPI_Comm row, col, none;
    T_MPI(MPI_Cart_sub(c, (int[]){0, 1}, &row));
    T_MPI(MPI_Cart_sub(c, (int[]){1, 0}, &col));
    int rs, rr, cs, cr;
    MPI_Comm_size(row, &rs), MPI_Comm_rank(row, &rr);
    MPI_Comm_size(col, &cs), MPI_Comm_rank(col, &cr);
    T_CHECK(rs == dims[1] && rr == gc[1] && cs == dims[0] && cr == gc[0], "sub %d/%d %d/%d", rr,
            rs, cr, cs);
    T_MPI(MPI_Cartdim_get(row, &nd));
    int sd[1], sp[1], sc[1];
    T_MPI(MPI_Cart_get(col, 1, sd, sp, sc));
    T_CHECK(nd == 1 && sd[0] == dims[0] && sp[0] == 1 && sc[0] == gc[0], "sub topology");
    int sum = 0;
    T_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row));
    int want = 0;
    for (int j = 0; j < dims[1]; j++)
        want += gc[0] * dims[1] + j;
    T_CHECK(sum == want, "row sum %d, expected %d", sum, want);
    T_MPI(MPI_Cart_sub(c, (int[]){0, 0}, &none));
    MPI_Comm_size(none, &rs);
    MPI_Cartdim_get(none, &nd);
    T_CHECK(rs == 1 && nd == 0, "sub with no dimension: size %d, %d dims", rs, nd);
    MPI_Comm_free(&none);
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);
    /* a dup keeps the topology */
    MPI_Comm d;
    T_MPI(MPI_Comm_dup(c, &d));
    T_MPI(MPI_Topo_test(d, &st));
    T_MPI(MPI_Cart_shift(d, 0, 1, &src, &dst));
    T_CHECK(st == MPI_CART && src != MPI_PROC_NULL, "dup lost the topology");
    MPI_Comm_free(&d);
    /* split does not */
    T_MPI(MPI_Comm_split(c, 0, 0, &d));
    T_MPI(MPI_Topo_test(d, &st));
    T_CHECK(st == MPI_UNDEFINED, "split kept a topology");
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);
}

static void test_small_grids(void)
{
    int p = t_size;
    /* a 1-D grid of p - 1 processes (one left out), non-periodic */
    if (p > 1) {
        MPI_Comm c;
        int dims[1] = {p - 1}, per[1] = {0};
        T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &c));
        if (t_rank == p - 1) {
            T_CHECK(c == MPI_COMM_NULL, "the extra process got a Cartesian communicator");
        } else {
            int src, dst;
            T_MPI(MPI_Cart_shift(c, 0, 1, &src, &dst));
            T_CHECK(src == (t_rank ? t_rank - 1 : MPI_PROC_NULL) &&
                        dst == (t_rank < p - 2 ? t_rank + 1 : MPI_PROC_NULL),
                    "line shift %d %d", src, dst);
            MPI_Comm_free(&c);
        }
        int nr;
        T_MPI(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, per, &nr));
        T_CHECK(nr == (t_rank < p - 1 ? t_rank : MPI_UNDEFINED), "Cart_map %d", nr);
    }
    /* 0 dimensions: one process */
    MPI_Comm z;
    T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &z));
    if (t_rank == 0) {
        int s, nd, r = -1;
        MPI_Comm_size(z, &s);
        MPI_Cartdim_get(z, &nd);
        T_MPI(MPI_Cart_rank(z, NULL, &r));
        T_CHECK(s == 1 && nd == 0 && r == 0, "0-d grid: size %d, %d dims, rank %d", s, nd, r);
        MPI_Comm_free(&z);
    } else {
        T_CHECK(z == MPI_COMM_NULL, "0-d grid on rank %d", t_rank);
    }
    /* periodic dimension of size 1: both neighbors are me */
    MPI_Comm one;
    T_MPI(MPI_Cart_create(MPI_COMM_SELF, 1, (int[]){1}, (int[]){1}, 0, &one));
    int src, dst;
    T_MPI(MPI_Cart_shift(one, 0, 3, &src, &dst));
    T_CHECK(src == 0 && dst == 0, "size-1 periodic shift %d %d", src, dst);
    MPI_Comm_free(&one);
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm c = MPI_COMM_NULL;
    int dims[2] = {t_size + 1, 1}, per[2] = {0, 0}, neg[2] = {-1, 1}, nd, co[2], r;
    T_MPI_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &c), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, neg, per, 0, &c), MPI_ERR_DIMS);
    T_MPI_CLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, neg, per, 0, &c), MPI_ERR_DIMS);
    T_MPI_CLASS(MPI_Cart_create(MPI_COMM_NULL, 1, dims, per, 0, &c), MPI_ERR_COMM);
    T_CHECK(c == MPI_COMM_NULL, "a failed Cart_create wrote its output");
    T_MPI_CLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &nd), MPI_ERR_TOPOLOGY);
    T_MPI_CLASS(MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, co), MPI_ERR_TOPOLOGY);
    T_MPI_CLASS(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &r, &nd), MPI_ERR_TOPOLOGY);
    T_MPI_CLASS(MPI_Cart_sub(MPI_COMM_WORLD, per, &c), MPI_ERR_TOPOLOGY);
    int ld[1] = {t_size}, lp[1] = {0};
    T_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, ld, lp, 0, &c));
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Cart_coords(c, t_size, 1, co), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Cart_coords(c, -1, 1, co), MPI_ERR_RANK);
    T_MPI_CLASS(MPI_Cart_coords(c, 0, 0, co), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Cart_shift(c, 1, 1, &r, &nd), MPI_ERR_ARG);
    T_MPI_CLASS(MPI_Cart_shift(c, -1, 1, &r, &nd), MPI_ERR_ARG);
    int out[1] = {t_size};
    T_MPI_CLASS(MPI_Cart_rank(c, out, &r), MPI_ERR_ARG); /* non-periodic: no wrap */
    T_MPI_CLASS(MPI_Graphdims_get(c, &nd, &r), MPI_ERR_TOPOLOGY);
    MPI_Comm_free(&c);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    test_dims();
    test_grid();
    test_small_grids();
    test_errors();
    return t_finish();
}
