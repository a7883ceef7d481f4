/*
 * The large-count (_c) entry points (docs/largecount.md) hand their work to
 * the int entry points. A count beyond INT_MAX is expressed exactly with a
 * derived datatype: n elements of T become 1 element of contiguous(n, T)
 * (a count_wrap type: user reduction functions see T and n). Count and
 * displacement arrays become int arrays; where a value does not fit, all are
 * divided by their greatest common divisor g and the type becomes
 * contiguous(g, T).
 */
#ifndef FTMPI_API_COUNT_C_H
#define FTMPI_API_COUNT_C_H

#include "mpi.h"

/* One (count, type): what the int function is called with. */
typedef struct {
    int n;
    MPI_Datatype t;
    int made;        /* t is a wrapper to free */
} cnt_t;

/* A negative count stays negative (the int function raises MPI_ERR_COUNT);
 * an invalid type is passed on (the int function raises MPI_ERR_TYPE).
 * MPI_SUCCESS or MPI_ERR_NO_MEM. */
int cnt_make(MPI_Count count, MPI_Datatype type, cnt_t *c);
void cnt_done(cnt_t *c);

/* Count and displacement arrays of n entries (displacements in units of the
 * type's extent; either array may be NULL) for the int v-collectives;
 * sum_int: the counts' sum must fit in an int too (MPI_Reduce_scatter). */
typedef struct {
    int *counts, *displs;
    MPI_Datatype t;
    int made;
} cvec_t;
int cvec_make(const MPI_Count *counts, const MPI_Aint *displs, int n, MPI_Datatype type,
              int sum_int, cvec_t *v);
void cvec_done(cvec_t *v);

/* The w-collectives: counts, byte displacements and a type for each of n
 * peers; a count beyond int takes a wrapper type. MPI_ERR_COUNT when a
 * displacement does not fit in int (MPI_Alltoallw takes int ones). Aint
 * displacements (neighborhood alltoallw) pass adispls and get v->adispls. */
typedef struct {
    int *counts, *displs;
    MPI_Datatype *types;
    int n;
    unsigned char *made;
} cw_t;
int cw_make(const MPI_Count *counts, const MPI_Aint *displs, const MPI_Datatype *types, int n,
            cw_t *w);
void cw_done(cw_t *w);

/* Processes whose arrays a collective on comm reads: the group (remote group
 * of an intercommunicator); in, out: a topology's neighbours. */
int cnt_group_size(MPI_Comm comm, int *n);
int cnt_neighbors(MPI_Comm comm, int *in, int *out);

/* An error of a _c call before the int function ran, through comm's handler. */
int cnt_fail(MPI_Comm comm, int rc, const char *fname);

#endif
