/*
 * env: environment inquiry and the profiling interface.
 * MPI_Initialized / MPI_Finalized before, during and after; MPI_Wtime
 * (monotonic, measures a sleep) and MPI_Wtick; MPI_Get_processor_name,
 * MPI_Get_version (== MPI_VERSION/MPI_SUBVERSION), MPI_Get_library_version;
 * PMPI_ names callable; a profiling wrapper (our own MPI_Send that counts
 * and calls PMPI_Send) is the one the program's MPI_Send calls reach.
 * A second MPI_Init / MPI_Init_thread, and one after MPI_Finalize, return
 * an error of class MPI_ERR_OTHER whose string says so (and nothing about
 * a process failure); MPI_ERR_OTHER's own string is generic.
 */
#include "mpitest.h"

#include <unistd.h>

static int wrapped_sends;

/* Tool interposition: this definition overrides the library's weak one. */
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    wrapped_sends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int main(int argc, char **argv)
{
    int flag = -1;
    t_set_name(argv[0]);
    if (MPI_Initialized(&flag) != MPI_SUCCESS || flag != 0) {
        fprintf(stderr, "FAIL [env] MPI_Initialized before MPI_Init: flag %d\n", flag);
        return 1;
    }
    flag = -1;
    if (MPI_Finalized(&flag) != MPI_SUCCESS || flag != 0) {
        fprintf(stderr, "FAIL [env] MPI_Finalized before MPI_Init: flag %d\n", flag);
        return 1;
    }
    t_init(&argc, &argv);
    T_MPI(MPI_Initialized(&flag));
    T_CHECK(flag == 1, "MPI_Initialized after MPI_Init: %d", flag);
    T_MPI(MPI_Finalized(&flag));
    T_CHECK(flag == 0, "MPI_Finalized before MPI_Finalize: %d", flag);

    /* MPI_Init twice: erroneous, class MPI_ERR_OTHER, a string that says so */
    {
        char es[MPI_MAX_ERROR_STRING];
        int cls = -1, elen = 0, prov = -1;
        int rc = MPI_Init(&argc, &argv);
        T_CHECK(rc != MPI_SUCCESS, "a second MPI_Init returned MPI_SUCCESS");
        T_MPI(MPI_Error_class(rc, &cls));
        T_CHECK(cls == MPI_ERR_OTHER, "second MPI_Init: class %d, want MPI_ERR_OTHER", cls);
        T_MPI(MPI_Error_string(rc, es, &elen));
        T_CHECK(strstr(es, "called twice") && !strstr(es, "process fail") && !strstr(es, "FT-MPI"),
                "second MPI_Init: error string '%s'", es);
        rc = MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &prov);
        T_MPI(MPI_Error_class(rc, &cls));
        T_CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_OTHER, "MPI_Init_thread after MPI_Init: %d", rc);
        T_MPI(MPI_Initialized(&flag));
        T_CHECK(flag == 1, "MPI_Initialized after a second MPI_Init: %d", flag);
    }

    double tick = MPI_Wtick();
    T_CHECK(tick > 0 && tick < 0.01, "MPI_Wtick = %g", tick);
    MPI_Comm parent = MPI_COMM_WORLD;
    T_MPI(MPI_Comm_get_parent(&parent));
    T_CHECK(parent == MPI_COMM_NULL, "MPI_Comm_get_parent: not spawned, want MPI_COMM_NULL");
    double t0 = MPI_Wtime(), prev = t0;
    for (int i = 0; i < 100000; i++) {
        double t = MPI_Wtime();
        if (t < prev) {
            T_FAIL("MPI_Wtime went backwards: %.9f after %.9f", t, prev);
            break;
        }
        prev = t;
    }
    double a = MPI_Wtime();
    t_sleep_ms(20);
    double el = MPI_Wtime() - a;
    T_CHECK(el >= 0.019 && el < 5, "MPI_Wtime measured %.4f s for a 20 ms sleep", el);
    double p = PMPI_Wtime();
    T_CHECK(p >= a, "PMPI_Wtime %.6f earlier than MPI_Wtime %.6f", p, a);

    char name[MPI_MAX_PROCESSOR_NAME];
    int len = -1;
    memset(name, 0, sizeof name);
    T_MPI(MPI_Get_processor_name(name, &len));
    T_CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && (size_t)len == strlen(name),
            "Get_processor_name: length %d, name '%s'", len, name);
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    T_CHECK(strcmp(name, host) == 0 || strstr(name, host) == name,
            "Get_processor_name '%s', host name '%s'", name, host);

    int v = -1, sv = -1;
    T_MPI(MPI_Get_version(&v, &sv));
    T_CHECK(v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version (%d, %d), mpi.h says (%d, %d)", v, sv,
            MPI_VERSION, MPI_SUBVERSION);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    len = -1;
    memset(lib, 0, sizeof lib);
    T_MPI(MPI_Get_library_version(lib, &len));
    T_CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && (size_t)len == strlen(lib),
            "Get_library_version: length %d, '%s'", len, lib);

    /* PMPI_ names */
    int r = -1, n = -1;
    T_MPI(PMPI_Comm_rank(MPI_COMM_WORLD, &r));
    T_MPI(PMPI_Comm_size(MPI_COMM_WORLD, &n));
    T_CHECK(r == t_rank && n == t_size, "PMPI_Comm_rank/size: %d %d", r, n);
    int x = 5 + t_rank, y = -1;
    MPI_Request rq;
    T_MPI(PMPI_Irecv(&y, 1, MPI_INT, t_rank, 1, MPI_COMM_WORLD, &rq));
    T_MPI(PMPI_Send(&x, 1, MPI_INT, t_rank, 1, MPI_COMM_WORLD));
    T_MPI(PMPI_Wait(&rq, MPI_STATUS_IGNORE));
    T_CHECK(y == x, "PMPI self message: %d", y);
    int s = 0;
    T_MPI(PMPI_Allreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    T_CHECK(s == 5 * t_size + t_size * (t_size - 1) / 2, "PMPI_Allreduce: %d", s);
    T_MPI(PMPI_Barrier(MPI_COMM_WORLD));

    /* the wrapper */
    int before = wrapped_sends;
    T_MPI(MPI_Irecv(&y, 1, MPI_INT, t_rank, 2, MPI_COMM_WORLD, &rq));
    T_MPI(MPI_Send(&x, 1, MPI_INT, t_rank, 2, MPI_COMM_WORLD));
    T_MPI(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    T_CHECK(wrapped_sends == before + 1, "profiling wrapper of MPI_Send saw %d calls, expected 1",
            wrapped_sends - before);

    int thr = -1;
    T_MPI(MPI_Query_thread(&thr));
    T_CHECK(thr >= MPI_THREAD_SINGLE && thr <= MPI_THREAD_MULTIPLE, "Query_thread: %d", thr);

    /* t_finish finalizes; check the flags after */
    int errs = t_finish();
    flag = -1;
    if (MPI_Finalized(&flag) != MPI_SUCCESS || flag != 1) {
        fprintf(stderr, "FAIL [env rank %d] MPI_Finalized after MPI_Finalize: %d\n", t_rank, flag);
        errs = 1;
    }
    flag = -1;
    if (MPI_Initialized(&flag) != MPI_SUCCESS || flag != 1) {
        fprintf(stderr, "FAIL [env rank %d] MPI_Initialized after MPI_Finalize: %d\n", t_rank, flag);
        errs = 1;
    }
    /* MPI_Init after MPI_Finalize: erroneous too, and said so */
    int rc = MPI_Init(&argc, &argv), cls = -1, elen = 0;
    char es[MPI_MAX_ERROR_STRING] = "";
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_OTHER ||
        MPI_Error_string(rc, es, &elen) != MPI_SUCCESS || !strstr(es, "after MPI_Finalize")) {
        fprintf(stderr, "FAIL [env rank %d] MPI_Init after MPI_Finalize: rc %d class %d '%s'\n",
                t_rank, rc, cls, es);
        errs = 1;
    }
    return errs;
}
