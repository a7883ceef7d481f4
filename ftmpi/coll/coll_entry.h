/* Shared by the entry points (coll_entry_*.c). */
#ifndef FTMPI_COLL_ENTRY_H
#define FTMPI_COLL_ENTRY_H

#include "coll/algs.h"
#include "coll/coll_nb.h"
#include "coll/coll_select.h"

/* A schedule on c that keeps the user's types and op alive. */
static inline sched_t *coll_sched(comm_t *c, dt_t *dt1, dt_t *dt2, op_t *op)
{
    sched_t *s = sched_new(c);
    if (s) {
        sched_keep_dt(s, dt1);
        sched_keep_dt(s, dt2);
        sched_keep_op(s, op);
    }
    return s;
}

/* Build result rc of schedule s: run it, or drop it on a build error. */
static inline int coll_finish(sched_t *s, int rc, req_t **req_p)
{
    if (rc != MPI_SUCCESS && s->err == MPI_SUCCESS)
        s->err = rc;
    return coll_run(s, req_p);
}

/* A copy of count elements of dt at buf (for MPI_IN_PLACE inputs that the
 * algorithm would otherwise overwrite while still reading them). */
static inline const void *coll_copy_input(sched_t *s, const void *buf, size_t count, dt_t *dt)
{
    void *t = sched_tmpbuf(s, dt, count);
    if (t) {
        sched_copy(s, buf, count, dt, t, count, dt);
        sched_fence(s);
    }
    return t;
}

#endif
