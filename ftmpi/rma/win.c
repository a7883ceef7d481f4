/* Windows: creation (four flavors), the shared segment, attach/detach, free. */
#include "rma/rma.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/ctxid.h"
#include "core/attr.h"
#include "core/proc.h"
#include "p2p/progress.h"
#include "runtime/rtc.h"
#include "util/handle.h"

handle_table_t rma_win_table; /* rma_fast.h looks handles up inline */
static int table_ready;
static list_node_t windows = LIST_INIT(windows);

typedef rma_seg_head_t seg_head_t; /* rma.h */
#define SEG_HEAD 4096

list_node_t *rma_windows(void) { return &windows; }

win_t *win_get(MPI_Win h)
{
    if (!table_ready)
        return NULL;
    return handle_get(&rma_win_table, h);
}

int rma_peer_dead(win_t *w, int r)
{
    return ftg.peer_dead && ftg.peer_dead[comm_peer_world(w->comm, r)];
}

int rma_healthy(win_t *w)
{
    if (!w->comm || (w->comm->state != COMM_OK && w->comm->state != COMM_RECOVERED))
        return 0;
    for (int r = 0; r < w->size; r++)
        if (rma_peer_dead(w, r))
            return 0;
    return 1;
}

/* A hidden duplicate of c for the window's traffic. */
static int dup_hidden(comm_t *c, comm_t **out)
{
    ctx_party_t pt;
    uint32_t ctx[1];
    ctx_party_of(c, &pt);
    int rc = ctx_agree(&pt, 1, ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    comm_t *n = comm_new(c->group, NULL, ctx[0]);
    if (!n) {
        comm_ctx_release(ctx[0]);
        return MPI_ERR_NO_MEM;
    }
    n->hidden = 1;
    n->generation = c->generation;
    snprintf(n->name, sizeof(n->name), "%s", "window communicator");
    comm_register_hidden(n);
    *out = n;
    return MPI_SUCCESS;
}

/* Every member's size and displacement unit. */
static int exchange_sizes(win_t *w)
{
    dt_t *aint = dt_get(MPI_AINT), *i = dt_get(MPI_INT);
    size_t n = (size_t)(w->size > 0 ? w->size : 1);
    w->sizes = calloc(n, sizeof(MPI_Aint));
    w->disp_units = calloc(n, sizeof(int));
    if (!w->sizes || !w->disp_units)
        return MPI_ERR_NO_MEM;
    int rc = coll_allgather(w->comm, &w->bytes, 1, aint, w->sizes, 1, aint);
    if (rc == MPI_SUCCESS)
        rc = coll_allgather(w->comm, &w->disp_unit, 1, i, w->disp_units, 1, i);
    return rc;
}

static int one_host(win_t *w)
{
    for (int r = 0; r < w->size; r++)
        if (ftg.rt.host_of_rank &&
            ftg.rt.host_of_rank[comm_peer_world(w->comm, r)] != ftg.rt.hostid)
            return 0;
    return 1;
}

/* Map a segment of total bytes at every member: rank 0 makes a memfd, the
 * others open it through /proc/<pid>/fd/<fd> (same host, same user); its
 * first page holds the accumulate mutex. Collective; MPI_ERR_NO_MEM (and
 * nothing mapped) when some member could not. */
static int seg_map(win_t *w, size_t total)
{
    int64_t who[2] = {getpid(), -1};
    int fd = -1, rc = MPI_SUCCESS;
    if (w->rank == 0) {
        fd = memfd_create("ftmpi-win", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)total) != 0)
            who[1] = -2;
        else
            who[1] = fd;
    }
    rc = coll_bcast(w->comm, who, 2, dt_get(MPI_INT64_T), 0);
    if (rc != MPI_SUCCESS || who[1] < 0) {
        if (fd >= 0)
            close(fd);
        return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    }
    if (w->rank != 0) {
        char path[64];
        snprintf(path, sizeof(path), "/proc/%lld/fd/%lld", (long long)who[0], (long long)who[1]);
        fd = open(path, O_RDWR | O_CLOEXEC);
    }
    void *p = fd >= 0 ? mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    int ok = p != MAP_FAILED, all = 0;
    if (ok) {
        w->seg = p;
        w->seg_len = total;
    }
    if (ok && w->rank == 0) {
        pthread_mutexattr_t a;
        pthread_mutexattr_init(&a);
        pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
        pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
        pthread_mutex_init(&((seg_head_t *)p)->mu, &a);
        pthread_mutexattr_destroy(&a);
    }
    /* Everyone mapped it before rank 0 closes its descriptor. */
    rc = coll_allreduce(w->comm, &ok, &all, 1, dt_get(MPI_INT), op_get(MPI_MIN));
    if (fd >= 0)
        close(fd);
    if (rc == MPI_SUCCESS && !all)
        rc = MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS && w->seg) {
        munmap(w->seg, w->seg_len);
        w->seg = NULL;
    }
    return rc;
}

/* The shared segment: the lock page, then the members' parts. */
static int shared_segment(win_t *w)
{
    if (!one_host(w))
        return MPI_ERR_RMA_SHARED;
    w->offs = calloc((size_t)w->size + 1, sizeof(MPI_Aint));
    if (!w->offs)
        return MPI_ERR_NO_MEM;
    size_t total = SEG_HEAD;
    for (int r = 0; r < w->size; r++) {
        w->offs[r] = (MPI_Aint)total;  /* contiguous, as the standard's default */
        total += (size_t)w->sizes[r];
    }
    int rc = seg_map(w, total);
    if (rc != MPI_SUCCESS)
        return rc;
    w->base = (char *)w->seg + w->offs[w->rank];
    w->via = RMA_VIA_SHM;
    return MPI_SUCCESS;
}

/* A CMA window: the lock page alone, so that origins apply accumulates
 * themselves under the same mutex the target takes (rma_cmacc.c). Where
 * it cannot be mapped, accumulates stay messages. */
static int cma_lock_page(win_t *w)
{
    int rc = seg_map(w, SEG_HEAD);
    return rc == MPI_ERR_NO_MEM ? MPI_SUCCESS : rc;
}

void rma_shm_lock(win_t *w)
{
    seg_head_t *h = w->seg;
    if (pthread_mutex_lock(&h->mu) == EOWNERDEAD)
        pthread_mutex_consistent(&h->mu); /* its holder died: element updates are whole */
}

void rma_shm_lock_fp(win_t *w)
{
    static long taken; /* the fault point's value: the how-manyth such lock of this process */
    rma_shm_lock(w);
    rtc_fault_point("rma_acc_lock", ++taken);
}

void rma_shm_unlock(win_t *w)
{
    pthread_mutex_unlock(&((seg_head_t *)w->seg)->mu);
}

static void win_destroy(win_t *w)
{
    if (w->handle != MPI_WIN_NULL)
        handle_release(&rma_win_table, w->handle);
    if (w->all.next)
        list_del(&w->all);
    rma_watch_stop(w);
    rma_sweep(w, 1);
    rma_target_drain(w);
    while (!list_empty(&w->regions)) {
        rma_region_t *g = list_entry(w->regions.next, rma_region_t, link);
        list_del(&g->link);
        free(g);
    }
    if (w->seg)
        munmap(w->seg, w->seg_len);
    if (w->flavor == MPI_WIN_FLAVOR_ALLOCATE && w->via != RMA_VIA_SHM)
        free(w->base);
    if (w->comm)
        comm_release(w->comm);
    if (w->errh)
        errh_release(w->errh);
    if (w->info)
        info_release(w->info);
    if (w->start_group)
        group_release(w->start_group);
    if (w->post_group)
        group_release(w->post_group);
    free(w->done_reqs);
    free(w->sizes);
    free(w->disp_units);
    free(w->offs);
    rma_cma_close(w);
    rma_cmaq_free(w);
    free(w->pids);
    free(w->bases);
    free(w->pending);
    free(w->err);
    free(w->access);
    free(w->shared_by);
    for (int r = 0; w->batch && r < w->size; r++)
        free(w->batch[r].buf);
    free(w->batch);
    free(w->unflushed);
    free(w->terr);
    free(w->wrank);
    if (w->ugroup)
        group_release(w->ugroup);
    free(w);
    if (list_empty(&windows))
        progress_remove_hook(rma_progress);
}

int rma_win_create(comm_t *c, int flavor, void *base, MPI_Aint size, int disp_unit, info_t *info,
                   void *basep, win_t **out)
{
    if (!table_ready) {
        handle_table_init(&rma_win_table, FTMPI_KIND_WIN, 1);
        table_ready = 1;
    }
    win_t *w = calloc(1, sizeof(*w));
    if (!w)
        return MPI_ERR_NO_MEM;
    w->handle = MPI_WIN_NULL;
    list_init(&w->regions);
    list_init(&w->ops);
    list_init(&w->inq);
    list_init(&w->tsends);
    list_init(&w->lockq);
    w->excl_holder = -1;
    w->flavor = flavor;
    w->model = MPI_WIN_UNIFIED;
    w->bytes = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
    w->disp_unit = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 1 : disp_unit;
    w->next_tag = RMA_TAG_FIRST_REPLY;
    w->errh = c->errh;
    errh_retain(w->errh);
    w->info = info ? info_dup(info) : info_new();
    int rc = dup_hidden(c, &w->comm);
    if (rc != MPI_SUCCESS) {
        w->comm = NULL;
        win_destroy(w);
        return rc;
    }
    w->rank = w->comm->rank;
    w->size = w->usize = w->comm->size;
    rc = rma_watch_start(w);
    w->pending = calloc((size_t)w->size, sizeof(int));
    w->err = calloc((size_t)w->size, sizeof(int));
    w->access = calloc((size_t)w->size, sizeof(int));
    w->shared_by = calloc((size_t)w->size, sizeof(int));
    w->batch = calloc((size_t)w->size, sizeof(rma_batch_t));
    w->unflushed = calloc((size_t)w->size, sizeof(int));
    w->terr = calloc((size_t)w->size, sizeof(int));
    if (!w->pending || !w->err || !w->access || !w->shared_by || !w->info || !w->batch ||
        !w->unflushed || !w->terr)
        rc = MPI_ERR_NO_MEM;
    /* MPI_Win_allocate with every member on this host: the shared segment
     * too (loads and stores), unless FTMPI_RMA_NO_SHM is set. */
    int direct_ok = one_host(w) && !getenv("FTMPI_RMA_NO_SHM");
    int shm = flavor == MPI_WIN_FLAVOR_SHARED || (flavor == MPI_WIN_FLAVOR_ALLOCATE && direct_ok);
    /* MPI_Win_create on one host: puts and gets by CMA into the user's
     * memory, where the kernel lets every member in. */
    int cma = flavor == MPI_WIN_FLAVOR_CREATE && direct_ok;
    if (rc == MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_ALLOCATE && !shm) {
        w->base = malloc(size > 0 ? (size_t)size : 1);
        if (!w->base)
            rc = MPI_ERR_NO_MEM;
    } else if (flavor == MPI_WIN_FLAVOR_CREATE) {
        w->base = base;
    }
    /* Collective from here on: every member takes part even after a local
     * error, so that nobody waits for it. */
    int rc2 = exchange_sizes(w);
    if (rc == MPI_SUCCESS)
        rc = rc2;
    if (rc == MPI_SUCCESS && shm)
        rc = shared_segment(w);
    if (rc == MPI_SUCCESS && cma)
        rc = rma_cma_setup(w);
    if (rc == MPI_SUCCESS && w->via == RMA_VIA_CMA)
        rc = cma_lock_page(w);
    if (rc == MPI_SUCCESS) {
        int h = handle_alloc(&rma_win_table, w);
        if (h < 0)
            rc = MPI_ERR_NO_MEM;
        else
            w->handle = h;
    }
    if (rc != MPI_SUCCESS) {
        win_destroy(w);
        return rc;
    }
    if (list_empty(&windows))
        progress_add_hook(rma_progress);
    list_add_tail(&windows, &w->all);
    if (basep)
        *(void **)basep = w->base;
    *out = w;
    return MPI_SUCCESS;
}

int rma_win_free(win_t *w, int usable)
{
    /* Collective: what others still do to this window completes first. */
    int alive = usable && rma_healthy(w);
    /* With a member dead (or the communicator destroyed by a recovery)
     * nobody can wait for everyone: the window just goes, with the error.
     * Revoked: it goes quietly (a local free, as ULFM has it). */
    int gone = usable ? MPI_ERR_OTHER : MPI_SUCCESS;
    int rc = alive ? rma_flush(w, -1) : gone;
    int rc2 = alive ? coll_barrier(w->comm) : gone;
    if (rc == MPI_SUCCESS)
        rc = rc2;
    attr_clear(KV_WIN, &w->attrs, w->handle);
    win_destroy(w);
    return rc;
}

int rma_set_gaps(win_t *w, group_t *full)
{
    w->wrank = malloc((size_t)(full->size ? full->size : 1) * sizeof(int));
    if (!w->wrank)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < full->size; i++) {
        int r = group_rank_of_world(w->comm->group, full->world[i]);
        w->wrank[i] = r == MPI_UNDEFINED ? -1 : r;
    }
    group_retain(full);
    w->ugroup = full;
    w->usize = full->size;
    return MPI_SUCCESS;
}

int rma_shared_query(win_t *w, int r, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    /* MPI-4.0 12.2.3: any window. Memory not mapped here (MPI_Win_create,
     * dynamic windows, MPI_Win_allocate across hosts) gives size 0 and a
     * NULL base; MPI_Win_allocate on one host is mapped and answers as a
     * shared window. */
    if (!w->seg || !w->offs) {
        *size = 0;
        *disp_unit = r != MPI_PROC_NULL && w->disp_units ? w->disp_units[r] : w->disp_unit;
        *(void **)baseptr = NULL;
        return MPI_SUCCESS;
    }
    if (r == MPI_PROC_NULL) { /* the first member with a non-empty part */
        r = 0;
        while (r < w->size - 1 && w->sizes[r] == 0)
            r++;
    }
    *size = w->sizes[r];
    *disp_unit = w->disp_units[r];
    *(void **)baseptr = (char *)w->seg + w->offs[r];
    return MPI_SUCCESS;
}

int rma_attach(win_t *w, void *base, MPI_Aint size)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    list_node_t *n;
    list_for_each(n, &w->regions) {
        rma_region_t *g = list_entry(n, rma_region_t, link);
        if ((uintptr_t)base < g->base + g->size && g->base < (uintptr_t)base + (size_t)size)
            return MPI_ERR_RMA_ATTACH; /* overlaps a region attached already */
    }
    rma_region_t *g = malloc(sizeof(*g));
    if (!g)
        return MPI_ERR_NO_MEM;
    g->base = (uintptr_t)base;
    g->size = (size_t)size;
    list_add_tail(&w->regions, &g->link);
    return MPI_SUCCESS;
}

int rma_detach(win_t *w, const void *base)
{
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_ERR_RMA_FLAVOR;
    list_node_t *n;
    list_for_each(n, &w->regions) {
        rma_region_t *g = list_entry(n, rma_region_t, link);
        if (g->base == (uintptr_t)base) {
            list_del(&g->link);
            free(g);
            return MPI_SUCCESS;
        }
    }
    return MPI_ERR_RMA_ATTACH;
}
