/* ftmpirun command-line options. */
#ifndef FTMPI_RUNTIME_OPTS_H
#define FTMPI_RUNTIME_OPTS_H

#include <stddef.h>
#include <stdint.h>

enum { COMM_ABORT = 0, COMM_BLANK, COMM_SHRINK, COMM_REBUILD, COMM_ULFM };
enum { RECOV_MANUAL = 0, RECOV_AUTO, RECOV_NONE };

typedef struct {
    int rank;
    double seconds;
} ftrun_kill_t;

typedef struct {
    char name[64];
    int has_value;
    long value;
    int rank;
    int fired;
} ftrun_fault_t;

typedef struct {
    char name[256];
    int slots;            /* 0: not given */
} ftrun_host_t;

typedef struct {
    int np;
    int universe;         /* --universe: job-wide process ids (>= np) */
    char **argv;          /* program and its arguments (points into argv) */
    int comm_mode, recovery_mode;
    /* Mode strings as given (option or environment), lower case; NULL when
     * neither was given (the rank then uses the default). */
    const char *comm_str, *msg_str, *coll_str, *recovery_str;
    char **env;           /* "NAME=VALUE" exported to the ranks (-x) */
    int nenv;
    int tag_output, verbose;
    uint32_t ring_bytes;
    double timeout_s;     /* 0: none */
    ftrun_kill_t *kills;
    int nkills;
    ftrun_fault_t *faults;
    int nfaults;
    const char *event_log;
    ftrun_host_t *hosts;  /* NULL: one host, this one */
    int nhosts;
    const char *launch_agent;
    const char *ftmpid_path; /* --ftmpid: path of ftmpid on the hosts */
    int spare_hosts;      /* --spare-hosts: the last N hosts start empty */
    int from_slurm;       /* the hosts are a Slurm allocation's */
    double hb_interval, hb_timeout; /* --heartbeat-interval, -timeout */
    int monitor;          /* --monitor given */
    char mon_addr[64];    /* its IPv4 address (default 127.0.0.1) */
    int mon_port;         /* 0: a free one */
} ftrun_opts_t;

/* Parse; on error print a message naming the problem and return 2; for
 * --help/--version print and return 1; 0 when the job should run. */
int ftrun_opts_parse(ftrun_opts_t *o, int argc, char **argv);
void ftrun_opts_free(ftrun_opts_t *o);

/* --monitor's value (NULL: none): "PORT", "ADDR:PORT" or "ADDR" (IPv4);
 * -1 with the problem in why when it is not one (opts_monitor.c). */
/* --trace DIR: makes DIR if needed; "LD_PRELOAD=..." (what LD_PRELOAD
 * holds, then libftmpi_trace) and "FTMPI_TRACE_DIR=ABS" for the ranks;
 * -1 with the problem in why (opts_trace.c). */
int ftrun_trace_env(const char *dir, char *preload, size_t pcap,
                    char *dirvar, size_t dcap, char *why, size_t wcap);
int ftrun_parse_monitor(ftrun_opts_t *o, const char *val, char *why,
                        size_t cap);

const char *ftrun_comm_name(int mode); /* "ABORT", ... */

#endif
