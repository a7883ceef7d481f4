/*
 * Groups: ordered sets of processes, named by MPI_COMM_WORLD rank.
 *
 * Every set operation here builds a new group (refcount 1, no handle yet)
 * and returns 0 or an MPI error class; the API edge gives the result a
 * handle, or hands out MPI_GROUP_EMPTY when it is empty.
 */
#ifndef FTMPI_CORE_GROUP_H
#define FTMPI_CORE_GROUP_H

#include "mpi.h"

typedef struct group {
    int handle;      /* MPI handle, MPI_GROUP_NULL while internal only */
    int refcount;    /* handle + communicators using it */
    int predefined;
    int size;
    int rank;        /* this process's rank in the group, MPI_UNDEFINED if absent */
    int *world;      /* [size] MPI_COMM_WORLD rank of each member */
    unsigned generation; /* recovery generation it was made in (FT) */
} group_t;

int group_module_init(void);
void group_module_fini(void);
group_t *group_get(MPI_Group h);
/* New group from world ranks (copied); refcount 1, no handle yet. */
group_t *group_new(int size, const int *world);
int group_make_handle(group_t *g); /* gives g a user handle; MPI_ERR_NO_MEM on failure */
void group_retain(group_t *g);
void group_release(group_t *g);
/* MPI_Group_free: the handle goes now, the object when unused. */
void group_drop_handle(group_t *g);
/* Rank in g of a world rank, or MPI_UNDEFINED. */
int group_rank_of_world(const group_t *g, int world);

/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int group_compare(const group_t *a, const group_t *b);
/* ranks2[i] = rank in b of rank ranks1[i] of a (MPI_UNDEFINED if absent,
 * MPI_PROC_NULL for MPI_PROC_NULL). MPI_ERR_RANK for a bad rank. */
int group_translate(const group_t *a, int n, const int *ranks1, const group_t *b, int *ranks2);
int group_union(const group_t *a, const group_t *b, group_t **out);
int group_intersection(const group_t *a, const group_t *b, group_t **out);
int group_difference(const group_t *a, const group_t *b, group_t **out);
int group_incl(const group_t *g, int n, const int *ranks, group_t **out);
int group_excl(const group_t *g, int n, const int *ranks, group_t **out);
int group_range_incl(const group_t *g, int n, int ranges[][3], group_t **out);
int group_range_excl(const group_t *g, int n, int ranges[][3], group_t **out);
/* Is every member of sub a member of g? */
int group_is_subset(const group_t *sub, const group_t *g);
/* Do a and b share a member? */
int group_overlaps(const group_t *a, const group_t *b);

#endif
