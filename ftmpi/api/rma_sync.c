/* Synchronization calls of windows: fence, PSCW, locks, flush, sync. */
#include "api/win_api.h"

#define MODE_ALL (MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | \
                  MPI_MODE_NOSUCCEED)
#define CHECK_ASSERT(a) do { if ((a) & ~MODE_ALL) API_FAIL(MPI_ERR_ASSERT); } while (0)

/* In a passive-target epoch with any target? */
static int any_lock(const win_t *w)
{
    if (w->lock_all)
        return 1;
    for (int t = 0; t < w->size; t++)
        if (w->access[t] >= EP_LOCK_SHARED)
            return 1;
    return 0;
}

API_WEAK(Win_fence)
int PMPI_Win_fence(int assert_, MPI_Win win)
{
    API_BEGIN("MPI_Win_fence");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_ASSERT(assert_);
    if (w->start_group || w->post_group || any_lock(w))
        API_FAIL(MPI_ERR_RMA_SYNC);
    CHECK_WIN_USABLE(w);
    rc = rma_fence(w, assert_);
    API_END_CLEANUP(WIN_RAISE(w));
}

/* A group argument of start/post: valid, a subset of the window's group. */
static int check_group(win_t *w, MPI_Group h, group_t **g)
{
    *g = group_get(h);
    if (!*g || !ft_group_usable(*g))
        return MPI_ERR_GROUP;
    if (!group_is_subset(*g, w->comm->group))
        return MPI_ERR_GROUP;
    return MPI_SUCCESS;
}

/* MPI_Win_start (access epoch) and MPI_Win_post (exposure epoch). */
/* Is a fence epoch open? A fence (without MPI_MODE_NOSUCCEED) that no RMA
 * call followed is none (MPI-3.1 11.5.1): a lock, lock_all, start or post
 * may follow it, and ends it. */
static int fence_epoch(win_t *w)
{
    if (w->fence && !w->fence_ops)
        w->fence = 0;
    return w->fence;
}

static int open_pscw(const char *fname, int post, MPI_Group group, int assert_, MPI_Win win)
{
    API_BEGIN(fname);
    win_t *w = NULL;
    group_t *g;
    CHECK_WIN(win, w);
    CHECK_ASSERT(assert_);
    if ((rc = check_group(w, group, &g)) != MPI_SUCCESS)
        goto fail;
    if (post ? w->post_group != NULL : (w->start_group || fence_epoch(w) || any_lock(w)))
        API_FAIL(MPI_ERR_RMA_SYNC);
    CHECK_WIN_USABLE(w);
    rc = post ? rma_post(w, g) : rma_start_epoch(w, g);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_start)
int PMPI_Win_start(MPI_Group group, int assert_, MPI_Win win)
{
    return open_pscw("MPI_Win_start", 0, group, assert_, win);
}

API_WEAK(Win_post)
int PMPI_Win_post(MPI_Group group, int assert_, MPI_Win win)
{
    return open_pscw("MPI_Win_post", 1, group, assert_, win);
}

API_WEAK(Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    API_BEGIN("MPI_Win_complete");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (!w->start_group)
        API_FAIL(MPI_ERR_RMA_SYNC);
    rc = rma_complete(w);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    API_BEGIN("MPI_Win_wait");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (!w->post_group)
        API_FAIL(MPI_ERR_RMA_SYNC);
    rc = rma_wait(w, NULL);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    API_BEGIN("MPI_Win_test");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_PTR(flag);
    if (!w->post_group)
        API_FAIL(MPI_ERR_RMA_SYNC);
    rc = rma_wait(w, flag);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert_, MPI_Win win)
{
    API_BEGIN("MPI_Win_lock");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_ASSERT(assert_);
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
        API_FAIL(MPI_ERR_LOCKTYPE);
    if (rank == MPI_PROC_NULL)
        goto fail; /* nothing to lock */
    CHECK_WIN_RANK(w, rank);
    if (w->access[rank] != EP_NONE || w->lock_all || fence_epoch(w) || w->start_group)
        API_FAIL(MPI_ERR_RMA_SYNC);
    CHECK_WIN_USABLE(w);
    rc = rma_lock(w, lock_type, rank);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    API_BEGIN("MPI_Win_unlock");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (rank == MPI_PROC_NULL)
        goto fail;
    CHECK_WIN_RANK(w, rank);
    if (w->access[rank] < EP_LOCK_SHARED)
        API_FAIL(MPI_ERR_RMA_SYNC);
    rc = rma_unlock(w, rank);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_lock_all)
int PMPI_Win_lock_all(int assert_, MPI_Win win)
{
    API_BEGIN("MPI_Win_lock_all");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    CHECK_ASSERT(assert_);
    if (any_lock(w) || fence_epoch(w) || w->start_group)
        API_FAIL(MPI_ERR_RMA_SYNC);
    CHECK_WIN_USABLE(w);
    rc = rma_lock_all(w);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    API_BEGIN("MPI_Win_unlock_all");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (!w->lock_all)
        API_FAIL(MPI_ERR_RMA_SYNC);
    rc = rma_unlock_all(w);
    API_END_CLEANUP(WIN_RAISE(w));
}

/* flush, flush_local (completion at the target is the only kind here,
 * which is also local completion), and the _all forms. */
static int flush(const char *fname, int rank, MPI_Win win)
{
    API_BEGIN(fname);
    win_t *w = NULL;
    CHECK_WIN(win, w);
    if (rank != -1 && rank != MPI_PROC_NULL) {
        CHECK_WIN_RANK(w, rank);
        if (w->access[rank] < EP_LOCK_SHARED && !w->lock_all)
            API_FAIL(MPI_ERR_RMA_SYNC);
    } else if (rank == -1 && !any_lock(w)) {
        API_FAIL(MPI_ERR_RMA_SYNC);
    }
    if (rank != MPI_PROC_NULL)
        rc = rma_flush(w, rank);
    API_END_CLEANUP(WIN_RAISE(w));
}

API_WEAK(Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win)
{
    return flush("MPI_Win_flush", rank < 0 && rank != MPI_PROC_NULL ? -2 : rank, win);
}

API_WEAK(Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return flush("MPI_Win_flush_local", rank < 0 && rank != MPI_PROC_NULL ? -2 : rank, win);
}

API_WEAK(Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win) { return flush("MPI_Win_flush_all", -1, win); }

API_WEAK(Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win) { return flush("MPI_Win_flush_local_all", -1, win); }

API_WEAK(Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    API_BEGIN("MPI_Win_sync");
    win_t *w = NULL;
    CHECK_WIN(win, w);
    rma_target_poll(w); /* requests that arrived are applied: the window is in step */
    __sync_synchronize();
    API_END_CLEANUP(WIN_RAISE(w));
}
