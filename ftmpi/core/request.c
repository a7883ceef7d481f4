#include "request.h"

#include <stdlib.h>
#include <string.h>

#include "util/handle.h"

#define POOL_CHUNK 256

static handle_table_t req_table;
static req_t **chunks;
static size_t nchunks;
static uint32_t pool_size;
static req_t *free_list;    /* linked through ->ctx */
static int norphans;        /* requests freed by the user while active */

int req_module_init(void)
{
    handle_table_init(&req_table, FTMPI_KIND_REQUEST, 1);
    return 0;
}

void req_module_fini(void)
{
    for (size_t i = 0; i < nchunks; i++)
        free(chunks[i]);
    free(chunks);
    chunks = NULL;
    nchunks = 0;
    pool_size = 0;
    free_list = NULL;
    norphans = 0;
    handle_table_fini(&req_table);
}

static int pool_grow(void)
{
    req_t **nc = realloc(chunks, (nchunks + 1) * sizeof(*nc));
    if (!nc)
        return -1;
    chunks = nc;
    req_t *c = calloc(POOL_CHUNK, sizeof(req_t));
    if (!c)
        return -1;
    chunks[nchunks++] = c;
    for (int i = POOL_CHUNK - 1; i >= 0; i--) {
        c[i].index = pool_size + (uint32_t)i;
        c[i].ctx = free_list;
        free_list = &c[i];
    }
    pool_size += POOL_CHUNK;
    return 0;
}

req_t *req_alloc(req_kind_t kind)
{
    if (!free_list && pool_grow() != 0)
        return NULL;
    req_t *r = free_list;
    free_list = r->ctx;
    uint32_t index = r->index, serial = r->serial + 1;
    memset(r, 0, sizeof(*r));
    r->index = index;
    r->serial = serial;
    r->kind = kind;
    r->handle = MPI_REQUEST_NULL;
    r->peer_world = -1;
    list_init(&r->link);
    return r;
}

req_t *req_new_p2p(req_kind_t kind, comm_t *c, const void *buf, int count, dt_t *dt, int peer,
                   int tag, send_mode_t mode, int coll)
{
    req_t *r = req_alloc(kind);
    if (!r)
        return NULL;
    r->comm = c;
    comm_retain(c);
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    dt_retain(dt);
    r->peer = peer;
    r->tag = tag;
    r->mode = mode;
    r->coll = coll ? 1 : 0;
    return r;
}

void req_free(req_t *r)
{
    if (r->orphan) {
        r->orphan = 0;
        norphans--;
    }
    if (r->handle != MPI_REQUEST_NULL)
        handle_release(&req_table, r->handle);
    if (r->dt)
        dt_release(r->dt);
    if (r->comm)
        comm_release(r->comm);
    free(r->pack_tmp);
    free(r->pcoll);
    r->pcoll = NULL;
    r->serial++;           /* stale tokens no longer match */
    r->handle = MPI_REQUEST_NULL;
    r->complete = 0;
    r->ctx = free_list;
    free_list = r;
}

int req_make_handle(req_t *r)
{
    int h = handle_alloc(&req_table, r);
    if (h < 0)
        return MPI_ERR_NO_MEM;
    r->handle = h;
    return MPI_SUCCESS;
}

void req_drop_handle(req_t *r)
{
    if (r->handle != MPI_REQUEST_NULL) {
        handle_release(&req_table, r->handle);
        r->handle = MPI_REQUEST_NULL;
    }
}

void req_orphan(req_t *r)
{
    req_drop_handle(r);
    r->persistent = 0;
    r->user_freed = 1;
    if (!r->orphan) {
        r->orphan = 1;
        norphans++;
    }
}

int req_orphans(void)
{
    return norphans;
}

req_t *req_get(MPI_Request h)
{
    return handle_get(&req_table, h);
}

req_t *req_from_token(uint64_t token)
{
    uint32_t index = (uint32_t)token, serial = (uint32_t)(token >> 32);
    if (index >= pool_size)
        return NULL;
    req_t *r = &chunks[index / POOL_CHUNK][index % POOL_CHUNK];
    return r->serial == serial ? r : NULL;
}

void req_complete(req_t *r)
{
    r->complete = 1;
    if (r->on_done)
        r->on_done(r);
    if (r->user_freed && !r->persistent)
        req_free(r); /* nobody will wait for it */
}
