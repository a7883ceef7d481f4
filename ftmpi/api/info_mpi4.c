/*
 * The MPI-4.0 info functions: MPI_Info_get_string (the value and its
 * length in one call) and MPI_Info_create_env (a new info object with the
 * execution environment: MPI_INFO_ENV's keys plus "command" and "argv"
 * from the arguments). MPI_Info_create_env works after MPI_Init only
 * (the standard also allows it before: not here, docs/coverage.md).
 */
#include "api/api.h"

#include <stdio.h>
#include <string.h>

#include "core/info.h"

API_WEAK(Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    API_BEGIN("MPI_Info_get_string");
    info_t *i = info_get(info);
    if (!i)
        API_FAIL(MPI_ERR_INFO);
    CHECK_PTR(buflen);
    CHECK_PTR(flag);
    if ((rc = info_check_key(key)) != MPI_SUCCESS)
        goto fail;
    if (*buflen < 0)
        API_FAIL(MPI_ERR_ARG);
    const char *v = info_find(i, key);
    *flag = v != NULL;
    if (!v)
        goto fail; /* not there: value and buflen unchanged */
    size_t len = strlen(v);
    if (*buflen > 0) {
        /* at most buflen - 1 characters, always terminated */
        CHECK_PTR(value);
        size_t n = len < (size_t)*buflen - 1 ? len : (size_t)*buflen - 1;
        memcpy(value, v, n);
        value[n] = '\0';
    }
    *buflen = (int)len + 1; /* the size the whole value needs */
    API_END();
}

API_WEAK(Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    API_BEGIN("MPI_Info_create_env");
    CHECK_PTR(info);
    if (argc < 0 || (argc > 0 && !argv))
        API_FAIL(MPI_ERR_ARG);
    info_t *n = info_dup(info_get(MPI_INFO_ENV));
    if (!n)
        API_FAIL(MPI_ERR_NO_MEM);
    if (argc > 0 && argv[0]) {
        /* "command": the program; "argv": its arguments, blank-separated */
        char args[MPI_MAX_INFO_VAL];
        size_t at = 0;
        args[0] = '\0';
        for (int k = 1; k < argc && argv[k] && at < sizeof args - 1; k++)
            at += (size_t)snprintf(args + at, sizeof args - at, "%s%s", k > 1 ? " " : "",
                                   argv[k]);
        rc = info_set(n, "command", argv[0]);
        if (rc == MPI_SUCCESS && argc > 1)
            rc = info_set(n, "argv", args);
    }
    if (rc == MPI_SUCCESS)
        rc = info_make_handle(n);
    if (rc != MPI_SUCCESS) {
        info_release(n);
        goto fail;
    }
    *info = n->handle;
    API_END();
}
