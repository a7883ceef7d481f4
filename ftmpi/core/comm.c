#include "comm.h"

#include <stdlib.h>
#include <string.h>

#include "core/info.h"
#include "core/topo.h"
#include "core/proc.h"
#include "util/handle.h"

static handle_table_t comm_table;
static comm_t *by_ctx[COMM_CTX_PAIRS];
static uint32_t ctx_used[COMM_CTX_WORDS];   /* bit set = pair in use */
static comm_t *world, *self;
static list_node_t all_comms = LIST_INIT(all_comms);

/* Hooks other modules install to release what they hang on a comm. */
void (*comm_free_hook_attrs)(comm_t *c);
void (*comm_free_hook_topo)(comm_t *c);
void (*comm_free_hook_p2p)(comm_t *c);
void (*comm_free_hook_ulfm)(comm_t *c);
void (*comm_free_hook_coll)(comm_t *c);
void (*comm_free_hook_atomic)(comm_t *c);
void (*comm_free_hook_part)(comm_t *c);
void (*comm_register_hook_ulfm)(comm_t *c);
void (*comm_change_hook)(void);

static comm_t *comm_alloc(group_t *local, group_t *remote, uint32_t ctx)
{
    comm_t *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->handle = MPI_COMM_NULL;
    c->refcount = 1;
    c->ctx = ctx;
    c->group = local;
    group_retain(local);
    c->rgroup = remote;
    if (remote) {
        group_retain(remote);
        c->is_inter = 1;
    }
    c->rank = local->rank;
    c->size = local->size;
    c->generation = ftg.generation;
    for (int i = 0; i < 2; i++) {
        list_init(&c->posted[i]);
        list_init(&c->unexpected[i]);
    }
    list_init(&c->all);
    c->errh = errh_get(MPI_ERRORS_ARE_FATAL);
    return c;
}

comm_t *comm_new(group_t *local, group_t *remote, uint32_t ctx)
{
    return comm_alloc(local, remote, ctx);
}

int comm_make_handle(comm_t *c)
{
    if (c->handle != MPI_COMM_NULL || c->hidden)
        return MPI_SUCCESS;
    int h = handle_alloc(&comm_table, c);
    if (h < 0)
        return MPI_ERR_NO_MEM;
    c->handle = h;
    return MPI_SUCCESS;
}

void comm_register_hidden(comm_t *c)
{
    if (c->registered)
        return;
    by_ctx[c->ctx / 2] = c;
    list_add_tail(&all_comms, &c->all);
    c->registered = 1;
    if (comm_change_hook)
        comm_change_hook();
}

int comm_register(comm_t *c)
{
    int rc = comm_make_handle(c);
    if (rc != MPI_SUCCESS)
        return rc;
    comm_register_hidden(c);
    if (comm_register_hook_ulfm)
        comm_register_hook_ulfm(c);
    return MPI_SUCCESS;
}

void comm_unregister(comm_t *c)
{
    if (!c->registered)
        return;
    if (by_ctx[c->ctx / 2] == c)
        by_ctx[c->ctx / 2] = NULL;
    /* A revoked communicator's context pair is not used again by this
     * process: messages of the operations the revocation interrupted may
     * still arrive, and a communicator made later on the same pair would
     * take them (no packet field tells two communicators of one pair
     * apart). They wait as orphans of an unknown context instead. */
    if (!c->revoked)
        comm_ctx_release(c->ctx);
    list_del(&c->all);
    c->registered = 0;
    if (comm_change_hook)
        comm_change_hook();
}

static comm_t *predef_comm(int index, group_t *g, uint32_t ctx, const char *name)
{
    comm_t *c = comm_alloc(g, NULL, ctx);
    if (!c)
        return NULL;
    c->handle = FTMPI_HANDLE(FTMPI_KIND_COMM, index);
    c->predefined = 1;
    strncpy(c->name, name, sizeof(c->name) - 1);
    handle_table_set(&comm_table, (size_t)index, c);
    comm_ctx_claim(ctx);
    comm_register(c);
    return c;
}

int comm_module_init(void)
{
    handle_table_init(&comm_table, FTMPI_KIND_COMM, 3);
    topo_module_init();
    if (info_module_init() != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    memset(ctx_used, 0, sizeof(ctx_used));
    int n = ftg.world_n; /* ids world_base.. (docs/dynamic.md) */
    int *w = malloc((size_t)n * sizeof(int));
    if (!w)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        w[i] = ftg.world_base + i;
    group_t *gw = group_new(n, w);
    group_t *gs = group_new(1, &ftg.world_rank);
    free(w);
    if (!gw || !gs)
        return MPI_ERR_NO_MEM;
    world = predef_comm(1, gw, 0, "MPI_COMM_WORLD");
    self = predef_comm(2, gs, 2, "MPI_COMM_SELF");
    group_release(gw);
    group_release(gs);
    return world && self ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

static void comm_destroy(comm_t *c)
{
    if (comm_free_hook_attrs)
        comm_free_hook_attrs(c);
    if (comm_free_hook_topo)
        comm_free_hook_topo(c);
    if (comm_free_hook_p2p)
        comm_free_hook_p2p(c);
    if (comm_free_hook_ulfm)
        comm_free_hook_ulfm(c);
    if (comm_free_hook_coll)
        comm_free_hook_coll(c);
    if (comm_free_hook_atomic)
        comm_free_hook_atomic(c);
    if (comm_free_hook_part)
        comm_free_hook_part(c);
    comm_unregister(c);
    list_del(&c->all);
    if (c->handle != MPI_COMM_NULL && !c->predefined)
        handle_release(&comm_table, c->handle);
    if (c->local_comm)
        comm_release(c->local_comm);
    info_release(c->info);
    group_release(c->group);
    if (c->rgroup)
        group_release(c->rgroup);
    if (c->errh)
        errh_release(c->errh);
    free(c);
}

void comm_module_fini(void)
{
    /* Hidden local communicators are in the list too: destroy every
     * object once, without following the references between them. */
    for (comm_t *c = comm_next(NULL); c; c = comm_next(c))
        c->local_comm = NULL;
    while (!list_empty(&all_comms))
        comm_destroy(list_entry(all_comms.next, comm_t, all));
    world = self = NULL;
    handle_table_fini(&comm_table);
    /* the info module stays: info objects outlive MPI_Finalize (core/info.h) */
}

comm_t *comm_get(MPI_Comm h)
{
    return handle_get(&comm_table, h);
}

comm_t *comm_next(comm_t *prev)
{
    list_node_t *n = prev ? prev->all.next : all_comms.next;
    return n == &all_comms ? NULL : list_entry(n, comm_t, all);
}

comm_t *comm_world(void) { return world; }
comm_t *comm_self(void) { return self; }

comm_t *comm_by_ctx(uint32_t ctx)
{
    uint32_t pair = ctx / 2;
    return pair < COMM_CTX_PAIRS ? by_ctx[pair] : NULL;
}

void comm_retain(comm_t *c)
{
    c->refcount++;
}

void comm_release(comm_t *c)
{
    if (--c->refcount > 0)
        return;
    if (c->predefined)
        return;
    comm_destroy(c);
}

void comm_ctx_mask(uint32_t mask[COMM_CTX_WORDS])
{
    for (int i = 0; i < COMM_CTX_WORDS; i++)
        mask[i] = ~ctx_used[i];
}

int comm_ctx_claim(uint32_t ctx)
{
    uint32_t pair = ctx / 2;
    if (pair >= COMM_CTX_PAIRS || (ctx_used[pair / 32] & (1u << (pair % 32))))
        return -1;
    ctx_used[pair / 32] |= 1u << (pair % 32);
    return 0;
}

void comm_ctx_release(uint32_t ctx)
{
    uint32_t pair = ctx / 2;
    if (pair < COMM_CTX_PAIRS)
        ctx_used[pair / 32] &= ~(1u << (pair % 32));
}
