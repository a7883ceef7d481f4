/*
 * The MPI tool information interface (MPI-4.0 15.3, docs/mpit.md): the
 * tables of variables, categories and events, and what the MPI_T_ entry
 * points share.
 *
 * MPI_T functions work before MPI_Init and after MPI_Finalize, between
 * MPI_T_init_thread and the matching MPI_T_finalize; they return their
 * error codes (never through an error handler, as the standard says):
 *
 *   int PMPI_T_foo(...)
 *   {
 *       T_BEGIN();              // not initialized: MPI_T_ERR_NOT_INITIALIZED
 *       if (bad) T_FAIL(MPI_T_ERR_INVALID);
 *       ...
 *       T_END();                // unlock, return rc
 *   }
 *
 * One mutex (mpit_mutex) serializes the tool interface; what touches the
 * library's state also takes the library lock (api_lock), after it. The
 * event callbacks run with the library lock held and without mpit_mutex
 * (api/mpit_event.c), so the functions they may call (MPI_T_event_read,
 * _copy, _get_timestamp, _get_source) take neither.
 */
#ifndef FTMPI_API_MPIT_H
#define FTMPI_API_MPIT_H

#include <pthread.h>
#include <stdint.h>

#include "mpi.h"
#include "util/list.h"

#pragma GCC visibility push(hidden)

extern pthread_mutex_t mpit_mutex;
extern int mpit_nesting; /* MPI_T_init_thread calls not yet finalized */

#define T_BEGIN()                                  \
    int rc = MPI_SUCCESS;                          \
    pthread_mutex_lock(&mpit_mutex);               \
    if (mpit_nesting == 0) {                       \
        pthread_mutex_unlock(&mpit_mutex);         \
        return MPI_T_ERR_NOT_INITIALIZED;          \
    }
#define T_FAIL(code) do { rc = (code); goto fail; } while (0)
#define T_END()                                    \
    fail: __attribute__((unused));                 \
    pthread_mutex_unlock(&mpit_mutex);             \
    return rc

/* Copy s into buf of *len characters (the MPI_T string convention: buf
 * NULL or *len 0: only *len is set, to strlen(s) + 1; else at most *len - 1
 * characters and a NUL, and *len becomes the length written + 1). */
void mpit_str(const char *s, char *buf, int *len);

/* The index of the entry called `name` among n, whose names name_of(i, arg)
 * gives (NULL: entry i does not count): MPI_SUCCESS, MPI_T_ERR_INVALID_NAME,
 * or MPI_T_ERR_INVALID for a NULL argument. */
int mpit_find(const char *name, int n, const char *(*name_of)(int i, int arg), int arg,
              int *index);

/* Is node n (a handle's link; anything, even NULL) on list h? Handles are
 * checked this way, so a made-up one is refused, never dereferenced. */
int mpit_on_list(const list_node_t *h, const void *n);

/* ---- enumerations (MPI_T_enum) ----------------------------------------- */
typedef struct {
    const char *name;
    int n;
    const char *const *items; /* item i's name; its value is vals[i], or i - base */
    const int *vals;          /* NULL: values base .. base + n - 1 */
    int base;
} mpit_enum_t;
/* MPI_T_enum handles are pointers into these tables. */
int mpit_enum_valid(MPI_T_enum e);

/* ---- control variables (api/mpit_cvars.c) ------------------------------ */
typedef struct {
    const char *name;
    const char *desc;
    int verbosity, bind, scope;
    MPI_Datatype type;       /* MPI_INT or MPI_UNSIGNED_LONG (count 1) */
    const mpit_enum_t *en;   /* a choice: its enumeration, else NULL */
    int arg;                 /* passed to read/write (the collective kind) */
    /* buf holds one value of `type`. write NULL: never writable. Return
     * MPI_SUCCESS or an MPI_T_ERR_ code. */
    int (*read)(int arg, void *buf);
    int (*write)(int arg, const void *buf);
} mpit_cvar_t;
int mpit_cvar_count(void);
const mpit_cvar_t *mpit_cvar(int i);

/* ---- performance variables (api/mpit_pvars.c) -------------------------- */
typedef struct mpit_pvar mpit_pvar_t;
struct mpit_pvar {
    const char *name;
    const char *desc;
    int verbosity, var_class, bind;
    MPI_Datatype type;       /* MPI_UNSIGNED_LONG_LONG, MPI_DOUBLE or MPI_INT */
    int readonly, continuous, atomic;
    /* elements per handle (obj: the bound object, NULL when none bound) */
    int (*count)(const void *obj);
    /* the source's value now, element by element, as 64-bit integers
     * (a TIMER: nanoseconds; the handle turns them into seconds). obj as
     * above. MPI_SUCCESS or an MPI_T_ERR_ code. */
    int (*sample)(const void *obj, int64_t *vals, int n);
    const mpit_enum_t *en;   /* a STATE's enumeration, else NULL */
};
int mpit_pvar_count(void);
const mpit_pvar_t *mpit_pvar(int i);
/* An object of the variable's binding (MPI_T_pvar_handle_alloc's
 * obj_handle): checks it and returns what count()/sample() take, or sets
 * *rc. */
const void *mpit_pvar_bind(const mpit_pvar_t *v, const void *obj_handle, int *rc);

/* ---- events (api/mpit_event.c) ----------------------------------------- */
int mpit_event_count(void);
const char *mpit_event_name(int i);

/* MPI_T_finalize's last call: free what the tool made (sessions, handles,
 * registrations). */
void mpit_pvar_fini(void);
void mpit_cvar_fini(void);
void mpit_event_fini(void);

#pragma GCC visibility pop

#endif
