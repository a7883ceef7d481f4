/*
 * dckpt_testing.h - fault injection for the library's own tests (not part of
 * the public API, not installed). It lets a failure-free MPI reproduce the
 * states that a process failure in the middle of a checkpoint leaves behind.
 * Each fault applies to the next dckpt_checkpoint() only.
 */
#ifndef DCKPT_TESTING_H
#define DCKPT_TESTING_H

#include "diskless_ckpt.h"

enum {
    DCKPT_FAULT_NONE = 0,
    /* Streaming stops after `arg` chunks on every rank (all ranks must set
       the same arg; a fragment with fewer chunks is streamed whole); the
       checkpoint then returns DCKPT_ERR_MPI with the new epoch half written:
       the state a failure during encoding leaves. */
    DCKPT_FAULT_ENCODE_STOP = 1,
    /* The checkpoint completes locally but the commit agreement is skipped
       (set it on every rank): with arg != 0 this rank behaves as if the
       agreement had returned (commits, DCKPT_SUCCESS); with arg == 0 as if it
       had failed (DCKPT_ERR_MPI). A failure inside the commit step. */
    DCKPT_FAULT_SKIP_COMMIT = 2,
    /* Like SKIP_COMMIT with arg == 0, and this rank also marks the new epoch
       incomplete, as if the group's final exchange had failed on it. */
    DCKPT_FAULT_LOSE_DONE = 3
};

void dckpt_test_set_fault(dckpt_ctx_t *ctx, int kind, long arg);

#endif /* DCKPT_TESTING_H */
