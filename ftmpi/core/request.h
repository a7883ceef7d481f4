/*
 * Requests. Objects come from a pool that never returns memory, so a
 * protocol token (index + serial) that arrives after its request was freed
 * is recognised as stale instead of touching freed memory.
 */
#ifndef FTMPI_CORE_REQUEST_H
#define FTMPI_CORE_REQUEST_H

#include <stdint.h>
#include <stddef.h>

#include "mpi.h"
#include "comm.h"
#include "datatype.h"
#include "util/list.h"

typedef enum {
    REQ_SEND = 1,
    REQ_RECV,
    REQ_GREQ,     /* generalized request */
    REQ_COLL,     /* non-blocking collective / internal schedule */
} req_kind_t;

typedef enum { SEND_STANDARD = 0, SEND_BUFFERED, SEND_SYNC, SEND_READY } send_mode_t;

typedef struct req req_t;
typedef void req_done_fn(req_t *r);

struct req {
    int handle;           /* MPI handle, MPI_REQUEST_NULL if internal only */
    uint32_t index;       /* pool index */
    uint32_t serial;      /* bumped at every reuse */
    req_kind_t kind;
    uint8_t persistent;
    uint8_t active;       /* persistent: started and not yet completed */
    uint8_t user_freed;   /* MPI_Request_free on an active request */
    uint8_t orphan;       /* freed by the user while active: counted by req_orphans */
    uint8_t cancel_pending;
    uint8_t data_done;    /* send: the data has left the buffer / was matched */
    send_mode_t mode;
    uint8_t coll;         /* 1: on the communicator's collective context */
    volatile int complete;
    MPI_Status status;    /* MPI_SOURCE, MPI_TAG, MPI_ERROR, count */
    comm_t *comm;
    void *buf;
    int count;
    dt_t *dt;
    int peer;             /* comm rank (source/dest as given), may be ANY/PROC_NULL */
    int tag;
    int peer_world;       /* world rank of the peer (send), -1 for ANY */
    size_t bytes;         /* packed length of (buf, count, dt) */
    list_node_t link;     /* posted queue / pending queue */
    /* protocol state */
    uint64_t remote_token;/* the peer's request token (rndv, cancel) */
    void *pack_tmp;       /* packed copy for non-contiguous rndv sends */
    size_t sent;          /* streaming fallback: bytes sent so far */
    size_t received;      /* streaming fallback: bytes received so far */
    int streaming;
    uint32_t generation;
    /* completion hook for internal users (bsend, collectives) */
    req_done_fn *on_done;
    void *ctx;
    /* persistent collectives (api/coll_persist.c): the arguments of the
     * call each MPI_Start makes, and for the request of one round, the
     * persistent request it belongs to */
    void *pcoll;
    req_t *parent;        /* also: the MPI_Isendrecv whose half this is */
    int nchildren;        /* MPI_Isendrecv: halves not complete yet */
    /* generalized requests */
    MPI_Grequest_query_function *gq;
    MPI_Grequest_free_function *gf;
    MPI_Grequest_cancel_function *gc;
    void *gstate;
};

int req_module_init(void);
void req_module_fini(void);
req_t *req_alloc(req_kind_t kind);
/* The one constructor of point-to-point requests (the API's, the
 * collectives', the context agreement's): buffer, count, datatype, peer
 * (rank in c, or MPI_ANY_SOURCE / MPI_PROC_NULL), tag, send mode, and coll
 * = 1 for c's collective context. Holds references to c and dt. NULL when
 * out of memory. */
req_t *req_new_p2p(req_kind_t kind, comm_t *c, const void *buf, int count, dt_t *dt, int peer,
                   int tag, send_mode_t mode, int coll);
void req_free(req_t *r);                   /* back to the pool, handle released */
int req_make_handle(req_t *r);             /* MPI_ERR_NO_MEM on failure */
req_t *req_get(MPI_Request h);             /* NULL if not a live handle */
void req_drop_handle(req_t *r);            /* the user gave the handle up */
/* MPI_Request_free on an active request: the handle goes, the request
 * frees itself when it completes; until then it counts in req_orphans(),
 * for which MPI_Finalize waits (the communication must complete). */
void req_orphan(req_t *r);
int req_orphans(void);
static inline uint64_t req_token(const req_t *r) { return ((uint64_t)r->serial << 32) | r->index; }
req_t *req_from_token(uint64_t token);     /* NULL if stale */
/* Mark complete and run the completion hook. */
void req_complete(req_t *r);

#endif
