/*
 * Hardware atomics on a mapped window (RMA_VIA_SHM: MPI_Win_allocate on
 * one host, MPI_Win_allocate_shared). A one-element MPI_Fetch_and_op,
 * MPI_Compare_and_swap, MPI_Get_accumulate or MPI_Accumulate whose
 * (type, op) is one lock-prefixed instruction (an integer, logical or byte
 * type of 1, 2, 4 or 8 bytes, naturally aligned; MPI_SUM, MPI_REPLACE,
 * MPI_NO_OP, MPI_BAND, MPI_BOR, MPI_BXOR; compare-and-swap) is done by the
 * origin with that instruction, without the segment's mutex.
 *
 * Atomicity between the paths (MPI-3.1 11.7.1: every accumulate is atomic
 * per element with respect to every other on the same element and type):
 * the mutex path's read-modify-write of an element is not atomic with
 * respect to a lock-free instruction. So the first hardware atomic on a
 * window sets a flag in the segment's head under the mutex (rma_hw_mark),
 * and every read-modify-write under the mutex that finds the flag set
 * (read under the mutex) updates each aligned element of those kinds with
 * a compare-and-swap loop (rma_hw_apply_run). A mutex holder that read the
 * flag clear finished before the flag was set; every later one sees it.
 * Which op a concurrent caller uses does not matter (no promise through
 * the accumulate_ops info key is needed). Windows that never see a
 * hardware atomic keep the plain loops.
 */
#ifndef FTMPI_RMA_RMA_HWATOM_H
#define FTMPI_RMA_RMA_HWATOM_H

#include "rma/rma.h"

/* The element size a hardware atomic serves for kind k (1, 2, 4, 8), else 0. */
size_t rma_hw_size(dt_kind_t k);
/* May (kind, op) be a hardware atomic? kind RMA_ACC, RMA_GACC, RMA_CAS. */
static inline int rma_hw_op(int kind, MPI_Op op)
{
    return kind == RMA_CAS || op == MPI_SUM || op == MPI_REPLACE || op == MPI_NO_OP ||
           op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR;
}
/* Is the window's flag set (hardware atomics have run on it)? Read it under the mutex. */
static inline int rma_hw_on(const win_t *w)
{
    return __atomic_load_n(&((rma_seg_head_t *)w->seg)->hw, __ATOMIC_ACQUIRE);
}
/* One element of kind k at `at`: a hardware atomic (kind RMA_ACC, RMA_GACC
 * with op; RMA_CAS with cmp). in: the operand; old (may be NULL for
 * RMA_ACC): the previous value. 1: done; 0: not served (kind, op or
 * alignment), the mutex path must take it. */
int rma_hw_try(win_t *w, int kind, MPI_Op op, dt_kind_t k, const void *in, const void *cmp,
               void *old, char *at);
/* Under the mutex with the flag set: n elements of kind k (contiguous) at
 * `at` combined with packed `in` by op (NULL: replace; MPI_NO_OP: read
 * only), old values to `old` (may be NULL); aligned elements of a hardware
 * kind by a compare-and-swap loop each, the rest as rma_apply does. */
int rma_hw_apply_run(char *at, size_t n, dt_kind_t k, const char *in, op_t *op, char *old);
/* rma_apply / rma_copy_out (op MPI_NO_OP) over runs, the same way. */
int rma_hw_apply(char *base, const rma_run_t *runs, size_t n, const char *in, op_t *op, char *old);

#endif
