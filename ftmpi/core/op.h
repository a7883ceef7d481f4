/* Reduction operations: predefined ops on predefined types, user ops. */
#ifndef FTMPI_CORE_OP_H
#define FTMPI_CORE_OP_H

#include "mpi.h"
#include "core/datatype.h"

typedef struct op {
    int handle;
    int refcount;
    int predefined;
    int commute;
    int index;                /* predefined: 1..14 */
    MPI_User_function *user;  /* user ops */
    MPI_User_function_c *user_c; /* user ops of MPI_Op_create_c (user is NULL) */
} op_t;

int op_module_init(void);
void op_module_fini(void);
op_t *op_get(MPI_Op h);
op_t *op_create(MPI_User_function *fn, int commute);
void op_release(op_t *op);
/* Is (op, dt) a legal combination? MPI_SUCCESS, MPI_ERR_OP or MPI_ERR_TYPE. */
int op_check(const op_t *op, const dt_t *dt);
/* inout[i] = in[i] op inout[i] for count elements of dt. A user function is
 * given the element type and count of a large-count wrapper type (core/
 * datatype.h count_wrap); an int one at most INT_MAX elements a call. A user op is
 * called without the library lock (core/proc.h proc_user_enter): callers
 * must keep what they use alive and not touch it from other threads. */
int op_apply(const op_t *op, const void *in, void *inout, int count, dt_t *dt);

#endif
