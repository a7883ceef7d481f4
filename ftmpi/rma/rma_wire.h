/* The request messages an origin sends to a target (rma.h): one or more
 * requests back to back, each rma_hdr_t, then nruns rma_run_t (the target
 * layout, byte displacements from the target address), then `data` bytes
 * (packed origin values; for compare-and-swap the compare value, then the
 * origin value), padded to 8 bytes.
 * Replies (tag != 0): get, get-accumulate and compare-and-swap get the
 * packed data, or an empty message when the target refused
 * (MPI_ERR_RMA_RANGE); lock, unlock and flush an int32 status: for unlock
 * and flush the first error of the origin's requests without a reply
 * (puts, accumulates: tag 0) since the last one. */
#ifndef FTMPI_RMA_WIRE_H
#define FTMPI_RMA_WIRE_H

#include <stdint.h>

typedef struct {
    uint32_t kind;   /* RMA_PUT ... RMA_FLUSH */
    uint32_t tag;    /* the reply's tag; 0: no reply */
    int32_t op;      /* accumulate: MPI_Op handle; lock: MPI_LOCK_* */
    int32_t pad;
    int64_t disp;    /* bytes from the window base (dynamic: an address) */
    uint64_t nruns;
    uint64_t data;
} rma_hdr_t;

/* A message gathers requests up to this many bytes; a bigger request goes
 * alone. */
#define RMA_BATCH_MAX 8192

static inline uint64_t rma_pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

#endif
