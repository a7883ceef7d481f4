/*
 * The large-count one-sided functions (MPI-4.0 12.x, _c forms): windows
 * with an MPI_Aint displacement unit, and Put/Get/accumulates with MPI_Count
 * origin, result and target counts, run by the int functions with the
 * counts expressed by api/count_c.h (the target layout of a wrapper type
 * goes to the target as byte runs, like any derived type's).
 */
#include "api/count_c.h"

#include "api/api.h"

/* An MPI_Aint displacement unit for the int functions: out of range, 0 (the
 * int function raises MPI_ERR_DISP: a unit must be positive). */
static int unit_of(MPI_Aint disp_unit)
{
    return disp_unit > 0 && disp_unit <= INT_MAX ? (int)disp_unit : 0;
}

API_WEAK(Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                      MPI_Comm comm, MPI_Win *win)
{
    return PMPI_Win_create(base, size, unit_of(disp_unit), info, comm, win);
}

API_WEAK(Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                        void *baseptr, MPI_Win *win)
{
    return PMPI_Win_allocate(size, unit_of(disp_unit), info, comm, baseptr, win);
}

API_WEAK(Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                               void *baseptr, MPI_Win *win)
{
    return PMPI_Win_allocate_shared(size, unit_of(disp_unit), info, comm, baseptr, win);
}

API_WEAK(Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    int unit = 0;
    int rc = PMPI_Win_shared_query(win, rank, size, disp_unit ? &unit : NULL, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = unit;
    return rc;
}

/* Origin, result (Get_accumulate) and target (count, type) pairs. */
typedef struct {
    cnt_t o, r, t;
} rma_cnt_t;

static int rma_cnt(MPI_Count oc, MPI_Datatype ot, MPI_Count rc_, MPI_Datatype rt, MPI_Count tc,
                   MPI_Datatype tt, rma_cnt_t *x)
{
    *x = (rma_cnt_t){{0}, {0}, {0}};
    int rc = cnt_make(oc, ot, &x->o);
    if (rc == MPI_SUCCESS)
        rc = cnt_make(rc_, rt, &x->r);
    if (rc == MPI_SUCCESS)
        rc = cnt_make(tc, tt, &x->t);
    return rc;
}

static void rma_cnt_done(rma_cnt_t *x)
{
    cnt_done(&x->o);
    cnt_done(&x->r);
    cnt_done(&x->t);
}

#define RMA_CALL(FNAME, OC, OT, RC, RT, CALL)                                     \
    do {                                                                          \
        rma_cnt_t x;                                                              \
        int rc = rma_cnt(OC, OT, RC, RT, target_count, target_datatype, &x);      \
        if (rc == MPI_SUCCESS)                                                    \
            rc = CALL;                                                            \
        else                                                                      \
            rc = cnt_fail(MPI_COMM_NULL, rc, FNAME);                              \
        rma_cnt_done(&x);                                                         \
        return rc;                                                                \
    } while (0)

#define ORIGIN_PARAMS MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank, \
    MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype
#define ORIGIN_ARGS x.o.n, x.o.t, target_rank, target_disp, x.t.n, x.t.t

API_WEAK(Put_c)
int PMPI_Put_c(const void *origin_addr, ORIGIN_PARAMS, MPI_Win win)
{
    RMA_CALL("MPI_Put_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Put(origin_addr, ORIGIN_ARGS, win));
}

API_WEAK(Rput_c)
int PMPI_Rput_c(const void *origin_addr, ORIGIN_PARAMS, MPI_Win win, MPI_Request *request)
{
    RMA_CALL("MPI_Rput_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Rput(origin_addr, ORIGIN_ARGS, win, request));
}

API_WEAK(Get_c)
int PMPI_Get_c(void *origin_addr, ORIGIN_PARAMS, MPI_Win win)
{
    RMA_CALL("MPI_Get_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Get(origin_addr, ORIGIN_ARGS, win));
}

API_WEAK(Rget_c)
int PMPI_Rget_c(void *origin_addr, ORIGIN_PARAMS, MPI_Win win, MPI_Request *request)
{
    RMA_CALL("MPI_Rget_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Rget(origin_addr, ORIGIN_ARGS, win, request));
}

API_WEAK(Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, ORIGIN_PARAMS, MPI_Op op, MPI_Win win)
{
    RMA_CALL("MPI_Accumulate_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Accumulate(origin_addr, ORIGIN_ARGS, op, win));
}

API_WEAK(Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, ORIGIN_PARAMS, MPI_Op op, MPI_Win win,
                       MPI_Request *request)
{
    RMA_CALL("MPI_Raccumulate_c", origin_count, origin_datatype, 0, MPI_DATATYPE_NULL,
             PMPI_Raccumulate(origin_addr, ORIGIN_ARGS, op, win, request));
}

#define GACC_PARAMS const void *origin_addr, MPI_Count origin_count, \
    MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count, \
    MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, \
    MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win
#define GACC_ARGS origin_addr, x.o.n, x.o.t, result_addr, x.r.n, x.r.t, target_rank, \
    target_disp, x.t.n, x.t.t, op, win

API_WEAK(Get_accumulate_c)
int PMPI_Get_accumulate_c(GACC_PARAMS)
{
    RMA_CALL("MPI_Get_accumulate_c", origin_count, origin_datatype, result_count,
             result_datatype, PMPI_Get_accumulate(GACC_ARGS));
}

API_WEAK(Rget_accumulate_c)
int PMPI_Rget_accumulate_c(GACC_PARAMS, MPI_Request *request)
{
    RMA_CALL("MPI_Rget_accumulate_c", origin_count, origin_datatype, result_count,
             result_datatype, PMPI_Rget_accumulate(GACC_ARGS, request));
}
