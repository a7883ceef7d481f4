/*
 * MPI-4.0 point-to-point and info functions: MPI_Isendrecv and
 * MPI_Isendrecv_replace around a ring (eager and rendezvous sizes,
 * MPI_PROC_NULL, status and count, completion by Test and by Waitall),
 * MPI_Info_get_string (length, truncation, missing key),
 * MPI_Info_create_env ("command", "argv", "maxprocs") and
 * MPI_Comm_idup_with_info (the hints are the ones given, the communicator
 * works).
 */
#include "../mpi/mpitest.h"

static void ring(void)
{
    int right = (t_rank + 1) % t_size, left = (t_rank + t_size - 1) % t_size;
    static const int sizes[] = {0, 7, 5000, 300000};
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        unsigned char *s = t_malloc((size_t)n), *r = t_malloc((size_t)n);
        t_fill(s, (size_t)n, (unsigned)(t_rank * 10 + k));
        memset(r, 0, (size_t)n);
        MPI_Request q;
        MPI_Status st;
        T_MPI(MPI_Isendrecv(s, n, MPI_BYTE, right, 5 + k, r, n, MPI_BYTE, left, 5 + k,
                            MPI_COMM_WORLD, &q));
        if (k % 2) {
            int flag = 0;
            while (!flag)
                T_MPI(MPI_Test(&q, &flag, &st));
        } else {
            T_MPI(MPI_Waitall(1, &q, &st));
        }
        T_CHECK(q == MPI_REQUEST_NULL, "Isendrecv request not freed by its completion");
        T_STATUS(st, left, 5 + k, n);
        T_CHECK(t_verify(r, (size_t)n, (unsigned)(left * 10 + k)) < 0, "Isendrecv %d bytes: bad data",
                n);
        /* replace: the buffer goes right and comes back from the left */
        t_fill(r, (size_t)n, (unsigned)(t_rank * 10 + k + 100));
        T_MPI(MPI_Isendrecv_replace(r, n, MPI_BYTE, right, 9, left, 9, MPI_COMM_WORLD, &q));
        T_MPI(MPI_Wait(&q, &st));
        T_STATUS(st, left, 9, n);
        T_CHECK(t_verify(r, (size_t)n, (unsigned)(left * 10 + k + 100)) < 0,
                "Isendrecv_replace %d bytes: bad data", n);
        free(s);
        free(r);
    }
    /* A strided datatype through replace, and MPI_PROC_NULL halves. */
    int v[8], got = -1;
    MPI_Datatype every2;
    T_MPI(MPI_Type_vector(4, 1, 2, MPI_INT, &every2));
    T_MPI(MPI_Type_commit(&every2));
    for (int i = 0; i < 8; i++)
        v[i] = i % 2 ? -1 : 100 * t_rank + i;
    MPI_Request q;
    MPI_Status st;
    T_MPI(MPI_Isendrecv_replace(v, 1, every2, right, 3, left, 3, MPI_COMM_WORLD, &q));
    T_MPI(MPI_Wait(&q, &st));
    for (int i = 0; i < 8; i++)
        T_CHECK(v[i] == (i % 2 ? -1 : 100 * left + i), "strided replace: v[%d] = %d", i, v[i]);
    T_MPI(MPI_Type_free(&every2));
    T_MPI(MPI_Isendrecv(&t_rank, 1, MPI_INT, MPI_PROC_NULL, 0, &got, 1, MPI_INT, MPI_PROC_NULL, 0,
                        MPI_COMM_WORLD, &q));
    T_MPI(MPI_Wait(&q, &st));
    T_CHECK(st.MPI_SOURCE == MPI_PROC_NULL && got == -1, "PROC_NULL Isendrecv: source %d",
            st.MPI_SOURCE);
    T_MPI_CLASS(MPI_Isendrecv(&t_rank, 1, MPI_INT, t_size, 0, &got, 1, MPI_INT, left, 0,
                              MPI_COMM_WORLD, &q), MPI_ERR_RANK);
}

static void info(int argc, char **argv)
{
    MPI_Info in;
    T_MPI(MPI_Info_create(&in));
    T_MPI(MPI_Info_set(in, "color", "ultramarine"));
    char buf[32];
    int len = sizeof buf, flag = 0;
    T_MPI(MPI_Info_get_string(in, "color", &len, buf, &flag));
    T_CHECK(flag && len == 12 && strcmp(buf, "ultramarine") == 0, "get_string: flag %d len %d '%s'",
            flag, len, buf);
    len = 5;
    T_MPI(MPI_Info_get_string(in, "color", &len, buf, &flag));
    T_CHECK(flag && len == 12 && strcmp(buf, "ultr") == 0, "truncated get_string: len %d '%s'", len,
            buf);
    len = 0;
    T_MPI(MPI_Info_get_string(in, "color", &len, NULL, &flag));
    T_CHECK(flag && len == 12, "get_string length query: len %d", len);
    len = 7;
    T_MPI(MPI_Info_get_string(in, "shape", &len, buf, &flag));
    T_CHECK(!flag && len == 7, "missing key: flag %d len %d", flag, len);
    T_MPI_CLASS(MPI_Info_get_string(MPI_INFO_NULL, "color", &len, buf, &flag), MPI_ERR_INFO);

    /* Comm_idup_with_info: the new communicator has exactly these hints. */
    MPI_Comm c;
    MPI_Request q;
    T_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, in, &c, &q));
    T_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
    MPI_Info used;
    T_MPI(MPI_Comm_get_info(c, &used));
    len = sizeof buf;
    T_MPI(MPI_Info_get_string(used, "color", &len, buf, &flag));
    T_CHECK(flag && strcmp(buf, "ultramarine") == 0, "idup_with_info: hint missing");
    T_MPI(MPI_Info_free(&used));
    int sum = 0;
    T_MPI(MPI_Allreduce(&t_rank, &sum, 1, MPI_INT, MPI_SUM, c));
    T_CHECK(sum == t_size * (t_size - 1) / 2, "allreduce on the idup'ed communicator: %d", sum);
    T_MPI(MPI_Comm_free(&c));
    T_MPI(MPI_Info_free(&in));

    /* Info_create_env: the command and its arguments. */
    char *args[] = {argv[0], "alpha", "beta", NULL};
    T_MPI(MPI_Info_create_env(3, args, &in));
    char val[MPI_MAX_INFO_VAL];
    len = sizeof val;
    T_MPI(MPI_Info_get_string(in, "command", &len, val, &flag));
    T_CHECK(flag && strcmp(val, argv[0]) == 0, "create_env command '%s'", flag ? val : "");
    len = sizeof val;
    T_MPI(MPI_Info_get_string(in, "argv", &len, val, &flag));
    T_CHECK(flag && strcmp(val, "alpha beta") == 0, "create_env argv '%s'", flag ? val : "");
    len = sizeof val;
    T_MPI(MPI_Info_get_string(in, "maxprocs", &len, val, &flag));
    T_CHECK(flag && atoi(val) == t_size, "create_env maxprocs '%s'", flag ? val : "");
    T_MPI(MPI_Info_set(in, "mine", "yes")); /* a new object: the user may change it */
    T_MPI(MPI_Info_free(&in));
    T_MPI(MPI_Info_create_env(0, NULL, &in));
    len = sizeof val;
    T_MPI(MPI_Info_get_string(in, "command", &len, val, &flag));
    T_CHECK(!flag, "create_env without arguments has a command");
    T_MPI(MPI_Info_free(&in));
    (void)argc;
}

int main(int argc, char **argv)
{
    t_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ring();
    info(argc, argv);
    return t_finish();
}
