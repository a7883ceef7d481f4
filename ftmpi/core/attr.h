/*
 * Attributes on communicators (and datatypes): keyvals with copy and
 * delete callbacks, per-object lists kept in the order in which each
 * keyval was first attached (replacing a value keeps its place), so that
 * delete callbacks run in a documented order. FT-MPI's recovery callbacks
 * (docs/ft.md, contract section 6) are delete functions on MPI_COMM_WORLD
 * and run in attachment order; freeing an object (and MPI_COMM_SELF at
 * MPI_Finalize, as MPI-2.2 asks) runs them last attached first. A delete
 * callback may delete or set other attributes of the same object: each
 * attribute leaves the list before its callback runs.
 */
#ifndef FTMPI_CORE_ATTR_H
#define FTMPI_CORE_ATTR_H

#include "mpi.h"
#include "core/comm.h"

typedef enum { KV_COMM = 1, KV_TYPE, KV_WIN } kv_kind_t;

/* Keyvals below this are the predefined keys (mpi.h: MPI_TAG_UB ...,
 * ftmpi.h: FTMPI_COMM_MODE ...); the ones users create start here. */
#define ATTR_KEYVAL_FIRST_USER 32
static inline int attr_keyval_predefined(int keyval)
{
    return keyval > 0 && keyval < ATTR_KEYVAL_FIRST_USER;
}

int attr_module_init(void);
void attr_module_fini(void);

int attr_keyval_create(kv_kind_t kind, void (*copy)(void), void (*del)(void), void *extra,
                       int old_style, int *keyval);
int attr_keyval_free(kv_kind_t kind, int *keyval);

/* obj_handle is passed to callbacks; list is the object's attribute list. */
int attr_set(kv_kind_t kind, void **list, int obj_handle, int keyval, void *val);
int attr_get(kv_kind_t kind, void **list, int keyval, void *val_out, int *flag);
int attr_delete(kv_kind_t kind, void **list, int obj_handle, int keyval);
/* Copy the list of `from` into `*to` through the copy callbacks (dup). */
int attr_copy(kv_kind_t kind, void *from, int from_handle, void **to);
/* Run every delete callback, last attached first, and empty the list (free). */
int attr_clear(kv_kind_t kind, void **list, int obj_handle);
/* Empty the list without calling any callback (finalize). */
void attr_drop(kv_kind_t kind, void **list);
/* Call every delete callback in attachment order, keeping the values
 * attached (FT-MPI recovery callbacks). A callback may set or delete
 * attributes of the object: the walk is over the list as it was, skipping
 * entries deleted meanwhile. */
int attr_call_deletes(kv_kind_t kind, void **list, int obj_handle);

/* Predefined attribute of MPI_COMM_WORLD / MPI_COMM_SELF (read-only):
 * 1 and *(void **)val_out set if keyval is predefined. */
int attr_predefined(int keyval, void *val_out);

#endif
