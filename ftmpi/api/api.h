/*
 * Conventions of the API layer (every MPI_ entry point):
 *
 *   API_WEAK(Foo)                       // MPI_Foo: weak alias of PMPI_Foo
 *   int PMPI_Foo(args)
 *   {
 *       API_BEGIN("MPI_Foo");           // initialized? take the lock
 *       comm_t *c;
 *       CHECK_COMM(comm, c);            // on error: goto fail with rc set
 *       ...
 *       rc = internal_call(...);
 *       API_END();                      // the one exit: errors go through
 *                                       // err_comm's handler, unlock
 *   }
 *
 * Argument errors set `rc` to the right MPI error class and jump to the
 * function's error exit, which invokes the error handler of the object the
 * call is about (the communicator; MPI_COMM_WORLD's when there is none or
 * it is invalid), as the standard says. Internal layers return MPI error
 * classes; the first place that classifies an error is the API edge.
 */
#ifndef FTMPI_API_H
#define FTMPI_API_H

#include <stddef.h>
#include <limits.h>

#include "mpi.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/err_cause.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/op.h"
#include "core/request.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "core/proc.h"
#include "ft/ft.h"
#include "ft/ulfm.h"

/* MPI_x is a weak alias of PMPI_x, so tools can interpose. The alias is
 * exported explicitly: with -fvisibility=hidden, clang does not give an
 * alias made by `#pragma weak` the visibility that mpi.h declares. */
#define API_ALIAS(name, target)                                               \
    extern __typeof__(target) name                                             \
        __attribute__((weak, alias(#target), visibility("default")));
#define API_WEAK(name) API_ALIAS(MPI_##name, PMPI_##name)

int api_not_initialized(const char *fname);
/* API_BEGIN_ANYTIME's entry: 1 (and the outside lock taken) when the
 * library does not run, else 0 (and the library lock taken). */
int api_anytime_enter(void);
void api_anytime_leave(int outside);
/* An error outside MPI_Init..MPI_Finalize, on the initial error handler
 * (MPI-4.0 9.3): MPI_ERRORS_ARE_FATAL, or what the environment variable
 * FTMPI_INITIAL_ERRHANDLER names (mpi_errors_return, mpi_errors_abort,
 * mpi_errors_are_fatal; the standard's mpi_initial_errhandler values).
 * Returns rc (when it returns). */
int api_error_initial(int rc, const char *fname);
/* Raise rc on communicator c (NULL: MPI_COMM_WORLD). Returns the code. */
int api_error_comm(comm_t *c, int rc, const char *fname);
/* An argument error found before the body of the call runs (a NULL
 * request given to a non-blocking call that shares its body with the
 * blocking one): raised on comm's handler through API_BEGIN/API_END, like
 * every other error (initialized? lock held? AUTO recovery). */
int api_fail_early(MPI_Comm comm, int code, const char *fname);
/* The argument errors of the CHECK_ macros, with their cause recorded
 * (core/err_cause.h); each returns the class. */
int api_bad_type(MPI_Datatype h, const dt_t *dt);
int api_bad_tag(int tag);
int api_bad_rank(comm_t *c, int r);
/* MPI_Finalize: release the types MPI_Type_create_f90_* made. */
void api_type_f90_fini(void);
/* FT: is communication on c allowed now? MPI_SUCCESS or the error. */
int api_comm_usable(comm_t *c);

static inline void api_lock(void)
{
    if (ftg.multiple)
        pthread_mutex_lock(&ftg.lock);
}
static inline void api_unlock(void)
{
    if (ftg.multiple)
        pthread_mutex_unlock(&ftg.lock);
}

#define API_BEGIN(name)                                        \
    const char *const FNAME = name;                            \
    int rc = MPI_SUCCESS;                                      \
    int rc_raised = 0;                                         \
    comm_t *err_comm = NULL;                                   \
    if (!ftg.initialized || ftg.finalized)                     \
        return api_not_initialized(FNAME);                     \
    api_lock();                                                \
    err_cause_clear()

/* The common exit of every API function (its only way out after
 * API_BEGIN): raise rc (if any, and not raised yet) on err_comm's handler,
 * unlock, return rc. .ci/check_api_exit.sh checks that no function
 * returns around it. */
#define API_END() API_END_CLEANUP((void)0)
/* The same, running `cleanup` first (on success and on error). */
#define API_END_CLEANUP(cleanup)                               \
    fail: __attribute__((unused));                             \
    cleanup;                                                   \
    if (rc != MPI_SUCCESS && !rc_raised)                       \
        rc = api_error_comm(err_comm, rc, FNAME);              \
    api_unlock();                                              \
    return rc

/* The functions MPI-4.0 allows at any time, before MPI_Init and after
 * MPI_Finalize too (11.4.1, Table 11.1: the MPI_Info_* functions,
 * MPI_Session_create/call_errhandler, MPI_Errhandler_free): while the
 * library runs, as API_BEGIN/API_END; outside, they hold a lock of their
 * own (they may be called from several threads) and their errors go to
 * the initial error handler (api_error_initial). */
#define API_BEGIN_ANYTIME(name)                                \
    const char *const FNAME = name;                            \
    int rc = MPI_SUCCESS;                                      \
    int rc_raised = 0;                                         \
    comm_t *err_comm = NULL;                                   \
    const int api_outside = api_anytime_enter();               \
    err_cause_clear()
#define API_END_ANYTIME() API_END_ANYTIME_CLEANUP((void)0)
#define API_END_ANYTIME_CLEANUP(cleanup)                       \
    fail: __attribute__((unused));                             \
    cleanup;                                                   \
    if (rc != MPI_SUCCESS && !rc_raised)                       \
        rc = api_outside ? api_error_initial(rc, FNAME)        \
                         : api_error_comm(err_comm, rc, FNAME); \
    api_anytime_leave(api_outside);                            \
    return rc

#define API_FAIL(code) do { rc = (code); goto fail; } while (0)
/* Leave with `code` that needs no handler call here: it was raised on
 * its own communicator's handler already (a request's), or no handler
 * exists any more (after finalize). */
#define API_LEAVE_RAISED(code) do { rc = (code); rc_raised = 1; goto fail; } while (0)

#define CHECK_COMM(h, c)                                                              \
    do {                                                                              \
        (c) = comm_get(h);                                                            \
        if (!(c))                                                                     \
            API_FAIL(err_cause(MPI_ERR_COMM, "%d is not a communicator handle", (int)(h))); \
        err_comm = (c);                                                               \
        if ((c)->state == COMM_FAILED)                                                \
            API_FAIL(err_cause(MPI_ERR_COMM, "the communicator was invalidated by a failure")); \
    } while (0)

#define CHECK_COUNT(n) \
    do { if ((n) < 0) API_FAIL(err_cause(MPI_ERR_COUNT, "count %ld is negative", (long)(n))); } while (0)

#define CHECK_DT(h, dt)                                                   \
    do {                                                                  \
        (dt) = dt_get(h);                                                 \
        if (!(dt) || !(dt)->committed || (h) == MPI_LB || (h) == MPI_UB)  \
            API_FAIL(api_bad_type(h, dt));                                \
    } while (0)

#define CHECK_BUF(buf, n, dt)                                             \
    do {                                                                  \
        if ((buf) == NULL && (n) > 0 && (dt)->size > 0 && (dt)->true_lb == 0) \
            API_FAIL(err_cause(MPI_ERR_BUFFER, "NULL buffer for %ld elements", (long)(n))); \
    } while (0)

#define CHECK_SEND_TAG(t) \
    do { if ((t) < 0 || (t) > FTMPI_TAG_UB) API_FAIL(api_bad_tag(t)); } while (0)
#define CHECK_RECV_TAG(t) \
    do { if ((t) != MPI_ANY_TAG && ((t) < 0 || (t) > FTMPI_TAG_UB)) API_FAIL(api_bad_tag(t)); } while (0)

/* Ranks: in range, and (BLANK mode) not a gap left by a failed process. */
#define CHECK_DEST(c, r)                                                              \
    do {                                                                              \
        if ((r) != MPI_PROC_NULL && ((r) < 0 || (r) >= comm_peer_size(c) || ft_is_gap(c, r))) \
            API_FAIL(api_bad_rank(c, r));                                             \
    } while (0)
#define CHECK_SOURCE(c, r)                                                            \
    do {                                                                              \
        if ((r) != MPI_ANY_SOURCE && (r) != MPI_PROC_NULL &&                          \
            ((r) < 0 || (r) >= comm_peer_size(c) || ft_is_gap(c, r)))                \
            API_FAIL(api_bad_rank(c, r));                                             \
    } while (0)

#define CHECK_PTR(p) do { if (!(p)) API_FAIL(MPI_ERR_ARG); } while (0)

/* The arguments of MPI_(I)sendrecv(_replace): sets c, sdt, rdt. */
#define CHECK_SENDRECV(comm, c, sbuf, scount, stype, sdt, dest, stag, rbuf, rcount, rtype, rdt, \
                       source, rtag)                                                         \
    do {                                                                                     \
        CHECK_COMM(comm, c);                                                                 \
        CHECK_COUNT(scount);                                                                 \
        CHECK_COUNT(rcount);                                                                 \
        CHECK_DT(stype, sdt);                                                                \
        CHECK_DT(rtype, rdt);                                                                \
        CHECK_BUF(sbuf, scount, sdt);                                                        \
        CHECK_BUF(rbuf, rcount, rdt);                                                        \
        CHECK_SEND_TAG(stag);                                                                \
        CHECK_RECV_TAG(rtag);                                                                \
        CHECK_DEST(c, dest);                                                                 \
        CHECK_SOURCE(c, source);                                                             \
    } while (0)

#define CHECK_USABLE(c) do { if ((rc = api_comm_usable(c)) != MPI_SUCCESS) goto fail; } while (0)

/* Fill a user status (which may be MPI_STATUS_IGNORE). */
static inline void api_status_out(MPI_Status *dst, const MPI_Status *src)
{
    if (dst != MPI_STATUS_IGNORE && dst != NULL) {
        int err = dst->MPI_ERROR;
        *dst = *src;
        dst->MPI_ERROR = err; /* MPI_ERROR is only set by the multi-request calls */
    }
}

static inline void api_status_empty(MPI_Status *st)
{
    if (st != MPI_STATUS_IGNORE && st != NULL) {
        st->MPI_SOURCE = MPI_ANY_SOURCE;
        st->MPI_TAG = MPI_ANY_TAG;
        st->ftmpi_count = 0;
        st->ftmpi_cancelled = 0;
    }
}

/* Duplicate c (collective over c): new context, same group, attributes
 * copied (api/comm_basic.c). */
int api_comm_dup(comm_t *c, comm_t **out);

/* Generalized-request callbacks run without the library lock: they may
 * call MPI (MPI_Status_set_elements, MPI_Grequest_complete, ...). */
int api_greq_query(req_t *r, MPI_Status *st);
int api_greq_free(req_t *r);
int api_greq_cancel(req_t *r, int complete);

/* Complete a request for the user: status out, free unless persistent.
 * Returns the request's error. */
int api_req_finish(req_t *r, MPI_Request *handle_p, MPI_Status *status);
/* MPI_Start of a persistent collective (api/coll_persist.c): runs the
 * round's non-blocking collective, which raises its own errors. */
int api_pcoll_start(req_t *r);
/* A persistent collective whose round is round(args, &q), a non-blocking
 * call (args: size bytes, copied; api/neighbor_persist.c). */
typedef int api_pround_fn(const void *args, MPI_Request *q);
int api_pcoll_init_round(const char *fname, MPI_Comm comm, api_pround_fn *round, const void *args,
                         size_t size, MPI_Info info, MPI_Request *request);
/* The arguments (its own copy, writable) of r if r was made so with this
 * round function, else NULL. */
void *api_pcoll_round_args(req_t *r, api_pround_fn *round);
/* Blocking send/recv used inside the library (collectives and friends). */
int api_wait_internal(req_t *r);
/* MPI_Sendrecv's body, arguments checked (api/p2p_recv.c); also the
 * leaders' exchange of MPI_Intercomm_create. */
int api_sendrecv(comm_t *c, const void *sbuf, int scount, dt_t *sdt, int dest, int stag,
                 void *rbuf, int rcount, dt_t *rdt, int source, int rtag, MPI_Status *status);

#endif
