/*
 * Shared-memory collectives: the communicator's segment (made on first use,
 * dropped with the communicator or when its generation or group changes)
 * and the flag waits. The calls themselves are in coll_sm_ops.c.
 *
 * Setup (a collective step over point-to-point, at the first call that
 * chooses the component): rank 0 makes an anonymous memfd, sizes and maps
 * it, and broadcasts (pid, fd); the others open /proc/<pid>/fd/<fd> and map
 * it; an allreduce of "mapped" decides, then rank 0 closes its descriptor.
 * Nothing has a name, so nothing is left behind when processes die. If
 * any member could not map it, the communicator keeps using point-to-point.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "coll/coll_sm.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/proc.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "transport/shm/shm.h"

enum { SM_SETUP = 1, SM_READY, SM_OFF };

#define SM_HDR 4096u
#define SM_CHUNK_DEFAULT 16384u

static int enabled = -1;   /* FTMPI_COLL_SM (default on), not under FTMPI_TRANSPORT=tcp */
static size_t chunk_bytes; /* FTMPI_COLL_SM_CHUNK */
static int spin_iters;     /* flag checks before progress_wait (0 when oversubscribed) */
static unsigned long interrupts; /* coll_sm_interrupt calls */

void coll_sm_interrupt(void)
{
    interrupts++;
}

static void settings(void)
{
    const char *e = getenv("FTMPI_COLL_SM"), *t = getenv("FTMPI_TRANSPORT");
    enabled = !(e && *e && (!strcmp(e, "0") || !strcasecmp(e, "off"))) &&
              !(t && !strcasecmp(t, "tcp"));
    chunk_bytes = coll_env_bytes("FTMPI_COLL_SM_CHUNK", SM_CHUNK_DEFAULT, 1024, 64u << 20) &
                  ~(size_t)63;
    /* More ranks on this host than CPUs to run them: a spinning waiter only
     * delays the member it waits for. The progress engine's decision (a
     * rank bound to one CPU cannot tell from its own mask: the launcher
     * says, docs/runtime.md "Binding"). */
    spin_iters = progress_oversubscribed() ? 0 : 100;
}

static void sm_unmap(coll_sm_t *sm)
{
    if (sm->base)
        munmap(sm->base, sm->len);
    sm->base = NULL;
}

static void sm_free(comm_t *c)
{
    coll_sm_t *sm = c->coll_sm;
    if (!sm)
        return;
    sm_unmap(sm);
    free(sm->slot);
    free(sm->world);
    free(sm->seen);
    free(sm);
    c->coll_sm = NULL;
}

static size_t seg_len(int p, size_t chunk)
{
    size_t ctl = SM_HDR + (size_t)p * sizeof(coll_sm_ctl_t);
    ctl = (ctl + 4095u) & ~(size_t)4095u;
    return ctl + ((size_t)p + 1) * COLL_SM_NBUF * chunk +
           (size_t)p * COLL_SM_NSMALL * COLL_SM_SMALL;
}

static void sm_layout(coll_sm_t *sm)
{
    sm->ctl = (coll_sm_ctl_t *)(sm->base + SM_HDR);
    size_t ctl = SM_HDR + (size_t)sm->p * sizeof(coll_sm_ctl_t);
    sm->data = sm->base + ((ctl + 4095u) & ~(size_t)4095u);
    sm->small = sm->data + ((size_t)sm->p + 1) * COLL_SM_NBUF * sm->chunk;
}

/* Does sm still describe c's members and generation? */
static int sm_matches(const coll_sm_t *sm, const comm_t *c)
{
    return sm->gen == ftg.generation && sm->intr == interrupts && sm->p == c->size &&
           !memcmp(sm->world, c->group->world, (size_t)c->size * sizeof(int));
}

static int all_local_and_live(const comm_t *c)
{
    for (int i = 0; i < c->size; i++) {
        int w = c->group->world[i];
        if (ftg.peer_dead[w] || !ftg.slot_of_world || ftg.slot_of_world[w] < 0)
            return 0;
    }
    return 1;
}

/* Rank 0: make and map the segment; fills info = {pid, fd, ok}. */
static void make_segment(coll_sm_t *sm, int info[3])
{
    info[0] = ftg.pid;
    info[1] = memfd_create("ftmpi-coll-sm", MFD_CLOEXEC);
    info[2] = 0;
    if (info[1] < 0)
        return;
    if (ftruncate(info[1], (off_t)sm->len) != 0)
        return;
    void *b = mmap(NULL, sm->len, PROT_READ | PROT_WRITE, MAP_SHARED, info[1], 0);
    if (b == MAP_FAILED)
        return;
    sm->base = b;
    info[2] = 1;
}

static int map_segment(coll_sm_t *sm, const int info[3])
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/fd/%d", info[0], info[1]);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    void *b = MAP_FAILED;
    if (fstat(fd, &st) == 0 && (size_t)st.st_size == sm->len)
        b = mmap(NULL, sm->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (b == MAP_FAILED)
        return 0;
    sm->base = b;
    return 1;
}

static int setup(comm_t *c, coll_sm_t *sm)
{
    int p = c->size;
    sm->c = c;
    sm->p = p;
    sm->me = c->rank;
    sm->gen = ftg.generation;
    sm->intr = interrupts;
    sm->chunk = chunk_bytes;
    sm->len = seg_len(p, chunk_bytes);
    sm->world = malloc((size_t)p * sizeof(int));
    sm->slot = calloc((size_t)p, sizeof(*sm->slot));
    sm->seen = calloc((size_t)p * 4, sizeof(*sm->seen));
    if (!sm->world || !sm->slot || !sm->seen)
        return MPI_ERR_NO_MEM;
    memcpy(sm->world, c->group->world, (size_t)p * sizeof(int));
    for (int i = 0; i < p && shm_self.base; i++)
        sm->slot[i] = shmseg_slot(shm_self.base, (uint32_t)ftg.slot_of_world[sm->world[i]]);
    sm->state = SM_SETUP; /* the steps below run over point-to-point */
    int info[3] = {0, -1, 0}, ok, all = 0;
    if (sm->me == 0)
        make_segment(sm, info);
    dt_t *ints = dt_get(MPI_INT);
    int rc = coll_bcast(c, info, 3, ints, 0);
    if (rc != MPI_SUCCESS) {
        if (sm->me == 0 && info[1] >= 0)
            close(info[1]);
        return rc;
    }
    /* 2: mapped, +1: can read the others' memory (the single-copy calls
     * need every member able to). */
    ok = sm->me == 0 ? info[2] : info[2] && map_segment(sm, info);
    ok = ok ? 2 + !!shm_self.cma : 0;
    rc = coll_allreduce(c, &ok, &all, 1, ints, op_get(MPI_MIN));
    if (sm->me == 0 && info[1] >= 0)
        close(info[1]);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!all) {
        sm_unmap(sm);
        sm->state = SM_OFF;
        return MPI_SUCCESS;
    }
    sm_layout(sm);
    sm->cma = all == 3;
    atomic_store(&sm->ctl[sm->me].pid, (int32_t)ftg.pid);
    sm->state = SM_READY;
    return MPI_SUCCESS;
}

/* Bytes one member puts in its buffer for a block call (the others are
 * cut in chunks): all of it has to fit one buffer. */
static int fits(coll_kind_t k, int p, size_t bytes)
{
    _Static_assert(sizeof(coll_sm_ctl_t) == 64, "one control line per member");
    switch (k) {
    case COLL_SCATTER:
    case COLL_ALLTOALL: return bytes <= chunk_bytes / (size_t)p;
    case COLL_GATHER:
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER: return bytes <= chunk_bytes;
    default: return 1;
    }
}

int coll_sm_fits(const coll_sm_t *sm, coll_kind_t k, size_t bytes)
{
    return fits(k, sm->p, bytes);
}

/* Block calls that go by single copy when they do not fit a buffer. */
static int has_cma_form(coll_kind_t k)
{
    return k == COLL_SCATTER || k == COLL_ALLGATHER || k == COLL_ALLTOALL;
}

coll_sm_t *coll_sm_get(comm_t *c, coll_kind_t k, size_t bytes, int *rc)
{
    *rc = MPI_SUCCESS;
    if (enabled < 0)
        settings();
    int fit = fits(k, c->size, bytes);
    if (!enabled || c->is_inter || c->size < 2 || ftg.singleton || (!fit && !has_cma_form(k)) ||
        ftg.comm_mode == FTMPI_COMM_MODE_ULFM || !coll_select_sm(k, c->size, bytes))
        return NULL;
    coll_sm_t *sm = c->coll_sm;
    if (sm && sm->state == SM_SETUP)
        return NULL; /* the setup's own steps */
    if (sm && !sm_matches(sm, c))
        sm_free(c); /* a recovery or a BLANK gap changed the members */
    if (!all_local_and_live(c))
        return NULL;
    if (!c->coll_sm) {
        comm_free_hook_coll = sm_free;
        if (!(sm = calloc(1, sizeof(*sm))))
            return NULL;
        c->coll_sm = sm;
        if ((*rc = setup(c, sm)) != MPI_SUCCESS) {
            sm_free(c);
            return NULL;
        }
    }
    sm = c->coll_sm;
    if (sm->state != SM_READY || (!fit && !sm->cma))
        return NULL;
    coll_last_note(k, COLL_LAST_SM); /* for the traces */
    return sm;
}

uint32_t coll_sm_begin(coll_sm_t *sm)
{
    (void)coll_tag(sm->c); /* one collective call more (ATOMIC's key) */
    if (p2p_ft_hooks.coll_started)
        p2p_ft_hooks.coll_started();
    return ++sm->seq;
}

/* ---- waiting ------------------------------------------------------------- */

typedef struct {
    coll_sm_t *sm;
    int f, who;
    uint32_t s;
    int err;
} sm_wait_t;

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* This thread's wait in progress (MPI_THREAD_MULTIPLE: threads wait on
 * different communicators, and progress_wait lets others in while it
 * yields or sleeps), and how many waits of all threads need the hook
 * (changed under the library lock). */
static __thread sm_wait_t *waiting;
static int hook_users;

/* The value seen last is enough when it already reaches s (it was read
 * with acquire, so what was written before it is visible): the shared
 * line of a member that runs ahead is not pulled over on every call. */
static int flag_reached(coll_sm_t *sm, int k, int f, uint32_t s)
{
    uint32_t *seen = &sm->seen[k * 4 + f];
    if ((int32_t)(*seen - s) >= 0)
        return 1;
    uint32_t v = atomic_load_explicit(coll_sm_flag(sm, k, f), memory_order_acquire);
    *seen = v;
    return (int32_t)(v - s) >= 0;
}

static int ready(const sm_wait_t *w)
{
    if (w->who >= 0)
        return flag_reached(w->sm, w->who, w->f, w->s);
    for (int k = 0; k < w->sm->p; k++)
        if (!flag_reached(w->sm, k, w->f, w->s))
            return 0;
    return 1;
}

/* Every waiter watches every member: a member that returned early with an
 * error never posts its flags, and must not leave the others waiting. */
static int wait_done(void *arg)
{
    sm_wait_t *w = arg;
    if (ready(w))
        return 1;
    const coll_sm_t *sm = w->sm;
    int failed = sm->gen != ftg.generation || sm->intr != interrupts;
    for (int k = 0; k < sm->p && !failed; k++)
        failed = ftg.peer_dead[sm->world[k]];
    if (failed)
        w->err = MPI_ERR_OTHER;
    return failed;
}

/* Runs inside the progress engine's last poll before it sleeps: a flag set
 * after the waiter announced itself as a sleeper is seen here. */
static int wait_hook(void)
{
    return waiting && wait_done(waiting);
}

/* The want word of a wait for flag f of member `who` (-1: every member)
 * reaching s; never 0. */
static uint64_t want_word(int f, int who, uint32_t s)
{
    return (uint64_t)s | (uint64_t)(f + 1) << 32 | (uint64_t)(uint32_t)(who + 1) << 35;
}

/* Can my post of flag f = s end the wait that member k announced? */
static int post_ends_wait(const coll_sm_t *sm, int k, int f, uint32_t s)
{
    uint64_t w = atomic_load(&sm->ctl[k].want);
    int wf = (int)((w >> 32) & 7u) - 1, wwho = (int)(w >> 35) - 1;
    return wf == f && (wwho < 0 || wwho == sm->me) && (int32_t)(s - (uint32_t)w) >= 0;
}

int coll_sm_wait(coll_sm_t *sm, int f, int who, uint32_t s)
{
    sm_wait_t w = {sm, f, who, s, MPI_SUCCESS};
    for (int i = 0; i < spin_iters; i++) {
        if (ready(&w))
            return MPI_SUCCESS;
        cpu_relax();
    }
    if (ready(&w))
        return MPI_SUCCESS;
    /* Announced before progress_wait counts me as a sleeper: a poster that
     * sees me asleep sees what I wait for (both sequentially consistent). */
    _Atomic uint64_t *want = &sm->ctl[sm->me].want;
    uint64_t outer_want = atomic_load(want);
    atomic_store(want, want_word(f, who, s));
    sm_wait_t *outer = waiting;
    waiting = &w;
    if (hook_users++ == 0)
        progress_add_hook(wait_hook);
    int rc = progress_wait(wait_done, &w);
    waiting = outer;
    if (--hook_users == 0)
        progress_remove_hook(wait_hook);
    atomic_store(want, outer_want);
    return rc != MPI_SUCCESS ? rc : w.err;
}

int coll_sm_wait_ahead(coll_sm_t *sm, int f, uint32_t s, uint32_t more)
{
    sm_wait_t w = {sm, f, -1, s, MPI_SUCCESS};
    return ready(&w) ? MPI_SUCCESS : coll_sm_wait(sm, f, -1, s + more);
}

/* Wake member k if it sleeps and my post of flag f = s (and of done = s
 * when `done`) can end its wait. */
static void wake(const coll_sm_t *sm, int k, int f, uint32_t s, int done)
{
    shmseg_slot_t *slot = sm->slot[k];
    if (k != sm->me && slot && atomic_load(&slot->sleepers) &&
        ((f >= 0 && post_ends_wait(sm, k, f, s)) || (done && post_ends_wait(sm, k, SMF_DONE, s))))
        shmseg_wake(slot);
}

void coll_sm_post(coll_sm_t *sm, int f, uint32_t s, int who)
{
    /* Sequentially consistent: either the sleeper's count is seen here or
     * its last poll (wait_hook) sees the flag. */
    atomic_store(coll_sm_flag(sm, sm->me, f), s);
    if (who >= 0) {
        wake(sm, who, f, s, f == SMF_DONE);
        return;
    }
    for (int k = 0; k < sm->p; k++)
        wake(sm, k, f, s, f == SMF_DONE);
}

void coll_sm_post_done(coll_sm_t *sm, int f, uint32_t s, int who)
{
    atomic_store(coll_sm_flag(sm, sm->me, SMF_DONE), s);
    atomic_store(coll_sm_flag(sm, sm->me, f), s);
    for (int k = 0; k < sm->p; k++)
        wake(sm, k, who < 0 || k == who ? f : -1, s, 1);
}

/* The same memfd sharing for the ATOMIC decision slots (coll_sm_decide.c):
 * only sm->len and sm->base are used. */
void coll_sm_make_shared(coll_sm_t *sm, int info[3])
{
    make_segment(sm, info);
}

int coll_sm_map_shared(coll_sm_t *sm, const int info[3])
{
    return map_segment(sm, info);
}
