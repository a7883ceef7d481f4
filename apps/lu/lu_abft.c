/*
 * lu_abft.c - --ft abft for lu (lu.h, docs/dense.md, "ABFT"): the lost
 * rank's blocks are rebuilt from a checksum process column, not from a
 * checkpoint. The variant: a process-level row checksum in the spirit of Du,
 * Bouteiller, Bosilca and Dongarra (PPoPP 2012), simplified by the
 * right-hand sides riding along (L is not needed after its panel).
 *
 * The grid gets one more process column (column Q, P ranks). Its rank in
 * process row p holds, position by position, the sum of the local parts of
 * [A | 0 | B] of the Q ranks of row p, and takes part in every panel as a
 * process column whose columns all lie right of the panel: it receives L,
 * swaps its rows, solves its rows of the row panel (dtrsm) and updates its
 * trailing rows (dgemm). The row operations of LU are linear, so after
 * every panel, for every local position (i, c):
 *
 *     S(p)[i, c] = sum_{q < Q} T(p, q)[i, c]
 *
 * where T is the "true" value of an entry: the stored value, except the L
 * multipliers of finished panels (global column j < k NB and row i > j),
 * which stand for the zeros the elimination made. After a recovery at panel
 * boundary k (the skeleton's checkpointed count): every survivor whose A
 * is in the middle of panel k copies back what it saved at the panel's
 * start; in each process row with one lost rank (a replacement, or a
 * survivor that cannot be brought back to k), one MPI_Reduce over the
 * process row rebuilds its part: S minus the others' true values (or their
 * sum, when the checksum rank was lost). The rebuilt rank's own L
 * multipliers are lost and left at zero: they are not used any more (the
 * row swaps and L^-1 were applied to B when their panel was done). Two lost
 * ranks in one process row: exit 3.
 */
#include "lu.h"

int lu_abft_extra_ranks(const dense_opts_t *o)
{
    return o->P + o->m; /* the checksum column, the skeleton's panel-count ranks */
}

int lu_abft_backup(lu_app_t *a, dense_ctx_t *d, int64_t k)
{
    dense_abft_copy(d, &a->A, a->bk, k, 0);
    a->bk_panel = k;
    a->state = -1;
    return MPI_SUCCESS;
}

int lu_abft_recover(void *app, dense_ctx_t *d, int64_t panel, int64_t done)
{
    lu_app_t *a = app;
    int root, lost;
    (void)done;
    return dense_abft_recover_row(d, &a->A, a->bk, &a->bk_panel, &a->state, panel, &root, &lost);
}
