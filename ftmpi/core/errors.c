#include "errors.h"

#include <stdlib.h>
#include <string.h>

static const char *const class_strings[] = {
    [MPI_SUCCESS] = "MPI_SUCCESS: no error",
    [MPI_ERR_BUFFER] = "MPI_ERR_BUFFER: invalid buffer pointer",
    [MPI_ERR_COUNT] = "MPI_ERR_COUNT: invalid count argument",
    [MPI_ERR_TYPE] = "MPI_ERR_TYPE: invalid datatype",
    [MPI_ERR_TAG] = "MPI_ERR_TAG: invalid tag",
    [MPI_ERR_COMM] = "MPI_ERR_COMM: invalid communicator",
    [MPI_ERR_RANK] = "MPI_ERR_RANK: invalid rank",
    [MPI_ERR_REQUEST] = "MPI_ERR_REQUEST: invalid request",
    [MPI_ERR_ROOT] = "MPI_ERR_ROOT: invalid root",
    [MPI_ERR_GROUP] = "MPI_ERR_GROUP: invalid group",
    [MPI_ERR_OP] = "MPI_ERR_OP: invalid reduce operation",
    [MPI_ERR_TOPOLOGY] = "MPI_ERR_TOPOLOGY: invalid topology",
    [MPI_ERR_DIMS] = "MPI_ERR_DIMS: invalid dimension argument",
    [MPI_ERR_ARG] = "MPI_ERR_ARG: invalid argument of some other kind",
    [MPI_ERR_UNKNOWN] = "MPI_ERR_UNKNOWN: unknown error",
    [MPI_ERR_TRUNCATE] = "MPI_ERR_TRUNCATE: message truncated on receive",
    /* FT-MPI reports a process failure with this very code, but other errors
       have the class too (FTMPI_ERROR_FAILURE's code names the failed ranks) */
    [MPI_ERR_OTHER] =
        "MPI_ERR_OTHER: known error not in this list (outside ABORT mode also: a process failed)",
    [MPI_ERR_INTERN] = "MPI_ERR_INTERN: internal MPI (implementation) error",
    [MPI_ERR_IN_STATUS] = "MPI_ERR_IN_STATUS: error code is in status",
    [MPI_ERR_PENDING] = "MPI_ERR_PENDING: pending request",
    [MPI_ERR_ACCESS] = "MPI_ERR_ACCESS: permission denied",
    [MPI_ERR_AMODE] = "MPI_ERR_AMODE: error related to the amode passed to MPI_File_open",
    [MPI_ERR_ASSERT] = "MPI_ERR_ASSERT: invalid assert argument",
    [MPI_ERR_BAD_FILE] = "MPI_ERR_BAD_FILE: invalid file name",
    [MPI_ERR_BASE] = "MPI_ERR_BASE: invalid base argument",
    [MPI_ERR_CONVERSION] = "MPI_ERR_CONVERSION: error in a user-supplied data conversion function",
    [MPI_ERR_DISP] = "MPI_ERR_DISP: invalid displacement argument",
    [MPI_ERR_DUP_DATAREP] = "MPI_ERR_DUP_DATAREP: data representation already defined",
    [MPI_ERR_FILE_EXISTS] = "MPI_ERR_FILE_EXISTS: file exists",
    [MPI_ERR_FILE_IN_USE] = "MPI_ERR_FILE_IN_USE: file in use by some process",
    [MPI_ERR_FILE] = "MPI_ERR_FILE: invalid file handle",
    [MPI_ERR_INFO_KEY] = "MPI_ERR_INFO_KEY: key longer than MPI_MAX_INFO_KEY",
    [MPI_ERR_INFO_NOKEY] = "MPI_ERR_INFO_NOKEY: key not defined in info object",
    [MPI_ERR_INFO_VALUE] = "MPI_ERR_INFO_VALUE: value longer than MPI_MAX_INFO_VAL",
    [MPI_ERR_INFO] = "MPI_ERR_INFO: invalid info object",
    [MPI_ERR_IO] = "MPI_ERR_IO: other I/O error",
    [MPI_ERR_KEYVAL] = "MPI_ERR_KEYVAL: invalid attribute key",
    [MPI_ERR_LOCKTYPE] = "MPI_ERR_LOCKTYPE: invalid locktype argument",
    [MPI_ERR_NAME] = "MPI_ERR_NAME: invalid service name",
    [MPI_ERR_NO_MEM] = "MPI_ERR_NO_MEM: out of memory",
    [MPI_ERR_NOT_SAME] = "MPI_ERR_NOT_SAME: collective argument not identical on all processes",
    [MPI_ERR_NO_SPACE] = "MPI_ERR_NO_SPACE: not enough space",
    [MPI_ERR_NO_SUCH_FILE] = "MPI_ERR_NO_SUCH_FILE: file does not exist",
    [MPI_ERR_PORT] = "MPI_ERR_PORT: invalid port name",
    [MPI_ERR_QUOTA] = "MPI_ERR_QUOTA: quota exceeded",
    [MPI_ERR_READ_ONLY] = "MPI_ERR_READ_ONLY: read-only file or file system",
    [MPI_ERR_RMA_CONFLICT] = "MPI_ERR_RMA_CONFLICT: conflicting accesses to window",
    [MPI_ERR_RMA_SYNC] = "MPI_ERR_RMA_SYNC: wrong synchronization of RMA calls",
    [MPI_ERR_SERVICE] = "MPI_ERR_SERVICE: invalid service name",
    [MPI_ERR_SIZE] = "MPI_ERR_SIZE: invalid size argument",
    [MPI_ERR_SPAWN] = "MPI_ERR_SPAWN: error in spawning processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported",
    [MPI_ERR_WIN] = "MPI_ERR_WIN: invalid window",
    [MPI_ERR_RMA_RANGE] = "MPI_ERR_RMA_RANGE: target memory outside the window",
    [MPI_ERR_RMA_ATTACH] = "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    [MPI_ERR_RMA_SHARED] = "MPI_ERR_RMA_SHARED: memory cannot be shared",
    [MPI_ERR_RMA_FLAVOR] = "MPI_ERR_RMA_FLAVOR: wrong window flavor",
    [MPIX_ERR_PROC_FAILED] = "MPIX_ERR_PROC_FAILED: a process involved has failed",
    [MPIX_ERR_PROC_FAILED_PENDING] = "MPIX_ERR_PROC_FAILED_PENDING: operation pending on a failed process",
    [MPIX_ERR_REVOKED] = "MPIX_ERR_REVOKED: communicator revoked",
    [MPI_ERR_SESSION] = "MPI_ERR_SESSION: invalid session handle",
    [62] = "reserved error class",
    [63] = "reserved error class",
    [MPI_T_ERR_MEMORY] = "MPI_T_ERR_MEMORY: out of memory",
    [MPI_T_ERR_NOT_INITIALIZED] =
        "MPI_T_ERR_NOT_INITIALIZED: the tool interface is not initialized (MPI_T_init_thread)",
    [MPI_T_ERR_CANNOT_INIT] = "MPI_T_ERR_CANNOT_INIT: the tool interface cannot be initialized",
    [MPI_T_ERR_INVALID] =
        "MPI_T_ERR_INVALID: invalid use of the tool interface or invalid argument",
    [MPI_T_ERR_INVALID_INDEX] = "MPI_T_ERR_INVALID_INDEX: invalid or out-of-range index",
    [MPI_T_ERR_INVALID_ITEM] = "MPI_T_ERR_INVALID_ITEM: invalid item index of an enumeration",
    [MPI_T_ERR_INVALID_SESSION] = "MPI_T_ERR_INVALID_SESSION: invalid performance variable session",
    [MPI_T_ERR_INVALID_HANDLE] = "MPI_T_ERR_INVALID_HANDLE: invalid handle",
    [MPI_T_ERR_INVALID_NAME] =
        "MPI_T_ERR_INVALID_NAME: no variable, category or event of that name",
    [MPI_T_ERR_OUT_OF_HANDLES] = "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
    [MPI_T_ERR_OUT_OF_SESSIONS] = "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available",
    [MPI_T_ERR_CVAR_SET_NOT_NOW] =
        "MPI_T_ERR_CVAR_SET_NOT_NOW: the control variable cannot be set now",
    [MPI_T_ERR_CVAR_SET_NEVER] = "MPI_T_ERR_CVAR_SET_NEVER: the control variable can never be set",
    [MPI_T_ERR_PVAR_NO_WRITE] =
        "MPI_T_ERR_PVAR_NO_WRITE: the performance variable cannot be written or reset",
    [MPI_T_ERR_PVAR_NO_STARTSTOP] =
        "MPI_T_ERR_PVAR_NO_STARTSTOP: the performance variable cannot be started or stopped",
    [MPI_T_ERR_PVAR_NO_ATOMIC] =
        "MPI_T_ERR_PVAR_NO_ATOMIC: the performance variable cannot be read and reset atomically",
    [MPI_T_ERR_NOT_ACCESSIBLE] =
        "MPI_T_ERR_NOT_ACCESSIBLE: the requested information is not accessible",
    [MPI_T_ERR_NOT_SUPPORTED] =
        "MPI_T_ERR_NOT_SUPPORTED: the requested functionality is not supported",
    [MPI_ERR_LASTCODE] = "MPI_ERR_LASTCODE: last predefined error code",
};

/* User classes and codes live above MPI_ERR_LASTCODE. */
typedef struct {
    int cls;      /* the class (for a class: itself) */
    char *string;
} user_err_t;

static user_err_t *user_errs;
static int n_user;     /* user codes/classes: code = MPI_ERR_LASTCODE + 1 + i */

int err_module_init(void)
{
    return 0;
}

void err_module_fini(void)
{
    for (int i = 0; i < n_user; i++)
        free(user_errs[i].string);
    free(user_errs);
    user_errs = NULL;
    n_user = 0;
}

static user_err_t *user_err(int code)
{
    int i = code - MPI_ERR_LASTCODE - 1;
    return i >= 0 && i < n_user ? &user_errs[i] : NULL;
}

int err_class_of(int code)
{
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return code;
    user_err_t *u = user_err(code);
    return u ? u->cls : -1;
}

const char *err_string(int code)
{
    if (code >= 0 && code <= MPI_ERR_LASTCODE)
        return class_strings[code];
    user_err_t *u = user_err(code);
    if (!u)
        return NULL;
    return u->string ? u->string : "";
}

static int err_new(int cls)
{
    user_err_t *n = realloc(user_errs, (size_t)(n_user + 1) * sizeof(*n));
    if (!n)
        return -1;
    user_errs = n;
    int code = MPI_ERR_LASTCODE + 1 + n_user;
    user_errs[n_user].cls = cls < 0 ? code : cls;
    user_errs[n_user].string = NULL;
    n_user++;
    return code;
}

int err_add_class(int *cls)
{
    int c = err_new(-1);
    if (c < 0)
        return MPI_ERR_NO_MEM;
    *cls = c;
    return MPI_SUCCESS;
}

int err_add_code(int cls, int *code)
{
    /* The class must be a predefined class or a user-defined class. */
    if (cls < 0 || err_class_of(cls) != cls)
        return MPI_ERR_ARG;
    int c = err_new(cls);
    if (c < 0)
        return MPI_ERR_NO_MEM;
    *code = c;
    return MPI_SUCCESS;
}

int err_set_string(int code, const char *s)
{
    user_err_t *u = user_err(code);
    if (!u)
        return MPI_ERR_ARG;
    if (strlen(s) >= MPI_MAX_ERROR_STRING)
        return MPI_ERR_ARG;
    char *d = strdup(s);
    if (!d)
        return MPI_ERR_NO_MEM;
    free(u->string);
    u->string = d;
    return MPI_SUCCESS;
}

int err_last_used(void)
{
    return MPI_ERR_LASTCODE + n_user;
}

int err_make_code(int cls, const char *s)
{
    int code;
    if (err_add_code(cls, &code) != MPI_SUCCESS)
        return cls;
    err_set_string(code, s);
    return code;
}
