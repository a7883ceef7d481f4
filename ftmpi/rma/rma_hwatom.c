/* Hardware atomics on a mapped window and the mutex path that agrees with
 * them (rma_hwatom.h, docs/rma.md "Small atomics"). */
#include "rma/rma_hwatom.h"

#include <stdint.h>
#include <string.h>

size_t rma_hw_size(dt_kind_t k)
{
    switch (k) {
    case DTK_CHAR: case DTK_SCHAR: case DTK_UCHAR: case DTK_BYTE: case DTK_WCHAR:
    case DTK_SHORT: case DTK_USHORT: case DTK_INT: case DTK_UINT: case DTK_LONG:
    case DTK_ULONG: case DTK_LLONG: case DTK_ULLONG: case DTK_INT8: case DTK_INT16:
    case DTK_INT32: case DTK_INT64: case DTK_UINT8: case DTK_UINT16: case DTK_UINT32:
    case DTK_UINT64: case DTK_BOOL: case DTK_AINT: case DTK_OFFSET: case DTK_COUNT:
    case DTK_FLOGICAL: {
        size_t sz = dt_kind_size(k);
        return sz == 1 || sz == 2 || sz == 4 || sz == 8 ? sz : 0;
    }
    default:
        return 0;
    }
}

/* The instruction on a T at p; r gets the old value. */
#define HW_DO(T)                                                                  \
    do {                                                                          \
        T v = 0, r, *p = (T *)at;                                                 \
        if (in)                                                                   \
            memcpy(&v, in, sizeof(T));                                            \
        if (kind == RMA_CAS) {                                                    \
            memcpy(&r, cmp, sizeof(T));                                           \
            __atomic_compare_exchange_n(p, &r, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        } else if (op == MPI_SUM)                                                 \
            r = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                       \
        else if (op == MPI_REPLACE)                                               \
            r = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                      \
        else if (op == MPI_BAND)                                                  \
            r = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                       \
        else if (op == MPI_BOR)                                                   \
            r = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                        \
        else if (op == MPI_BXOR)                                                  \
            r = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                       \
        else /* MPI_NO_OP */                                                      \
            r = __atomic_load_n(p, __ATOMIC_SEQ_CST);                             \
        if (old)                                                                  \
            memcpy(old, &r, sizeof(T));                                           \
    } while (0)

/* The flag, once per window: under the mutex, so that a read-modify-write
 * that read it clear is over before the first hardware atomic. */
static void hw_mark(win_t *w)
{
    if (rma_hw_on(w))
        return;
    rma_shm_lock(w);
    __atomic_store_n(&((rma_seg_head_t *)w->seg)->hw, 1, __ATOMIC_RELEASE);
    rma_shm_unlock(w);
}

int rma_hw_try(win_t *w, int kind, MPI_Op op, dt_kind_t k, const void *in, const void *cmp,
               void *old, char *at)
{
    size_t sz = rma_hw_size(k);
    if (!sz || ((uintptr_t)at & (sz - 1)) || !rma_hw_op(kind, op))
        return 0;
    if (kind != RMA_CAS && op == MPI_NO_OP)
        in = NULL;
    hw_mark(w);
    switch (sz) {
    case 1: HW_DO(uint8_t); break;
    case 2: HW_DO(uint16_t); break;
    case 4: HW_DO(uint32_t); break;
    default: HW_DO(uint64_t); break;
    }
    return 1;
}

/* One element of sz bytes at `at` by a compare-and-swap loop: cur is read,
 * combined with in (op NULL: replaced by it) and written only if the
 * element still holds cur. */
#define CAS_LOOP(T)                                                               \
    do {                                                                          \
        T cur = __atomic_load_n((T *)at, __ATOMIC_SEQ_CST), nxt;                  \
        do {                                                                      \
            nxt = cur;                                                            \
            if (!op)                                                              \
                memcpy(&nxt, in, sizeof(T));                                      \
            else if ((rc = op_apply(op, in, &nxt, 1, kt)) != MPI_SUCCESS)         \
                return rc;                                                        \
        } while (!__atomic_compare_exchange_n((T *)at, &cur, nxt, 0, __ATOMIC_SEQ_CST, \
                                              __ATOMIC_SEQ_CST));                 \
        memcpy(was, &cur, sizeof(T));                                             \
    } while (0)

static int elem_rmw(char *at, size_t sz, const char *in, op_t *op, dt_t *kt, char *was)
{
    int rc = MPI_SUCCESS;
    switch (sz) {
    case 1: CAS_LOOP(uint8_t); break;
    case 2: CAS_LOOP(uint16_t); break;
    case 4: CAS_LOOP(uint32_t); break;
    default: CAS_LOOP(uint64_t); break;
    }
    return rc;
}

static void elem_load(const char *at, size_t sz, char *out)
{
    switch (sz) {
    case 1: { uint8_t v = __atomic_load_n((const uint8_t *)at, __ATOMIC_SEQ_CST); memcpy(out, &v, 1); break; }
    case 2: { uint16_t v = __atomic_load_n((const uint16_t *)at, __ATOMIC_SEQ_CST); memcpy(out, &v, 2); break; }
    case 4: { uint32_t v = __atomic_load_n((const uint32_t *)at, __ATOMIC_SEQ_CST); memcpy(out, &v, 4); break; }
    default: { uint64_t v = __atomic_load_n((const uint64_t *)at, __ATOMIC_SEQ_CST); memcpy(out, &v, 8); break; }
    }
}

int rma_hw_apply_run(char *at, size_t n, dt_kind_t k, const char *in, op_t *op, char *old)
{
    size_t sz = rma_hw_size(k);
    int noop = op && op->handle == MPI_NO_OP;
    if (!sz || ((uintptr_t)at & (sz - 1))) { /* no hardware atomic can touch these */
        rma_run_t run = {.disp = 0, .kind = (uint32_t)k, .n = n};
        if (!noop)
            return rma_apply(at, &run, 1, in, op, old);
        if (old)
            rma_copy_out(at, &run, 1, old);
        return MPI_SUCCESS;
    }
    dt_t *kt = op ? rma_kind_type(k) : NULL;
    if (op && !noop && !kt)
        return MPI_ERR_OP;
    char was[8];
    for (size_t i = 0; i < n; i++, at += sz) {
        if (noop)
            elem_load(at, sz, was);
        else {
            int rc = elem_rmw(at, sz, in + i * sz, op, kt, was);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        if (old)
            memcpy(old + i * sz, was, sz);
    }
    return MPI_SUCCESS;
}

int rma_hw_apply(char *base, const rma_run_t *runs, size_t n, const char *in, op_t *op, char *old)
{
    for (size_t i = 0; i < n; i++) {
        dt_kind_t k = (dt_kind_t)runs[i].kind;
        size_t sz = dt_kind_size(k), bytes = runs[i].n * sz;
        int rc = MPI_SUCCESS;
        if ((MPI_Aint)sz == dt_kind_extent(k))
            rc = rma_hw_apply_run(base + runs[i].disp, runs[i].n, k, in, op, old);
        else if (!op || op->handle != MPI_NO_OP) /* padded pairs: no hardware atomics */
            rc = rma_apply(base, &runs[i], 1, in, op, old);
        else if (old)
            rma_copy_out(base, &runs[i], 1, old);
        if (rc != MPI_SUCCESS)
            return rc;
        if (in)
            in += bytes;
        if (old)
            old += bytes;
    }
    return MPI_SUCCESS;
}
