/* Reduction operations: MPI_Op_create(_c), MPI_Op_free, MPI_Op_commutative. */
#include "api/api.h"

/* MPI_Op_create (fn) and MPI_Op_create_c (fn_c, MPI-4.0 large counts). */
static int create(const char *fname, MPI_User_function *fn, MPI_User_function_c *fn_c,
                  int commute, MPI_Op *op)
{
    API_BEGIN(fname);
    if (!fn && !fn_c)
        API_FAIL(MPI_ERR_ARG);
    CHECK_PTR(op);
    op_t *o = op_create(fn, commute);
    if (!o)
        API_FAIL(MPI_ERR_NO_MEM);
    o->user_c = fn_c;
    *op = o->handle;
    API_END();
}

API_WEAK(Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return create("MPI_Op_create", user_fn, NULL, commute, op);
}

API_WEAK(Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return create("MPI_Op_create_c", NULL, user_fn, commute, op);
}

API_WEAK(Op_free)
int PMPI_Op_free(MPI_Op *op)
{
    API_BEGIN("MPI_Op_free");
    CHECK_PTR(op);
    op_t *o = op_get(*op);
    if (!o || o->predefined)
        API_FAIL(MPI_ERR_OP);
    op_release(o); /* pending non-blocking collectives keep their own reference */
    *op = MPI_OP_NULL;
    API_END();
}

API_WEAK(Op_commutative)
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    API_BEGIN("MPI_Op_commutative");
    CHECK_PTR(commute);
    op_t *o = op_get(op);
    if (!o)
        API_FAIL(MPI_ERR_OP);
    *commute = o->commute;
    API_END();
}
