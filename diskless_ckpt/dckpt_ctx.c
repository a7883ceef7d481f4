/*
 * dckpt_ctx.c - context life cycle: argument checks, the group layout, the
 * internal communicators, buffer registration and the queries.
 */
#include "dckpt_internal.h"
#include "dckpt_place.h"

#ifdef FTMPI_MPI_H
#include <ftmpi.h> /* FTMPI_Host_of */
#endif

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ hosts */

/* The host of every rank of comm at launch (the same table on every rank,
   a replacement's included, so that all compute the same groups; ftmpi's
   FTMPI_Host_of, docs/ftmpi.md). NULL under another MPI: every rank is then
   taken to be on a host of its own (the plain consecutive layout). */
static int *ctx_hosts(MPI_Comm comm, int size)
{
#ifdef FTMPI_HAVE_HOST_OF
    int *h = malloc(sizeof(int) * (size_t)size);
    for (int r = 0; h && r < size; r++)
        if (FTMPI_Host_of(comm, r, FTMPI_HOST_AT_LAUNCH, &h[r]) != MPI_SUCCESS) {
            free(h);
            h = NULL;
        }
    return h;
#else
    (void)comm;
    (void)size;
    return NULL;
#endif
}

/* ------------------------------------------------------------------ params */

/* Check the parameters that do not depend on the communicator; fill *out. */
static int ctx_params_normalize(const dckpt_params_t *in, dckpt_params_t *out)
{
    if (in == NULL || out == NULL)
        return DCKPT_ERR_ARG;
    *out = *in;
    if (in->code != DCKPT_CODE_XOR && in->code != DCKPT_CODE_RS)
        return DCKPT_ERR_ARG;
    if (in->m < 1 || in->k < 0 || (in->overlap != 0 && in->overlap != 1))
        return DCKPT_ERR_ARG;
    if (in->code == DCKPT_CODE_XOR && in->m != 1)
        return DCKPT_ERR_ARG;
    if (in->code == DCKPT_CODE_RS && in->m > DCKPT_RS_MAX_FRAGS - 1)
        return DCKPT_ERR_ARG;
    size_t chunk = in->chunk_bytes ? in->chunk_bytes : DCKPT_DEFAULT_CHUNK;
    if (chunk < DCKPT_CHUNK_MIN || chunk > DCKPT_CHUNK_MAX)
        return DCKPT_ERR_ARG;
    chunk = (chunk + 63) & ~(size_t)63;
    /* one message carries up to m rows of a chunk; MPI counts are int */
    if ((size_t)in->m * chunk > (size_t)INT_MAX)
        return DCKPT_ERR_ARG;
    out->chunk_bytes = chunk;
    return DCKPT_SUCCESS;
}

int dckpt_layout_compute(int nprocs, const dckpt_params_t *p, const int *host, int rank,
                         dckpt_layout_t *lay, int *group_of, int *group_rank_of)
{
    dckpt_params_t np;
    int rc = ctx_params_normalize(p, &np);
    if (rc != DCKPT_SUCCESS)
        return rc;
    int m = np.m;
    if (nprocs < m + 1 || rank < 0 || rank >= nprocs)
        return DCKPT_ERR_ARG;

    /* G groups of at most k + m ranks, balanced; each needs m + 1 ranks at least */
    long g = np.k == 0 ? 1 : ((long)nprocs + np.k + m - 1) / ((long)np.k + m);
    while (g > 1 && nprocs / g < m + 1)
        g--;
    int base = (int)(nprocs / g), extra = (int)(nprocs % g);
    int largest = base + (extra > 0);
    if (np.code == DCKPT_CODE_RS && largest > DCKPT_RS_MAX_FRAGS)
        return DCKPT_ERR_ARG; /* GF(2^8) codes: at most 256 fragments */

    /* which ranks form each group: across hosts (dckpt_place.c) */
    int *gof = group_of, *grk = group_rank_of;
    if (!gof)
        gof = malloc(sizeof(int) * (size_t)nprocs);
    if (!grk)
        grk = malloc(sizeof(int) * (size_t)nprocs);
    if (!gof || !grk || dckpt_place(nprocs, (int)g, host, gof, grk) != 0) {
        rc = DCKPT_ERR_NOMEM;
        goto out;
    }
    int grp = gof[rank];
    lay->ngroups = (int)g;
    lay->group = grp;
    lay->group_rank = grk[rank];
    lay->group_size = base + (grp < extra);
    lay->k = lay->group_size - m;
    lay->m = m;
    lay->is_checksum = lay->group_rank >= lay->k;
    lay->ndata = nprocs - (int)g * m;
    /* data ranks are numbered in rank order (dckpt_data_comm's order) */
    lay->data_rank = -1;
    if (!lay->is_checksum) {
        lay->data_rank = 0;
        for (int r = 0; r < rank; r++)
            lay->data_rank += grk[r] < base + (gof[r] < extra) - m;
    }
out:
    if (gof != group_of)
        free(gof);
    if (grk != group_rank_of)
        free(grk);
    return rc;
}

int dckpt_plan(int nprocs, const dckpt_params_t *params, int *ngroups_p, int *ndata_p)
{
    dckpt_layout_t lay;
    int rc = dckpt_layout_compute(nprocs, params, NULL, 0, &lay, NULL, NULL);
    if (rc != DCKPT_SUCCESS)
        return rc;
    if (ngroups_p)
        *ngroups_p = lay.ngroups;
    if (ndata_p)
        *ndata_p = lay.ndata;
    return DCKPT_SUCCESS;
}

/* ------------------------------------------------------------------ communicators */

void dckpt_ctx_comms_free(dckpt_ctx_t *ctx)
{
    /* after a failure these may be destroyed communicators: freeing is still allowed */
    if (ctx->data != MPI_COMM_NULL)
        MPI_Comm_free(&ctx->data);
    if (ctx->group != MPI_COMM_NULL)
        MPI_Comm_free(&ctx->group);
    if (ctx->world != MPI_COMM_NULL)
        MPI_Comm_free(&ctx->world);
    ctx->data = ctx->group = ctx->world = MPI_COMM_NULL;
}

int dckpt_ctx_agree(dckpt_ctx_t *ctx, int status)
{
    int agreed;
    if (MPI_Allreduce(&status, &agreed, 1, MPI_INT, MPI_MIN, ctx->world) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    return agreed;
}

/*
 * Collective over comm, and the same sequence of calls for dckpt_create and
 * dckpt_restore, so that a replacement's create pairs with the survivors'
 * rebuild: dup, split (groups), split (data ranks), allreduce (parameters and
 * local_status agreed). Returns the agreed status.
 */
int dckpt_ctx_comms_build(dckpt_ctx_t *ctx, MPI_Comm comm, int local_status)
{
    MPI_Comm world = MPI_COMM_NULL;
    if (MPI_Comm_dup(comm, &world) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    ctx->world = world;
    if (MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    if (MPI_Comm_split(world, ctx->lay.group, ctx->rank, &ctx->group) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    MPI_Comm_set_errhandler(ctx->group, MPI_ERRORS_RETURN);
    int color = ctx->lay.is_checksum ? MPI_UNDEFINED : 0;
    if (MPI_Comm_split(world, color, ctx->rank, &ctx->data) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    if (ctx->data != MPI_COMM_NULL)
        MPI_Comm_set_errhandler(ctx->data, MPI_ERRORS_RETURN);

    /* every rank must have passed the same parameters; MIN of x and of -x */
    long long mine[5] = {ctx->params.code, ctx->params.m, ctx->params.k,
                         (long long)ctx->params.chunk_bytes, ctx->params.overlap};
    long long v[11], r[11];
    for (int i = 0; i < 5; i++) {
        v[i] = mine[i];
        v[5 + i] = -mine[i];
    }
    v[10] = local_status;
    if (MPI_Allreduce(v, r, 11, MPI_LONG_LONG_INT, MPI_MIN, world) != MPI_SUCCESS)
        return DCKPT_ERR_MPI;
    for (int i = 0; i < 5; i++)
        if (r[i] != -r[5 + i])
            return DCKPT_ERR_ARG;
    return (int)r[10];
}

/* ------------------------------------------------------------------ create / free */

/* Code tables and every fixed-size array the protocols need (no allocation later but the data). */
static int ctx_code_init(dckpt_ctx_t *ctx)
{
    int k = ctx->lay.k, m = ctx->lay.m, g = ctx->lay.group_size;
    ctx->parity_coef = malloc((size_t)k * m);
    ctx->iota = malloc(sizeof(int) * (size_t)g);
    ctx->plan_src = malloc(sizeof(int) * (size_t)g);
    ctx->plan_tgt = malloc(sizeof(int) * (size_t)g);
    ctx->plan_rows = malloc((size_t)m * g);
    ctx->crc_scratch = malloc(sizeof(int32_t) * 2 * (size_t)g);
    ctx->lost_flags = malloc(sizeof(int) * (size_t)g);
    ctx->recs_tmp = malloc(sizeof(dckpt_rec_t) * (size_t)g);
    ctx->lost_map = malloc(2 * (((size_t)ctx->nprocs + 7) / 8));
    ctx->epoch_tab = malloc(3 * sizeof(long long) * (size_t)ctx->nprocs);
    ctx->group_lost = malloc(sizeof(int) * (size_t)ctx->lay.ngroups);
    for (int s = 0; s < 2; s++)
        ctx->slot[s].recs = calloc((size_t)g, sizeof(dckpt_rec_t));
    if (ctx->parity_coef == NULL || ctx->iota == NULL || ctx->plan_src == NULL ||
        ctx->plan_tgt == NULL || ctx->plan_rows == NULL || ctx->crc_scratch == NULL ||
        ctx->lost_flags == NULL || ctx->recs_tmp == NULL || ctx->lost_map == NULL ||
        ctx->epoch_tab == NULL || ctx->group_lost == NULL ||
        ctx->slot[0].recs == NULL || ctx->slot[1].recs == NULL)
        return DCKPT_ERR_NOMEM;
    for (int i = 0; i < g; i++)
        ctx->iota[i] = i;
    if (ctx->params.code == DCKPT_CODE_XOR) {
        memset(ctx->parity_coef, 1, (size_t)k * m);
        return DCKPT_SUCCESS;
    }
    if (dckpt_rs_init(&ctx->rs, k, m) != 0)
        return DCKPT_ERR_NOMEM;
    for (int j = 0; j < m; j++)
        memcpy(ctx->parity_coef + (size_t)j * k, dckpt_rs_parity_row(&ctx->rs, j), (size_t)k);
    return DCKPT_SUCCESS;
}

static void ctx_destroy(dckpt_ctx_t *ctx)
{
    dckpt_overlap_drop(ctx); /* an overlapped epoch never committed */
    free(ctx->ovl_req);
    free(ctx->ovl_type);
    dckpt_ctx_comms_free(ctx);
    dckpt_rs_fini(&ctx->rs);
    free(ctx->parity_coef);
    free(ctx->iota);
    free(ctx->plan_src);
    free(ctx->plan_tgt);
    free(ctx->plan_rows);
    free(ctx->crc_scratch);
    free(ctx->lost_flags);
    free(ctx->recs_tmp);
    free(ctx->lost_map);
    free(ctx->epoch_tab);
    free(ctx->group_lost);
    free(ctx->group_of);
    free(ctx->group_rank_of);
    free(ctx->members);
    free(ctx->bufs);
    dckpt_store_slot_release(&ctx->slot[0]);
    dckpt_store_slot_release(&ctx->slot[1]);
    free(ctx->pool);
    free(ctx);
}

int dckpt_create(MPI_Comm comm, const dckpt_params_t *params, dckpt_ctx_t **ctx_p)
{
    int size, rank;
    if (ctx_p == NULL || params == NULL || comm == MPI_COMM_NULL)
        return DCKPT_ERR_ARG;
    *ctx_p = NULL;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return DCKPT_ERR_ARG;

    dckpt_ctx_t *ctx = calloc(1, sizeof(*ctx));
    if (ctx == NULL)
        return DCKPT_ERR_NOMEM;
    ctx->world = ctx->group = ctx->data = MPI_COMM_NULL;
    ctx->active = -1;
    ctx->next_epoch = 1;
    ctx->nprocs = size;
    ctx->rank = rank;

    /* Argument errors are decided locally but identically on every rank (same
       parameters, same size); a rank whose parameters differ is caught by the
       agreement in dckpt_ctx_comms_build. */
    int rc = ctx_params_normalize(params, &ctx->params);
    int *host = ctx_hosts(comm, size);
    ctx->group_of = malloc(sizeof(int) * (size_t)size);
    ctx->group_rank_of = malloc(sizeof(int) * (size_t)size);
    if (rc == DCKPT_SUCCESS && (!ctx->group_of || !ctx->group_rank_of))
        rc = DCKPT_ERR_NOMEM;
    if (rc == DCKPT_SUCCESS)
        rc = dckpt_layout_compute(size, params, host, rank, &ctx->lay, ctx->group_of,
                                  ctx->group_rank_of);
    free(host);
    if (rc == DCKPT_SUCCESS && !(ctx->members = malloc(sizeof(int) * (size_t)ctx->lay.group_size)))
        rc = DCKPT_ERR_NOMEM;
    if (rc != DCKPT_SUCCESS) {
        free(ctx->group_of);
        free(ctx->group_rank_of);
        free(ctx);
        return rc;
    }
    for (int r = 0; r < size; r++)
        if (ctx->group_of[r] == ctx->lay.group)
            ctx->members[ctx->group_rank_of[r]] = r;
    rc = dckpt_ctx_comms_build(ctx, comm, ctx_code_init(ctx));
    if (rc != DCKPT_SUCCESS) {
        ctx_destroy(ctx);
        return rc;
    }
    ctx->fresh = 1;
    *ctx_p = ctx;
    return DCKPT_SUCCESS;
}

int dckpt_free(dckpt_ctx_t **ctx_p)
{
    if (ctx_p == NULL || *ctx_p == NULL)
        return DCKPT_ERR_ARG;
    ctx_destroy(*ctx_p);
    *ctx_p = NULL;
    return DCKPT_SUCCESS;
}

/* ------------------------------------------------------------------ registration */

int dckpt_register(dckpt_ctx_t *ctx, void *ptr, size_t bytes)
{
    if (ctx == NULL || (ptr == NULL && bytes > 0))
        return DCKPT_ERR_ARG;
    if (ctx->lay.is_checksum)
        return DCKPT_ERR_STATE; /* checksum ranks hold no application state */
    if (ctx->nbufs == ctx->bufs_cap) {
        int cap = ctx->bufs_cap ? 2 * ctx->bufs_cap : 8;
        dckpt_buf_t *nb = realloc(ctx->bufs, (size_t)cap * sizeof(*nb));
        if (nb == NULL)
            return DCKPT_ERR_NOMEM;
        ctx->bufs = nb;
        ctx->bufs_cap = cap;
    }
    ctx->bufs[ctx->nbufs].ptr = ptr;
    ctx->bufs[ctx->nbufs].bytes = bytes;
    ctx->nbufs++;
    return DCKPT_SUCCESS;
}

int dckpt_clear(dckpt_ctx_t *ctx)
{
    if (ctx == NULL)
        return DCKPT_ERR_ARG;
    ctx->nbufs = 0;
    return DCKPT_SUCCESS;
}

/* ------------------------------------------------------------------ queries */

int dckpt_is_checksum_rank(const dckpt_ctx_t *ctx)
{
    if (ctx == NULL)
        return DCKPT_ERR_ARG;
    return ctx->lay.is_checksum;
}

MPI_Comm dckpt_data_comm(const dckpt_ctx_t *ctx)
{
    return ctx ? ctx->data : MPI_COMM_NULL;
}

int dckpt_layout(const dckpt_ctx_t *ctx, dckpt_layout_t *layout)
{
    if (ctx == NULL || layout == NULL)
        return DCKPT_ERR_ARG;
    *layout = ctx->lay;
    return DCKPT_SUCCESS;
}

int64_t dckpt_epoch(const dckpt_ctx_t *ctx)
{
    return ctx ? ctx->epoch : 0;
}

size_t dckpt_memory_bytes(const dckpt_ctx_t *ctx)
{
    if (ctx == NULL)
        return 0;
    size_t g = (size_t)ctx->lay.group_size;
    size_t total = ctx->pool_cap + (size_t)ctx->bufs_cap * sizeof(dckpt_buf_t) +
                   g * (4 * sizeof(int) + ctx->lay.m + 2 * sizeof(int32_t)) +
                   g * sizeof(dckpt_rec_t) + 2 * (((size_t)ctx->nprocs + 7) / 8) +
                   (size_t)ctx->lay.k * ctx->lay.m;
    for (int s = 0; s < 2; s++) {
        total += ctx->slot[s].cap;
        if (ctx->slot[s].recs)
            total += (size_t)ctx->lay.group_size * sizeof(dckpt_rec_t);
    }
    return total;
}

const char *dckpt_strerror(int code)
{
    switch (code) {
    case DCKPT_SUCCESS:
        return "success";
    case DCKPT_ERR_ARG:
        return "invalid argument";
    case DCKPT_ERR_NOMEM:
        return "out of memory";
    case DCKPT_ERR_MPI:
        return "an MPI call failed (a process may have failed): recover, then dckpt_restore";
    case DCKPT_ERR_STATE:
        return "operation not allowed in this state (checksum rank, or a failed checkpoint "
               "awaits dckpt_restore)";
    case DCKPT_ERR_NO_CHECKPOINT:
        return "no checkpoint epoch is held by every surviving rank";
    case DCKPT_ERR_UNRECOVERABLE:
        return "unrecoverable: more ranks lost in a group than it has checksum ranks";
    case DCKPT_ERR_MISMATCH:
        return "registered buffers or communicator do not match the checkpoint";
    case DCKPT_ERR_CORRUPT:
        return "checkpoint data failed its CRC check";
    default:
        return "unknown diskless_ckpt error";
    }
}
