/*
 * Runtime wire protocol: length-prefixed binary messages over a stream
 * socket. Every message is
 *
 *     u32 type | u32 len | len bytes of payload
 *
 * with all integers little-endian. Payload fields are written and read in
 * order with the proto_put_* / proto_get_* helpers below; strings and byte
 * strings are a u32 length followed by the bytes (no terminating NUL).
 *
 * Used on three kinds of links:
 *   rank   <-> daemon  Unix socketpair made by the daemon before fork
 *   daemon <-> head    in-process for the launcher's own host, TCP for ftmpid
 * The payload of each type is described next to it; docs/runtime.md has the
 * full table.
 */
#ifndef FTMPI_RUNTIME_PROTO_H
#define FTMPI_RUNTIME_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Internal to the runtime: not exported from libftmpi.so. */
#pragma GCC visibility push(hidden)

#define PROTO_HDR_BYTES 8u
#define PROTO_MAX_PAYLOAD (64u << 20) /* anything larger is a protocol error */
#define PROTO_MAX_KEY 255u            /* kv keys */

enum proto_type {
    /* rank -> daemon (the daemon forwards most of them to the head) */
    PR_HELLO = 101,       /* i32 rank, i32 pid, u32 incarnation */
    PR_KV_PUT = 102,      /* str key, bytes value */
    PR_KV_GET = 103,      /* str key */
    PR_FENCE = 104,       /* - */
    PR_FINALIZE = 105,    /* - */
    PR_ABORT = 106,       /* i32 code, str message */
    PR_FAULT = 107,       /* str name, i64 value */
    PR_SUSPECT = 108,     /* i32 rank */
    PR_JOIN = 109,        /* u32 known generation */
    PR_AGREE = 110,       /* u64 key, i32 vote, i32 n, n x (i32 rank, u32 incarnation) */
    PR_NOTE = 111,        /* str name, i32 n, n x (str key, u64 double bits):
                             an event for the event log (checkpoints) */
    PR_SPAWN = 112,       /* u32 tag, i32 ncmds, ncmds x (i32 maxprocs,
                             str host, str wdir, u32 argc, argc x str,
                             u32 nenv, nenv x str): MPI_Comm_spawn */

    /* daemon -> rank */
    PR_HELLO_REPLY = 201, /* i32 rank, i32 size, u32 inc, i32 restarted,
                             u32 generation, i32 hostid, i32 nslots,
                             i32 local_slot, str jobid,
                             size x (i32 pid, i32 slot),
                             size x i32 hostid, size x i32 launch hostid,
                             str secret (added by the
                             daemon: never sent over the network) */
    PR_KV_VAL = 202,      /* str key, bytes value */
    PR_FENCE_DONE = 203,  /* - */
    PR_FINALIZE_DONE = 204, /* - */
    PR_EV_FAILURE = 205,  /* i32 rank, u32 inc, i32 pid, i32 signal,
                             i32 exit_code, str host */
    PR_AGREE_DONE = 207,  /* u64 key, i32 result */
    PR_EV_RECOVERED = 206,/* u32 generation, i32 size, i32 nfailed,
                             nfailed x i32 rank,
                             size x (i32 alive, i32 pid, i32 slot, u32 inc),
                             size x i32 hostid */
    PR_EV_ROUND = 208,    /* u32 generation: a recovery round that will
                             produce it has started and waits for this rank */
    PR_SPAWN_DONE = 210,  /* i32 rc (0 or -errno), i32 base, i32 n,
                             n x i32 errno (0: started) */
    PR_EV_REFUSED = 209,  /* u32 generation: the round this rank joined
                             cannot run (the job is finalizing) */

    /* daemon -> head */
    DH_HELLO = 301,       /* i32 hostid, str hostname, i32 pid (first
                             message of an ftmpid, after authentication) */
    DH_STARTED = 302,     /* i32 rank, u32 inc, i32 pid */
    DH_EXITED = 303,      /* i32 rank, u32 inc, i32 pid, i32 signal,
                             i32 exit_code, i32 exec_errno, i32 ctl_lost */
    DH_RANK = 304,        /* i32 rank, u32 inc, u32 type, bytes payload:
                             a message from a rank, forwarded */
    DH_OUTPUT = 305,      /* i32 rank, i32 stream (1|2), bytes data */
    DH_ALIVE = 306,       /* i32 rank, u32 inc: answer to HD_CHECK */
    DH_ERROR = 307,       /* str message: the daemon cannot go on */
    DH_HEARTBEAT = 308,   /* - : the daemon is alive */

    /* head -> daemon */
    HD_CONFIG = 401,      /* i32 hostid, i32 nslots, u32 ring_bytes,
                             i32 size, i32 tag_output, i32 stdin_rank,
                             str jobid, str cwd,
                             u32 argc, argc x str, u32 nenv, nenv x str,
                             i32 launch ranks on the host (binding) */
    HD_SPAWN = 402,       /* i32 rank, i32 slot, u32 inc, u32 generation,
                             i32 restarted, str fault_points, i32 spawned;
                             spawned: i32 world_base, i32 world_n,
                             i32 appnum, i32 parent_root, u32 tag,
                             str wdir, u32 argc, argc x str, u32 nenv,
                             nenv x str (MPI_Comm_spawn's command) */
    HD_TO_RANK = 403,     /* i32 rank, u32 inc, u32 type, bytes payload */
    HD_KILL = 404,        /* i32 rank, u32 inc, i32 signal */
    HD_KILL_ALL = 405,    /* i32 signal */
    HD_CHECK = 406,       /* i32 rank, u32 inc */
    HD_EXIT = 407,        /* - : the job is over */
    HD_HEARTBEAT = 408,   /* - : the head is alive (--heartbeat-interval) */

    /* either way, on a stream link, before anything else (link.c) */
    AUTH_NONCE = 501,     /* 32 raw bytes: a fresh random nonce */
    AUTH_PROOF = 502,     /* 32 raw bytes: HMAC proof (util/ft_auth.h) */
};

/* ---- building payloads ---- */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    int err;              /* sticky: -ENOMEM after a failed growth */
} proto_buf_t;

void proto_buf_init(proto_buf_t *b);
void proto_buf_free(proto_buf_t *b);
static inline void proto_buf_reset(proto_buf_t *b) { b->len = 0; b->err = 0; }
int proto_buf_reserve(proto_buf_t *b, size_t extra);
void proto_put_raw(proto_buf_t *b, const void *p, size_t n);
void proto_put_u32(proto_buf_t *b, uint32_t v);
void proto_put_i32(proto_buf_t *b, int32_t v);
void proto_put_u64(proto_buf_t *b, uint64_t v);
void proto_put_i64(proto_buf_t *b, int64_t v);
void proto_put_bytes(proto_buf_t *b, const void *p, size_t n);
void proto_put_str(proto_buf_t *b, const char *s); /* NULL = "" */

/* Append one framed message (header + payload) to b. */
void proto_frame(proto_buf_t *b, uint32_t type, const void *payload,
                 size_t len);

/* ---- reading payloads ---- */
typedef struct {
    const uint8_t *p;
    size_t len, off;
    int err;              /* sticky: -EPROTO after an underflow */
} proto_rd_t;

void proto_rd_init(proto_rd_t *r, const void *p, size_t len);
uint32_t proto_get_u32(proto_rd_t *r);
int32_t proto_get_i32(proto_rd_t *r);
uint64_t proto_get_u64(proto_rd_t *r);
int64_t proto_get_i64(proto_rd_t *r);
/* Pointer into the payload (not NUL-terminated); *n its length. */
const void *proto_get_bytes(proto_rd_t *r, uint32_t *n);
/* Copy a string into dst (NUL-terminated); error if it does not fit. */
void proto_get_str(proto_rd_t *r, char *dst, size_t cap);
/* malloc'd NUL-terminated copy (NULL on error). */
char *proto_get_strdup(proto_rd_t *r);
static inline int proto_rd_status(const proto_rd_t *r) { return r->err; }
/* A NULL-terminated string vector: u32 n, n x str (n <= max). */
void proto_put_strv(proto_buf_t *b, char *const *v);
char **proto_get_strv(proto_rd_t *r, uint32_t max); /* malloc'd; NULL on error */
void proto_strv_free(char **v);

/* Parse one message at buf[0..avail): returns the bytes it occupies when it
 * is complete (and sets the outputs), 0 when more bytes are needed, -EPROTO
 * when the length is impossible. */
long proto_parse(const void *buf, size_t avail, uint32_t *type_p,
                 const void **payload_p, uint32_t *len_p);

/* ---- a buffered connection over a non-blocking stream fd ---- */
typedef struct {
    int fd;
    proto_buf_t in;       /* received, not yet consumed: [in_off, in.len) */
    size_t in_off;
    proto_buf_t out;      /* queued, not yet written: [out_off, out.len) */
    size_t out_off;
} proto_conn_t;

void proto_conn_init(proto_conn_t *c, int fd);
void proto_conn_free(proto_conn_t *c);   /* frees buffers, does not close */
/* Read what is available. >0 bytes read, 0 nothing now (EAGAIN),
 * -EPIPE at end of stream, other -errno on error. */
long proto_conn_fill(proto_conn_t *c);
/* Next complete received message: 1 and outputs set (payload valid until
 * the next fill/next call), 0 none, -EPROTO on garbage. */
int proto_conn_next(proto_conn_t *c, uint32_t *type_p, const void **payload_p,
                    uint32_t *len_p);
/* Queue a message and try to write. 0 or -errno (-EPIPE peer gone). */
int proto_conn_send(proto_conn_t *c, uint32_t type, const void *payload,
                    size_t len);
/* Write queued bytes. 1 all written, 0 some still queued, <0 error. */
int proto_conn_flush(proto_conn_t *c);
static inline bool proto_conn_pending(const proto_conn_t *c)
{
    return c->out_off < c->out.len;
}

/* Blocking write of one whole message on fd (handles EINTR/EAGAIN). */
int proto_send_blocking(int fd, uint32_t type, const void *payload,
                        size_t len);

#pragma GCC visibility pop

#endif
