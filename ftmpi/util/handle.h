/*
 * Handle tables: MPI handles are ints (kind << 26 | index, see mpi.h).
 * Each kind has one table mapping indices to object pointers. Index 0 is
 * the null handle; predefined objects are registered at fixed indices at
 * start-up; user objects take free indices (lowest first, so handle values
 * stay small and reproducible).
 */
#ifndef FTMPI_UTIL_HANDLE_H
#define FTMPI_UTIL_HANDLE_H

#include <stddef.h>

#define HANDLE_KIND_SHIFT 26
#define HANDLE_INDEX_MASK ((1u << HANDLE_KIND_SHIFT) - 1)

typedef struct {
    int kind;
    void **slots;      /* index -> object, NULL if free */
    size_t cap;
    size_t reserved;   /* indices below this are predefined */
    size_t next_free;  /* hint: lowest index that may be free */
    size_t live;       /* user objects currently allocated */
} handle_table_t;

void handle_table_init(handle_table_t *t, int kind, size_t reserved);
void handle_table_fini(handle_table_t *t);
/* Register a predefined object at a fixed index (< reserved). */
void handle_table_set(handle_table_t *t, size_t index, void *obj);
/* Allocate a handle for obj; returns the handle or -1 on out of memory. */
int handle_alloc(handle_table_t *t, void *obj);
void handle_release(handle_table_t *t, int handle);

static inline int handle_kind(int h) { return (int)((unsigned)h >> HANDLE_KIND_SHIFT); }
static inline size_t handle_index(int h) { return (unsigned)h & HANDLE_INDEX_MASK; }

/* The object behind h, or NULL if h is not a live handle of this table. */
static inline void *handle_get(const handle_table_t *t, int h)
{
    size_t i = handle_index(h);
    if (handle_kind(h) != t->kind || i >= t->cap)
        return NULL;
    return t->slots[i];
}

#endif
