/*
 * dense_start.c - from MPI_Init to the run (dense.h): option errors, the
 * size of a Matrix Market matrix, the grid, the -np check, the input check.
 * Nothing here communicates before the skeleton starts, except the input
 * verdict on a fresh start.
 */
#include "dense.h"

#include <string.h>

/* the most square P x Q = p with P <= Q */
static void grid_for(int p, int *P, int *Q)
{
    int best = 1;
    for (int i = 1; (long)i * i <= p; i++)
        if (p % i == 0)
            best = i;
    *P = best;
    *Q = p / best;
}

static int start_fail(const dense_ctx_t *d, const char *msg, int status)
{
    if (d->world_rank == 0 && msg && msg[0]) {
        fprintf(stderr, "%s\n", msg);
        fflush(stderr);
    }
    MPI_Finalize();
    return status;
}

/* -np and grid; 0 or -1 with a message */
static int start_layout(dense_ctx_t *d, dense_opts_t *o, const dense_info_t *info, char *msg,
                        size_t cap)
{
    int extra = o->ft == DENSE_FT_CKPT ? o->m : o->ft == DENSE_FT_ABFT ? -1 : 0;
    if (o->ft == DENSE_FT_ABFT) {
        if (!info->abft_extra_ranks) {
            snprintf(msg, cap, "%s: --ft abft is not available in %s (use --ft ckpt; "
                               "docs/dense.md)", o->prog, o->prog);
            return -1;
        }
    }
    if (o->P == 0) {
        int p = d->world_size;
        if (o->ft == DENSE_FT_ABFT) {
            /* the most square grid whose checksum ranks fit */
            for (p = d->world_size; p >= 1; p--) {
                grid_for(p, &o->P, &o->Q);
                if (p + info->abft_extra_ranks(o) == d->world_size)
                    break;
            }
        } else {
            p -= extra;
        }
        if (p < 1) {
            snprintf(msg, cap, "%s: -np %d is too small for these options (need at least %d)",
                     o->prog, d->world_size, extra + 1);
            return -1;
        }
        grid_for(p, &o->P, &o->Q);
    }
    if (o->ft == DENSE_FT_ABFT)
        extra = info->abft_extra_ranks(o);
    int need = o->P * o->Q + extra;
    if (d->world_size != need) {
        char why[160] = "";
        if (o->ft == DENSE_FT_CKPT)
            snprintf(why, sizeof why, " --ft ckpt --checksums %d", o->m);
        else if (o->ft == DENSE_FT_ABFT)
            snprintf(why, sizeof why, " --ft abft --checksums %d", o->m);
        snprintf(msg, cap,
                 "%s: --grid %dx%d%s needs -np %d (%d computing rank%s + %d checksum rank%s), "
                 "got -np %d",
                 o->prog, o->P, o->Q, why, need, o->P * o->Q, o->P * o->Q > 1 ? "s" : "", extra,
                 extra == 1 ? "" : "s", d->world_size);
        return -1;
    }
    return 0;
}

int dense_start(dense_ctx_t *d, dense_opts_t *o, int prc, int init_rc,
                const dense_info_t *info)
{
    memset(d, 0, sizeof(*d));
    d->o = o;
    d->init_rc = init_rc;
    d->grid.comm = d->grid.row = d->grid.col = MPI_COMM_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &d->world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->world_size);
    if (prc > 0) {
        if (d->world_rank == 0)
            dense_opts_usage(stdout, o->prog, info->extra_usage);
        return start_fail(d, NULL, DENSE_EXIT_OK);
    }
    if (prc < 0)
        return start_fail(d, dense_opts_error(), DENSE_EXIT_USAGE);
    char msg[512] = "";
    if (o->matrix) {
        /* the size comes from the file; a bad file is reported by the input check */
        app_mtx_t m;
        if (app_mtx_open(&m, o->matrix, msg, sizeof msg) == 0) {
            o->n = m.n;
            app_mtx_close(&m);
            if (o->nb > o->n && !o->nb_given)
                o->nb = (int)o->n;
        }
        msg[0] = '\0';
        if (o->nb > o->n) {
            snprintf(msg, sizeof msg, "%s: --nb %d is larger than the matrix (n = %lld, %s)",
                     o->prog, o->nb, (long long)o->n, o->matrix);
            return start_fail(d, msg, DENSE_EXIT_USAGE);
        }
    }
    if (start_layout(d, o, info, msg, sizeof msg))
        return start_fail(d, msg, DENSE_EXIT_USAGE);
    if (o->ft != DENSE_FT_NONE) {
        int abft = o->ft == DENSE_FT_ABFT;
        dckpt_params_t dp = {o->code, o->m, 0, 0};
        int ngroups, ndata;
        if (dckpt_plan(d->world_size, &dp, &ngroups, &ndata) != DCKPT_SUCCESS ||
            ndata != (abft ? d->world_size - o->m : o->P * o->Q)) {
            snprintf(msg, sizeof msg, "%s: %d ranks cannot hold %s checkpoints with %d "
                                      "checksum rank(s)", o->prog, d->world_size,
                     app_code_name(o->code), o->m);
            return start_fail(d, msg, DENSE_EXIT_USAGE);
        }
    }
    int fresh = 1;
#ifdef MPI_INIT_RESTARTED_NODE
    fresh = init_rc != MPI_INIT_RESTARTED_NODE;
#endif
    if (fresh && dense_input_verdict(o, info->bytes_per_entry, d->world_rank, d->world_size))
        return start_fail(d, NULL, DENSE_EXIT_INPUT);
    /* the skeleton's data ranks: the grid (with abft, its checksum row too) */
    d->is_compute =
        d->world_rank < (o->ft == DENSE_FT_ABFT ? d->world_size - o->m : o->P * o->Q);
    d->abft_column = info->abft_column;
    if (d->is_compute) {
        int abft = o->ft == DENSE_FT_ABFT;
        dense_grid_coords(&d->grid, o->P + (abft && !d->abft_column),
                          o->Q + (abft && d->abft_column), 0);
        dense_grid_place(d, d->world_rank, &d->grid.myrow, &d->grid.mycol);
        d->grid.rank = d->world_rank;
    }
    return -1;
}
