/*
 * Internals of the master-worker skeleton (not installed).
 *
 *   mw_net.c       the skeleton's communicator, waiting, open/close
 *   mw_queue.c     posted wildcard receives, the queue of received messages
 *   mw_outbox.c    the outbox of non-blocking sends
 *   mw_recover.c   joining an FT-MPI recovery, reading who failed
 *   mw_ledger.c    the master's task ledger
 *   mw_master.c    the master's loop
 *   mw_worker.c    the worker's loop
 *   mw_progress.c  progress line / plain progress lines
 *   mw_run.c       mw_init, mw_run, configuration
 *   mw_buf.c       byte buffers, error strings
 *
 * Every message is a header (mw_hdr_t) in one MW_MSG_MAX-byte message on
 * MW_TAG_HDR, with its payload inline when it fits, else in a second
 * message on a tag of its own, unique to its sender and sequence number
 * (MW_TAG_PAY + launch rank * pay_tags + sequence % pay_tags), so that a
 * payload left over from before a recovery never matches a newer one. Each process
 * keeps MW_NPOST wildcard receives for headers posted at all times: a
 * pending wildcard receive fails as soon as any member of the communicator
 * fails, in message mode RESET and CONT alike, so that every process learns
 * of every failure and reaches the recovery.
 */
#ifndef MW_INT_H
#define MW_INT_H

#include "master_worker.h"

#include <stdint.h>
#include <stdio.h>

#define MW_TAG_HDR 30001
#define MW_TAG_PAY 30100
#define MW_MSG_MAX 4000 /* header message bytes: below the eager limit */
#define MW_NPOST 2
#define MW_MAGIC 0x4d574b31u

/* Internal outcomes of communication calls (besides MW_OK and MW_ERR_*). */
#define MW_FAIL 1    /* a process failed: recover */
#define MW_TIMEOUT 2 /* mw_net_next: nothing arrived in time */
#define MW_LOST 3    /* net_wait: the payload receive failed (see mw_net_next) */

enum mw_kind {
    MW_K_JOIN = 1, /* worker -> master: I am (back) in; flags MW_F_STOPPED */
    MW_K_WELCOME,  /* master -> worker: answer to JOIN; epoch = master's */
    MW_K_TASK,     /* master -> worker: index, payload = task */
    MW_K_RESULT,   /* worker -> master: index, payload = result (flags MW_F_ERROR) */
    MW_K_STOP,     /* master -> worker: no more tasks, acknowledge */
    MW_K_ACK,      /* worker -> master: STOP received */
    MW_K_FINAL,    /* master -> worker: leave; `index` = the return code of mw_run */
    MW_K_RECOVER   /* master -> worker: a failure was missed, recover (see mw_master.c) */
};

#define MW_F_STOPPED 1
#define MW_F_ERROR 2

typedef struct mw_hdr {
    uint32_t magic;
    int32_t kind;
    int32_t epoch; /* master -> worker: the master's recovery count */
    int32_t id;    /* sender's launch rank */
    int64_t index;
    uint64_t len;  /* payload bytes */
    int32_t ptag;  /* tag of a separate payload message, 0 when inline */
    int32_t flags;
} mw_hdr_t;

#define MW_INLINE_MAX (MW_MSG_MAX - sizeof(mw_hdr_t))

/* A received message: header, sender's current rank, payload. */
typedef struct mw_msg {
    struct mw_msg *next;
    mw_hdr_t h;
    int src;
    mw_buf_t pay;
    MPI_Request preq; /* receive of a separate payload, or MPI_REQUEST_NULL */
    int discard;      /* kept only until its payload has come (CONT, see mw_net.c) */
    int repost;       /* its payload receive must be posted again on the new communicator */
} mw_msg_t;

/* A message being sent. */
typedef struct mw_out {
    struct mw_out *next;
    MPI_Request req[2];
    int kind;
    int failed; /* a request failed: keep the buffers until the next recovery */
    int64_t index;
    unsigned char *hdrbuf;
    void *payload; /* owned copy (also inline in hdrbuf when small) */
    size_t len;
} mw_out_t;

/* A result whose sending did not complete before a recovery. */
typedef struct mw_unsent {
    struct mw_unsent *next;
    int64_t index;
    int flags;
    void *data;
    size_t len;
} mw_unsent_t;

typedef struct mw_net {
    MPI_Comm comm;
    int rank, size;
    int id;             /* launch rank (MPI_COMM_WORLD rank when mw_run began) */
    int mode;           /* FTMPI_COMM_MODE_* or -1 without FT-MPI */
    int fail;           /* a failure was seen: sends are suppressed until recovery */
    int recoveries;
    int failed_procs;   /* over all recoveries */
    int master_failed;  /* the last recovery handled the master's failure */
    int nfailed_last;   /* ... and this many processes */
    int failed_last[64];
    int *gap;           /* [size], BLANK: 1 where a rank failed */
    int *id_of_rank;    /* launch rank of each rank (SHRINK renumbers) */
    int nids;           /* entries of id_of_rank (the size when it was last made) */
    int *failed_ids;    /* launch ranks whose failure the last recovery handled */
    /* Posted header receives. Several wildcard receives complete in the
     * order they were posted, which is the order messages arrived; the
     * slots are therefore handed over oldest first (post_seq). */
    MPI_Request post[MW_NPOST];
    unsigned char *postbuf[MW_NPOST];
    uint64_t post_seq[MW_NPOST], next_seq;
    int post_done[MW_NPOST]; /* completed, not yet taken */
    MPI_Status post_st[MW_NPOST];
    mw_msg_t *q_head, *q_tail; /* received, not yet handed out */
    mw_out_t *out;      /* sends of this generation */
    mw_out_t *zombies;  /* sends from before a recovery, still pending (CONT) */
    mw_out_t *retired;  /* failed sends: freed after the next recovery */
    mw_unsent_t *unsent;
    uint32_t seq;
    int pay_tags;       /* payload tags per sender (from MPI_TAG_UB) */
    int msg_mode;       /* FTMPI_MSG_MODE_* or -1 */
    int verbose;
    /* scratch for waits: requests and where each came from */
    MPI_Request *wreq;
    mw_out_t **wout;
    int *wj;
    int wcap;
} mw_net_t;

/* ---- mw_queue.c */
mw_msg_t *mw_queue_pop(mw_net_t *n);
int mw_slot_done(mw_net_t *n, int i, const MPI_Status *st);
int mw_net_is_cont(const mw_net_t *n);

/* ---- mw_outbox.c */
int mw_out_reap(mw_net_t *n);
void mw_out_failed(mw_net_t *n, mw_out_t *o);

/* ---- mw_net.c */
int mw_net_open(mw_net_t *n, int restarted);
void mw_net_close(mw_net_t *n);
int mw_net_post(mw_net_t *n);
void mw_net_retire_slots(mw_net_t *n);
int mw_net_await_payloads(mw_net_t *n, double seconds);
int mw_net_send(mw_net_t *n, int dest, int kind, int64_t index, int epoch, int flags,
                const void *payload, size_t len);
/* Next message (caller owns it: mw_msg_free). timeout < 0: wait for ever.
 * MW_OK, MW_FAIL, MW_TIMEOUT or an MW_ERR_* code. */
int mw_net_next(mw_net_t *n, mw_msg_t **msg_p, double timeout);
int mw_net_pending(mw_net_t *n); /* 1 if a message can be had without waiting */
int mw_net_flush(mw_net_t *n, double timeout);
void mw_msg_free(mw_msg_t *m);
int mw_net_classify(mw_net_t *n, int rc, const char *what);
void mw_net_reap_zombies(mw_net_t *n);
void mw_net_drop_queue(mw_net_t *n, int keep_results);
int mw_net_repost_queue(mw_net_t *n);
void mw_net_retire_outbox(mw_net_t *n);
void mw_net_free_retired(mw_net_t *n);

/* ---- mw_recover.c */
int mw_recover(mw_net_t *n);
int mw_read_failures(mw_net_t *n);
int mw_id_failed_last(const mw_net_t *n, int id);
int mw_rank_of_id(const mw_net_t *n, int id);
const char *mw_mode_name(int mode);
void mw_fault_point(const char *name, long value);

/* ---- mw_ledger.c */
typedef struct mw_task {
    int64_t index;
    void *data;
    size_t len;
    int holder; /* rank of the worker holding it, -1: waiting to be handed out */
} mw_task_t;

typedef struct mw_ledger {
    mw_task_t *t; /* tasks generated and not yet done */
    int n, cap;
    int nwaiting;  /* of which holder == -1 */
    int64_t next;  /* next index to generate */
    int gen_done;  /* generate said there is no task `next` */
    int64_t done;
    int64_t reissued;
    int64_t duplicates;
} mw_ledger_t;

void mw_ledger_init(mw_ledger_t *l);
void mw_ledger_free(mw_ledger_t *l);
/* 1: a task to hand out (*t_p stays valid until the next ledger call),
 * 0: none now, <0: MW_ERR_USER / MW_ERR_NOMEM. */
int mw_ledger_take(mw_ledger_t *l, const mw_ops_t *ops, int holder, mw_task_t **t_p);
/* 1 if `index` was outstanding (now done; *holder_p = who held it),
 * 0 if it was done already (a duplicate) or unknown. */
int mw_ledger_complete(mw_ledger_t *l, int64_t index, int *holder_p);
int64_t mw_ledger_unassign_all(mw_ledger_t *l);
int mw_ledger_finished(const mw_ledger_t *l);

/* ---- mw_progress.c */
#define MW_RATE_SAMPLES 16
typedef struct mw_progress {
    int mode; /* MW_PROGRESS_TTY / LINES / OFF */
    double t0, last, interval;
    int shown, tty_dirty;
    /* (time, done) every half second: the rate over the last few seconds */
    double st[MW_RATE_SAMPLES];
    int64_t sd[MW_RATE_SAMPLES];
    int ns, head;
} mw_progress_t;

void mw_progress_init(mw_progress_t *p, const mw_config_t *cfg);
void mw_progress_update(mw_progress_t *p, int64_t done, int64_t total, int workers, int force);
void mw_progress_end(mw_progress_t *p);
void mw_progress_note(mw_progress_t *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- roles */
int mw_master_run(mw_net_t *n, const mw_ops_t *ops, const mw_config_t *cfg, mw_stats_t *st);
int mw_worker_run(mw_net_t *n, const mw_ops_t *ops, const mw_config_t *cfg, mw_stats_t *st);

double mw_now(void);
void mw_sleep_s(double s);

/* Tracing on stderr when the environment has MW_DEBUG=1. */
extern int mw_debug_on;
void mw_dbg(const mw_net_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *mw_kind_name(int kind);

#endif
