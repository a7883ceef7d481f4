/*
 * Virtual topologies hung on a communicator (comm_t.topo): Cartesian,
 * graph and distributed graph. The communicator owns its topology; it is
 * freed with the communicator (comm_free_hook_topo) and copied by dup.
 * Functions return 0 or an MPI error class.
 */
#ifndef FTMPI_CORE_TOPO_H
#define FTMPI_CORE_TOPO_H

#include "mpi.h"
#include "core/comm.h"

typedef struct topo {
    int kind;            /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* MPI_CART */
    int ndims;
    int *dims, *periods; /* [ndims] */
    /* MPI_GRAPH: the whole graph, as given */
    int nnodes, nedges;
    int *index, *edges;  /* [nnodes], [nedges] */
    /* MPI_DIST_GRAPH: this process's adjacency */
    int indeg, outdeg, weighted;
    int *in, *inw, *out, *outw; /* [indeg], [indeg], [outdeg], [outdeg] */
} topo_t;

/* Installs comm_free_hook_topo. */
void topo_module_init(void);

topo_t *topo_cart_new(int ndims, const int *dims, const int *periods);
topo_t *topo_graph_new(int nnodes, const int *index, const int *edges);
/* Weights may be NULL (unweighted: stored as weight 1). */
topo_t *topo_dist_new(int indeg, const int *in, const int *inw, int outdeg, const int *out,
                      const int *outw, int weighted);
topo_t *topo_dup(const topo_t *t);
void topo_free(topo_t *t);

/* Cartesian: coordinates of rank (row-major), rank of coordinates
 * (periodic dimensions wrap, others: MPI_ERR_ARG when out of range). */
void topo_cart_coords(const topo_t *t, int rank, int *coords);
int topo_cart_rank(const topo_t *t, const int *coords, int *rank);
/* Neighbors of rank at distance disp along dim (MPI_PROC_NULL off the
 * edge of a non-periodic dimension). */
void topo_cart_shift(const topo_t *t, int rank, int dim, int disp, int *src, int *dst);
int topo_cart_size(int ndims, const int *dims); /* product, -1 on overflow */

/* Graph: neighbors of rank (pointer into t->edges) and their number. */
const int *topo_graph_neighbors(const topo_t *t, int rank, int *n);

/* In and out neighbors of rank in the order of the neighborhood
 * collectives (MPI_PROC_NULL entries included for Cartesian edges).
 * Arrays are malloc'ed; free both. */
int topo_neighbors(const topo_t *t, int rank, int *nin, int **in, int *nout, int **out);

/* MPI_Dims_create. MPI_ERR_DIMS when the fixed entries cannot divide
 * nnodes or are negative; MPI_ERR_ARG for bad nnodes/ndims. */
int topo_dims_create(int nnodes, int ndims, int *dims);

#endif
