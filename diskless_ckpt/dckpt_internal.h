/*
 * dckpt_internal.h - the checkpoint context and the helpers shared by the
 * library's files. Not installed.
 *
 * Files:
 *   dckpt_ctx.c         create/free, layout, communicators, registration, queries
 *   dckpt_store.c       double-buffer slots, gather/scatter of registered bytes, CRC
 *   dckpt_pipe.c        streamed, pipelined chain reduction of fragments (encode and decode)
 *   dckpt_checkpoint.c  the checkpoint protocol
 *   dckpt_overlap.c     overlapped checkpoints: the data ranks' sends, the checksum ranks' encode
 *   dckpt_restore.c     the restore protocol
 */
#ifndef DCKPT_INTERNAL_H
#define DCKPT_INTERNAL_H

#include "diskless_ckpt.h"
#include "dckpt_rs.h"

#include <stdint.h>

/* chunks in flight per rank in the pipeline */
#define DCKPT_PIPE_DEPTH 4
#define DCKPT_CHUNK_MIN ((size_t)4096)
/* a source copies, checksums and encodes a chunk in pieces of this many
 * bytes, each while it is in the first-level cache (dckpt_pipe.c) */
#define DCKPT_PIPE_PIECE ((size_t)16384)
#define DCKPT_CHUNK_MAX ((size_t)64 << 20)

#define DCKPT_TAG_ENCODE 0x5ec0
#define DCKPT_TAG_DECODE 0x5ec1
#define DCKPT_TAG_OVERLAP 0x5ec2

/*
 * One group member's record of one epoch. Every member of a group holds the
 * records of all members (gathered at checkpoint time), so a replacement can
 * learn its own from any survivor. Exchanged as raw bytes: all ranks run the
 * same executable.
 */
/*
 * What a rank has frozen (dckpt_freeze.c): the bytes [0, prefix) and, of the
 * `count` columns of `stride` bytes that start at byte `base`, the first
 * `head` bytes of each.
 */
typedef struct dckpt_frz {
    uint64_t prefix;
    uint64_t base;
    uint64_t stride;
    uint64_t count;
    uint64_t head;
    uint64_t ok; /* in a record's skip: 1 when the skip may be used at all */
} dckpt_frz_t;

typedef struct dckpt_rec {
    int64_t epoch;
    uint64_t bytes;      /* data rank: registered bytes; checksum rank: fragment length */
    uint32_t nbufs;      /* registered buffers */
    uint32_t layout_crc; /* CRC-32 of the registered sizes */
    uint32_t crc;        /* CRC-32 of the stored bytes (data, or checksum fragment) */
    int32_t status;      /* 0, or the DCKPT_ERR_ code that failed this member's part */
    uint32_t meta_len;
    uint32_t reserved;
    dckpt_frz_t skip;    /* bytes this member need not encode again: frozen since the
                            committed epoch, copied from its half (dckpt_freeze.c) */
    dckpt_frz_t have;    /* of those, the bytes the half being written holds already */
    unsigned char meta[DCKPT_META_MAX];
} dckpt_rec_t;

enum {
    DCKPT_SLOT_EMPTY = 0,
    DCKPT_SLOT_PENDING = 1, /* being written, or interrupted */
    DCKPT_SLOT_DONE = 2     /* every member of the group finished its part */
};

/* One half of the double buffer. */
typedef struct dckpt_slot {
    int state;
    int64_t epoch;
    uint8_t *buf;      /* data rank: its registered bytes; checksum rank: its checksum fragment */
    size_t cap;
    size_t len;        /* valid bytes in buf */
    size_t frag_len;   /* the group's fragment length L (longest data rank) */
    dckpt_rec_t *recs; /* group_size records */
    dckpt_frz_t frozen; /* ctx->frozen when this epoch was written (dckpt_freeze.c) */
} dckpt_slot_t;

typedef struct dckpt_buf {
    void *ptr;
    size_t bytes;
} dckpt_buf_t;

/* Test-only fault injection (dckpt_testing.h). */
typedef struct dckpt_fault {
    int kind;
    long arg;
} dckpt_fault_t;

struct dckpt_ctx {
    dckpt_params_t params; /* normalized (chunk_bytes set) */
    int nprocs;
    int rank;
    dckpt_layout_t lay;
    int *group_of;      /* [nprocs] group of each rank (dckpt_place.c) */
    int *group_rank_of; /* [nprocs] its rank in the group */
    int *members;       /* [group_size] communicator rank of each member of this group */

    MPI_Comm world; /* dup of the user's communicator */
    MPI_Comm group; /* this rank's group */
    MPI_Comm data;  /* data ranks only; MPI_COMM_NULL on checksum ranks */
    int fresh;      /* communicators built by dckpt_create and not used yet */

    dckpt_rs_t rs;         /* RS code of this group (DCKPT_CODE_RS) */
    uint8_t *parity_coef;  /* m x k encode coefficients */

    dckpt_buf_t *bufs;
    int nbufs;
    int bufs_cap;

    dckpt_slot_t slot[2];
    int active;          /* slot of the committed epoch, -1 none */
    dckpt_frz_t frozen;  /* dckpt_freeze: registered bytes that no longer change */
    size_t encoded;      /* bytes the last checkpoint encoded (dckpt_encoded_bytes) */
    int64_t epoch;       /* committed epoch, 0 none */
    int64_t next_epoch;  /* number of the next checkpoint */
    int needs_restore;   /* a checkpoint failed: only restore is allowed */

    int *iota;            /* 0, 1, ..., group_size - 1 */
    int *plan_src;        /* group_size ints: decode sources */
    int *plan_tgt;        /* group_size ints: decode targets */
    uint8_t *plan_rows;   /* m x group_size: decode coefficients */
    int32_t *crc_scratch; /* 2 x group_size */
    int *lost_flags;      /* group_size ints: member lost in this restore */
    dckpt_rec_t *recs_tmp; /* group_size records received in a restore */
    uint8_t *lost_map;    /* 2 x ceil(nprocs / 8): agreed and own bitmap of lost ranks */
    long long *epoch_tab; /* 3 x nprocs: every rank's newest and oldest DONE and committed epoch */
    int *group_lost;      /* ngroups ints: members lacking an epoch, per group */

    uint8_t *pool; /* pipeline buffers */
    size_t pool_cap;

    dckpt_fault_t fault;

    dckpt_stats_t stats; /* of the last dckpt_checkpoint (dckpt_last_stats) */
    /* overlap: the started epoch, committed by the next call (dckpt_checkpoint.c) */
    struct {
        int active;
        int w;         /* its half */
        int verdict;   /* the group's verdict of stage 1 */
        int local;     /* this rank's status */
        uint32_t crc;  /* this rank's CRC of its half */
    } pend;
    MPI_Request *ovl_req; /* overlap, data rank: its sends of the started epoch */
    MPI_Datatype *ovl_type;
    int ovl_nreq, ovl_ntype, ovl_cap;
};

/* ---- dckpt_ctx.c */
/* The layout of `rank`; host[r] is rank r's host (NULL: one host per rank).
   group_of, group_rank_of (nprocs ints each, or NULL) receive the whole
   placement. */
int dckpt_layout_compute(int nprocs, const dckpt_params_t *p, const int *host, int rank,
                         dckpt_layout_t *lay, int *group_of, int *group_rank_of);
/* collective; returns the status agreed over comm (MIN of local_status), or an error */
int dckpt_ctx_comms_build(dckpt_ctx_t *ctx, MPI_Comm comm, int local_status);
void dckpt_ctx_comms_free(dckpt_ctx_t *ctx);
/* MIN-agree an int status over ctx->world; returns the agreed code, or DCKPT_ERR_MPI */
int dckpt_ctx_agree(dckpt_ctx_t *ctx, int status);

/* ---- dckpt_store.c */
uint32_t dckpt_crc(uint32_t crc, const void *p, size_t n);
size_t dckpt_store_registered_bytes(const dckpt_ctx_t *ctx);
uint32_t dckpt_store_layout_crc(const dckpt_ctx_t *ctx);
int dckpt_store_slot_reserve(dckpt_slot_t *slot, size_t len, int group_size);
void dckpt_store_slot_clear(dckpt_slot_t *slot);
void dckpt_store_slot_release(dckpt_slot_t *slot);
/* copy registered bytes [off, off + n) of the concatenated registrations to dst */
void dckpt_store_gather(const dckpt_ctx_t *ctx, size_t off, uint8_t *dst, size_t n);
/* copy src (the concatenated registrations) back into the registered buffers; returns its CRC */
uint32_t dckpt_store_scatter(const dckpt_ctx_t *ctx, const uint8_t *src, size_t n);
/* the slot holding a DONE epoch, or -1 */
int dckpt_store_slot_of(const dckpt_ctx_t *ctx, int64_t epoch);
/* newest and oldest DONE epochs (0, 0 when none) */
void dckpt_store_done_range(const dckpt_ctx_t *ctx, int64_t *newest, int64_t *oldest);
int dckpt_store_pool_reserve(dckpt_ctx_t *ctx, size_t bytes);

/* ---- dckpt_freeze.c */
/* The bytes of the state that hold the same values in slot s (an older
   epoch, DONE: the committed one or the one before) as now. */
dckpt_frz_t dckpt_freeze_skip(const dckpt_ctx_t *ctx, int s, size_t data_bytes);
/* The first run of offsets in [from, frag_len) that the group (k data
   members, then its checksum members, gsz in all) must encode (have 0:
   the bytes not skipped by every data member, recs[i].skip, recs[i].bytes)
   or must fill otherwise than from the half being written (have 1: by
   recs[i].have); all of them if a member's half cannot be used. Returns 0
   when there is none. */
int dckpt_freeze_next_run(const dckpt_rec_t *recs, int have, int k, int gsz, size_t frag_len,
                          size_t from, size_t *off, size_t *len);

/* ---- dckpt_checkpoint.c */
/* the runs of the fragment the group encodes in the epoch being written
   (arg: the context; a dckpt_pipe_t next_run) */
int dckpt_ckpt_next_run(void *arg, size_t from, size_t *off, size_t *len);

/* ---- dckpt_overlap.c (all: 0 or DCKPT_ERR_MPI / DCKPT_ERR_NOMEM) */
/* data rank: nonblocking sends of the bytes to encode, [0, valid) of the half */
int dckpt_overlap_post(dckpt_ctx_t *ctx, const dckpt_slot_t *slot, size_t valid);
/* checksum rank: receive every data rank's bytes, encode this rank's row into
   the half (have_buf 0: receive and drop), done() on each piece in order */
int dckpt_overlap_encode(dckpt_ctx_t *ctx, dckpt_slot_t *slot, int have_buf,
                         void (*done)(void *arg, const uint8_t *p, size_t off, size_t n),
                         void *arg);
/* data rank: wait for the sends; drop: free them unfinished (after a failure) */
int dckpt_overlap_wait(dckpt_ctx_t *ctx);
void dckpt_overlap_drop(dckpt_ctx_t *ctx);

/* ---- dckpt_pipe.c */
/*
 * A chain reduction of fragments, streamed in chunks: the sources, in chain
 * order, each add coef[t][s] * (their fragment) to the partial results of
 * every target t and pass the partials on; the last source sends each target
 * its result. Every rank of `comm` involved calls dckpt_pipe_run with the
 * same description; ranks not named return at once.
 */
typedef struct dckpt_pipe {
    MPI_Comm comm;
    int tag;
    int nsrc;
    const int *src; /* ranks in comm, chain order */
    int ntgt;
    const int *tgt;      /* ranks in comm */
    const uint8_t *coef; /* ntgt x nsrc, row-major */
    int use_xor;         /* every coefficient is 1: plain XOR */
    size_t len;          /* fragment length (with runs: the sum of the runs' lengths) */
    /* NULL: the pipe's offset o is byte o of buf; else the pipe streams runs
       of buf's bytes in order: next_run(run_arg, from, &off, &len) gives the
       first at or after offset `from` (dckpt_freeze.c) */
    int (*next_run)(void *run_arg, size_t from, size_t *off, size_t *len);
    void *run_arg;
    size_t chunk;
    long stop_after;     /* tests: every rank stops after this many chunks (-1: never) */

    int me; /* this rank in comm */
    /* source: its fragment buf[0, valid), zeros beyond; target: where the result goes
       (bytes beyond `valid` are dropped; buf NULL: drop everything) */
    uint8_t *buf;
    size_t valid;
    void (*fill)(void *arg, uint8_t *dst, size_t off, size_t n); /* source: before reading */
    void (*done)(void *arg, const uint8_t *p, size_t off, size_t n); /* target: after arrival */
    void *arg;
    uint8_t *pool; /* dckpt_pipe_pool_bytes() */
} dckpt_pipe_t;

size_t dckpt_pipe_pool_bytes(int ntgt, size_t chunk);
int dckpt_pipe_run(const dckpt_pipe_t *p);

#endif /* DCKPT_INTERNAL_H */
