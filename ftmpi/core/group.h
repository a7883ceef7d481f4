/* Groups: ordered sets of processes, named by MPI_COMM_WORLD rank. */
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
group_t *group_empty(void);
/* New group from world ranks (copied); refcount 1, no handle yet. */
group_t *group_new(int size, const int *world);
int group_make_handle(group_t *g); /* gives g a user handle; MPI_ERR_NO_MEM on failure */
void group_retain(group_t *g);
void group_release(group_t *g);
/* Rank in g of a world rank, or MPI_UNDEFINED. */
int group_rank_of_world(const group_t *g, int world);

#endif
