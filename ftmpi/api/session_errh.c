/*
 * Error handlers of sessions (MPI-4.0 9.3.4): MPI_Session_create_errhandler,
 * _set_, _get_, _call_errhandler. Errors of a call on a session go to its
 * handler (api/session.h, SESSION_END). MPI_Session_create_errhandler and
 * _call_errhandler may also be called before MPI_Init / MPI_Session_init
 * and after finalization (MPI-4.0 11.4.1; api/api.h, API_BEGIN_ANYTIME).
 */
#include "api/session.h"

API_WEAK(Session_create_errhandler)
int PMPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    API_BEGIN_ANYTIME("MPI_Session_create_errhandler");
    CHECK_PTR(session_errhandler_fn);
    CHECK_PTR(errhandler);
    errh_t *e = errh_create(ERRH_SESSION, (void (*)(void))session_errhandler_fn);
    if (!e)
        API_FAIL(MPI_ERR_NO_MEM);
    *errhandler = e->handle;
    API_END_ANYTIME();
}

API_WEAK(Session_set_errhandler)
int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    API_BEGIN("MPI_Session_set_errhandler");
    session_t *s = NULL;
    CHECK_SESSION(session, s);
    errh_t *e = errh_get_kind(errhandler, ERRH_SESSION);
    if (!e)
        API_FAIL(err_cause(MPI_ERR_ARG, "%d is not an error handler for sessions",
                           (int)errhandler));
    errh_replace(&s->errh, e);
    API_END_CLEANUP(SESSION_RAISE(s));
}

API_WEAK(Session_get_errhandler)
int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    API_BEGIN("MPI_Session_get_errhandler");
    session_t *s = NULL;
    CHECK_SESSION(session, s);
    CHECK_PTR(errhandler);
    errh_retain(s->errh); /* the user frees the handle it gets */
    *errhandler = s->errh->handle;
    API_END_CLEANUP(SESSION_RAISE(s));
}

API_WEAK(Session_call_errhandler)
int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    API_BEGIN_ANYTIME("MPI_Session_call_errhandler");
    session_t *s = NULL;
    CHECK_SESSION(session, s);
    /* As MPI_Comm_call_errhandler: MPI_SUCCESS when the handler returns. */
    errh_invoke(s->errh, s->handle, errorcode, FNAME);
    API_END_ANYTIME_CLEANUP(SESSION_RAISE(s));
}
