/* Process-wide state of the library. */
#ifndef FTMPI_RUNTIME_STATE_H
#define FTMPI_RUNTIME_STATE_H

#include <pthread.h>
#include <stdint.h>

#include "runtime/rtc.h"
#include "transport/shm/shm.h"

typedef struct {
    int initialized, finalized;
    int thread_level;
    int multiple;            /* MPI_THREAD_MULTIPLE: the big lock is used */
    pthread_t main_thread;
    pthread_mutex_t lock;
    int singleton;           /* started without ftmpirun */
    rtc_info_t rt;
    int world_rank, world_size;
    int pid;
    shm_t shm;
    int *slot_of_world;      /* [size] local slot, -1 if none */
    int *world_of_slot;      /* [nslots] */
    int *pid_of_world;       /* [size] */
    int *peer_dead;          /* [size] 1: the rank's process failed, not (yet) replaced */
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
    char processor_name[256];
} ft_state_t;

extern ft_state_t ftg;

#endif
