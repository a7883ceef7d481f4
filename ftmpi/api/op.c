/* Reduction operations: MPI_Op_create, MPI_Op_free, MPI_Op_commutative. */
#include "api/api.h"

API_WEAK(Op_create)
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    API_BEGIN("MPI_Op_create");
    CHECK_PTR(user_fn);
    CHECK_PTR(op);
    op_t *o = op_create(user_fn, commute);
    if (!o)
        API_FAIL(MPI_ERR_NO_MEM);
    *op = o->handle;
    API_END();
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
