/*
 * Runtime client: the rank's side of the control connection to its local
 * daemon (a Unix socket inherited at exec, environment FTMPI_CTL_FD).
 *
 * The daemon is the one authority on which processes are alive. Everything
 * a rank learns about other processes' lives and deaths comes through here.
 *
 * Return values: 0 on success, a negative errno-style code on failure
 * (-EPIPE when the daemon is gone: the rank should then exit).
 *
 * Events (failures, recovery messages, ...) that arrive while a blocking
 * call (kv_get, fence) waits for its reply are queued and returned later by
 * rtc_next_event(), in arrival order: nothing is lost or reordered.
 */
#ifndef FTMPI_RTC_H
#define FTMPI_RTC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int rank;          /* job-wide process id (MPI_COMM_WORLD rank at launch) */
    int size;          /* job-wide ids: --universe (the launch's np
                          when not given); the arrays below have size */
    int world_base, world_n; /* this process's MPI_COMM_WORLD: ids
                          [world_base, world_base + world_n) */
    int appnum;        /* MPI_APPNUM: the spawn command's index, 0 */
    int parent_root;   /* MPI_Comm_spawn's root (job-wide id), -1: none */
    uint32_t parent_tag; /* that spawn's tag */
    int local_slot;    /* this rank's slot in the host's shm segment */
    int nslots;        /* slots in the segment */
    uint32_t incarnation; /* 0 for the original process, +1 per replacement */
    int restarted;     /* 1 when this process replaces a failed one */
    uint32_t generation; /* recovery generation the process starts in */
    int shm_fd;        /* memfd of the host segment, -1 if none */
    size_t shm_size;
    void *shm_base;    /* the segment, mapped by rtc_init (shared, rw) */
    int ctl_fd;
    int hostid;        /* host index of this rank */
    int *slot_of_rank; /* [size]: world rank -> local slot, -1 if remote */
    int *pid_of_rank;  /* [size]: pid of each world rank's current process */
    int *host_of_rank; /* [size]: host index of each world rank's process */
    int *launch_host_of_rank; /* [size]: the host each rank had at launch */
    /* Modes requested at launch, as the strings given (NULL = default). */
    const char *comm_mode, *msg_mode, *coll_mode, *recovery_mode;
    char jobid[32];
} rtc_info_t;

/* Event kinds delivered to the rank. */
enum {
    RTC_EV_FAILURE = 1,   /* a process failed: rank, incarnation, signal/exit_code, host */
    RTC_EV_RECOVERED = 2, /* a recovery round finished: see rtc_recovery_t in data */
    RTC_EV_ROUND = 3,     /* a recovery round started and waits for this process
                             (sent to every process that had not joined it) */
    RTC_EV_REFUSED = 4,   /* the round this process joined will not run: some
                             process has finalized (the job is ending) */
};

typedef struct {
    int kind;
    int rank;
    uint32_t incarnation;
    int pid;
    int signal;       /* FAILURE: signal that killed it, 0 if it exited */
    int exit_code;    /* FAILURE: exit code if it exited */
    char host[64];
    uint32_t generation; /* ROUND, REFUSED: the generation the round would produce */
    void *data;       /* RECOVERED: an rtc_recovery_t (malloc'd); free with rtc_event_free */
} rtc_event_t;

/* Result of a recovery round: identical on every participant. */
typedef struct {
    uint32_t generation;  /* new generation number (previous + 1 or more) */
    int size;             /* MPI_COMM_WORLD extent (launch size) */
    int nfailed;          /* processes whose failure this round handled */
    int *failed;          /* [nfailed] their world ranks, ascending */
    int *alive;           /* [size] 1 if the rank has a live process now */
    int *pid;             /* [size] pid of the rank's current process (0 if none) */
    int *slot;            /* [size] shm slot (-1 if none / remote) */
    int *host;            /* [size] host index of the rank's process (a
                             REBUILD replacement may be on another host) */
    uint32_t *incarnation;/* [size] */
} rtc_recovery_t;

void rtc_event_free(rtc_event_t *ev);

/* Connect to the daemon using the environment, say hello, fill *info.
 * Without FTMPI_CTL_FD (a program not started by ftmpirun: a singleton)
 * it returns -ENOENT after filling *info as a 1-rank job with no daemon and
 * no shm segment (shm_base NULL, shm_fd -1); the other calls then work
 * locally (docs/runtime.md, "Singletons"). */
int rtc_init(rtc_info_t *info);

/* Non-blocking, no system call: 1 if rtc_next_event() may have something
 * (queued events, or ctl_pending moved), 0 if not. For the check made just
 * before sleeping on the slot's doorbell. */
int rtc_event_ready(void);

/* Release what rtc_init allocated in *info (slot_of_rank, pid_of_rank, the
 * mode strings). */
void rtc_info_free(rtc_info_t *info);

/* Key-value store, job-wide. get blocks until the key exists. */
int rtc_kv_put(const char *key, const void *val, size_t len);
int rtc_kv_get(const char *key, void *val, size_t cap, size_t *len_p);

/* Wait until every live rank of the job has entered the same fence. */
int rtc_fence(void);

/* Ask the job to end: every process is killed and ftmpirun exits with
 * `code`. Does not return. */
void rtc_abort(int code, const char *msg) __attribute__((noreturn));

/* The rank reached a named point; the launcher may kill it there
 * (fault injection, docs/ft.md, contract section 8). */
int rtc_fault_point(const char *name, long value);

/* A transport error suggests `rank` is gone: ask the authority to check. */
int rtc_suspect(int rank);
/* An event for the head's event log and monitor ("checkpoint", ...): name
 * and keys are [a-z_] words of at most 31 characters, n <= 16. No reply. */
int rtc_note(const char *name, int n, const char *const *keys,
             const double *vals);

/* Join (or start) a recovery round. Non-blocking: the result arrives as an
 * RTC_EV_RECOVERED event on every participant. `known_generation` is the
 * newest generation this process has seen. A replacement process joins the
 * round in progress from its MPI_Init. */
int rtc_recovery_join(uint32_t known_generation);

/* Non-blocking: 1 and *ev filled if an event is available, 0 if none,
 * negative on error. Reads the socket only when the shm slot's ctl_pending
 * counter says something arrived, or when `force` is set. */
int rtc_next_event(rtc_event_t *ev, int force);

/* Vote in the agreement `key` among the world ranks members[0..n-1], of
 * the incarnations incs[0..n-1] (blocking): *result_p is 1 only if every
 * member voted yes; a member that fails (or was replaced) before voting
 * makes it 0. Every member that votes gets the same result. */
int rtc_agree(uint64_t key, int vote, const int *members, const uint32_t *incs, int n,
              int *result_p);

/* One command of a spawn (MPI_Comm_spawn_multiple). argv[0] is the
 * program; env is "NAME=VALUE" strings; host, wdir "" when not given. */
typedef struct {
    int maxprocs;
    const char *host, *wdir;
    char *const *argv;    /* NULL-terminated */
    char *const *env;     /* NULL-terminated, may be NULL */
} rtc_spawn_cmd_t;

/* Ask the runtime to start the commands' processes (blocking until each
 * has reached MPI_Init or ended). 0 with the new job-wide ids
 * [*base_p, *base_p + *n_p) and, in *errs_p (malloc'd, [*n_p]), each
 * one's errno (0: started; when any is nonzero, none runs); or -errno
 * when nothing was tried (-ENOSPC: the universe is full, -EHOSTUNREACH:
 * no such host). */
int rtc_spawn(uint32_t tag, const rtc_spawn_cmd_t *cmds, int ncmds, int *base_p, int *n_p,
              int **errs_p);

/* Clean shutdown: tells the daemon this rank finalized (after this the
 * rank's exit is not a failure) and waits until every process has.
 * rtc_finalize is the two steps in one: start, then test until every
 * process has arrived (1; 0 not yet; < 0 error), so that MPI_Finalize can
 * keep its progress engine turning meanwhile. */
int rtc_finalize_start(void);
int rtc_finalize_test(void);
int rtc_finalize(void);

/* The job's secret (a string; NUL-terminated), for connections between
 * ranks that must prove they belong to the job (util/ft_auth.h); NULL
 * before rtc_init and in a singleton. It came from the daemon over the
 * rank's control socket: it is in no environment and on no command line. */
const char *rtc_job_secret(void);

#endif
