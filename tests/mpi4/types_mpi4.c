/*
 * MPI-4.0 datatype queries with MPI_Count (MPI_Type_size_c,
 * MPI_Type_get_extent_c, MPI_Type_get_true_extent_c, MPI_Get_count_c,
 * MPI_Get_elements_c) and the fixed-size complex types MPI_COMPLEX8 and
 * MPI_COMPLEX16 (size, name, envelope, sum over the ranks).
 */
#include "../mpi/mpitest.h"

#include <complex.h>

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Count sz = -1, lb = -1, ext = -1;
    T_MPI(MPI_Type_size_c(MPI_DOUBLE, &sz));
    T_CHECK(sz == 8, "Type_size_c(MPI_DOUBLE) = %lld", sz);
    MPI_Datatype v, r;
    T_MPI(MPI_Type_vector(3, 2, 5, MPI_INT, &v)); /* extent (2*5+2)*4 = 48, size 24 */
    T_MPI(MPI_Type_create_resized(v, -8, 64, &r));
    T_MPI(MPI_Type_commit(&r));
    T_MPI(MPI_Type_size_c(r, &sz));
    T_MPI(MPI_Type_get_extent_c(r, &lb, &ext));
    T_CHECK(sz == 24 && lb == -8 && ext == 64, "resized vector: size %lld lb %lld extent %lld", sz,
            lb, ext);
    T_MPI(MPI_Type_get_true_extent_c(r, &lb, &ext));
    T_CHECK(lb == 0 && ext == 48, "true extent: lb %lld extent %lld", lb, ext);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    T_MPI_CLASS(MPI_Type_size_c(MPI_DATATYPE_NULL, &sz), MPI_ERR_TYPE);

    /* Get_count_c / Get_elements_c on a message to self: 5 ints. */
    int buf[10] = {0}, in[10];
    MPI_Status st;
    T_MPI(MPI_Sendrecv(buf, 5, MPI_INT, t_rank, 1, in, 10, MPI_INT, t_rank, 1, MPI_COMM_WORLD, &st));
    MPI_Count n = -1;
    T_MPI(MPI_Get_count_c(&st, MPI_INT, &n));
    T_CHECK(n == 5, "Get_count_c = %lld", n);
    T_MPI(MPI_Get_count_c(&st, MPI_DOUBLE, &n));
    T_CHECK(n == MPI_UNDEFINED, "Get_count_c in doubles of 20 bytes = %lld", n);
    T_MPI(MPI_Get_elements_c(&st, MPI_INT, &n));
    T_CHECK(n == 5, "Get_elements_c = %lld", n);

    /* COMPLEX8 and COMPLEX16. */
    int s8 = 0, s16 = 0, len = 0, ni, na, nd, comb;
    char name[MPI_MAX_OBJECT_NAME];
    T_MPI(MPI_Type_size(MPI_COMPLEX8, &s8));
    T_MPI(MPI_Type_size(MPI_COMPLEX16, &s16));
    T_CHECK(s8 == 8 && s16 == 16, "COMPLEX8/16 sizes %d %d", s8, s16);
    T_MPI(MPI_Type_get_name(MPI_COMPLEX16, name, &len));
    T_CHECK(strcmp(name, "MPI_COMPLEX16") == 0, "name '%s'", name);
    T_MPI(MPI_Type_get_envelope(MPI_COMPLEX8, &ni, &na, &nd, &comb));
    T_CHECK(comb == MPI_COMBINER_NAMED, "COMPLEX8 combiner %d", comb);
    float _Complex f = (float)t_rank + 1.0f * I, fs = 0;
    double _Complex d = 2.0 * t_rank - 1.0 * I, ds = 0;
    T_MPI(MPI_Allreduce(&f, &fs, 1, MPI_COMPLEX8, MPI_SUM, MPI_COMM_WORLD));
    T_MPI(MPI_Allreduce(&d, &ds, 1, MPI_COMPLEX16, MPI_SUM, MPI_COMM_WORLD));
    double tri = t_size * (t_size - 1) / 2.0;
    T_CHECK(crealf(fs) == (float)tri && cimagf(fs) == (float)t_size, "COMPLEX8 sum %g%+gi",
            crealf(fs), cimagf(fs));
    T_CHECK(creal(ds) == 2 * tri && cimag(ds) == -t_size, "COMPLEX16 sum %g%+gi", creal(ds),
            cimag(ds));
    T_MPI(MPI_Type_free(&r));
    T_MPI(MPI_Type_free(&v));
    return t_finish();
}
