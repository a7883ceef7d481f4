/*
 * Argument checks shared by the collective entry points (blocking and
 * non-blocking forms share one implementation each, with `request` NULL
 * for the blocking one). Used inside API_BEGIN/API_END functions: on error
 * they set rc and jump to the function's error exit.
 */
#ifndef FTMPI_API_COLL_CHECK_H
#define FTMPI_API_COLL_CHECK_H

#include "api/api.h"
#include "coll/coll.h"
#include "ft/ft.h"

/* Root argument: intracommunicators 0..size-1; intercommunicators
 * MPI_ROOT, MPI_PROC_NULL or a rank of the remote group. */
#define CHECK_COLL_ROOT(c, r)                                                     \
    do {                                                                          \
        if ((c)->is_inter) {                                                      \
            if ((r) != MPI_ROOT && (r) != MPI_PROC_NULL &&                        \
                ((r) < 0 || (r) >= (c)->rgroup->size))                            \
                API_FAIL(MPI_ERR_ROOT);                                           \
        } else if ((r) < 0 || (r) >= (c)->size) {                                 \
            API_FAIL(MPI_ERR_ROOT);                                               \
        }                                                                         \
    } while (0)

#define CHECK_INTRA(c) do { if ((c)->is_inter) API_FAIL(MPI_ERR_COMM); } while (0)
#define CHECK_NOT_INPLACE_INTER(c, b) \
    do { if ((c)->is_inter && (b) == MPI_IN_PLACE) API_FAIL(MPI_ERR_BUFFER); } while (0)
#define CHECK_REQ_PTR(req) do { if (!(req)) API_FAIL(MPI_ERR_REQUEST); } while (0)

/* Counts array of n entries, each >= 0. */
#define CHECK_COUNTS(a, n)                                                        \
    do {                                                                          \
        if (!(a) && (n) > 0) API_FAIL(MPI_ERR_ARG);                               \
        for (int i_ = 0; i_ < (n); i_++)                                          \
            if ((a)[i_] < 0) API_FAIL(MPI_ERR_COUNT);                             \
    } while (0)

#define CHECK_OP(h, op) do { if (!((op) = op_get(h))) API_FAIL(MPI_ERR_OP); } while (0)

/* Start or run a collective: `call` is an expression using `rp_` (NULL for
 * the blocking form); a started request gets its user handle. */
#define COLL_RUN(request, call)                                                   \
    do {                                                                          \
        req_t *r_ = NULL;                                                         \
        req_t **rp_ = (request) ? &r_ : NULL;                                     \
        rc = (call);                                                              \
        if (rc == MPI_SUCCESS && (request)) {                                     \
            if ((rc = req_make_handle(r_)) != MPI_SUCCESS) {                      \
                r_->user_freed = 1; /* nobody can wait for it */                  \
                if (r_->complete) req_free(r_);                                   \
            } else {                                                              \
                *(request) = r_->handle;                                          \
            }                                                                     \
        }                                                                         \
    } while (0)

/* ---- FT-MPI modes (api/coll_ft.c) ---- */
/* Must this call run inside ft_coll_begin/end (ATOMIC mode, BLANK gaps)? */
int coll_ft_active(const comm_t *c);
/* Does c have BLANK gaps (the call then runs over the live members)? */
int coll_ft_gaps(const comm_t *c);
/* The live members' entries of a per-rank array (malloc'ed). */
int coll_ft_compact(const comm_t *c, const int *a, int **out_p);
/* i * step for every live member i (displacements of regular blocks). */
int coll_ft_scaled(const comm_t *c, int step, int **out_p);
/* Blocking result rc of a call that ran at once: non-blocking calls get a
 * completed request holding rc. */
int coll_ft_finish(comm_t *c, int rc, MPI_Request *request);

/* Run `call` (which may use rp_, NULL here) inside the FT wrapper with this
 * process's receive region (rb, rn, rdt_) and the root pointer (or NULL);
 * `slots`: the region has one slot of rn elements per rank. */
#define COLL_FT_RUN(request, c, rb, rn, rdt_, rootp, slots, call)                 \
    do {                                                                          \
        ft_coll_t f_;                                                             \
        req_t **rp_ = NULL;                                                       \
        (void)rp_;                                                                \
        rc = (slots) ? ft_coll_begin_slots(&f_, c, rb, rn, rdt_, rootp)           \
                     : ft_coll_begin(&f_, c, rb, rn, rdt_, rootp);                \
        if (rc == MPI_SUCCESS)                                                    \
            rc = ft_coll_end(&f_, (call));                                        \
        rc = coll_ft_finish(c, rc, request);                                      \
    } while (0)

#endif
