#include "p2p/progress.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p2p/p2p_int.h"
#include "util/futex.h"
#include "util/timer.h"

/* The hook table grows as needed: a hook is never dropped. */
static progress_hook_fn **hooks;
static int nhooks, caphooks;
static progress_event_fn *event_handler;

void progress_add_hook(progress_hook_fn *fn)
{
    for (int i = 0; i < nhooks; i++)
        if (hooks[i] == fn)
            return;
    if (nhooks == caphooks) {
        int cap = caphooks ? 2 * caphooks : 8;
        progress_hook_fn **h = realloc(hooks, (size_t)cap * sizeof(*h));
        if (!h) {
            /* Without its hook a non-blocking operation would never
             * complete: stop here rather than hang. */
            fprintf(stderr, "ftmpi: out of memory registering a progress hook\n");
            abort();
        }
        hooks = h;
        caphooks = cap;
    }
    hooks[nhooks++] = fn;
}

void progress_remove_hook(progress_hook_fn *fn)
{
    for (int i = 0; i < nhooks; i++)
        if (hooks[i] == fn) {
            hooks[i] = hooks[--nhooks];
            return;
        }
}

void progress_set_event_handler(progress_event_fn *fn)
{
    event_handler = fn;
}

/* The waiting policy (docs/progress.md). */
static int oversub;           /* more ranks on this host than CPUs to run them */
static long wait_spin_ns;     /* poll (or, oversubscribed, yield) this long before sleeping */
static int spin_given;        /* FTMPI_SPIN_US set: it holds for every wait */

static int count_local_ranks(void)
{
    int n = 0;
    for (int w = 0; w < ftg.world_size; w++)
        n += ftg.slot_of_world && ftg.slot_of_world[w] >= 0;
    return n > 0 ? n : 1;
}

static int count_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int progress_policy_init(void)
{
    const char *e = getenv("FTMPI_OVERSUBSCRIBE");
    if (e && *e && strcmp(e, "0") != 0 && strcmp(e, "1") != 0) {
        fprintf(stderr, "ftmpi: FTMPI_OVERSUBSCRIBE='%s' is not 0 or 1\n", e);
        return -1;
    }
    if (e && *e)
        oversub = e[0] == '1';
    else
        oversub = !ftg.singleton && count_local_ranks() > count_cpus();
    /* FTMPI_SPIN_US (runtime/init.c parses it into ftg.spin_ns) wins;
     * without it: spin 100 us with a core each, yield for 20 us when
     * oversubscribed (a waiting rank then mostly sleeps on its doorbell
     * and leaves the CPU to the ranks that have work). */
    const char *s = getenv("FTMPI_SPIN_US");
    spin_given = s && *s;
    wait_spin_ns = spin_given ? ftg.spin_ns : oversub ? 20000L : 100000L;
    return 0;
}

/* A rank whose rendezvous send is being read waits as long as the copy
 * takes (a 4 MiB single copy: about 0.5 ms, beyond the 100 us of polling):
 * with a CPU of its own it keeps polling that long, about 1 ns per byte
 * (1 GB/s, the slow end of a copy), at most RNDV_SPIN_MAX_NS, instead of
 * sleeping and making the reader's FIN pay a futex wake and a wake-up.
 * Oversubscribed, or with FTMPI_SPIN_US given, the normal limit holds. */
#define RNDV_SPIN_MAX_NS 20000000L

static long spin_limit_ns(void)
{
    if (oversub || spin_given)
        return wait_spin_ns;
    size_t b = p2p_rndv_bytes();
    long rndv = b > (size_t)RNDV_SPIN_MAX_NS ? RNDV_SPIN_MAX_NS : (long)b;
    return rndv > wait_spin_ns ? rndv : wait_spin_ns;
}

int progress_oversubscribed(void)
{
    return oversub;
}

static int poll_events(int force)
{
    if (ftg.singleton)
        return 0;
    int n = 0;
    rtc_event_t ev;
    while (rtc_next_event(&ev, force) > 0) {
        if (event_handler)
            event_handler(&ev);
        rtc_event_free(&ev);
        n++;
        force = 0;
    }
    return n;
}

int progress_poll_packets(void)
{
    return route_poll();
}

static int poll_all(void)
{
    /* Failure notifications first: they change what user messages mean. */
    int n = poll_events(0);
    n += progress_poll_packets();
    if (p2p_flush_needed())
        n += p2p_flush_pending();
    for (int i = 0; i < nhooks; i++)
        n += hooks[i]();
    return n;
}

static void big_unlock(void)
{
    if (ftg.multiple)
        pthread_mutex_unlock(&ftg.lock);
}

static void big_lock(void)
{
    if (ftg.multiple)
        pthread_mutex_lock(&ftg.lock);
}

/* Give the CPU to another runnable process (a peer that shares it). */
static void yield_cpu(void)
{
    big_unlock();
    sched_yield();
    big_lock();
}

int progress_poll(void)
{
    int n = poll_all();
    /* A program that polls (MPI_Test, MPI_Iprobe in a loop) would keep
     * its CPU for a whole time slice while the peer it waits for cannot
     * run: when oversubscribed, an empty poll gives the CPU away. */
    if (n == 0 && oversub)
        yield_cpu();
    return n;
}

/* Sleep until something rings our doorbell (or a safety timeout). */
static void doorbell_sleep(void)
{
    if (!shm_self.base) {
        yield_cpu();
        return;
    }
    shmseg_slot_t *me = shmseg_slot(shm_self.base, shm_self.my_slot);
    atomic_fetch_add(&me->sleepers, 1);
    uint32_t v = atomic_load(&me->doorbell);
    /* Poll once more after announcing ourselves: work that arrived before
     * the announcement is found here, work after it changes the doorbell. */
    if (poll_all() == 0) {
        /* Safety net only: every source of work rings the doorbell. Read
         * under the lock: other threads queue sends and add hooks. */
        long timeout = (p2p_has_pending() || nhooks) ? 1000000L : 200000000L;
        waker_arm(); /* network traffic rings the doorbell too */
        big_unlock();
        ft_futex_wait(&me->doorbell, v, timeout);
        big_lock();
        waker_disarm();
    }
    atomic_fetch_sub(&me->sleepers, 1);
}

int progress_wait(int (*done)(void *), void *arg)
{
    if (done(arg))
        return MPI_SUCCESS;
    uint64_t start = timer_ns();
    unsigned iter = 0;
    for (;;) {
        int n = poll_all();
        if (done(arg))
            return MPI_SUCCESS;
        if (n)
            start = timer_ns(), iter = 0;
        /* With a core of our own, poll 64 times between looks at the
         * clock; oversubscribed, yield after every empty poll. */
        if (!oversub && ++iter < 64)
            continue;
        iter = 0;
        long waited = (long)(timer_ns() - start);
        if (waited < wait_spin_ns || waited < spin_limit_ns()) {
            /* Let a peer that shares our core run: costs a system call
             * when the core is ours alone, saves a time slice when not
             * (ranks are not bound to cores: on a machine loaded by
             * others, two ranks can share one; polling without yielding
             * there measured 238 us per hop of a 2-rank ring, against 28
             * with the yield, docs/progress.md). */
            yield_cpu();
            continue;
        }
        doorbell_sleep();
        if (done(arg))
            return MPI_SUCCESS;
    }
}

static int req_done(void *arg)
{
    return ((req_t *)arg)->complete;
}

int progress_wait_req(req_t *r)
{
    return progress_wait(req_done, r);
}
