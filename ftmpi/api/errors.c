/* Error classes, strings, and error handler functions (MPI-1 and MPI-2 names). */
#include "api/api.h"

#include <string.h>

static void copy_string(const char *s, char *string, int *resultlen)
{
    size_t n = strnlen(s, MPI_MAX_ERROR_STRING - 1);
    memcpy(string, s, n);
    string[n] = 0;
    *resultlen = (int)n;
}

API_WEAK(Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (!string || !resultlen)
        return MPI_ERR_ARG;
    const char *s = err_string(errorcode);
    if (!s) {
        string[0] = 0;
        *resultlen = 0;
        return MPI_ERR_ARG;
    }
    copy_string(s, string, resultlen);
    return MPI_SUCCESS;
}

/* The cause of the last error raised in this thread (core/err_cause.h).
 * Local, allowed at any time, like MPI_Error_string. */
int PFTMPI_Error_cause(char *string, int *resultlen)
{
    if (!string || !resultlen)
        return MPI_ERR_ARG;
    copy_string(err_cause_last(), string, resultlen);
    return MPI_SUCCESS;
}
API_ALIAS(FTMPI_Error_cause, PFTMPI_Error_cause)

API_WEAK(Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return MPI_ERR_ARG;
    int c = err_class_of(errorcode);
    if (c < 0)
        return MPI_ERR_ARG;
    *errorclass = c;
    return MPI_SUCCESS;
}

API_WEAK(Add_error_class)
int PMPI_Add_error_class(int *errorclass)
{
    API_BEGIN("MPI_Add_error_class");
    CHECK_PTR(errorclass);
    rc = err_add_class(errorclass);
    API_END();
}

API_WEAK(Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    API_BEGIN("MPI_Add_error_code");
    CHECK_PTR(errorcode);
    rc = err_add_code(errorclass, errorcode);
    API_END();
}

API_WEAK(Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string)
{
    API_BEGIN("MPI_Add_error_string");
    CHECK_PTR(string);
    rc = err_set_string(errorcode, string);
    API_END();
}

static int create_common(const char *fname, errh_kind_t kind, void (*fn)(void),
                         MPI_Errhandler *errhandler)
{
    API_BEGIN(fname);
    CHECK_PTR(fn);
    CHECK_PTR(errhandler);
    errh_t *e = errh_create(kind, fn);
    if (!e)
        API_FAIL(MPI_ERR_NO_MEM);
    *errhandler = e->handle;
    API_END();
}

API_WEAK(Errhandler_create)
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    return create_common("MPI_Errhandler_create", ERRH_COMM, (void (*)(void))function,
                         errhandler);
}

API_WEAK(Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function,
                                MPI_Errhandler *errhandler)
{
    return create_common("MPI_Comm_create_errhandler", ERRH_COMM, (void (*)(void))function,
                         errhandler);
}

API_WEAK(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *function,
                               MPI_Errhandler *errhandler)
{
    return create_common("MPI_Win_create_errhandler", ERRH_WIN, (void (*)(void))function,
                         errhandler);
}

API_WEAK(File_create_errhandler)
int PMPI_File_create_errhandler(MPI_File_errhandler_function *function,
                                MPI_Errhandler *errhandler)
{
    return create_common("MPI_File_create_errhandler", ERRH_FILE, (void (*)(void))function,
                         errhandler);
}

static int set_common(const char *fname, MPI_Comm comm, MPI_Errhandler errhandler)
{
    API_BEGIN(fname);
    comm_t *c = comm_get(comm);
    if (!c)
        API_FAIL(MPI_ERR_COMM);
    err_comm = c;
    errh_t *e = errh_get_kind(errhandler, ERRH_COMM);
    if (!e)
        API_FAIL(MPI_ERR_ARG);
    errh_replace(&c->errh, e);
    API_END();
}

API_WEAK(Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_common("MPI_Errhandler_set", comm, errhandler);
}

API_WEAK(Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_common("MPI_Comm_set_errhandler", comm, errhandler);
}

static int get_common(const char *fname, MPI_Comm comm, MPI_Errhandler *errhandler)
{
    API_BEGIN(fname);
    CHECK_PTR(errhandler);
    comm_t *c = comm_get(comm);
    if (!c)
        API_FAIL(MPI_ERR_COMM);
    err_comm = c;
    errh_retain(c->errh); /* the caller must free the handle it gets */
    *errhandler = c->errh->handle;
    API_END();
}

API_WEAK(Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_common("MPI_Errhandler_get", comm, errhandler);
}

API_WEAK(Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return get_common("MPI_Comm_get_errhandler", comm, errhandler);
}

API_WEAK(Errhandler_free)
/* Also before MPI_Init and after MPI_Finalize (MPI-4.0 11.4.1). */
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    API_BEGIN_ANYTIME("MPI_Errhandler_free");
    CHECK_PTR(errhandler);
    errh_t *e = errh_get(*errhandler);
    if (!e)
        API_FAIL(MPI_ERR_ARG);
    errh_release(e);
    *errhandler = MPI_ERRHANDLER_NULL;
    API_END_ANYTIME();
}

API_WEAK(Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    API_BEGIN("MPI_Comm_call_errhandler");
    comm_t *c = comm_get(comm);
    if (!c)
        API_FAIL(MPI_ERR_COMM);
    errh_invoke(c->errh, c->handle, errorcode, FNAME);
    API_END();
}
