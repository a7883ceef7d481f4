/*
 * Sessions (MPI-4.0 11.3) and the library's start and stop, which the
 * World Model (MPI_Init ... MPI_Finalize, api/env.c) and the sessions
 * share: the library starts with the first MPI_Init or MPI_Session_init and
 * stops with the last MPI_Finalize or MPI_Session_finalize. Once stopped it
 * cannot start again (the runtime's connection is gone): a later
 * MPI_Session_init fails with MPI_ERR_OTHER.
 */
#ifndef FTMPI_API_SESSION_H
#define FTMPI_API_SESSION_H

#include "api/api.h"
#include "core/info.h"

typedef struct session {
    int handle;
    errh_t *errh;       /* the session's error handler */
    int thread_level;   /* what it was given */
} session_t;

/* The live session behind h, or NULL. */
session_t *session_get(MPI_Session h);

/* Start the library if it is not running (required thread level; the
 * level it runs at in *provided). MPI_SUCCESS, MPI_INIT_RESTARTED_NODE
 * (FT-MPI: this process replaces a failed one) or an error class. */
int api_lib_up(int required, int *provided);
/* Stop it if neither the World Model nor a session still uses it: called
 * with the library lock held, by MPI_Finalize and MPI_Session_finalize. */
int api_lib_down(void);
/* The World Model's state (api/env.c): 1 between MPI_Init and
 * MPI_Finalize. */
int api_world_active(void);
/* Sessions not finalized yet. */
int api_session_count(void);

/* The cleanup of a session function's exit, API_END_CLEANUP(SESSION_RAISE(s)):
 * errors go to the session's handler (s NULL: to MPI_COMM_WORLD's, for a
 * call without a valid session). */
#define SESSION_RAISE(s)                                                     \
    do {                                                                     \
        if (rc != MPI_SUCCESS && (s)) {                                      \
            rc = errh_invoke((s)->errh, (s)->handle, ulfm_code(rc), FNAME);  \
            rc_raised = 1;                                                   \
        }                                                                    \
    } while (0)

#define CHECK_SESSION(h, s)                                                  \
    do {                                                                     \
        if (!((s) = session_get(h)))                                         \
            API_FAIL(err_cause(MPI_ERR_SESSION, "%d is not a session handle", (int)(h))); \
    } while (0)

#endif
