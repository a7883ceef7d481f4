#include "errhandler.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/err_cause.h"
#include "core/errors.h"
#include "core/proc.h"
#include "util/handle.h"

static handle_table_t errh_table;
static errh_t predef[4];

static int ready;

/* The table and the predefined handlers, on the first use: error handlers
 * for sessions are made before MPI_Init, and freed after MPI_Finalize
 * (MPI-4.0 11.4.1), so the table is not tied to the library's start and
 * end. The callers serialize (api/api.h, API_BEGIN_ANYTIME). */
int errh_module_init(void)
{
    if (ready)
        return 0;
    handle_table_init(&errh_table, FTMPI_KIND_ERRHANDLER, 4);
    for (int i = 1; i < 4; i++) {
        predef[i].handle = FTMPI_HANDLE(FTMPI_KIND_ERRHANDLER, i);
        predef[i].refcount = 1;
        predef[i].predefined = 1;
        predef[i].kind = 0; /* usable on any object */
        handle_table_set(&errh_table, (size_t)i, &predef[i]);
    }
    ready = 1;
    return 0;
}

errh_t *errh_get(MPI_Errhandler h)
{
    errh_module_init();
    return handle_get(&errh_table, h);
}

errh_t *errh_get_kind(MPI_Errhandler h, errh_kind_t kind)
{
    errh_t *e = errh_get(h);
    return e && (!e->kind || e->kind == kind) ? e : NULL;
}

void errh_replace(errh_t **slot, errh_t *e)
{
    errh_retain(e);
    if (*slot)
        errh_release(*slot);
    *slot = e;
}

void errh_retain(errh_t *e)
{
    if (!e->predefined)
        e->refcount++;
}

void errh_release(errh_t *e)
{
    if (e->predefined)
        return;
    if (--e->refcount > 0)
        return;
    handle_release(&errh_table, e->handle);
    free(e);
}

errh_t *errh_create(errh_kind_t kind, void (*fn)(void))
{
    errh_t *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->kind = kind;
    e->fn = fn;
    e->refcount = 1;
    errh_module_init();
    e->handle = handle_alloc(&errh_table, e);
    if (e->handle < 0) {
        free(e);
        return NULL;
    }
    return e;
}

int errh_invoke(errh_t *e, int obj, int code, const char *fname)
{
    if (code == MPI_SUCCESS)
        return code;
    const char *why = err_cause_raise(code, fname); /* "fname: class string[: cause]" */
    if (!e || e->handle == MPI_ERRORS_ARE_FATAL || e->handle == MPI_ERRORS_ABORT) {
        char msg[MPI_MAX_ERROR_STRING + 128];
        snprintf(msg, sizeof(msg), "ftmpi: rank %d: %s (error handler MPI_ERRORS_ARE_FATAL)",
                 ftg.world_rank, why);
        fprintf(stderr, "%s\n", msg);
        fflush(stderr);
        if (ftg.singleton || !ftg.initialized)
            exit(code ? code : 1);
        rtc_abort(code, msg);
    }
    if (e->handle == MPI_ERRORS_RETURN)
        return code;
    /* A user function: called with the library unlocked (it may call MPI). */
    int obj_copy = obj, code_copy = code;
    if (ftg.multiple)
        pthread_mutex_unlock(&ftg.lock);
    ((void (*)(int *, int *, ...))e->fn)(&obj_copy, &code_copy);
    if (ftg.multiple)
        pthread_mutex_lock(&ftg.lock);
    return code;
}
