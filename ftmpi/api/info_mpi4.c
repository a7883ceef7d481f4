/*
 * The MPI-4.0 info functions: MPI_Info_get_string (the value and its
 * length in one call) and MPI_Info_create_env (a new info object with the
 * execution environment: "command" and "argv" from the arguments,
 * "maxprocs", "host", "wdir"), also before MPI_Init and after
 * MPI_Finalize, as the standard allows.
 */
#include "api/api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/info.h"

API_WEAK(Info_get_string)
int PMPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    API_BEGIN_ANYTIME("MPI_Info_get_string");
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
    API_END_ANYTIME();
}

/* "command" and "argv" (blank-separated) from argc/argv into n. */
static int env_args(info_t *n, int argc, char *argv[])
{
    if (argc == 0 || !argv[0])
        return MPI_SUCCESS;
    char args[MPI_MAX_INFO_VAL];
    size_t at = 0;
    args[0] = '\0';
    for (int k = 1; k < argc && argv[k] && at < sizeof args - 1; k++)
        at += (size_t)snprintf(args + at, sizeof args - at, "%s%s", k > 1 ? " " : "", argv[k]);
    int rc = info_set(n, "command", argv[0]);
    if (rc == MPI_SUCCESS && argc > 1)
        rc = info_set(n, "argv", args);
    return rc;
}

/* The job's size: known from the launcher before MPI_Init (1 without one). */
static long env_world_size(void)
{
    if (ftg.world_n > 0)
        return ftg.world_n;
    const char *v = getenv("FTMPI_WORLD_SIZE");
    if (!v)
        v = getenv("FTMPI_SIZE");
    long n = v ? strtol(v, NULL, 10) : 1;
    return n > 0 ? n : 1;
}

/* What MPI_Init would put in MPI_INFO_ENV, with the arguments, as a new
 * handle: the same whenever it is called (before MPI_Init, inside, after
 * MPI_Finalize). MPI_Init requests no thread level: no "thread_level". */
static int env_make(int argc, char *argv[], MPI_Info *info)
{
    info_t *n = info_new();
    if (!n)
        return MPI_ERR_NO_MEM;
    char v[MPI_MAX_INFO_VAL];
    int rc = env_args(n, argc, argv);
    snprintf(v, sizeof v, "%ld", env_world_size());
    if (rc == MPI_SUCCESS)
        rc = info_set(n, "maxprocs", v);
    if (rc == MPI_SUCCESS && gethostname(v, sizeof v - 1) == 0) {
        v[sizeof v - 1] = '\0';
        rc = info_set(n, "host", v);
    }
    if (rc == MPI_SUCCESS && getcwd(v, sizeof v))
        rc = info_set(n, "wdir", v);
    if (rc == MPI_SUCCESS)
        rc = info_make_handle(n);
    if (rc != MPI_SUCCESS) {
        info_release(n);
        return rc;
    }
    *info = n->handle;
    return MPI_SUCCESS;
}

API_WEAK(Info_create_env)
int PMPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    API_BEGIN_ANYTIME("MPI_Info_create_env");
    CHECK_PTR(info);
    if (argc < 0 || (argc > 0 && !argv))
        API_FAIL(MPI_ERR_ARG);
    rc = env_make(argc, argv, info);
    API_END_ANYTIME();
}
