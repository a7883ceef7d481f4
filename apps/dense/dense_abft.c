/*
 * dense_abft.c - what the apps' --ft abft recoveries share (dense.h): who
 * was lost in each checksum group, and the sign of each part in the sum
 * that rebuilds it.
 */
#include "dense.h"

int dense_abft_lost(dense_ctx_t *d, MPI_Comm group, int lost, int pos, const char *what,
                    int *root)
{
    int in[2] = {lost, lost ? pos : -1}, out[2], worst, rc;
    if ((rc = MPI_Allreduce(&in[0], &out[0], 1, MPI_INT, MPI_SUM, group)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(&in[1], &out[1], 1, MPI_INT, MPI_MAX, group)) != MPI_SUCCESS ||
        (rc = MPI_Allreduce(&out[0], &worst, 1, MPI_INT, MPI_MAX, d->grid.comm)) != MPI_SUCCESS)
        return rc;
    if (worst > 1) {
        snprintf(d->err, sizeof d->err,
                 "unrecoverable: %d ranks of one %s lost at once; --ft abft rebuilds one per "
                 "%s (one checksum rank)", worst, what, what);
        d->abft_lost = 1;
        return FTITER_ERR_APP;
    }
    *root = out[0] == 1 ? out[1] : -1;
    return MPI_SUCCESS;
}

double dense_abft_sign(int root, int cpos, int pos)
{
    /* the checksum rank lost: the sum of the others; else the checksum minus them */
    return root == cpos || pos == cpos ? 1.0 : -1.0;
}
