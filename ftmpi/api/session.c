/*
 * Sessions (MPI-4.0 11.3): MPI_Session_init/finalize, the process sets
 * ("mpi://WORLD": every process of the job, "mpi://SELF": this one) and
 * their info, MPI_Group_from_session_pset (MPI_Session_c2f/f2c are
 * generated with the other conversions: ftmpi/bindings). A session
 * starts the library when nothing else has (api/session.h); communicators
 * are made from its groups by MPI_Comm_create_from_group
 * (api/session_comm.c) and are ordinary communicators from then on, with
 * the job's FT-MPI modes. Error handlers: api/session_errh.c.
 */
#include "api/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/comm_int.h"
#include "util/handle.h"

static handle_table_t session_table;
static int table_ready, nsessions;

static const char *const PSETS[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof(PSETS) / sizeof(PSETS[0])))

static const char *const LEVELS[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                     "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

session_t *session_get(MPI_Session h)
{
    return table_ready ? handle_get(&session_table, h) : NULL;
}

int api_session_count(void)
{
    return nsessions;
}

/* The "thread_level" info value asked for (MPI_THREAD_SINGLE if none).
 * -1: a value that names no level. */
static int thread_level_asked(MPI_Info info)
{
    info_t *in = info == MPI_INFO_NULL ? NULL : info_get(info);
    const char *v = in ? info_find(in, "thread_level") : NULL;
    if (!v)
        return MPI_THREAD_SINGLE;
    for (int i = 0; i < 4; i++)
        if (strcmp(v, LEVELS[i]) == 0)
            return MPI_THREAD_SINGLE + i;
    return -1;
}

/* The library is not running yet, so no handler exists: say why on stderr. */
static int init_refused(int code, const char *why)
{
    fprintf(stderr, "ftmpi: MPI_Session_init: %s\n", why);
    return code;
}

API_WEAK(Session_init)
int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    if (ftg.finalized)
        return init_refused(MPI_ERR_OTHER, "MPI was finalized and cannot be initialized again");
    if (!session)
        return init_refused(MPI_ERR_ARG, "session is NULL");
    /* The info may be made before the library runs (MPI-4.0 11.4.1): the
     * level asked for starts it; a bad info or level is raised below. */
    int provided, asked = thread_level_asked(info);
    int up = api_lib_up(asked < 0 ? MPI_THREAD_SINGLE : asked, &provided);
    if (up != MPI_SUCCESS && up != MPI_INIT_RESTARTED_NODE)
        return init_refused(up, "the library could not start");
    /* Now the info and the handler can be read: check them. */
    API_BEGIN("MPI_Session_init");
    session_t *s = NULL;
    errh_t *e = errh_get_kind(errhandler, ERRH_SESSION);
    if (info != MPI_INFO_NULL && !info_get(info))
        API_FAIL(MPI_ERR_INFO);
    if ((asked = thread_level_asked(info)) < 0)
        API_FAIL(err_cause(MPI_ERR_INFO_VALUE, "thread_level: not one of MPI_THREAD_SINGLE, "
                                               "_FUNNELED, _SERIALIZED, _MULTIPLE"));
    if (!e)
        API_FAIL(err_cause(MPI_ERR_ARG, "%d is not an error handler for sessions",
                           (int)errhandler));
    if (!table_ready) {
        handle_table_init(&session_table, FTMPI_KIND_SESSION, 1);
        table_ready = 1;
    }
    s = calloc(1, sizeof(*s));
    int h = s ? handle_alloc(&session_table, s) : -1;
    if (h < 0) {
        free(s);
        s = NULL;
        API_FAIL(MPI_ERR_NO_MEM);
    }
    s->handle = h;
    s->errh = e;
    errh_retain(e);
    /* The level the library runs at: one for the process, at least what was
     * asked for when it could give it (a higher level than required is
     * allowed, as for MPI_Init_thread's provided). */
    s->thread_level = ftg.thread_level;
    nsessions++;
    *session = h;
    s = NULL; /* made: nothing to raise on */
    if (up == MPI_INIT_RESTARTED_NODE) /* REBUILD: a replacement, as MPI_Init says it */
        API_LEAVE_RAISED(MPI_INIT_RESTARTED_NODE);
    API_END_CLEANUP((void)s);
}

API_WEAK(Session_finalize)
int PMPI_Session_finalize(MPI_Session *session)
{
    API_BEGIN("MPI_Session_finalize");
    session_t *s = NULL;
    CHECK_PTR(session);
    CHECK_SESSION(*session, s);
    handle_release(&session_table, s->handle);
    errh_release(s->errh);
    free(s);
    s = NULL;
    *session = MPI_SESSION_NULL;
    if (--nsessions == 0) {
        handle_table_fini(&session_table);
        table_ready = 0;
        if (!api_world_active())
            API_LEAVE_RAISED(api_lib_down()); /* no handler exists any more */
    }
    API_END_CLEANUP(SESSION_RAISE(s));
}

/* The index of a process set name, -1 if it names none. */
static int pset_index(const char *name)
{
    for (int i = 0; name && i < NPSETS; i++)
        if (strcmp(name, PSETS[i]) == 0)
            return i;
    return -1;
}

/* A process set name argument: i gets its index. */
#define CHECK_PSET(name, i)                                                                 \
    do {                                                                                    \
        CHECK_PTR(name);                                                                    \
        if (((i) = pset_index(name)) < 0)                                                   \
            API_FAIL(err_cause(MPI_ERR_ARG, "\"%s\" is not a process set (mpi://WORLD, "   \
                                            "mpi://SELF)", name));                          \
    } while (0)

API_WEAK(Session_get_num_psets)
int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    API_BEGIN("MPI_Session_get_num_psets");
    session_t *s = NULL;
    info_t *in;
    CHECK_SESSION(session, s);
    CHECK_INFO_OR_NULL(info, in);
    (void)in; /* no key narrows the sets */
    CHECK_PTR(npset_names);
    *npset_names = NPSETS;
    API_END_CLEANUP(SESSION_RAISE(s));
}

API_WEAK(Session_get_nth_pset)
int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                              char *pset_name)
{
    API_BEGIN("MPI_Session_get_nth_pset");
    session_t *s = NULL;
    info_t *in;
    CHECK_SESSION(session, s);
    CHECK_INFO_OR_NULL(info, in);
    (void)in;
    CHECK_PTR(pset_len);
    if (n < 0 || n >= NPSETS)
        API_FAIL(err_cause(MPI_ERR_ARG, "process set %d: there are %d (0 .. %d)", n, NPSETS,
                           NPSETS - 1));
    int len = (int)strlen(PSETS[n]) + 1;
    if (*pset_len == 0) { /* a query of the length, NUL included */
        *pset_len = len;
        goto fail;
    }
    if (*pset_len < 0)
        API_FAIL(err_cause(MPI_ERR_ARG, "pset_len %d is negative", *pset_len));
    CHECK_PTR(pset_name);
    /* At most *pset_len characters, the NUL included: truncated if short. */
    snprintf(pset_name, (size_t)*pset_len, "%s", PSETS[n]);
    *pset_len = len;
    API_END_CLEANUP(SESSION_RAISE(s));
}

/* A new info with key = val, as a user handle in *h. */
static int info_out1(const char *key, const char *val, MPI_Info *h)
{
    info_t *i = info_new();
    if (!i)
        return MPI_ERR_NO_MEM;
    int rc = info_set(i, key, val);
    if (rc == MPI_SUCCESS)
        rc = info_make_handle(i);
    if (rc != MPI_SUCCESS) {
        info_release(i);
        return rc;
    }
    *h = i->handle;
    return MPI_SUCCESS;
}

API_WEAK(Session_get_info)
int PMPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    API_BEGIN("MPI_Session_get_info");
    session_t *s = NULL;
    CHECK_SESSION(session, s);
    CHECK_PTR(info_used);
    rc = info_out1("thread_level", LEVELS[s->thread_level - MPI_THREAD_SINGLE], info_used);
    API_END_CLEANUP(SESSION_RAISE(s));
}

/* The group of process set i (made here, refcount 1, no handle; NULL: no
 * memory). mpi://WORLD is MPI_COMM_WORLD's live members: under BLANK its
 * gaps are left out (a gap cannot be a member of a communicator). */
static group_t *pset_group(int i)
{
    comm_t *c = i == 0 ? comm_world() : comm_self();
    int *w = malloc((size_t)c->group->size * sizeof(int)), n = 0;
    if (!w)
        return NULL;
    for (int r = 0; r < c->group->size; r++)
        if (!ft_is_gap(c, r))
            w[n++] = c->group->world[r];
    group_t *g = group_new(n, w);
    free(w);
    return g;
}

API_WEAK(Session_get_pset_info)
int PMPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    API_BEGIN("MPI_Session_get_pset_info");
    session_t *s = NULL;
    int i;
    CHECK_SESSION(session, s);
    CHECK_PTR(info);
    CHECK_PSET(pset_name, i);
    char size[16];
    group_t *g = pset_group(i);
    if (!g)
        API_FAIL(MPI_ERR_NO_MEM);
    snprintf(size, sizeof size, "%d", g->size);
    group_release(g);
    rc = info_out1("mpi_size", size, info);
    API_END_CLEANUP(SESSION_RAISE(s));
}

API_WEAK(Group_from_session_pset)
int PMPI_Group_from_session_pset(MPI_Session session, const char *pset_name, MPI_Group *newgroup)
{
    API_BEGIN("MPI_Group_from_session_pset");
    session_t *s = NULL;
    int i;
    CHECK_SESSION(session, s);
    CHECK_PTR(newgroup);
    CHECK_PSET(pset_name, i);
    group_t *g = pset_group(i);
    if (!g)
        API_FAIL(MPI_ERR_NO_MEM);
    rc = api_group_out(g, newgroup);
    API_END_CLEANUP(SESSION_RAISE(s));
}
