/* The request message an origin sends to a target (rma.h):
 * rma_hdr_t, then nruns rma_run_t (the target layout, byte displacements
 * from the target address), then `data` bytes (packed origin values; for
 * compare-and-swap the compare value, then the origin value).
 * Replies: put and accumulate get an int32 status (0 or an MPI error
 * class); get, get-accumulate and compare-and-swap get the packed data,
 * or an empty message when the target refused (MPI_ERR_RMA_RANGE). */
#ifndef FTMPI_RMA_WIRE_H
#define FTMPI_RMA_WIRE_H

#include <stdint.h>

typedef struct {
    uint32_t kind;   /* RMA_PUT ... RMA_UNLOCK */
    uint32_t tag;    /* the reply's tag */
    int32_t op;      /* accumulate: MPI_Op handle; lock: MPI_LOCK_* */
    int32_t pad;
    int64_t disp;    /* bytes from the window base (dynamic: an address) */
    uint64_t nruns;
    uint64_t data;
} rma_hdr_t;

#endif
