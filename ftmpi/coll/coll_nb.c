/*
 * Running schedules: blocking collectives wait for theirs; non-blocking
 * ones get a REQ_COLL request and are advanced by a progress hook, which
 * the progress engine runs inside every MPI call that polls (Wait, Test,
 * any blocking call). The hook is installed only while such requests exist.
 *
 * Every running schedule is on one list (the hook skips the blocking ones).
 * A failure reaches a schedule through its requests: p2p completes them in
 * error, and sched_progress then ends the schedule with that error.
 */
#include "coll/coll_nb.h"

#include "p2p/progress.h"

static list_node_t running = LIST_INIT(running);
static int n_nb;
/* Bumped whenever `running` changes: a schedule that ran a user op
 * released the lock meanwhile, and other threads may have changed the list
 * under the hook's iteration. */
static unsigned long running_changes;

static int nb_hook(void);

static void finish_nb(sched_t *s)
{
    req_t *r = s->req;
    list_del(&s->link);
    running_changes++;
    r->status.MPI_ERROR = s->err;
    r->ctx = NULL;
    sched_free(s);
    if (--n_nb == 0)
        progress_remove_hook(nb_hook);
    req_complete(r);
}

static int nb_hook(void)
{
    int work = 0;
    list_node_t *n, *t;
restart:
    list_for_each_safe(n, t, &running) {
        sched_t *s = list_entry(n, sched_t, link);
        if (!s->req)
            continue; /* a blocking collective: its caller drives it */
        int lo = s->lo;
        unsigned long changes = running_changes;
        int done = sched_progress(s);
        if (done) {
            finish_nb(s);
            work++;
        } else if (s->lo != lo) {
            work++;
        }
        if (running_changes != changes + (unsigned long)done)
            goto restart; /* t may be gone: start again from the head */
    }
    return work;
}

int coll_run(sched_t *s, req_t **req_p)
{
    if (s->err != MPI_SUCCESS) {
        int rc = s->err;
        sched_free(s);
        return rc;
    }
    list_add_tail(&running, &s->link);
    running_changes++;
    if (!req_p) {
        int rc = sched_wait(s);
        list_del(&s->link);
        running_changes++;
        sched_free(s);
        return rc;
    }
    req_t *r = req_alloc(REQ_COLL);
    if (!r) {
        list_del(&s->link);
        running_changes++;
        sched_free(s);
        return MPI_ERR_NO_MEM;
    }
    r->comm = s->comm;
    comm_retain(r->comm);
    r->ctx = s;
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = MPI_SUCCESS;
    s->req = r;
    if (n_nb++ == 0)
        progress_add_hook(nb_hook);
    if (sched_progress(s))
        finish_nb(s);
    *req_p = r;
    return MPI_SUCCESS;
}

int coll_done_request(comm_t *c, int err, req_t **req_p)
{
    req_t *r = req_alloc(REQ_COLL);
    if (!r)
        return MPI_ERR_NO_MEM;
    r->comm = c;
    comm_retain(c);
    r->status.MPI_SOURCE = MPI_ANY_SOURCE;
    r->status.MPI_TAG = MPI_ANY_TAG;
    r->status.MPI_ERROR = err;
    req_complete(r);
    *req_p = r;
    return MPI_SUCCESS;
}
