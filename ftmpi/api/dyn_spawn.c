/*
 * MPI_Comm_spawn and MPI_Comm_spawn_multiple (docs/dynamic.md).
 *
 * The root asks the runtime to start the processes (runtime/rtc.h,
 * rtc_spawn: the launcher places them and starts them through the
 * daemons, as REBUILD starts a replacement); the answer (new ids, one
 * errno each) is broadcast over comm; then the parents and the children
 * (in their MPI_Init, api/dyn_proc.c) build the intercommunicator over the
 * bridge. Info keys: host (a host of the job), wdir (working directory),
 * path (directories searched for the program, before PATH), env
 * ("NAME=VALUE" lines given to the new processes).
 */
#include "api/dyn.h"
#include "runtime/rtc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char **argv, **env;   /* owned, NULL-terminated */
    char host[256], wdir[1024];
} spawn_cmd_t;

static void cmd_free(spawn_cmd_t *c)
{
    for (char **a = c->argv; a && *a; a++)
        free(*a);
    for (char **a = c->env; a && *a; a++)
        free(*a);
    free(c->argv);
    free(c->env);
}

/* "NAME=VALUE" lines of the env key; PATH=... when the path key is
 * given (its directories first, then the launcher's PATH). */
static int env_of(const info_t *info, char ***env_p)
{
    const char *e = info ? info_find(info, "env") : NULL;
    const char *path = info ? info_find(info, "path") : NULL;
    int n = 0;
    for (const char *s = e; s && *s; s++)
        n += *s == '\n';
    char **env = calloc((size_t)n + 3, sizeof(char *));
    if (!env)
        return MPI_ERR_NO_MEM;
    *env_p = env;
    int k = 0;
    for (const char *s = e; s && *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (len > 0) {
            if (!memchr(s, '=', len) || s[0] == '=')
                return err_cause(MPI_ERR_INFO_VALUE, "spawn info key env: '%.*s' is not "
                                                     "NAME=VALUE", (int)len, s);
            if (!(env[k++] = strndup(s, len)))
                return MPI_ERR_NO_MEM;
        }
        s = nl ? nl + 1 : s + len;
    }
    if (path && *path) {
        const char *old = getenv("PATH");
        size_t len = strlen(path) + (old ? strlen(old) : 0) + 8;
        if (!(env[k] = malloc(len)))
            return MPI_ERR_NO_MEM;
        snprintf(env[k], len, "PATH=%s%s%s", path, old ? ":" : "", old ? old : "");
    }
    return MPI_SUCCESS;
}

static int cmd_of(spawn_cmd_t *c, const char *command, char **argv, int maxprocs,
                  const info_t *info)
{
    memset(c, 0, sizeof(*c));
    if (!command || !*command)
        return err_cause(MPI_ERR_SPAWN, "no command to spawn");
    if (maxprocs <= 0)
        return err_cause(MPI_ERR_ARG, "maxprocs %d: must be positive", maxprocs);
    int na = 0;
    while (argv && argv[na])
        na++;
    if (!(c->argv = calloc((size_t)na + 2, sizeof(char *))) || !(c->argv[0] = strdup(command)))
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < na; i++)
        if (!(c->argv[i + 1] = strdup(argv[i])))
            return MPI_ERR_NO_MEM;
    const char *host = info ? info_find(info, "host") : NULL;
    const char *wdir = info ? info_find(info, "wdir") : NULL;
    if ((host && strlen(host) >= sizeof(c->host)) || (wdir && strlen(wdir) >= sizeof(c->wdir)))
        return err_cause(MPI_ERR_INFO_VALUE, "spawn info host or wdir is too long");
    snprintf(c->host, sizeof(c->host), "%s", host ? host : "");
    snprintf(c->wdir, sizeof(c->wdir), "%s", wdir ? wdir : "");
    return env_of(info, &c->env);
}

/* The root's request: rc (an MPI class), base, n, then n errnos, as ints
 * for the broadcast. */
static int *root_spawn(spawn_cmd_t *cmds, const int *maxprocs, int ncmds, int tag)
{
    rtc_spawn_cmd_t *rc_cmds = calloc((size_t)ncmds, sizeof(*rc_cmds));
    int base = -1, n = 0, *errs = NULL, *out = NULL, rc = MPI_ERR_NO_MEM;
    if (rc_cmds) {
        for (int i = 0; i < ncmds; i++)
            rc_cmds[i] = (rtc_spawn_cmd_t){.maxprocs = maxprocs[i], .host = cmds[i].host,
                                           .wdir = cmds[i].wdir, .argv = cmds[i].argv,
                                           .env = cmds[i].env};
        int e = rtc_spawn((uint32_t)tag, rc_cmds, ncmds, &base, &n, &errs);
        if (e == -ENOSPC)
            rc = err_cause(MPI_ERR_SPAWN, "no room for more processes in the universe "
                                          "(MPI_UNIVERSE_SIZE %d; ftmpirun --universe N)",
                           ftg.world_size);
        else if (e == -EHOSTUNREACH)
            rc = err_cause(MPI_ERR_SPAWN, "spawn info key host names no host of this job");
        else if (e == -ENOTSUP)
            rc = err_cause(MPI_ERR_SPAWN, "not started by ftmpirun: no runtime to spawn with");
        else if (e < 0)
            rc = err_cause(MPI_ERR_SPAWN, "the runtime refused the spawn (errno %d)", -e);
        else
            rc = MPI_SUCCESS;
    }
    free(rc_cmds);
    out = malloc((size_t)(3 + n) * sizeof(int));
    if (out) {
        out[0] = rc;
        out[1] = base;
        out[2] = rc == MPI_SUCCESS ? n : 0;
        for (int i = 0; i < out[2]; i++)
            out[3 + i] = errs[i];
    }
    free(errs);
    return out;
}

/* Everything after the argument checks, for both calls. Collective over
 * c; cmds/maxprocs matter at root only. */
static int do_spawn(comm_t *c, int root, int root_rc, spawn_cmd_t *cmds, const int *maxprocs,
                    int ncmds, int *errcodes, comm_t **out)
{
    dt_t *ints = dt_get(MPI_INT);
    int hdr[3] = {MPI_ERR_OTHER, -1, 0}, *res = NULL;
    int tag = 0;
    if (c->rank == root && root_rc != MPI_SUCCESS) {
        hdr[0] = root_rc; /* the others learn the root's argument error */
    } else if (c->rank == root) {
        tag = dyn_next_tag();
        res = dyn_bridge() ? root_spawn(cmds, maxprocs, ncmds, tag) : NULL;
        if (res)
            memcpy(hdr, res, sizeof(hdr));
        else if (!dyn_bridge())
            hdr[0] = err_cause(MPI_ERR_SPAWN, "no room for other processes in this job "
                                              "(MPI_UNIVERSE_SIZE %d; ftmpirun --universe N)",
                               ftg.world_size);
    }
    int rc = coll_bcast(c, hdr, 3, ints, root);
    if (rc != MPI_SUCCESS) {
        free(res);
        return rc;
    }
    int n = hdr[2];
    int *errs = c->rank == root ? (res ? res + 3 : NULL) : malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!errs && n) {
        free(res);
        return MPI_ERR_NO_MEM;
    }
    rc = coll_bcast(c, errs, n, ints, root);
    int bad = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        bad |= errs[i] != 0;
        if (errcodes)
            errcodes[i] = errs[i] ? MPI_ERR_SPAWN : MPI_SUCCESS;
    }
    if (c->rank != root)
        free(errs);
    free(res);
    if (rc != MPI_SUCCESS)
        return rc;
    if (hdr[0] != MPI_SUCCESS)
        return c->rank == root ? hdr[0] : err_cause(MPI_ERR_SPAWN, "the spawn's root could "
                                                                    "not start the processes");
    if (bad)
        return err_cause(MPI_ERR_SPAWN, "some processes could not be started (errcodes; the "
                                        "launcher said why on stderr)");
    int ctag = tag;
    rc = coll_bcast(c, &ctag, 1, ints, root);
    if (rc != MPI_SUCCESS)
        return rc;
    return dyn_connect_groups(c, root, hdr[1], ctag, out);
}

/* The arguments both calls check the same way (all ranks). */
static int spawn_args(MPI_Comm comm, int root, MPI_Comm *intercomm, comm_t **c)
{
    if (!intercomm)
        return MPI_ERR_ARG;
    if (!(*c = comm_get(comm)) || (*c)->is_inter)
        return err_cause(MPI_ERR_COMM, "%d is not an intracommunicator", (int)comm);
    if ((*c)->state == COMM_FAILED)
        return err_cause(MPI_ERR_COMM, "the communicator was invalidated by a failure");
    if (root < 0 || root >= (*c)->size)
        return MPI_ERR_ROOT;
    return MPI_SUCCESS;
}

static int finish(int rc, comm_t *n, MPI_Comm *intercomm)
{
    *intercomm = rc == MPI_SUCCESS ? n->handle : MPI_COMM_NULL;
    return rc;
}

API_WEAK(Comm_spawn)
int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    API_BEGIN("MPI_Comm_spawn");
    comm_t *c = NULL, *n = NULL;
    info_t *in;
    spawn_cmd_t cmd = {0};
    rc = spawn_args(comm, root, intercomm, &c);
    err_comm = c;
    if (rc != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    if (c->rank == root) {
        in = NULL;
        if (info != MPI_INFO_NULL && !(in = info_get(info)))
            rc = err_cause(MPI_ERR_INFO, "%d is not an info handle", (int)info);
        else
            rc = cmd_of(&cmd, command, argv, maxprocs, in);
    }
    /* the others wait for the root's answer, an argument error too */
    rc = do_spawn(c, root, rc, &cmd, &maxprocs, 1, array_of_errcodes, &n);
    cmd_free(&cmd);
    rc = finish(rc, n, intercomm);
    API_END();
}

API_WEAK(Comm_spawn_multiple)
int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int array_of_errcodes[])
{
    API_BEGIN("MPI_Comm_spawn_multiple");
    comm_t *c = NULL, *n = NULL;
    spawn_cmd_t *cmds = NULL;
    rc = spawn_args(comm, root, intercomm, &c);
    err_comm = c;
    if (rc != MPI_SUCCESS)
        goto fail;
    CHECK_USABLE(c);
    if (c->rank == root) {
        if (count <= 0 || !array_of_commands || !array_of_maxprocs)
            rc = err_cause(MPI_ERR_ARG, "spawn_multiple: count %d or a NULL array", count);
        else if (!(cmds = calloc((size_t)count, sizeof(*cmds))))
            rc = MPI_ERR_NO_MEM;
        for (int i = 0; cmds && i < count && rc == MPI_SUCCESS; i++) {
            info_t *in = NULL;
            if (array_of_info && array_of_info[i] != MPI_INFO_NULL &&
                !(in = info_get(array_of_info[i])))
                rc = MPI_ERR_INFO;
            else
                rc = cmd_of(&cmds[i], array_of_commands[i],
                            array_of_argv ? array_of_argv[i] : NULL, array_of_maxprocs[i], in);
        }
    }
    rc = do_spawn(c, root, rc, cmds, array_of_maxprocs, count, array_of_errcodes, &n);
    for (int i = 0; cmds && i < count; i++)
        cmd_free(&cmds[i]);
    free(cmds);
    rc = finish(rc, n, intercomm);
    API_END();
}
