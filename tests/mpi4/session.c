/*
 * session: MPI-4 sessions, run two ways.
 *   session         without MPI_Init (the session starts the library):
 *                   psets, their info, groups, MPI_Comm_create_from_group
 *                   (WORLD and SELF), MPI_Intercomm_create_from_groups,
 *                   the session's error handler and argument errors, two
 *                   sessions at once; after the last MPI_Session_finalize
 *                   the library is down and MPI_Session_init fails.
 *   session world   with MPI_Init_thread(MULTIPLE): a session with no
 *                   thread_level asked for runs at the library's level;
 *                   the WORLD pset's communicator is
 *                   congruent with MPI_COMM_WORLD; a session outlives
 *                   MPI_Finalize and its communicator still works.
 * Each rank prints "session rank R: ok" when every check passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpitest.h"

static int handler_calls, handler_code;

static void session_handler(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static int err_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Psets, their names and info. Returns the size of mpi://WORLD. */
static int check_psets(MPI_Session s)
{
    int n = -1;
    T_MPI(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    T_CHECK(n == 2, "%d process sets, want 2", n);
    const char *want[2] = {"mpi://WORLD", "mpi://SELF"};
    for (int i = 0; i < 2 && i < n; i++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        int len = 0;
        T_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL));
        T_CHECK(len == (int)strlen(want[i]) + 1, "pset %d: length %d", i, len);
        len = (int)sizeof name;
        T_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        T_CHECK(strcmp(name, want[i]) == 0, "pset %d is \"%s\", want %s", i, name, want[i]);
        len = 6; /* truncated: 5 characters and the NUL */
        T_MPI(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name));
        T_CHECK(strncmp(name, want[i], 5) == 0 && name[5] == 0, "truncated name \"%s\"", name);
    }
    MPI_Info info;
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0, wsize = -1;
    T_MPI(MPI_Session_get_pset_info(s, "mpi://WORLD", &info));
    T_MPI(MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL, val, &flag));
    T_CHECK(flag, "mpi://WORLD has no mpi_size");
    wsize = atoi(val);
    MPI_Info_free(&info);
    T_MPI(MPI_Session_get_pset_info(s, "mpi://SELF", &info));
    T_MPI(MPI_Info_get(info, "mpi_size", MPI_MAX_INFO_VAL, val, &flag));
    T_CHECK(flag && strcmp(val, "1") == 0, "mpi://SELF mpi_size \"%s\"", val);
    MPI_Info_free(&info);
    T_MPI(MPI_Session_get_info(s, &info));
    T_MPI(MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
    T_CHECK(flag && strncmp(val, "MPI_THREAD_", 11) == 0, "thread_level \"%s\"", val);
    MPI_Info_free(&info);
    return wsize;
}

/* A communicator over a pset; checks its size and an allreduce on it. */
static MPI_Comm pset_comm(MPI_Session s, const char *pset, const char *tag, int want_size)
{
    MPI_Group g;
    MPI_Comm c = MPI_COMM_NULL;
    T_MPI(MPI_Group_from_session_pset(s, pset, &g));
    T_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MPI_Group_free(&g);
    int size = -1, rank = -1, sum = -1;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    T_CHECK(size == want_size, "%s: size %d, want %d", pset, size, want_size);
    T_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
    T_CHECK(sum == size * (size - 1) / 2, "%s: sum of ranks %d", pset, sum);
    return c;
}

/* Even and odd ranks of c's group as two groups, joined by an
 * intercommunicator made from the groups alone. */
static void check_intercomm(MPI_Comm c)
{
    int size, rank;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    if (size < 2)
        return;
    MPI_Group all, even, odd;
    MPI_Comm_group(c, &all);
    int range[1][3] = {{0, size - 1, 2}}, range2[1][3] = {{1, size - 1, 2}};
    MPI_Group_range_incl(all, 1, range, &even);
    MPI_Group_range_incl(all, 1, range2, &odd);
    MPI_Comm ic = MPI_COMM_NULL;
    int mine = rank % 2;
    T_MPI(MPI_Intercomm_create_from_groups(mine ? odd : even, 0, mine ? even : odd, 0,
                                           "org.ftmpi.test.inter", MPI_INFO_NULL,
                                           MPI_ERRORS_RETURN, &ic));
    int inter = 0, rsize = -1;
    MPI_Comm_test_inter(ic, &inter);
    MPI_Comm_remote_size(ic, &rsize);
    int nodd = size / 2;
    T_CHECK(inter && rsize == (mine ? size - nodd : nodd), "intercomm: inter %d remote size %d",
            inter, rsize);
    /* the sum of the remote group's ranks in c, through the intercomm */
    int sum = -1, want = 0;
    for (int r = !mine; r < size; r += 2)
        want += r;
    T_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ic));
    T_CHECK(sum == want, "intercomm allreduce %d, want %d", sum, want);
    MPI_Comm_free(&ic);
    MPI_Group_free(&all);
    MPI_Group_free(&even);
    MPI_Group_free(&odd);
}

static void check_errors(MPI_Session s)
{
    MPI_Errhandler eh, got;
    T_MPI(MPI_Session_create_errhandler(session_handler, &eh));
    T_MPI(MPI_Session_set_errhandler(s, eh));
    T_MPI(MPI_Session_get_errhandler(s, &got));
    T_CHECK(got == eh, "get_errhandler gave %d, set %d", got, eh);
    MPI_Errhandler_free(&got);
    /* errors on the session go to its handler, which returns */
    MPI_Group g;
    int rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    T_CHECK(err_class(rc) == MPI_ERR_ARG && handler_calls == 1 && handler_code == rc,
            "unknown pset: rc %d, handler called %d times with %d", rc, handler_calls,
            handler_code);
    int len = 0;
    rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, NULL);
    T_CHECK(err_class(rc) == MPI_ERR_ARG && handler_calls == 2, "pset 2: rc %d", rc);
    T_MPI(MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    T_CHECK(handler_calls == 3 && handler_code == MPI_ERR_OTHER, "call_errhandler: %d calls",
            handler_calls);
    /* a communicator's handler is not one for sessions */
    T_MPI_CLASS(MPI_Session_set_errhandler(s, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    MPI_Errhandler ceh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)session_handler, &ceh);
    T_MPI_CLASS(MPI_Session_set_errhandler(s, ceh), MPI_ERR_ARG);
    MPI_Errhandler_free(&ceh);
    T_MPI(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MPI_Errhandler_free(&eh);
    /* errors without a valid session: MPI_COMM_WORLD's handler, which is
     * MPI_ERRORS_RETURN only in the FT modes: set it for the checks */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n;
    T_MPI_CLASS(MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    T_MPI_CLASS(MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MPI_Session s2;
    MPI_Info bad;
    MPI_Info_create(&bad);
    MPI_Info_set(bad, "thread_level", "MPI_THREAD_SOMETIMES");
    T_MPI_CLASS(MPI_Session_init(bad, MPI_ERRORS_RETURN, &s2), MPI_ERR_INFO_VALUE);
    MPI_Info_free(&bad);
    T_MPI_CLASS(MPI_Comm_create_from_group(MPI_GROUP_NULL, "x", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                           &(MPI_Comm){0}),
                MPI_ERR_GROUP);
    MPI_Group self;
    MPI_Group_from_session_pset(s, "mpi://SELF", &self);
    T_MPI_CLASS(MPI_Comm_create_from_group(self, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                           &(MPI_Comm){0}),
                MPI_ERR_ARG);
    MPI_Group_free(&self);
}

int main(int argc, char **argv)
{
    int world = argc > 1 && strcmp(argv[1], "world") == 0;
    t_set_name(argv[0]);
    int provided = MPI_THREAD_SINGLE;
    if (world) {
        T_MPI(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    }
    int flag = -1;
    MPI_Initialized(&flag);
    T_CHECK(flag == world, "MPI_Initialized says %d", flag);
    MPI_Session s, s2;
    T_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    if (world) {
        /* No level asked for: the session has the level the library runs
         * at (MPICH's threads/init/mult_session wants this). */
        static const char *names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                      "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
        MPI_Info info;
        char val[MPI_MAX_INFO_VAL + 1] = "";
        T_MPI(MPI_Session_get_info(s, &info));
        T_MPI(MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, val, &flag));
        T_CHECK(flag && strcmp(val, names[provided - MPI_THREAD_SINGLE]) == 0,
                "session thread_level \"%s\" after MPI_Init_thread gave %d", val, provided);
        MPI_Info_free(&info);
    }
    int wsize = check_psets(s);
    MPI_Comm wc = pset_comm(s, "mpi://WORLD", "org.ftmpi.test.world", wsize);
    MPI_Comm_rank(wc, &t_rank);
    t_size = wsize;
    MPI_Comm sc = pset_comm(s, "mpi://SELF", "org.ftmpi.test.self", 1);
    if (world) {
        int cmp = -1;
        MPI_Comm_compare(wc, MPI_COMM_WORLD, &cmp);
        T_CHECK(cmp == MPI_CONGRUENT, "WORLD pset communicator vs MPI_COMM_WORLD: %d", cmp);
    }
    check_intercomm(wc);
    /* a second session at once, with its own communicator */
    T_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2));
    MPI_Comm wc2 = pset_comm(s2, "mpi://WORLD", "org.ftmpi.test.world2", wsize);
    MPI_Comm_free(&wc2);
    T_MPI(MPI_Session_finalize(&s2));
    T_CHECK(s2 == MPI_SESSION_NULL, "finalize left the handle %d", s2);
    check_errors(s);
    MPI_Comm_free(&sc);
    if (world) {
        T_MPI(MPI_Finalize());
        MPI_Finalized(&flag);
        T_CHECK(flag == 1, "MPI_Finalized says %d", flag);
        int rank = -1, sum = -1;
        MPI_Comm_rank(wc, &rank);
        T_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, wc));
        T_CHECK(sum == wsize * (wsize - 1) / 2, "after MPI_Finalize: sum %d", sum);
    }
    /* every rank's verdict, before the library goes */
    int total = 0;
    MPI_Allreduce(&t_errors, &total, 1, MPI_INT, MPI_SUM, wc);
    MPI_Comm_free(&wc);
    T_MPI(MPI_Session_finalize(&s));
    if (!world) {
        MPI_Finalized(&flag);
        T_CHECK(flag == 0, "MPI_Finalized says %d without MPI_Init", flag);
    }
    /* the library is down: it cannot start again */
    int rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    T_CHECK(rc == MPI_ERR_OTHER, "MPI_Session_init after the end returned %d", rc);
    printf("session rank %d: %s\n", t_rank, t_errors || total ? "FAILED" : "ok");
    return t_errors || total ? 1 : 0;
}
