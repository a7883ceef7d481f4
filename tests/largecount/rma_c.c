/*
 * The large-count one-sided functions: windows made by MPI_Win_create_c,
 * MPI_Win_allocate_c and MPI_Win_allocate_shared_c (MPI_Aint displacement
 * units, read back by MPI_Win_shared_query_c and the MPI_WIN_DISP_UNIT
 * attribute), and Put_c, Get_c, Accumulate_c, Get_accumulate_c and their
 * request-based forms, with fences, each result checked. Counts beyond
 * INT_MAX without the memory: a get whose origin count is 3e9 elements of
 * a type of size 0 next to a real one. Negative counts: MPI_ERR_COUNT.
 */
#include "../mpi/mpitest.h"

#define BIG 3000000000LL

static int p, me, right, left;

/* Rank r's window holds 8 ints; each rank works on its right neighbour's. */
static void ops(MPI_Win win, int *base, const char *what)
{
    int v[4] = {me * 10, me * 10 + 1, me * 10 + 2, me * 10 + 3}, got[4] = {0}, old[2] = {0};
    MPI_Request r[4];
    for (int i = 0; i < 8; i++)
        base[i] = 1000 + i;
    T_MPI(MPI_Win_fence(0, win));
    T_MPI(MPI_Put_c(v, 2, MPI_INT, right, 0, 2, MPI_INT, win));
    T_MPI(MPI_Rput_c(v + 2, 2, MPI_INT, right, 2, 2, MPI_INT, win, &r[0]));
    T_MPI(MPI_Accumulate_c(v, 2, MPI_INT, right, 4, 2, MPI_INT, MPI_SUM, win));
    T_MPI(MPI_Raccumulate_c(v, 1, MPI_INT, right, 6, 1, MPI_INT, MPI_SUM, win, &r[1]));
    T_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    T_MPI(MPI_Win_fence(0, win));
    /* what the left neighbour put here */
    for (int i = 0; i < 4; i++)
        T_CHECK(base[i] == left * 10 + i, "%s: Put_c/Rput_c [%d] = %d", what, i, base[i]);
    T_CHECK(base[4] == 1004 + left * 10 && base[5] == 1005 + left * 10 + 1 &&
                base[6] == 1006 + left * 10,
            "%s: Accumulate_c/Raccumulate_c %d %d %d", what, base[4], base[5], base[6]);
    T_MPI(MPI_Win_fence(0, win));
    T_MPI(MPI_Get_c(got, 2, MPI_INT, right, 0, 2, MPI_INT, win));
    T_MPI(MPI_Rget_c(got + 2, 2, MPI_INT, right, 2, 2, MPI_INT, win, &r[0]));
    T_MPI(MPI_Get_accumulate_c(v, 1, MPI_INT, old, 1, MPI_INT, right, 7, 1, MPI_INT, MPI_SUM, win));
    T_MPI(MPI_Rget_accumulate_c(NULL, 0, MPI_INT, old + 1, 1, MPI_INT, right, 4, 1, MPI_INT,
                                MPI_NO_OP, win, &r[1]));
    T_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    T_MPI(MPI_Win_fence(0, win));
    for (int i = 0; i < 4; i++)
        T_CHECK(got[i] == me * 10 + i, "%s: Get_c/Rget_c [%d] = %d", what, i, got[i]);
    T_CHECK(old[0] == 1007 && old[1] == 1004 + me * 10, "%s: Get_accumulate_c %d, Rget_accumulate_c %d",
            what, old[0], old[1]);
    T_CHECK(base[7] == 1007 + left * 10, "%s: after Get_accumulate_c %d", what, base[7]);

    /* 3e9 elements of size 0 (no bytes) */
    MPI_Datatype zero;
    T_MPI(MPI_Type_contiguous(0, MPI_INT, &zero));
    T_MPI(MPI_Type_commit(&zero));
    T_MPI(MPI_Win_fence(0, win));
    T_MPI(MPI_Get_c(got, BIG, zero, right, 0, BIG, zero, win));
    T_MPI(MPI_Put_c(v, BIG, zero, right, 0, 0, MPI_INT, win));
    T_MPI(MPI_Win_fence(0, win));
    T_MPI_CLASS(MPI_Put_c(v, -1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    T_MPI(MPI_Win_fence(0, win));
    MPI_Type_free(&zero);
}

/* (the attribute is an int, also for windows made by the _c calls: their
 * MPI_Aint disp_unit above INT_MAX is refused with MPI_ERR_DISP) */
static void unit_is(MPI_Win win, MPI_Aint want, const char *what)
{
    int *unit = NULL;
    int flag = 0;
    T_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
    T_CHECK(flag && *unit == want, "%s: MPI_WIN_DISP_UNIT %ld", what, flag ? (long)*unit : -1L);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    p = t_size;
    me = t_rank;
    right = (me + 1) % p;
    left = (me + p - 1) % p;
    MPI_Win win;
    int mem[8];
    T_MPI(MPI_Win_create_c(mem, sizeof mem, (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                           &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    unit_is(win, sizeof(int), "Win_create_c");
    ops(win, mem, "Win_create_c");
    MPI_Win_free(&win);

    int *base = NULL;
    T_MPI(MPI_Win_allocate_c(8 * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    unit_is(win, sizeof(int), "Win_allocate_c");
    ops(win, base, "Win_allocate_c");
    MPI_Win_free(&win);

    T_MPI(MPI_Win_allocate_shared_c(8 * sizeof(int), (MPI_Aint)sizeof(int), MPI_INFO_NULL,
                                    MPI_COMM_WORLD, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Aint size = -1, unit = -1;
    int *rbase = NULL;
    T_MPI(MPI_Win_shared_query_c(win, right, &size, &unit, &rbase));
    T_CHECK(size == 8 * sizeof(int) && unit == sizeof(int) && rbase != NULL,
            "Win_shared_query_c: size %ld unit %ld", (long)size, (long)unit);
    ops(win, base, "Win_allocate_shared_c");
    MPI_Win_free(&win);

    /* a displacement unit no int holds */
    T_MPI_CLASS(MPI_Win_create_c(mem, sizeof mem, BIG, MPI_INFO_NULL, MPI_COMM_WORLD, &win),
                MPI_ERR_DISP);
    return t_finish();
}
