/*
 * dense_grid.c - the P x Q process grid and the block-cyclic index maps
 * (dense.h). Grid ranks are row-major: rank = myrow * Q + mycol.
 */
#include "dense.h"

void dense_grid_coords(dense_grid_t *g, int P, int Q, int rank)
{
    g->P = P;
    g->Q = Q;
    g->rank = rank;
    g->myrow = rank / Q;
    g->mycol = rank % Q;
}

int dense_grid_build(dense_grid_t *g, MPI_Comm comm, int P, int Q)
{
    int rank, rc;
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return rc;
    return dense_grid_build_at(g, comm, P, Q, rank / Q, rank % Q);
}

int dense_grid_build_at(dense_grid_t *g, MPI_Comm comm, int P, int Q, int myrow, int mycol)
{
    int rank, rc;
    dense_grid_free(g);
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return rc;
    g->P = P;
    g->Q = Q;
    g->rank = rank;
    g->myrow = myrow;
    g->mycol = mycol;
    g->comm = comm;
    if ((rc = MPI_Comm_split(comm, g->myrow, g->mycol, &g->row)) != MPI_SUCCESS)
        return rc;
    return MPI_Comm_split(comm, g->mycol, g->myrow, &g->col);
}

void dense_grid_free(dense_grid_t *g)
{
    /* after a failure the old communicators are invalid; freeing them only
       releases this process's handles */
    if (g->row != MPI_COMM_NULL)
        MPI_Comm_free(&g->row);
    if (g->col != MPI_COMM_NULL)
        MPI_Comm_free(&g->col);
    g->row = g->col = MPI_COMM_NULL;
}

int64_t dense_numroc(int64_t n, int nb, int iproc, int nprocs)
{
    int64_t nblocks = n / nb;
    int64_t r = (nblocks / nprocs) * nb;
    int64_t extra = nblocks % nprocs;
    if (iproc < extra)
        r += nb;
    else if (iproc == extra)
        r += n % nb;
    return r;
}

int dense_g2p(int64_t g, int nb, int nprocs)
{
    return (int)((g / nb) % nprocs);
}

int64_t dense_g2l(int64_t g, int nb, int nprocs)
{
    return (g / ((int64_t)nb * nprocs)) * nb + g % nb;
}

int64_t dense_l2g(int64_t l, int nb, int iproc, int nprocs)
{
    return ((l / nb) * nprocs + iproc) * (int64_t)nb + l % nb;
}
