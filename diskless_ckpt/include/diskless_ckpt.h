/*
 * diskless_ckpt.h - in-memory (diskless) checkpointing over MPI.
 *
 * The ranks of a communicator are split into groups; each group has k data
 * ranks, which run the application and register its state, and m checksum
 * ranks, which do not compute and hold an erasure code of the data ranks'
 * state: XOR parity (m = 1) or Reed-Solomon over GF(2^8) with a Cauchy matrix
 * (any m >= 1). After a process failure and a REBUILD recovery, the state of
 * up to m lost ranks per group (data or checksum ranks, any mix) is decoded
 * into the replacements' registered buffers, lost checksums are re-encoded,
 * and every rank rolls back to the same checkpoint epoch.
 *
 * Only standard MPI is used. See docs/diskless_ckpt.md for a walk-through.
 *
 * ROLES. Ranks are grouped in consecutive blocks of the communicator's rank
 * order. With n ranks and parameters (k, m): G = ceil(n / (k + m)) groups
 * (k = 0 means one group), reduced while a group would have fewer than
 * m + 1 ranks; the n ranks spread over the G groups as evenly as possible
 * (the first n % G groups get one rank more), and in each group the LAST m
 * ranks are the checksum ranks. So k is the most data ranks a group has
 * (unless n is too small for groups of m + 1). Use dckpt_plan() to compute
 * the layout before launch, and
 * dckpt_is_checksum_rank() / dckpt_data_comm() at run time: the application
 * computes on the data ranks only (dckpt_data_comm() is MPI_COMM_NULL on the
 * checksum ranks).
 *
 * EPOCHS. Checkpoints are numbered 1, 2, 3, ... (the same on every rank).
 * A checkpoint writes into the inactive half of a double buffer and switches
 * only once every rank of the communicator has its part complete; a failure
 * during a checkpoint leaves the previous epoch intact. dckpt_restore()
 * returns the NEWEST epoch that every group can rebuild (no group lacks it
 * on more than m members, the dead included): this is the last epoch whose
 * dckpt_checkpoint() returned DCKPT_SUCCESS on any rank, or, if a failure
 * interrupted the commit step of the next checkpoint after the groups had
 * finished their parts, that next epoch. The epoch number and
 * the application's metadata blob (e.g. the iteration count) come back in
 * dckpt_restore_info_t, so the application knows where to resume.
 *
 * ERRORS. Every function returns DCKPT_SUCCESS (0) or a negative
 * DCKPT_ERR_* code; dckpt_strerror() names it. Collective calls return the
 * same code on every rank (where ranks fail for different reasons, the
 * lowest code wins), except DCKPT_ERR_MPI, which a rank returns when its own
 * MPI call failed. More lost ranks than m in any group is reported as
 * DCKPT_ERR_UNRECOVERABLE on every rank, and no buffer is touched. Every
 * restored byte is checked against the CRC-32 recorded at checkpoint time:
 * damaged data is reported (DCKPT_ERR_CORRUPT), never returned silently.
 *
 * THREADS. A context is used by one thread at a time.
 */
#ifndef DISKLESS_CKPT_H
#define DISKLESS_CKPT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ codes */

enum {
    DCKPT_SUCCESS = 0,
    DCKPT_ERR_ARG = -1,           /* a bad argument (NULL pointer, m < 1, m too large, ...) */
    DCKPT_ERR_NOMEM = -2,         /* out of memory */
    DCKPT_ERR_MPI = -3,           /* an MPI call failed (e.g. a process failed): recover, then dckpt_restore */
    DCKPT_ERR_STATE = -4,         /* call not allowed now (see the function) */
    DCKPT_ERR_NO_CHECKPOINT = -5, /* restore: no checkpoint epoch was committed: start over */
    DCKPT_ERR_UNRECOVERABLE = -6, /* restore: more than m ranks lost in one group */
    DCKPT_ERR_MISMATCH = -7,      /* restore: registered buffers or communicator differ from the checkpoint */
    DCKPT_ERR_CORRUPT = -8        /* restore: data failed its CRC check */
};

/* Largest application metadata blob stored with a checkpoint, in bytes. */
#define DCKPT_META_MAX 256

/* Default streaming chunk. */
#define DCKPT_DEFAULT_CHUNK ((size_t)256 * 1024)

typedef enum dckpt_code {
    DCKPT_CODE_XOR = 1, /* parity, m must be 1 */
    DCKPT_CODE_RS = 2   /* Reed-Solomon (Cauchy, ISA-L), any m >= 1, k + m <= 256 */
} dckpt_code_t;

typedef struct dckpt_params {
    dckpt_code_t code;
    int m;              /* checksum ranks per group, >= 1 (XOR: exactly 1) */
    int k;              /* most data ranks per group; 0: one group over the whole communicator */
    size_t chunk_bytes; /* streaming chunk; 0: DCKPT_DEFAULT_CHUNK; 4 KiB .. 64 MiB */
    int overlap;        /* 1: overlapped checkpoints (dckpt_checkpoint); 0: blocking */
} dckpt_params_t;

/* Where the last dckpt_checkpoint of this rank spent its time (seconds) and
   which bytes it touched; dckpt_last_stats(). With overlap, wait_s, crc_s
   and commit_s are those of the previous epoch, settled by this call. */
typedef struct dckpt_stats {
    double wait_s;    /* overlap, data rank: waiting for the previous epoch's transfers */
    double records_s; /* stage 1: the group's allgather of records */
    double copy_s;    /* copies into the half (registered bytes with their CRC, frozen
                         bytes from the committed half) */
    double encode_s;  /* stage 2 less copy_s: encode, transfers, CRC on checksum ranks */
    double crc_s;     /* stage 3: the group's allgather of CRCs and statuses */
    double commit_s;  /* stage 4: the agreement over the communicator */
    size_t registered;    /* data rank: registered bytes; checksum rank: fragment length */
    size_t copied;        /* data rank: registered bytes copied into the half */
    size_t copied_frozen; /* bytes copied from the committed half (frozen since then) */
    size_t encoded;       /* bytes of the group's fragment encoded (dckpt_encoded_bytes) */
    int overlapped;       /* 1: this call started an epoch that commits at the next one */
} dckpt_stats_t;

typedef struct dckpt_ctx dckpt_ctx_t;

/* Where a rank sits; dckpt_layout(). */
typedef struct dckpt_layout {
    int ngroups;     /* groups in the communicator */
    int group;       /* this rank's group, 0..ngroups-1 */
    int group_rank;  /* position in the group, 0..group_size-1 */
    int group_size;  /* k_g + m of this group */
    int k;           /* data ranks in this group */
    int m;           /* checksum ranks per group */
    int is_checksum; /* 1 on a checksum rank */
    int ndata;       /* data ranks in the whole communicator (size of dckpt_data_comm) */
    int data_rank;   /* this rank's rank in dckpt_data_comm, -1 on a checksum rank */
} dckpt_layout_t;

/* What dckpt_restore() did. */
typedef struct dckpt_restore_info {
    int64_t epoch;                        /* epoch every rank now holds again */
    int nlost;                            /* ranks whose state was rebuilt by decoding, all groups */
    int lost_self;                        /* 1 if this rank's state was rebuilt by decoding */
    int bad_group;                        /* on DCKPT_ERR_UNRECOVERABLE: a group that lost too many; else -1 */
    int bad_lost;                         /* on DCKPT_ERR_UNRECOVERABLE: how many members bad_group lost */
    size_t meta_len;                      /* length of meta */
    unsigned char meta[DCKPT_META_MAX];   /* this rank's blob given to dckpt_checkpoint for `epoch` */
} dckpt_restore_info_t;

/* ------------------------------------------------------------------ set-up */

/*
 * Compute the layout for n ranks without MPI: number of groups and of data
 * ranks. Returns DCKPT_SUCCESS or DCKPT_ERR_ARG (same argument rules as
 * dckpt_create). Either output pointer may be NULL.
 */
int dckpt_plan(int nprocs, const dckpt_params_t *params, int *ngroups_p, int *ndata_p);

/*
 * Create a context over `comm` (collective over comm: it duplicates and
 * splits it). Every rank passes the same parameters. Arguments are checked:
 * comm != MPI_COMM_NULL, m >= 1, XOR only with m = 1, k >= 0, a group of
 * k + m <= 256 ranks for RS, at least m + 1 ranks in comm, chunk in range.
 *
 * A REPLACEMENT process (MPI_Init returned MPI_INIT_RESTARTED_NODE) calls
 * dckpt_create, registers its buffers, then dckpt_restore: its dckpt_create
 * pairs with the communicator rebuild that the survivors' dckpt_restore does
 * first, so the survivors must call dckpt_restore (e.g. from their recovery
 * callback) while the replacement calls dckpt_create + dckpt_restore.
 *
 * The context duplicates comm: an attribute on comm whose keyval copies on
 * dup (a copy function other than MPI_COMM_NULL_COPY_FN) is copied to the
 * internal communicators, and its delete function runs when they are freed.
 * A recovery callback attached to MPI_COMM_WORLD must therefore use
 * MPI_COMM_NULL_COPY_FN.
 */
int dckpt_create(MPI_Comm comm, const dckpt_params_t *params, dckpt_ctx_t **ctx_p);

/* Free a context and its communicators (collective over the communicator). *ctx_p = NULL. */
int dckpt_free(dckpt_ctx_t **ctx_p);

/*
 * Register `bytes` bytes at `ptr` as part of this rank's state (local call).
 * Several buffers may be registered; sizes may differ between buffers and
 * between ranks (the library pads internally). The checkpointed state is the
 * concatenation of the registered buffers in registration order. bytes may
 * be 0 (ptr may then be NULL). Only on data ranks: a checksum rank gets
 * DCKPT_ERR_STATE. Buffers may be added or cleared between checkpoints; a
 * restore needs the same list (count and sizes) as the restored epoch had,
 * else DCKPT_ERR_MISMATCH.
 */
int dckpt_register(dckpt_ctx_t *ctx, void *ptr, size_t bytes);

/* Forget every registered buffer (local call). */
int dckpt_clear(dckpt_ctx_t *ctx);

/*
 * Incremental checkpoints (local call, data ranks; DCKPT_ERR_STATE on a
 * checksum rank): the first `bytes` of this rank's state (the concatenation
 * of the registered buffers) will not change again before the next
 * dckpt_restore. A later checkpoint then re-encodes only what follows the
 * part that was frozen when the half it overwrites was written (in each
 * group, the smallest such part of its members); the stored state and its
 * restore are the same as with full checkpoints. Set it again after every
 * restore (a restore resets it to 0); it may grow or shrink (the latest call
 * counts). An application that never calls it gets full checkpoints.
 */
int dckpt_freeze(dckpt_ctx_t *ctx, size_t bytes);

/*
 * The same for a column-major matrix in the state whose top rows are final
 * (a factorization's U or R rows): frozen are the first `bytes` and, of the
 * `count` columns of `stride` bytes starting at byte `base` of the state,
 * the first `head` bytes of each (head <= stride, else DCKPT_ERR_ARG).
 * dckpt_freeze(ctx, b) is dckpt_freeze_strided(ctx, b, 0, 0, 0, 0). The
 * group encodes the offsets that some member has not frozen, in runs.
 */
int dckpt_freeze_strided(dckpt_ctx_t *ctx, size_t bytes, size_t base, size_t stride,
                         size_t count, size_t head);

/* Zeroed memory for large state (free it with free()): from 4 MiB on in
   transparent huge pages where the system offers them on request, so that
   its first touch - and a replacement's restore into it - takes far fewer
   page faults. The library's own checkpoint halves use it. NULL: no memory. */
void *dckpt_alloc_state(size_t bytes);

/*
 * Allocate and touch both halves of the double buffer and the streaming
 * buffers now, for the buffers registered so far (collective over the
 * communicator: a checksum rank learns its group's fragment length), so that
 * the first checkpoints do not pay the page faults of fresh memory. It moves
 * that cost here (call it before the timed work), it does not remove it.
 * Optional; halves that already hold an epoch are left alone. Returns
 * DCKPT_ERR_MPI if the collective failed (recover as after any MPI error),
 * DCKPT_ERR_NOMEM (the checkpoint will try again).
 */
int dckpt_prefault(dckpt_ctx_t *ctx);

/* ------------------------------------------------------------------ queries */

int dckpt_is_checksum_rank(const dckpt_ctx_t *ctx); /* 1 checksum rank, 0 data rank, <0 error */

/*
 * The communicator of the data ranks only, in the order of the original
 * communicator; MPI_COMM_NULL on checksum ranks. Owned by the context (do not
 * free it). It is a NEW communicator after every dckpt_restore (the old one
 * was destroyed by the MPI recovery): fetch it again after restoring.
 */
MPI_Comm dckpt_data_comm(const dckpt_ctx_t *ctx);

int dckpt_layout(const dckpt_ctx_t *ctx, dckpt_layout_t *layout);

/* Newest committed epoch (0: none yet). */
int64_t dckpt_epoch(const dckpt_ctx_t *ctx);

/*
 * Memory the context holds now, in bytes: both halves of the double buffer,
 * the streaming buffers and the group records. See docs for the formula.
 */
size_t dckpt_memory_bytes(const dckpt_ctx_t *ctx);
/* Bytes of its group's fragment that the last checkpoint encoded (the
   fragment's length unless parts were frozen, dckpt_freeze); 0 before any. */
size_t dckpt_encoded_bytes(const dckpt_ctx_t *ctx);
/* This rank's dckpt_stats_t of its last dckpt_checkpoint (zeros before any). */
int dckpt_last_stats(const dckpt_ctx_t *ctx, dckpt_stats_t *st);

const char *dckpt_strerror(int code);

/* ------------------------------------------------------------------ operations */

/*
 * Take a checkpoint (collective over the communicator). The registered
 * buffers of every data rank are copied into the inactive half of the local
 * double buffer and encoded onto the group's checksum ranks, streamed in
 * chunks. `meta` (meta_len <= DCKPT_META_MAX bytes, may differ per rank) is
 * stored with it. On success *epoch_p (may be NULL) is the new epoch on every
 * rank. On failure the previous epoch stays intact; the context then accepts
 * only dckpt_restore (DCKPT_ERR_STATE otherwise) - after an MPI error,
 * recover the communicator first.
 *
 * Overlapped (params.overlap = 1, issue 15): stages 3 and 4 of epoch e (the
 * CRC exchange and the commit) are deferred to the next dckpt_checkpoint. A
 * data rank copies its registered bytes into its half (the snapshot), posts
 * nonblocking sends of the bytes to encode to the checksum ranks (who read
 * them from the half: single copy) and returns; the checksum ranks receive
 * and encode, the data ranks compute meanwhile. *epoch_p is
 * the started epoch; dckpt_epoch() stays the committed one until the next
 * call, which first waits for the transfers and commits e, then starts e+1.
 * A failure before that commit falls back to the epoch before e. The last
 * epoch of a run is never committed (the one before it is).
 */
int dckpt_checkpoint(dckpt_ctx_t *ctx, const void *meta, size_t meta_len, int64_t *epoch_p);

/*
 * Roll every rank back to the newest epoch E that every group can rebuild
 * (collective over `comm`, which must have the size and rank order of the
 * communicator given to dckpt_create: after a REBUILD recovery, pass
 * MPI_COMM_WORLD or the re-created communicator).
 *
 * Lost ranks are the ranks that lack E: the ranks listed in
 * failed[0..nfailed-1] by any caller, the ranks whose context holds no
 * checkpoint (a replacement with a fresh context, or one killed again before
 * its restore completed: one lost rank however often it failed), and
 * survivors whose part of E was never written (a checkpoint interrupted in
 * their group). Survivors may therefore pass 0, NULL after a real failure;
 * tests that only simulate a failure list the "failed" ranks, whose stored
 * state is then discarded as if they had died. More than m lost ranks in a
 * group for every epoch held: DCKPT_ERR_UNRECOVERABLE if any survivor had
 * committed an epoch, else DCKPT_ERR_NO_CHECKPOINT (below).
 *
 * Survivors get their registered buffers overwritten with their state of that
 * epoch; lost data ranks get theirs decoded into their registered buffers;
 * lost checksum ranks get their checksums re-encoded. *info (may be NULL)
 * says which epoch and returns the metadata blob. The context's internal
 * communicators are rebuilt from `comm` (get dckpt_data_comm() again).
 * A restore that fails on an MPI error may be repeated after recovery.
 * DCKPT_ERR_NO_CHECKPOINT because no epoch can be rebuilt and no survivor
 * committed one (a failure before the first checkpoint committed, in any
 * group) leaves the context ready for new checkpoints (epoch 1 next): start
 * the application over.
 */
int dckpt_restore(dckpt_ctx_t *ctx, MPI_Comm comm, int nfailed, const int *failed,
                  dckpt_restore_info_t *info);

#ifdef __cplusplus
}
#endif

#endif /* DISKLESS_CKPT_H */
