/* Cross-memory attach: puts and gets by process_vm_readv/writev between
 * the processes of a window whose members share a host (MPI_Win_create;
 * accumulates stay messages, applied by the target). The kernel checks
 * that the caller may ptrace the target (same user; under Yama's
 * ptrace_scope 1 the target must allow it: PR_SET_PTRACER below), so the
 * window tries it at creation and keeps messages when any member cannot.
 *
 * A pid names a process only until it is reaped: a member that dies, once
 * its parent has waited for it, leaves its pid free for the next process,
 * and a write by pid could then land in a stranger's memory (same user:
 * the kernel would allow it) before the death is noticed here. So every
 * member holds a pidfd of every other one (pidfd_open at creation, before
 * the probe read: the descriptor names that process and no later one), and
 * a transfer first asks it whether the process has exited (poll: the pidfd
 * is readable once it has), unless it did so less than CHECK_NS ago: a
 * system call costs as much as a small transfer. The kernel hands out pids
 * in a cycle, so a dead process's pid comes back only after the whole pid
 * space has been used: what is left is pid_max processes created between
 * that poll and the transfer, within 1 ms (32768 here; a system with a
 * pid_max below MIN_PID_MAX polls before every transfer). A kernel without
 * pidfd_open (before Linux 5.3) keeps the window on messages. */
#include "rma/rma.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/proc.h"
#include "util/timer.h"

enum { CHUNK = 128 }; /* iovecs per system call (IOV_MAX is 1024) */
#define CHECK_NS 1000000ull   /* a target's pidfd is polled at most this often */
#define MIN_PID_MAX 32768     /* below it, before every transfer */

/* Must every transfer poll (a small pid space)? Read once. */
static int poll_always(void)
{
    static int always = -1;
    if (always < 0) {
        long max = 0;
        FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
        if (!f || fscanf(f, "%ld", &max) != 1)
            max = 0;
        if (f)
            fclose(f);
        always = max < MIN_PID_MAX;
    }
    return always;
}

/* Read at creation by every other member, to see that CMA works. */
static volatile int64_t probe_word = 0x52d4a5;

int rma_cma_setup(win_t *w)
{
#ifdef PR_SET_PTRACER
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    size_t n = (size_t)w->size;
    MPI_Aint mine[2] = {(MPI_Aint)(uintptr_t)w->base, (MPI_Aint)(uintptr_t)&probe_word};
    MPI_Aint *all = malloc(2 * n * sizeof(MPI_Aint));
    w->bases = calloc(n, sizeof(MPI_Aint));
    w->pids = calloc(n, sizeof(int));
    w->pidfds = malloc(n * sizeof(int));
    w->polled = calloc(n, sizeof(uint64_t));
    for (size_t r = 0; w->pidfds && r < n; r++)
        w->pidfds[r] = -1;
    if (!all || !w->bases || !w->pids || !w->pidfds || !w->polled) {
        free(all);
        return MPI_ERR_NO_MEM;
    }
    int rc = coll_allgather(w->comm, mine, 2, dt_get(MPI_AINT), all, 2, dt_get(MPI_AINT));
    int ok = rc == MPI_SUCCESS, every = 0;
    for (int r = 0; ok && r < w->size; r++) {
        w->bases[r] = all[2 * r];
        w->pids[r] = ftg.pid_of_world ? ftg.pid_of_world[comm_peer_world(w->comm, r)] : 0;
        int64_t v = 0;
        struct iovec l = {&v, sizeof(v)}, t = {(void *)(uintptr_t)all[2 * r + 1], sizeof(v)};
        if (r == w->rank)
            w->pids[r] = getpid();
        if (w->pids[r] > 0)
            w->pidfds[r] = (int)syscall(SYS_pidfd_open, w->pids[r], 0);
        ok = w->pidfds[r] >= 0 && process_vm_readv(w->pids[r], &l, 1, &t, 1, 0) == sizeof(v) &&
             v == probe_word;
    }
    free(all);
    if (rc == MPI_SUCCESS)
        rc = coll_allreduce(w->comm, &ok, &every, 1, dt_get(MPI_INT), op_get(MPI_MIN));
    if (rc == MPI_SUCCESS && every)
        w->via = RMA_VIA_CMA;
    else
        rma_cma_close(w);
    return rc;
}

void rma_cma_close(win_t *w)
{
    for (int r = 0; w->pidfds && r < w->size; r++)
        if (w->pidfds[r] >= 0)
            close(w->pidfds[r]);
    free(w->pidfds);
    free(w->polled);
    w->pidfds = NULL;
    w->polled = NULL;
}

/* Has target t's process exited (its pidfd readable)? Then its pid may
 * name another process by now. Asked at most every CHECK_NS. */
static int exited(win_t *w, int t)
{
    uint64_t now = timer_ns();
    if (!poll_always() && w->polled[t] && now - w->polled[t] < CHECK_NS)
        return 0;
    struct pollfd p = {w->pidfds[t], POLLIN, 0};
    if (poll(&p, 1, 0) != 0)
        return 1;  /* readable, or an error: do not write */
    w->polled[t] = now;
    return 0;
}

/* One system call over k iovec pairs of `bytes` bytes in all. */
static int cma_call(pid_t pid, struct iovec *l, struct iovec *r, size_t k, size_t bytes, int write)
{
    ssize_t got = write ? process_vm_writev(pid, l, k, r, k, 0)
                        : process_vm_readv(pid, l, k, r, k, 0);
    if (got == (ssize_t)bytes)
        return MPI_SUCCESS;
    /* ESRCH: the target is gone (a failure, as a message to it would
     * report); a short count or EFAULT: its memory went away. */
    return got < 0 && errno == ESRCH ? MPI_ERR_OTHER : MPI_ERR_RMA_RANGE;
}

int rma_cma_vec(win_t *w, int t, struct iovec *l, struct iovec *r, size_t k, size_t bytes,
                int write)
{
    if (rma_peer_dead(w, t) || exited(w, t))
        return MPI_ERR_OTHER; /* dead: its pid may belong to someone else by now */
    return cma_call(w->pids[t], l, r, k, bytes, write);
}

int rma_cma_xfer(win_t *w, int t, char *packed, uintptr_t rbase, const rma_run_t *runs, size_t n,
                 int write)
{
    struct iovec l[CHUNK], r[CHUNK];
    size_t k = 0, bytes = 0;
    pid_t pid = w->pids[t];
    if (rma_peer_dead(w, t) || exited(w, t))
        return MPI_ERR_OTHER; /* dead: its pid may belong to someone else by now */
    for (size_t i = 0; i < n; i++) {
        size_t sz = dt_kind_size((dt_kind_t)runs[i].kind);
        MPI_Aint ext = dt_kind_extent((dt_kind_t)runs[i].kind);
        size_t units = (MPI_Aint)sz == ext ? 1 : runs[i].n, len = units == 1 ? runs[i].n * sz : sz;
        for (size_t u = 0; u < units; u++) {
            int64_t d = runs[i].disp + (int64_t)u * ext;
            l[k].iov_base = packed;
            l[k].iov_len = len;
            r[k].iov_base = (void *)(rbase + (uintptr_t)d);
            r[k].iov_len = len;
            packed += len;
            bytes += len;
            if (++k == CHUNK) {
                int rc = cma_call(pid, l, r, k, bytes, write);
                if (rc != MPI_SUCCESS)
                    return rc;
                k = bytes = 0;
            }
        }
    }
    return k ? cma_call(pid, l, r, k, bytes, write) : MPI_SUCCESS;
}
