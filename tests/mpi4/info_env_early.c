/*
 * info_env_early: MPI_Info_create_env before MPI_Init (MPI-4.0 11.2.1
 * allows it). The object made before MPI_Init has "command", "argv" and
 * "wdir", and "maxprocs" (the launcher's job size), survives MPI_Init, and
 * is read and freed after it; one made inside has the same keys and
 * values (MPI_Init asks no thread level: no "thread_level"); MPI_INFO_ENV
 * then has "maxprocs" (the
 * job's size). A negative argc before MPI_Init returns MPI_ERR_ARG (the
 * test runs with FTMPI_INITIAL_ERRHANDLER=mpi_errors_return).
 */
#include "../mpi/mpitest.h"

static int has(MPI_Info info, const char *key, char *val)
{
    int flag = 0;
    val[0] = '\0';
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, val, &flag);
    return flag;
}

int main(int argc, char **argv)
{
    MPI_Info early = MPI_INFO_NULL, bad = MPI_INFO_NULL;
    char *args[] = {argv[0], "one", "two", NULL};
    int rc_early = MPI_Info_create_env(3, args, &early);
    int rc_bad = MPI_Info_create_env(-1, NULL, &bad);
    t_init(&argc, &argv);
    char v[MPI_MAX_INFO_VAL];
    T_CHECK(rc_early == MPI_SUCCESS && early != MPI_INFO_NULL, "before MPI_Init: rc %d",
            rc_early);
    T_CHECK(rc_bad == MPI_ERR_ARG && bad == MPI_INFO_NULL, "argc -1 before MPI_Init: rc %d",
            rc_bad);
    if (rc_early == MPI_SUCCESS) {
        T_CHECK(has(early, "command", v) && !strcmp(v, argv[0]), "command '%s'", v);
        T_CHECK(has(early, "argv", v) && !strcmp(v, "one two"), "argv '%s'", v);
        T_CHECK(has(early, "wdir", v) && v[0] == '/', "wdir '%s'", v);
    }
    char want[16];
    snprintf(want, sizeof want, "%d", t_size);
    if (rc_early == MPI_SUCCESS)
        T_CHECK(has(early, "maxprocs", v) && !strcmp(v, want), "maxprocs before MPI_Init '%s'",
                v);
    /* after MPI_Init: MPI_INFO_ENV is complete; a new object is as the early one */
    T_CHECK(has(MPI_INFO_ENV, "maxprocs", v) && !strcmp(v, want), "maxprocs '%s', want %s", v,
            want);
    MPI_Info late;
    T_MPI(MPI_Info_create_env(3, args, &late));
    T_CHECK(!has(late, "thread_level", v), "thread_level in MPI_Info_create_env's object");
    int nl = -1, ne = -2;
    MPI_Info_get_nkeys(late, &nl);
    if (rc_early == MPI_SUCCESS) {
        MPI_Info_get_nkeys(early, &ne);
        T_CHECK(nl == ne, "%d keys inside, %d before MPI_Init", nl, ne);
        for (int k = 0; k < nl && nl == ne; k++) {
            char key[MPI_MAX_INFO_KEY + 1], v2[MPI_MAX_INFO_VAL];
            MPI_Info_get_nthkey(late, k, key);
            T_CHECK(has(late, key, v) && has(early, key, v2) && !strcmp(v, v2),
                    "%s: '%s' inside, '%s' before MPI_Init", key, v, v2);
        }
        T_MPI(MPI_Info_free(&early));
        T_CHECK(early == MPI_INFO_NULL, "freed");
    }
    MPI_Info_free(&late);
    return t_finish();
}
