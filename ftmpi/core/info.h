/*
 * Info objects: ordered (key, value) string pairs. Keys keep the order in
 * which they were first set (MPI_Info_get_nthkey); setting a key again
 * replaces its value in place. MPI_INFO_ENV is predefined and read-only.
 * Functions return 0 or an MPI error class.
 */
#ifndef FTMPI_CORE_INFO_H
#define FTMPI_CORE_INFO_H

#include "mpi.h"

typedef struct info_entry {
    char *key;
    char *val;
} info_entry_t;

typedef struct info {
    int handle;          /* MPI_INFO_NULL while internal only */
    int refcount;        /* user handle + holders (communicators) */
    int predefined;
    int n, cap;
    info_entry_t *e;     /* [n], in first-set order */
} info_t;

/* MPI_Init: (re)fill MPI_INFO_ENV. The module starts on its first use,
 * before MPI_Init if the program calls MPI_Info_* there, and stays up
 * after MPI_Finalize (MPI-4.0 11.4.1). */
int info_module_init(void);
info_t *info_get(MPI_Info h);             /* NULL if not a live handle */
info_t *info_new(void);                   /* refcount 1, no handle */
int info_make_handle(info_t *i);
void info_release(info_t *i);
/* Copy of i (NULL copies to an empty object); NULL on out of memory. */
info_t *info_dup(const info_t *i);

/* MPI_ERR_INFO_KEY / MPI_ERR_INFO_VALUE for bad strings. */
int info_set(info_t *i, const char *key, const char *val);
/* The value of key, or NULL. */
const char *info_find(const info_t *i, const char *key);
int info_delete(info_t *i, const char *key);  /* MPI_ERR_INFO_NOKEY if absent */
/* Validate a key string: MPI_SUCCESS or MPI_ERR_INFO_KEY. */
int info_check_key(const char *key);

#endif
