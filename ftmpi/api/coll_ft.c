/*
 * The collective API edge and the FT-MPI modes (docs/ft.md, contract sections 5-6): calls
 * run inside ft_coll_begin/ft_coll_end (ft/ft_coll.c) when the collective
 * mode is ATOMIC or when a BLANK communicator has gaps. Under BLANK the
 * collective runs over the live members only, so per-rank arrays of the
 * v/w collectives are compacted here to the live members' entries (a gap's
 * counts are ignored, as the spec says).
 */
#include "api/coll_check.h"

#include <stdlib.h>

int coll_ft_active(const comm_t *c)
{
    if (ftg.comm_mode == FTMPI_COMM_MODE_ABORT || ftg.singleton)
        return 0;
    if (ftg.coll_mode == FTMPI_COLL_MODE_ATOMIC)
        return 1;
    return coll_ft_gaps(c);
}

int coll_ft_gaps(const comm_t *c)
{
    if (ftg.comm_mode != FTMPI_COMM_MODE_BLANK || c->is_inter)
        return 0;
    for (int i = 0; i < c->size; i++)
        if (ft_is_gap(c, i))
            return 1;
    return 0;
}

int coll_ft_compact(const comm_t *c, const int *a, int **out_p)
{
    int *o = malloc((size_t)(c->size ? c->size : 1) * sizeof(int));
    if (!o)
        return MPI_ERR_NO_MEM;
    for (int i = 0, j = 0; i < c->size; i++)
        if (!ft_is_gap(c, i))
            o[j++] = a[i];
    *out_p = o;
    return MPI_SUCCESS;
}

int coll_ft_scaled(const comm_t *c, int step, int **out_p)
{
    int *o = malloc((size_t)(c->size ? c->size : 1) * sizeof(int));
    if (!o)
        return MPI_ERR_NO_MEM;
    for (int i = 0, j = 0; i < c->size; i++)
        if (!ft_is_gap(c, i))
            o[j++] = i * step;
    *out_p = o;
    return MPI_SUCCESS;
}

int coll_ft_finish(comm_t *c, int rc, MPI_Request *request)
{
    if (!request)
        return rc;
    req_t *r;
    int rc2 = coll_done_request(c, rc, &r);
    if (rc2 != MPI_SUCCESS)
        return rc2;
    if ((rc2 = req_make_handle(r)) != MPI_SUCCESS) {
        req_free(r);
        return rc2;
    }
    *request = r->handle;
    return MPI_SUCCESS;
}
