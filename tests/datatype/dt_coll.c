/*
 * dt_coll: derived datatypes in collectives, which reduce them element by
 * element through their basic kind (core/op.c walking the typed runs):
 *   - Allreduce/Reduce MPI_SUM over contiguous, vector and resized-with-
 *     holes types of doubles (holes keep their values);
 *   - MPI_MAXLOC over contiguous(3, MPI_DOUBLE_INT) (pairs with padding);
 *   - a reduction with a mixed struct is refused (MPI_ERR_TYPE);
 *   - Bcast of a struct type, Gather into a vector type.
 */
#include "dtzoo.h"

static void check_sum(void)
{
    MPI_Datatype c4, vec, rs;
    MPI_Type_contiguous(4, MPI_DOUBLE, &c4);
    MPI_Type_commit(&c4);
    /* vector(3,2,3): doubles 0,1, 3,4, 6,7 of 8 */
    MPI_Type_vector(3, 2, 3, MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, 0, 9 * sizeof(double), &rs);
    MPI_Type_commit(&rs);
    double in[5 * 9], out[5 * 9];
    for (int i = 0; i < 45; i++) {
        in[i] = t_rank + i;
        out[i] = -1;
    }
    MPI_Allreduce(in, out, 5, c4, MPI_SUM, MPI_COMM_WORLD);
    double ranks = t_size * (t_size - 1) / 2.0;
    int bad = 0;
    for (int i = 0; i < 20; i++)
        bad += out[i] != ranks + t_size * i;
    T_CHECK(!bad && out[20] == -1, "Allreduce SUM over contiguous(4): %d wrong", bad);

    for (int i = 0; i < 45; i++)
        out[i] = -1;
    MPI_Allreduce(in, out, 5, rs, MPI_SUM, MPI_COMM_WORLD);
    bad = 0;
    for (int e = 0; e < 5; e++)
        for (int j = 0; j < 9; j++) {
            int i = e * 9 + j, data = j % 3 != 2 && j < 8;
            double want = data ? ranks + t_size * i : -1;
            bad += out[i] != want;
        }
    T_CHECK(!bad, "Allreduce SUM over resized vector with holes: %d wrong", bad);

    for (int i = 0; i < 45; i++)
        out[i] = -1;
    MPI_Reduce(in, out, 5, rs, MPI_SUM, 0, MPI_COMM_WORLD);
    if (t_rank == 0) {
        bad = 0;
        for (int e = 0; e < 5; e++)
            for (int j = 0; j < 9; j++) {
                int i = e * 9 + j, data = j % 3 != 2 && j < 8;
                bad += out[i] != (data ? ranks + t_size * i : -1);
            }
        T_CHECK(!bad, "Reduce SUM over resized vector: %d wrong", bad);
    }
    MPI_Type_free(&c4);
    MPI_Type_free(&vec);
    MPI_Type_free(&rs);
}

static void check_maxloc(void)
{
    struct { double v; int i; } in[6], out[6];
    MPI_Datatype c3;
    MPI_Type_contiguous(3, MPI_DOUBLE_INT, &c3);
    MPI_Type_commit(&c3);
    for (int i = 0; i < 6; i++) {
        in[i].v = (double)((t_rank * 7 + i * 3) % t_size);
        in[i].i = t_rank;
    }
    MPI_Allreduce(in, out, 2, c3, MPI_MAXLOC, MPI_COMM_WORLD);
    for (int i = 0; i < 6; i++) {
        /* the largest value, at the lowest rank holding it */
        double best = -1;
        int who = -1;
        for (int r = 0; r < t_size; r++) {
            double v = (double)((r * 7 + i * 3) % t_size);
            if (v > best) {
                best = v;
                who = r;
            }
        }
        T_CHECK(out[i].v == best && out[i].i == who, "MAXLOC pair %d: %g@%d, expected %g@%d",
                i, out[i].v, out[i].i, best, who);
    }
    MPI_Type_free(&c3);
}

static void check_refused(void)
{
    MPI_Datatype s = zoo_struct1();
    MPI_Type_commit(&s);
    zoo_s1 a[2], b[2];
    memset(a, 0, sizeof a);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Allreduce(a, b, 2, s, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&s);
}

static void check_bcast_gather(void)
{
    MPI_Datatype s = zoo_struct1();
    MPI_Type_commit(&s);
    zoo_s1 v[4];
    memset(v, 0, sizeof v);
    if (t_rank == 0)
        for (int i = 0; i < 4; i++)
            v[i] = (zoo_s1){(char)('a' + i), i * 1.5, {i, 2 * i, 3 * i}, (short)-i};
    MPI_Bcast(v, 4, s, 0, MPI_COMM_WORLD);
    int bad = 0;
    for (int i = 0; i < 4; i++)
        bad += v[i].c != 'a' + i || v[i].d != i * 1.5 || v[i].i[2] != 3 * i || v[i].s != -i;
    T_CHECK(!bad, "Bcast of struct: %d wrong", bad);
    MPI_Type_free(&s);

    /* every rank sends 3 ints; the root puts them at stride 2 */
    MPI_Datatype vec, rvec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 6 * sizeof(int), &rvec);
    MPI_Type_commit(&rvec);
    int mine[3] = {t_rank * 10, t_rank * 10 + 1, t_rank * 10 + 2};
    int *all = t_malloc(sizeof(int) * 6 * (size_t)t_size);
    for (int i = 0; i < 6 * t_size; i++)
        all[i] = -1;
    MPI_Gather(mine, 3, MPI_INT, all, 1, rvec, 0, MPI_COMM_WORLD);
    if (t_rank == 0) {
        bad = 0;
        for (int r = 0; r < t_size; r++)
            for (int j = 0; j < 6; j++)
                bad += all[r * 6 + j] != (j % 2 ? -1 : r * 10 + j / 2);
        T_CHECK(!bad, "Gather into resized vector: %d wrong", bad);
    }
    free(all);
    MPI_Type_free(&vec);
    MPI_Type_free(&rvec);
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    check_sum();
    check_maxloc();
    check_refused();
    check_bcast_gather();
    return t_finish();
}
