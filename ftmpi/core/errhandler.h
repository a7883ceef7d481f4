/* Error handlers and their invocation at the API edge. */
#ifndef FTMPI_CORE_ERRHANDLER_H
#define FTMPI_CORE_ERRHANDLER_H

#include "mpi.h"

typedef enum { ERRH_COMM = 1, ERRH_WIN, ERRH_FILE, ERRH_SESSION } errh_kind_t;

typedef struct errh {
    int handle;
    int refcount;
    int predefined;
    errh_kind_t kind;
    void (*fn)(void);  /* the user function, cast at the call */
} errh_t;

/* Starts the table once (also on the first errh_get/errh_create, before
 * MPI_Init); it stays up after MPI_Finalize. */
int errh_module_init(void);
errh_t *errh_get(MPI_Errhandler h);
/* Handle h if it names a handler usable on objects of `kind` (the
 * predefined ones are usable on every kind), else NULL. */
errh_t *errh_get_kind(MPI_Errhandler h, errh_kind_t kind);
/* *slot becomes e (retained), its former handler (if any) released. */
void errh_replace(errh_t **slot, errh_t *e);
void errh_retain(errh_t *e);
void errh_release(errh_t *e);
errh_t *errh_create(errh_kind_t kind, void (*fn)(void));

/* Invoke handler e for object handle `obj` (a comm, win or file) and error
 * code `code` from function `fname`. Returns the code to give back to the
 * application. ERRORS_ARE_FATAL does not return. */
int errh_invoke(errh_t *e, int obj, int code, const char *fname);

#endif
