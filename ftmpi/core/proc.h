/*
 * Process-wide state of the library: who this process is in the job, its
 * thread level and the library lock, the FT-MPI modes, the recovery
 * generation and what is known of every peer, and tuning.
 *
 * It lives in core/ because every layer above the transport reads it
 * (docs/ftmpi.md, "Layers"), and it pulls in no transport: this process's
 * attachment to the host segment belongs to the transport
 * (transport/shm/shm.h, shm_self).
 */
#ifndef FTMPI_CORE_PROC_H
#define FTMPI_CORE_PROC_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "runtime/rtc.h"

/* The largest tag (the MPI_TAG_UB attribute; the API checks tags against
 * it). */
#define FTMPI_TAG_UB INT_MAX

/* Messages up to this many bytes go eagerly unless FTMPI_EAGER_LIMIT says
 * otherwise (docs/ftmpi.md, "Tuning"). */
#define PROC_EAGER_LIMIT_DEFAULT 4096

typedef struct {
    int initialized, finalized;
    int thread_level;
    int multiple;            /* MPI_THREAD_MULTIPLE: the big lock is used */
    pthread_t main_thread;
    pthread_mutex_t lock;
    int singleton;           /* started without ftmpirun */
    rtc_info_t rt;
    /* The process space (docs/dynamic.md): job-wide ids 0..world_size-1,
     * the launch's np first, then what MPI_Comm_spawn may start (ftmpirun
     * --universe); every per-peer table is indexed by these ids.
     * world_rank is this process's id. MPI_COMM_WORLD is the ids
     * [world_base, world_base + world_n): the launch's ranks, or the
     * processes of one spawn. */
    int world_rank, world_size;
    int world_base, world_n;
    int pid;
    int *slot_of_world;      /* [size] local slot, -1 if none */
    int *world_of_slot;      /* [nslots] */
    int *pid_of_world;       /* [size] */
    int *peer_dead;          /* [size] 1: the rank's process failed, not (yet) replaced,
                                or an id not started or not yet learned (dyn_proc.c) */
    uint32_t *inc_of_world;  /* [size] incarnation of each rank's current process */
    uint32_t generation;     /* current recovery generation */
    int ft_dup_phase;        /* 1 from a recovery to the first collective operation */
    /* modes (ftmpi.h values) */
    int comm_mode, msg_mode, coll_mode, recovery_mode;
    int num_failed;          /* FTMPI_NUM_FAILED_PROCS of the latest recovery */
    int error_failure;       /* FTMPI_ERROR_FAILURE error code */
    /* tuning */
    size_t eager_limit;
    long spin_ns;
    char processor_name[MPI_MAX_PROCESSOR_NAME];
} ft_state_t;

extern ft_state_t ftg;

/* User code (error handlers, attribute callbacks, reduction operations)
 * runs without the library lock, so that it may call MPI:
 *     int relock = proc_user_enter();
 *     user_fn(...);
 *     proc_user_leave(relock);
 * The caller must not rely on library state it read before the call. */
static inline int proc_user_enter(void)
{
    if (!ftg.multiple)
        return 0;
    pthread_mutex_unlock(&ftg.lock);
    return 1;
}

static inline void proc_user_leave(int relock)
{
    if (relock)
        pthread_mutex_lock(&ftg.lock);
}

#endif
