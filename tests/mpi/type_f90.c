/* MPI_Type_create_f90_real/complex/integer: the type of a Fortran kind
 * chosen by precision and range, with the F90 combiner and its
 * parameters, the same handle for the same (p, r), not freeable, usable
 * in communication and in reductions with predefined operations. */
#include <mpi.h>
#include <stdio.h>

static int bad;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL: " __VA_ARGS__); printf("\n"); bad = 1; } } while (0)

static void check_type(MPI_Datatype t, int size, int combiner, int ni, int p, int r)
{
    int s, n_i, n_a, n_d, comb, ints[2] = {-7, -7};
    MPI_Type_size(t, &s);
    CHECK(s == size, "size %d, want %d", s, size);
    MPI_Type_get_envelope(t, &n_i, &n_a, &n_d, &comb);
    CHECK(comb == combiner && n_i == ni && n_a == 0 && n_d == 0, "envelope %d %d %d %d", comb,
          n_i, n_a, n_d);
    MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL);
    if (ni == 2)
        CHECK(ints[0] == p && ints[1] == r, "contents %d %d, want %d %d", ints[0], ints[1], p, r);
    else
        CHECK(ints[0] == r, "contents %d, want %d", ints[0], r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype r4, r8, r8b, c16, i4, i8, rx;
    MPI_Type_create_f90_real(6, MPI_UNDEFINED, &r4);
    check_type(r4, 4, MPI_COMBINER_F90_REAL, 2, 6, MPI_UNDEFINED);
    MPI_Type_create_f90_real(15, 300, &r8);
    check_type(r8, 8, MPI_COMBINER_F90_REAL, 2, 15, 300);
    MPI_Type_create_f90_real(15, 300, &r8b);
    CHECK(r8 == r8b, "the same (p, r) gave two handles");
    MPI_Type_create_f90_complex(10, MPI_UNDEFINED, &c16);
    check_type(c16, 16, MPI_COMBINER_F90_COMPLEX, 2, 10, MPI_UNDEFINED);
    MPI_Type_create_f90_integer(9, &i4);
    check_type(i4, 4, MPI_COMBINER_F90_INTEGER, 1, 0, 9);
    MPI_Type_create_f90_integer(18, &i8);
    check_type(i8, 8, MPI_COMBINER_F90_INTEGER, 1, 0, 18);
    CHECK(MPI_Type_create_f90_integer(40, &rx) == MPI_ERR_ARG, "INTEGER range 40 accepted");
    CHECK(MPI_Type_create_f90_real(60, 10, &rx) == MPI_ERR_ARG, "REAL precision 60 accepted");
    MPI_Datatype tmp = r8;
    CHECK(MPI_Type_free(&tmp) == MPI_ERR_TYPE, "an F90 type was freed");
    /* in a reduction with a predefined operation and in a message */
    double d = rank + 1, sum = 0;
    CHECK(MPI_Allreduce(&d, &sum, 1, r8, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS, "Allreduce");
    CHECK(sum == size * (size + 1) / 2.0, "sum %g", sum);
    long long v = rank == 0 ? 1234567890123LL : 0;
    MPI_Bcast(&v, 1, i8, 0, MPI_COMM_WORLD);
    CHECK(v == 1234567890123LL, "Bcast of INTEGER(8): %lld", v);
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "FAIL\n" : "PASS\n");
    MPI_Finalize();
    return all;
}
