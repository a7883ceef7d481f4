/* Head internals shared by head.c (job table, processes, failures, exit)
 * and head_sync.c (key-value store, fences, recovery rounds). */
#ifndef FTMPI_RUNTIME_HEAD_INT_H
#define FTMPI_RUNTIME_HEAD_INT_H

#include "head.h"
#include "evlog.h"
#include "../proto.h"

#include <stdint.h>
#include <sys/types.h>

/* Process states (docs/ft.md, contract section 3, plus the two ends). */
enum {
    HP_STARTING = 1,      /* spawn requested (original process) */
    HP_OK,
    HP_UNAVAILABLE,       /* suspected, not yet confirmed */
    HP_JOINING,           /* a replacement, until its first recovery round */
    HP_FAILED,
    HP_EXITED,            /* ended without failing */
};

struct head_spec;
struct head_spawn_op;

typedef struct {
    int rank, hostid, slot;
    struct head_spec *spec;     /* started by MPI_Comm_spawn: what to run */
    struct head_spawn_op *op;   /* the spawn waiting for its HELLO, or NULL */
    int launch_hostid;    /* host it was placed on at launch */
    pid_t pid;            /* process the daemon started */
    pid_t mpi_pid;        /* pid given at HELLO (== pid unless wrapped) */
    pid_t prev_pid;       /* the failed process this one replaces */
    uint32_t inc;
    int state, saved_state; /* saved_state: before UNAVAILABLE */
    int started, hello, hello_pending, finalized, fin_done;
    int signal, exit_code;
    double start_t;
    /* fences */
    int fence_part;       /* participant of the current fence ... */
    uint32_t fence_part_inc; /* ... with this incarnation */
    int fence_in, fence_fin, next_in, next_fin;
    /* recovery */
    int joined;
} head_proc_t;

typedef struct {
    int rank, hostid, signal, exit_code, recovered;
    pid_t pid;
    uint32_t inc;
    double t;
    char reason[160];
} head_failure_t;

typedef struct head_host {
    struct head *h;
    int id, is_local, attached, lost;
    int nslots;           /* slots of its shm segment (head_place.c) */
    int cap;              /* ranks it is meant to hold (its slots) */
    char name[256];
    rt_link_t *link;
} head_host_t;

typedef struct kv_ent {
    struct kv_ent *next;
    char *key;
    void *val;
    uint32_t len;
} kv_ent_t;

typedef struct kv_wait {
    struct kv_wait *next;
    int rank;
    uint32_t inc;
    char *key;
} kv_wait_t;

#define KV_BUCKETS 1024

enum { PH_RUN = 0, PH_ABORTING, PH_DONE };

struct head {
    evloop_t *loop;
    const ftrun_opts_t *o;
    evlog_t log;
    double t0;
    char jobid[32];
    int size;             /* processes started at launch (-np) */
    int nprocs;           /* job-wide process ids: --universe (>= size) */
    int nused;            /* ids given out so far (launch + spawns) */
    head_proc_t *procs;   /* [nprocs] */
    struct head_spawn_op *spawns; /* every MPI_Comm_spawn (head_spawn.c) */
    head_host_t *hosts;
    int nhosts;
    int phase, exit_code, exit_set, started;
    int nstarted_initial, launch_done, any_finalized;
    long abort_timer;
    head_failure_t *fails;
    int nfails, capfails;
    /* recovery */
    uint32_t generation;
    int round_active;
    double round_t0;
    int *failed_since;    /* ranks failed since the last round (may repeat) */
    int nfailed_since;
    /* fences */
    int fence_active;
    int rr_host;          /* round-robin cursor for replacements */
    /* agreements (head_agree.c) */
    struct head_agree *agrees;
    /* key-value store */
    kv_ent_t *kv[KV_BUCKETS];
    kv_wait_t *kv_waits;
};

static inline int head_live(const head_proc_t *p)
{
    return p->state == HP_STARTING || p->state == HP_OK ||
           p->state == HP_UNAVAILABLE || p->state == HP_JOINING;
}

/* head.c */
void head_host_send(head_host_t *host, uint32_t type, const proto_buf_t *b);
void head_to_rank(head_t *h, head_proc_t *p, uint32_t type,
                  const proto_buf_t *payload);
void head_check_end(head_t *h);
void head_on_exited(head_t *h, head_host_t *host, proto_rd_t *r);
/* SIGKILL rank's process now, logged as a "kill" event with reason (a
 * literal without quotes): 0, -1 no such rank, -2 not running. */
int head_user_kill(head_t *h, int rank, const char *reason);

void head_send_spawn(head_t *h, head_proc_t *p, int restarted);

/* head_spawn.c: MPI_Comm_spawn's processes (docs/dynamic.md). */
void head_spawn_request(head_t *h, head_proc_t *p, proto_rd_t *r);
/* HD_SPAWN's tail for p: its command, or "none" for a launch process. */
void head_spawn_put_spec(head_t *h, head_proc_t *p, proto_buf_t *b);
/* p said HELLO (publish it; its spawn may be complete), or ended before
 * that (err: its errno, or ECHILD). */
void head_spawn_hello(head_t *h, head_proc_t *p);
void head_spawn_gone(head_t *h, head_proc_t *p, int err);
void head_spawn_free(head_t *h);

/* head_place.c */
void head_place(head_t *h);
/* A host and a free slot for the replacement of p, whose host is lost:
 * sets p->hostid and p->slot; -1 when no surviving host has a free slot. */
int head_place_replacement(head_t *h, head_proc_t *p);
/* A free slot on host hostid for p (a spawned process): sets p->hostid
 * and p->slot; -1 when that host has none. hostid -1: the usable host
 * with the most free slots, after the round-robin cursor. */
int head_place_spawned(head_t *h, head_proc_t *p, int hostid);

/* head_sync.c */
void head_kv_put(head_t *h, head_proc_t *p, proto_rd_t *r);
void head_kv_set(head_t *h, const char *key, const void *val, uint32_t n);
void head_kv_get(head_t *h, head_proc_t *p, proto_rd_t *r);
void head_kv_free(head_t *h);
/* The entry of key, NULL if none (the monitor reads ranks' reports). */
kv_ent_t *head_kv_find(head_t *h, const char *key);
void head_fence_enter(head_t *h, head_proc_t *p, int is_finalize);
void head_recovery_join(head_t *h, head_proc_t *p, uint32_t known);
/* A process stopped being live: drop its waits, re-check fence/round. */
void head_sync_proc_gone(head_t *h, head_proc_t *p);
void head_sync_check(head_t *h);

/* head_note.c: a rank's event (PR_NOTE) into the event log; a malformed
 * one is dropped with a line on stderr. */
void head_note(head_t *h, head_proc_t *p, proto_rd_t *r);

/* head_agree.c: votes among a set of ranks, decided by the head. */
void head_agree_vote(head_t *h, head_proc_t *p, proto_rd_t *r);
void head_agree_check(head_t *h);
void head_agree_free(head_t *h);

#endif
