/* MPI_Put, MPI_Get, the accumulates and their request-based forms. */
#include "api/win_api.h"

/* The checks every operation makes; rc 0 or the class. */
static int check_target(win_t *w, int target, MPI_Aint tdisp, int tcount, dt_t *tdt)
{
    if (target == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (target < 0 || target >= w->size)
        return MPI_ERR_RANK;
    if (!rma_can_access(w, target))
        return MPI_ERR_RMA_SYNC;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC || tcount == 0 || tdt->size == 0)
        return MPI_SUCCESS;
    if (tdisp < 0)
        return MPI_ERR_DISP;
    MPI_Aint at = tdisp * w->disp_units[target];
    MPI_Aint lo = at + tdt->true_lb, hi = at + (MPI_Aint)(tcount - 1) * tdt->extent + tdt->true_ub;
    if (lo < 0 || hi > w->sizes[target])
        return MPI_ERR_RMA_RANGE;
    return MPI_SUCCESS;
}

/* Accumulate types: one predefined element kind throughout. */
static int check_acc(op_t *op, dt_t *tdt, dt_t *odt)
{
    if (!op->predefined)
        return MPI_ERR_OP;
    if (tdt->elem_kind == DTK_NONE || (odt && odt->elem_kind != tdt->elem_kind &&
                                       op->handle != MPI_NO_OP))
        return MPI_ERR_TYPE;
    return op_check(op, tdt);
}

#define CHECK_OP(h, o) do { if (!((o) = op_get(h))) API_FAIL(MPI_ERR_OP); } while (0)

/* The common body: kind, origin, result, target, op (MPI_OP_NULL: none). */
static int rma_call(const char *fname, int kind, const void *obuf, int ocount, MPI_Datatype otype,
                    const void *cbuf, void *rbuf, int rcount, MPI_Datatype rtype, int target,
                    MPI_Aint tdisp, int tcount, MPI_Datatype ttype, MPI_Op oph, MPI_Win win,
                    MPI_Request *request)
{
    API_BEGIN(fname);
    win_t *w = NULL;
    rma_args_t a = {0};
    req_t *u = NULL;
    CHECK_WIN(win, w);
    CHECK_WIN_RANK(w, target);
    a.kind = kind;
    if (request)
        *request = MPI_REQUEST_NULL;
    CHECK_COUNT(tcount);
    CHECK_DT(ttype, a.tdt);
    /* MPI_Get_accumulate with MPI_NO_OP ignores the origin buffer, count
     * and type (MPI-3.1 11.3.4): MPI_DATATYPE_NULL is fine there. */
    if (kind == RMA_PUT || kind == RMA_ACC || (kind == RMA_GACC && oph != MPI_NO_OP)) {
        CHECK_COUNT(ocount);
        CHECK_DT(otype, a.odt);
    }
    if (kind == RMA_GET || kind == RMA_GACC) {
        CHECK_COUNT(rcount);
        CHECK_DT(rtype, a.rdt);
    }
    if (kind == RMA_ACC || kind == RMA_GACC) {
        CHECK_OP(oph, a.op);
        if ((rc = check_acc(a.op, a.tdt, a.op->handle == MPI_NO_OP ? NULL : a.odt)) != MPI_SUCCESS)
            goto fail;
    }
    if (kind == RMA_CAS) {
        /* integer, logical or byte types only (MPI-3.1 section 11.3.4) */
        if (!a.tdt->predefined || (op_check(op_get(MPI_BOR), a.tdt) != MPI_SUCCESS &&
                                   op_check(op_get(MPI_LOR), a.tdt) != MPI_SUCCESS))
            API_FAIL(MPI_ERR_TYPE);
        a.rdt = a.odt = a.tdt;
        rcount = ocount = 1;
    }
    size_t tbytes = (size_t)tcount * a.tdt->size;
    if (a.odt && (size_t)ocount * a.odt->size != tbytes && !(a.op && a.op->handle == MPI_NO_OP))
        API_FAIL(MPI_ERR_TYPE);  /* type signatures must match */
    if (a.rdt && (size_t)rcount * a.rdt->size != tbytes)
        API_FAIL(MPI_ERR_TYPE);
    if ((rc = check_target(w, target, tdisp, tcount, a.tdt)) != MPI_SUCCESS)
        goto fail;
    CHECK_WIN_USABLE(w);
    a.obuf = obuf;
    a.ocount = ocount;
    a.cbuf = cbuf;
    a.rbuf = rbuf;
    a.rcount = rcount;
    a.target = target;
    a.tdisp = tdisp;
    a.tcount = tcount;
    rc = rma_start(w, &a, request ? &u : NULL);
    if (rc == MPI_SUCCESS && !request && (kind == RMA_PUT || kind == RMA_GET || kind == RMA_ACC) &&
        (kind == RMA_GET ? rtype : otype) == ttype) /* later ones may take the short path */
        rma_fast_learn(w, ttype, a.tdt, oph, kind == RMA_ACC ? a.op : NULL);
    if (rc == MPI_SUCCESS && u) {
        rc = req_make_handle(u);
        if (rc == MPI_SUCCESS)
            *request = u->handle;
        else
            req_orphan(u);
    }
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Put)
int PMPI_Put(const void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt,
             MPI_Win win)
{
    win_t *w = api_win_fast(win);
    if (w && rma_fast_copy(w, 1, (void *)oa, oc, ot, tr, td, tc, tt))
        return MPI_SUCCESS;
    return rma_call("MPI_Put", RMA_PUT, oa, oc, ot, NULL, NULL, 0, MPI_DATATYPE_NULL, tr, td, tc, tt,
                    MPI_OP_NULL, win, NULL);
}

API_WEAK(Rput)
int PMPI_Rput(const void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt,
              MPI_Win win, MPI_Request *req)
{
    if (!req)
        return api_fail_early(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Rput");
    return rma_call("MPI_Rput", RMA_PUT, oa, oc, ot, NULL, NULL, 0, MPI_DATATYPE_NULL, tr, td, tc,
                    tt, MPI_OP_NULL, win, req);
}

API_WEAK(Get)
int PMPI_Get(void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt,
             MPI_Win win)
{
    win_t *w = api_win_fast(win);
    if (w && rma_fast_copy(w, 0, oa, oc, ot, tr, td, tc, tt))
        return MPI_SUCCESS;
    return rma_call("MPI_Get", RMA_GET, NULL, 0, MPI_DATATYPE_NULL, NULL, oa, oc, ot, tr, td, tc, tt,
                    MPI_OP_NULL, win, NULL);
}

API_WEAK(Rget)
int PMPI_Rget(void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc, MPI_Datatype tt,
              MPI_Win win, MPI_Request *req)
{
    if (!req)
        return api_fail_early(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Rget");
    return rma_call("MPI_Rget", RMA_GET, NULL, 0, MPI_DATATYPE_NULL, NULL, oa, oc, ot, tr, td, tc,
                    tt, MPI_OP_NULL, win, req);
}

API_WEAK(Accumulate)
int PMPI_Accumulate(const void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc,
                    MPI_Datatype tt, MPI_Op op, MPI_Win win)
{
    win_t *w = api_win_fast(win);
    if (w && rma_fast_acc(w, oa, oc, ot, tr, td, tc, tt, op))
        return MPI_SUCCESS;
    return rma_call("MPI_Accumulate", RMA_ACC, oa, oc, ot, NULL, NULL, 0, MPI_DATATYPE_NULL, tr, td,
                    tc, tt, op, win, NULL);
}

API_WEAK(Raccumulate)
int PMPI_Raccumulate(const void *oa, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc,
                     MPI_Datatype tt, MPI_Op op, MPI_Win win, MPI_Request *req)
{
    if (!req)
        return api_fail_early(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Raccumulate");
    return rma_call("MPI_Raccumulate", RMA_ACC, oa, oc, ot, NULL, NULL, 0, MPI_DATATYPE_NULL, tr,
                    td, tc, tt, op, win, req);
}

API_WEAK(Get_accumulate)
int PMPI_Get_accumulate(const void *oa, int oc, MPI_Datatype ot, void *ra, int rc_, MPI_Datatype rt,
                        int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win win)
{
    return rma_call("MPI_Get_accumulate", RMA_GACC, oa, oc, ot, NULL, ra, rc_, rt, tr, td, tc, tt,
                    op, win, NULL);
}

API_WEAK(Rget_accumulate)
int PMPI_Rget_accumulate(const void *oa, int oc, MPI_Datatype ot, void *ra, int rc_,
                         MPI_Datatype rt, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op op,
                         MPI_Win win, MPI_Request *req)
{
    if (!req)
        return api_fail_early(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Rget_accumulate");
    return rma_call("MPI_Rget_accumulate", RMA_GACC, oa, oc, ot, NULL, ra, rc_, rt, tr, td, tc, tt,
                    op, win, req);
}

API_WEAK(Fetch_and_op)
int PMPI_Fetch_and_op(const void *oa, void *ra, MPI_Datatype dt, int tr, MPI_Aint td, MPI_Op op,
                      MPI_Win win)
{
    win_t *w = api_win_fast(win);
    if (w && rma_fast_hw(w, oa, NULL, ra, dt, tr, td, op))
        return MPI_SUCCESS;
    int rc = rma_call("MPI_Fetch_and_op", RMA_GACC, oa, 1, dt, NULL, ra, 1, dt, tr, td, 1, dt, op,
                      win, NULL);
    if (rc == MPI_SUCCESS && w) /* later ones may take the short path */
        rma_fast_learn_hw(w, 2, dt, dt_get(dt), op);
    return rc;
}

API_WEAK(Compare_and_swap)
int PMPI_Compare_and_swap(const void *oa, const void *ca, void *ra, MPI_Datatype dt, int tr,
                          MPI_Aint td, MPI_Win win)
{
    win_t *w = api_win_fast(win);
    if (w && ca && rma_fast_hw(w, oa, ca, ra, dt, tr, td, MPI_OP_NULL))
        return MPI_SUCCESS;
    int rc = rma_call("MPI_Compare_and_swap", RMA_CAS, oa, 1, dt, ca, ra, 1, dt, tr, td, 1, dt,
                      MPI_OP_NULL, win, NULL);
    if (rc == MPI_SUCCESS && w)
        rma_fast_learn_hw(w, 3, dt, dt_get(dt), MPI_OP_NULL);
    return rc;
}
