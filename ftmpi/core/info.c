#include "core/info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/proc.h"
#include "util/handle.h"

static handle_table_t info_table;
static info_t *env;         /* MPI_INFO_ENV */
static int inited;

static int start(void);

int info_check_key(const char *key)
{
    if (!key)
        return MPI_ERR_INFO_KEY;
    size_t n = strnlen(key, MPI_MAX_INFO_KEY);
    return n == 0 || n >= MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

static int check_val(const char *val)
{
    if (!val)
        return MPI_ERR_INFO_VALUE;
    return strnlen(val, MPI_MAX_INFO_VAL) >= MPI_MAX_INFO_VAL ? MPI_ERR_INFO_VALUE : MPI_SUCCESS;
}

info_t *info_new(void)
{
    info_t *i = calloc(1, sizeof(*i));
    if (!i)
        return NULL;
    i->handle = MPI_INFO_NULL;
    i->refcount = 1;
    return i;
}

static void entries_free(info_t *i)
{
    for (int k = 0; k < i->n; k++) {
        free(i->e[k].key);
        free(i->e[k].val);
    }
    free(i->e);
    i->e = NULL;
    i->n = i->cap = 0;
}

static int find(const info_t *i, const char *key)
{
    for (int k = 0; k < i->n; k++)
        if (!strcmp(i->e[k].key, key))
            return k;
    return -1;
}

int info_set(info_t *i, const char *key, const char *val)
{
    int rc = info_check_key(key);
    if (rc == MPI_SUCCESS)
        rc = check_val(val);
    if (rc != MPI_SUCCESS)
        return rc;
    char *v = strdup(val);
    if (!v)
        return MPI_ERR_NO_MEM;
    int k = find(i, key);
    if (k >= 0) {
        free(i->e[k].val);
        i->e[k].val = v;
        return MPI_SUCCESS;
    }
    if (i->n == i->cap) {
        int cap = i->cap ? 2 * i->cap : 8;
        info_entry_t *e = realloc(i->e, (size_t)cap * sizeof(*e));
        if (!e) {
            free(v);
            return MPI_ERR_NO_MEM;
        }
        i->e = e;
        i->cap = cap;
    }
    char *kc = strdup(key);
    if (!kc) {
        free(v);
        return MPI_ERR_NO_MEM;
    }
    i->e[i->n].key = kc;
    i->e[i->n].val = v;
    i->n++;
    return MPI_SUCCESS;
}

const char *info_find(const info_t *i, const char *key)
{
    int k = i ? find(i, key) : -1;
    return k >= 0 ? i->e[k].val : NULL;
}

int info_delete(info_t *i, const char *key)
{
    int k = find(i, key);
    if (k < 0)
        return MPI_ERR_INFO_NOKEY;
    free(i->e[k].key);
    free(i->e[k].val);
    memmove(&i->e[k], &i->e[k + 1], (size_t)(i->n - k - 1) * sizeof(info_entry_t));
    i->n--;
    return MPI_SUCCESS;
}

info_t *info_dup(const info_t *src)
{
    info_t *i = info_new();
    if (!i || !src)
        return i;
    for (int k = 0; k < src->n; k++)
        if (info_set(i, src->e[k].key, src->e[k].val) != MPI_SUCCESS) {
            info_release(i);
            return NULL;
        }
    return i;
}

int info_make_handle(info_t *i)
{
    if (!inited && start() != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    int h = handle_alloc(&info_table, i);
    if (h < 0)
        return MPI_ERR_NO_MEM;
    i->handle = h;
    return MPI_SUCCESS;
}

void info_release(info_t *i)
{
    if (!i || --i->refcount > 0 || i->predefined)
        return;
    if (i->handle != MPI_INFO_NULL)
        handle_release(&info_table, i->handle);
    entries_free(i);
    free(i);
}

info_t *info_get(MPI_Info h)
{
    if (!inited && start() != MPI_SUCCESS)
        return NULL;
    return handle_get(&info_table, h);
}

/* MPI_INFO_ENV: what the standard suggests that we know. */
static void env_fill(info_t *i)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%d", ftg.world_n);
    static const char *levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                   "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
    if (ftg.world_n > 0) /* not known yet before MPI_Init (MPI_Info_create_env) */
        info_set(i, "maxprocs", buf);
    if (ftg.world_n > 0 && ftg.thread_level >= 0 && ftg.thread_level <= 3)
        info_set(i, "thread_level", levels[ftg.thread_level]);
    if (ftg.processor_name[0])
        info_set(i, "host", ftg.processor_name);
    char cwd[MPI_MAX_INFO_VAL];
    if (getcwd(cwd, sizeof(cwd)))
        info_set(i, "wdir", cwd);
}

/* The table and MPI_INFO_ENV, on the first use: info objects exist
 * before MPI_Init and after MPI_Finalize too (MPI-4.0 11.4.1), so the
 * module is not tied to the library's start and end; its objects live
 * until the user frees them. The callers serialize (api/api.h,
 * API_BEGIN_ANYTIME). */
static int start(void)
{
    handle_table_init(&info_table, FTMPI_KIND_INFO, 2);
    env = info_new();
    if (!env)
        return MPI_ERR_NO_MEM;
    env->handle = MPI_INFO_ENV;
    env->predefined = 1;
    env_fill(env);
    handle_table_set(&info_table, 1, env);
    inited = 1;
    return MPI_SUCCESS;
}

int info_module_init(void)
{
    if (!inited)
        return start();
    /* up since a call before MPI_Init: MPI_INFO_ENV gets what is known now */
    entries_free(env);
    env_fill(env);
    return MPI_SUCCESS;
}
