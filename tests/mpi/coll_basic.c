/*
 * coll_basic: the basic collectives on MPI_INT and MPI_DOUBLE.
 * Barrier; Bcast from every root (small and large); Reduce to every root
 * and Allreduce with MPI_SUM / MPI_MAX / MPI_MIN, and MPI_MAXLOC /
 * MPI_MINLOC on MPI_DOUBLE_INT and MPI_2INT; Gather to every root and
 * Allgather. Values are chosen so sums are exact in double.
 */
#include "mpitest.h"

#define NBIG 100000

static int ival(int rank, int i) { return (rank + 1) * 3 + i % 17 - 8; }
static double dval(int rank, int i) { return (rank + 1) * 0.5 - (i % 13) * 0.25; }

static void test_bcast(void)
{
    static const int counts[] = {1, 1000, NBIG};
    int *iv = t_malloc(NBIG * sizeof(int));
    double *dv = t_malloc(NBIG * sizeof(double));
    for (int root = 0; root < t_size; root++)
        for (int c = 0; c < 3; c++) {
            int n = counts[c];
            for (int i = 0; i < n; i++) {
                iv[i] = t_rank == root ? ival(root, i) : -1;
                dv[i] = t_rank == root ? dval(root, i) : -1;
            }
            T_MPI(MPI_Bcast(iv, n, MPI_INT, root, MPI_COMM_WORLD));
            T_MPI(MPI_Bcast(dv, n, MPI_DOUBLE, root, MPI_COMM_WORLD));
            for (int i = 0; i < n; i++)
                if (iv[i] != ival(root, i) || dv[i] != dval(root, i)) {
                    T_FAIL("Bcast root %d count %d: element %d is (%d, %g)", root, n, i, iv[i], dv[i]);
                    break;
                }
        }
    free(iv);
    free(dv);
}

static void expect_reduce(MPI_Op op, int n, int *ie, double *de)
{
    for (int i = 0; i < n; i++) {
        for (int r = 0; r < t_size; r++) {
            int x = ival(r, i);
            double y = dval(r, i);
            if (r == 0) {
                ie[i] = x;
                de[i] = y;
            } else if (op == MPI_SUM) {
                ie[i] += x;
                de[i] += y;
            } else if (op == MPI_MAX) {
                ie[i] = x > ie[i] ? x : ie[i];
                de[i] = y > de[i] ? y : de[i];
            } else {
                ie[i] = x < ie[i] ? x : ie[i];
                de[i] = y < de[i] ? y : de[i];
            }
        }
    }
}

static void test_reduce(void)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN};
    static const char *names[] = {"MPI_SUM", "MPI_MAX", "MPI_MIN"};
    static const int counts[] = {1, 7, 5000};
    int *is = t_malloc(5000 * sizeof(int)), *ir = t_malloc(5000 * sizeof(int)), *ie = t_malloc(5000 * sizeof(int));
    double *ds = t_malloc(5000 * sizeof(double)), *dr = t_malloc(5000 * sizeof(double)),
           *de = t_malloc(5000 * sizeof(double));
    for (int o = 0; o < 3; o++)
        for (int c = 0; c < 3; c++) {
            int n = counts[c];
            for (int i = 0; i < n; i++) {
                is[i] = ival(t_rank, i);
                ds[i] = dval(t_rank, i);
            }
            expect_reduce(ops[o], n, ie, de);
            for (int root = 0; root < t_size; root += (t_size > 2 ? t_size - 1 : 1)) {
                for (int i = 0; i < n; i++) {
                    ir[i] = -77;
                    dr[i] = -77;
                }
                T_MPI(MPI_Reduce(is, ir, n, MPI_INT, ops[o], root, MPI_COMM_WORLD));
                T_MPI(MPI_Reduce(ds, dr, n, MPI_DOUBLE, ops[o], root, MPI_COMM_WORLD));
                if (t_rank == root)
                    for (int i = 0; i < n; i++)
                        if (ir[i] != ie[i] || dr[i] != de[i]) {
                            T_FAIL("Reduce %s root %d count %d: element %d is (%d, %g), expected (%d, %g)",
                                   names[o], root, n, i, ir[i], dr[i], ie[i], de[i]);
                            break;
                        }
            }
            T_MPI(MPI_Allreduce(is, ir, n, MPI_INT, ops[o], MPI_COMM_WORLD));
            T_MPI(MPI_Allreduce(ds, dr, n, MPI_DOUBLE, ops[o], MPI_COMM_WORLD));
            for (int i = 0; i < n; i++)
                if (ir[i] != ie[i] || dr[i] != de[i]) {
                    T_FAIL("Allreduce %s count %d: element %d is (%d, %g), expected (%d, %g)", names[o], n, i,
                           ir[i], dr[i], ie[i], de[i]);
                    break;
                }
            T_CHECK(is[0] == ival(t_rank, 0), "Allreduce changed the send buffer");
        }
    free(is); free(ir); free(ie); free(ds); free(dr); free(de);
}

static void test_loc(void)
{
    struct { double v; int i; } din[3], dout[3];
    struct { int v; int i; } iin[3], iout[3];
    /* element 0: the max value is on the last rank; element 1: all equal
     * (the lowest index wins); element 2: value peaks at rank size/2 */
    for (int k = 0; k < 3; k++) {
        double v = k == 0 ? t_rank : k == 1 ? 5.0 : -(t_rank - t_size / 2) * (t_rank - t_size / 2);
        din[k].v = v;
        din[k].i = t_rank;
        iin[k].v = (int)v;
        iin[k].i = t_rank;
    }
    T_MPI(MPI_Allreduce(din, dout, 3, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
    T_MPI(MPI_Allreduce(iin, iout, 3, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD));
    int exp_i[3] = {t_size - 1, 0, t_size / 2};
    double exp_v[3] = {t_size - 1, 5.0, 0.0};
    for (int k = 0; k < 3; k++) {
        T_CHECK(dout[k].v == exp_v[k] && dout[k].i == exp_i[k], "MAXLOC MPI_DOUBLE_INT element %d: (%g, %d), expected (%g, %d)",
                k, dout[k].v, dout[k].i, exp_v[k], exp_i[k]);
        T_CHECK(iout[k].v == (int)exp_v[k] && iout[k].i == exp_i[k], "MAXLOC MPI_2INT element %d: (%d, %d), expected (%d, %d)",
                k, iout[k].v, iout[k].i, (int)exp_v[k], exp_i[k]);
    }
    T_MPI(MPI_Reduce(din, dout, 3, MPI_DOUBLE_INT, MPI_MINLOC, 0, MPI_COMM_WORLD));
    if (t_rank == 0) {
        T_CHECK(dout[0].v == 0 && dout[0].i == 0, "MINLOC element 0: (%g, %d)", dout[0].v, dout[0].i);
        T_CHECK(dout[1].v == 5.0 && dout[1].i == 0, "MINLOC element 1: (%g, %d)", dout[1].v, dout[1].i);
        double mv = -(double)(t_size / 2) * (t_size / 2);
        T_CHECK(dout[2].v == mv && dout[2].i == 0, "MINLOC element 2: (%g, %d), expected (%g, 0)", dout[2].v,
                dout[2].i, mv);
    }
}

static void test_gather(void)
{
    static const int counts[] = {1, 3000};
    for (int c = 0; c < 2; c++) {
        int n = counts[c];
        int *is = t_malloc((size_t)n * sizeof(int)), *ir = t_malloc((size_t)n * t_size * sizeof(int));
        double *ds = t_malloc((size_t)n * sizeof(double)), *dr = t_malloc((size_t)n * t_size * sizeof(double));
        for (int i = 0; i < n; i++) {
            is[i] = ival(t_rank, i);
            ds[i] = dval(t_rank, i);
        }
        for (int root = 0; root < t_size; root++) {
            memset(ir, 0, (size_t)n * t_size * sizeof(int));
            T_MPI(MPI_Gather(is, n, MPI_INT, ir, n, MPI_INT, root, MPI_COMM_WORLD));
            T_MPI(MPI_Gather(ds, n, MPI_DOUBLE, dr, n, MPI_DOUBLE, root, MPI_COMM_WORLD));
            if (t_rank == root)
                for (int r = 0; r < t_size; r++)
                    for (int i = 0; i < n; i++)
                        if (ir[r * n + i] != ival(r, i) || dr[r * n + i] != dval(r, i)) {
                            T_FAIL("Gather root %d count %d: block %d element %d wrong", root, n, r, i);
                            r = t_size;
                            break;
                        }
        }
        memset(ir, 0, (size_t)n * t_size * sizeof(int));
        T_MPI(MPI_Allgather(is, n, MPI_INT, ir, n, MPI_INT, MPI_COMM_WORLD));
        T_MPI(MPI_Allgather(ds, n, MPI_DOUBLE, dr, n, MPI_DOUBLE, MPI_COMM_WORLD));
        for (int r = 0; r < t_size; r++)
            for (int i = 0; i < n; i++)
                if (ir[r * n + i] != ival(r, i) || dr[r * n + i] != dval(r, i)) {
                    T_FAIL("Allgather count %d: block %d element %d wrong", n, r, i);
                    r = t_size;
                    break;
                }
        free(is); free(ir); free(ds); free(dr);
    }
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    for (int i = 0; i < 20; i++)
        T_MPI(MPI_Barrier(MPI_COMM_WORLD));
    test_bcast();
    test_reduce();
    test_loc();
    test_gather();
    T_MPI(MPI_Barrier(MPI_COMM_WORLD));
    return t_finish();
}
