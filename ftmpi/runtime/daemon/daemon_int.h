/* Daemon internals shared by daemon.c, daemon_spawn.c and daemon_io.c. */
#ifndef FTMPI_RUNTIME_DAEMON_INT_H
#define FTMPI_RUNTIME_DAEMON_INT_H

#include "daemon.h"
#include "../proto.h"
#include "../../transport/shm/shm_seg.h"

#include <sched.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct daemon_iostream daemon_iostream_t;

typedef struct {
    daemon_t *d;          /* back pointer, for callbacks */
    int used;             /* a process has been started in this slot */
    int rank;
    uint32_t inc;
    pid_t pid;
    int running;          /* forked and not yet reaped */
    int hello, finalized;
    int ctl_open;
    proto_conn_t ctl;     /* daemon end of the rank's control socket */
    int errpipe;          /* exec failure report (-1 when closed) */
    int exec_errno;
    int ctl_lost;         /* killed because its control socket closed */
    long ctl_timer;
    long stop_timer;      /* stopped: killed when it fires */
    daemon_iostream_t *io[2]; /* stdout, stderr of the current process */
    /* the monitor's previous CPU sample (daemon_usage.c) */
    pid_t usage_pid;
    unsigned long long usage_ticks;
    double usage_t;
    uint32_t usage_n;
    int cpu;              /* the CPU it is bound to, -1: not bound */
} daemon_proc_t;

enum { DAEMON_BIND_AUTO = 0, DAEMON_BIND_CORE, DAEMON_BIND_NONE };

struct daemon {
    evloop_t *loop;
    rt_link_t *head;
    int output_local;
    int configured, exit_requested;
    /* configuration (HD_CONFIG) */
    int hostid, nslots, size, tag_output, stdin_rank;
    uint32_t ring_bytes;
    char jobid[32];
    char *secret;         /* the job's secret, for the ranks' HELLO_REPLY */
    double stop_timeout;  /* a rank stopped this long is killed (0: never) */
    char *cwd;
    char **argv;
    char **base_env;      /* environment for ranks, without per-rank vars */
    /* shared memory */
    int shm_fd;
    size_t shm_size;
    void *shm;
    daemon_proc_t *procs; /* [nslots] */
    int *slot_of_rank;    /* [size], -1 when not on this host */
    daemon_iostream_t *io_list; /* every open output pipe */
    /* stdin forwarding (a terminal on the launcher's host) */
    int stdin_fwd;        /* forward fd 0 through a pipe to stdin_rank */
    int stdin_w;          /* write end to the current stdin rank, -1 */
    int stdin_watch;      /* fd 0 is in the event loop */
    int stdin_eof;
    proto_buf_t stdin_buf;
    long usage_timer;     /* the monitor's sampling (daemon_usage.c) */
    /* binding (daemon_bind.c) */
    int bind_policy, bind_on, bind_report, bind_oversub, bind_user_oversub;
    cpu_set_t bind_mask;  /* the daemon's own affinity */
    int bind_ncpu;
    int *bind_cpu;        /* [bind_ncpu] the mask's CPUs, cores first */
    int *bind_rank_cpu;   /* [size] the CPU a rank last had here, -1 */
    int *bind_lock;       /* [bind_nlock] claims of bind_cpu[0..] */
    int bind_nlock;
};

/* What MPI_Comm_spawn asked to run (HD_SPAWN's tail, proto.h). */
typedef struct {
    int world_base, world_n, appnum, parent_root;
    uint32_t tag;
    char *wdir;           /* "": the job's directory */
    char **argv, **env;   /* NULL-terminated */
} daemon_cmd_t;

/* daemon_spawn.c */
void daemon_raise_nofile(void);
int daemon_build_env(daemon_t *d, char **extra, int nextra);
/* HD_SPAWN's tail: NULL in *cmd for a launch process; -EPROTO if bad. */
int daemon_cmd_read(proto_rd_t *r, daemon_cmd_t **cmd);
void daemon_cmd_free(daemon_cmd_t *cmd);
void daemon_spawn(daemon_t *d, int rank, int slot, uint32_t inc,
                  uint32_t generation, int restarted, const char *faults,
                  const daemon_cmd_t *cmd);

/* daemon_bind.c: FTMPI_BIND_TO (core, none, auto) and FTMPI_REPORT_BINDINGS
 * from the ranks' environment; nlaunch: the launch ranks of this host.
 * pick: the CPU for rank's process in slot (-1: not bound); shared: that
 * CPU runs another process too (or the host is oversubscribed); report:
 * the line of --report-bindings on stderr. */
int daemon_bind_init(daemon_t *d, int nlaunch);
void daemon_bind_free(daemon_t *d);
void daemon_bind_unclaim(daemon_t *d); /* let other jobs have our CPUs */
int daemon_bind_pick(daemon_t *d, int rank, int slot);
int daemon_bind_shared(const daemon_t *d, int cpu, int slot);
void daemon_bind_report(const daemon_t *d, const daemon_proc_t *p);
void daemon_bind_format(const cpu_set_t *set, char *out, size_t cap);

/* daemon_io.c */
daemon_iostream_t *daemon_io_open(daemon_t *d, int fd, int rank, int stream);
void daemon_io_drain(daemon_iostream_t *s);   /* read what is there now */
void daemon_io_detach(daemon_iostream_t *s);  /* owner process reaped */
void daemon_io_set_owner(daemon_iostream_t *s, daemon_iostream_t **owner);
void daemon_io_flush_all(daemon_t *d);
void daemon_io_close_all(daemon_t *d);  /* at teardown */
/* stdin forwarding: pipe for the stdin rank (read end returned, -1 if
 * not forwarding), and cleanup. */
int daemon_stdin_pipe(daemon_t *d);
void daemon_stdin_close(daemon_t *d);

/* daemon_usage.c: with FTMPI_MONITOR set in the ranks' environment
 * (ftmpirun --monitor), sample the ranks' CPU and memory once a second
 * into the job's key-value store; stop at teardown. */
void daemon_usage_start(daemon_t *d);
void daemon_usage_stop(daemon_t *d);

/* daemon.c */
/* A message of rank p's current process to the head (DH_RANK). */
void daemon_forward_rank_msg(daemon_t *d, daemon_proc_t *p, uint32_t type,
                             const void *data, uint32_t len);
void daemon_ctl_open(daemon_t *d, daemon_proc_t *p, int fd);
void daemon_send_exited(daemon_t *d, daemon_proc_t *p, int sig, int code);
void daemon_child_exited(evloop_t *loop, pid_t pid, int status, void *arg);

#endif
