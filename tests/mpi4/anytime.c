/*
 * anytime: the functions MPI-4.0 allows before MPI_Init and after
 * MPI_Finalize (11.4.1, Table 11.1): the MPI_Info_* functions,
 * MPI_Session_create_errhandler, MPI_Session_call_errhandler,
 * MPI_Errhandler_free, MPI_Error_string/class, MPI_Get_version.
 *
 *   anytime world    (FTMPI_INITIAL_ERRHANDLER=mpi_errors_return) info
 *                    objects and a session error handler made before
 *                    MPI_Init are used inside (MPI_Comm_set_info) and
 *                    after MPI_Finalize; errors outside return their class
 *                    (the initial error handler); a call that is not
 *                    allowed outside returns MPI_ERR_OTHER.
 *   anytime session  the same objects given to MPI_Session_init (its info
 *                    and its error handler, which a call then runs).
 *   anytime fatal    (no variable) a bad key before MPI_Init ends the
 *                    process: the default initial error handler is
 *                    MPI_ERRORS_ARE_FATAL (the test wants its message).
 */
#include "../mpi/mpitest.h"

static int handler_calls, handler_code;

static void session_handler(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static int has(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL];
    int len = sizeof v, flag = 0;
    if (MPI_Info_get_string(info, key, &len, v, &flag) != MPI_SUCCESS || !flag)
        return 0;
    return !want || strcmp(v, want) == 0;
}

/* Every info function and the error functions, with the library down
 * (before MPI_Init or after MPI_Finalize). Returns the object made. */
static MPI_Info outside(const char *when, MPI_Errhandler *eh)
{
    MPI_Info a = MPI_INFO_NULL, b = MPI_INFO_NULL;
    T_MPI(MPI_Info_create(&a));
    T_MPI(MPI_Info_set(a, "colour", "blue"));
    T_MPI(MPI_Info_set(a, "shape", "round"));
    T_MPI(MPI_Info_set(a, "colour", "green")); /* replaced in place */
    int n = -1, len = 0, flag = 0;
    T_MPI(MPI_Info_get_nkeys(a, &n));
    T_CHECK(n == 2, "%s: nkeys %d", when, n);
    char key[MPI_MAX_INFO_KEY + 1];
    T_MPI(MPI_Info_get_nthkey(a, 1, key));
    T_CHECK(strcmp(key, "shape") == 0, "%s: nthkey 1 '%s'", when, key);
    T_CHECK(has(a, "colour", "green"), "%s: colour", when);
    T_MPI(MPI_Info_get_valuelen(a, "shape", &len, &flag));
    T_CHECK(flag && len == 5, "%s: valuelen %d flag %d", when, len, flag);
    char v[16];
    T_MPI(MPI_Info_get(a, "shape", sizeof v - 1, v, &flag));
    T_CHECK(flag && strcmp(v, "round") == 0, "%s: get '%s'", when, v);
    T_MPI(MPI_Info_dup(a, &b));
    T_MPI(MPI_Info_delete(b, "colour"));
    T_CHECK(!has(b, "colour", NULL) && has(a, "colour", "green"), "%s: dup independent", when);
    T_MPI(MPI_Info_free(&b));
    T_CHECK(b == MPI_INFO_NULL, "%s: freed", when);
    /* the standard's errors, returned by the initial error handler */
    char longkey[MPI_MAX_INFO_KEY + 8];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[sizeof longkey - 1] = '\0';
    T_MPI_CLASS(MPI_Info_set(a, longkey, "x"), MPI_ERR_INFO_KEY);
    T_MPI_CLASS(MPI_Info_delete(a, "absent"), MPI_ERR_INFO_NOKEY);
    T_MPI_CLASS(MPI_Info_get_nkeys(b, &n), MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Info_free(&b), MPI_ERR_INFO);
    T_MPI_CLASS(MPI_Info_set(MPI_INFO_ENV, "x", "y"), MPI_ERR_INFO); /* read-only */
    T_CHECK(has(MPI_INFO_ENV, "wdir", NULL), "%s: MPI_INFO_ENV has no wdir", when);
    T_MPI(MPI_Info_create_env(0, NULL, &b));
    T_CHECK(has(b, "wdir", NULL), "%s: create_env wdir", when);
    T_MPI(MPI_Info_free(&b));
    /* error handlers and error strings */
    T_MPI(MPI_Session_create_errhandler(session_handler, eh));
    T_CHECK(*eh != MPI_ERRHANDLER_NULL, "%s: session errhandler", when);
    T_MPI_CLASS(MPI_Session_call_errhandler(MPI_SESSION_NULL, MPI_ERR_OTHER), MPI_ERR_SESSION);
    MPI_Errhandler none = MPI_ERRHANDLER_NULL;
    T_MPI_CLASS(MPI_Session_create_errhandler(NULL, &none), MPI_ERR_ARG);
    int cls = -1;
    T_MPI(MPI_Error_class(MPI_ERR_INFO_KEY, &cls));
    T_CHECK(cls == MPI_ERR_INFO_KEY, "%s: class %d", when, cls);
    char es[MPI_MAX_ERROR_STRING];
    T_MPI(MPI_Error_string(MPI_ERR_INFO, es, &len));
    T_CHECK(len > 0 && (size_t)len == strlen(es), "%s: error string length %d", when, len);
    int ver = 0, sub = 0;
    T_MPI(MPI_Get_version(&ver, &sub));
    /* not in Table 11.1: refused, with MPI_ERR_OTHER */
    int size = 0;
    T_MPI_CLASS(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_ERR_OTHER);
    return a;
}

static void fatal(void)
{
    MPI_Info a;
    MPI_Info_create(&a);
    MPI_Info_set(a, "", "empty keys are not keys");
    printf("NOT REACHED: the initial error handler returned\n");
    exit(1);
}

int main(int argc, char **argv)
{
    t_set_name(argv[0]);
    const char *mode = argc > 1 ? argv[1] : "world";
    if (strcmp(mode, "fatal") == 0)
        fatal();
    MPI_Errhandler early_eh = MPI_ERRHANDLER_NULL;
    MPI_Info early = outside("before MPI_Init", &early_eh);
    MPI_Session s = MPI_SESSION_NULL;
    if (strcmp(mode, "session") == 0) {
        T_MPI(MPI_Info_set(early, "thread_level", "MPI_THREAD_SINGLE"));
        T_MPI(MPI_Session_init(early, early_eh, &s));
        T_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
        T_CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER,
                "handler made before MPI_Session_init: %d calls, code %d", handler_calls,
                handler_code);
        MPI_Info got;
        T_MPI(MPI_Session_get_info(s, &got));
        T_CHECK(has(got, "thread_level", "MPI_THREAD_SINGLE"), "session info thread_level");
        MPI_Info_free(&got);
    } else {
        t_init(&argc, &argv);
        T_CHECK(has(early, "colour", "green"), "the object made before MPI_Init, inside");
        T_MPI(MPI_Comm_set_info(MPI_COMM_SELF, early));
        char want[16];
        snprintf(want, sizeof want, "%d", t_size);
        T_CHECK(has(MPI_INFO_ENV, "maxprocs", want), "MPI_INFO_ENV maxprocs after MPI_Init");
        /* inside, an error goes to MPI_COMM_WORLD's handler */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        T_MPI_CLASS(MPI_Info_delete(early, "absent"), MPI_ERR_INFO_NOKEY);
    }
    int total = t_errors;
    if (s != MPI_SESSION_NULL) {
        T_MPI(MPI_Session_finalize(&s));
    } else {
        MPI_Allreduce(&t_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Finalize();
    }
    /* after finalization: the objects made before are still there */
    T_CHECK(has(early, "colour", "green") && has(early, "shape", "round"),
            "the object made before MPI_Init, after MPI_Finalize");
    T_MPI(MPI_Info_free(&early));
    T_MPI(MPI_Errhandler_free(&early_eh));
    T_CHECK(early_eh == MPI_ERRHANDLER_NULL, "errhandler freed after MPI_Finalize");
    MPI_Errhandler late_eh = MPI_ERRHANDLER_NULL;
    MPI_Info late = outside("after MPI_Finalize", &late_eh);
    T_MPI(MPI_Info_free(&late));
    T_MPI(MPI_Errhandler_free(&late_eh));
    if (t_errors || total) {
        fprintf(stderr, "%s %s: %d failure(s) here, %d inside over the job\n", t_name, mode,
                t_errors, total);
        return 1;
    }
    printf("%s %s: passed\n", t_name, mode);
    return 0;
}
