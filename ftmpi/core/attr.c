#include "core/attr.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/proc.h"


typedef struct keyval {
    kv_kind_t kind;
    void (*copy)(void);
    void (*del)(void);
    void *extra;
    int old_style;   /* MPI-1 Keyval_create: callbacks take MPI_Comm */
    int refcount;    /* user handle + attached attributes */
    int freed;
} keyval_t;

typedef struct attr {
    struct attr *next;
    int keyval;
    void *val;
} attr_t;

static keyval_t **kvs;
static int nkvs;

/* predefined attribute values (pointers to these are returned) */
static int v_tag_ub, v_host, v_io, v_wtime_global, v_universe, v_appnum, v_lastcode;
static int v_comm_mode, v_msg_mode, v_coll_mode, v_rec_mode, v_nfailed, v_error_failure, v_ulfm;

int attr_module_init(void)
{
    return 0;
}

void attr_module_fini(void)
{
    for (int i = 0; i < nkvs; i++)
        free(kvs[i]);
    free(kvs);
    kvs = NULL;
    nkvs = 0;
}

static keyval_t *kv_get(kv_kind_t kind, int keyval)
{
    int i = keyval - ATTR_KEYVAL_FIRST_USER;
    if (i < 0 || i >= nkvs || !kvs[i] || kvs[i]->kind != kind)
        return NULL;
    return kvs[i];
}

static void kv_unref(int keyval)
{
    int i = keyval - ATTR_KEYVAL_FIRST_USER;
    if (--kvs[i]->refcount == 0) {
        free(kvs[i]);
        kvs[i] = NULL;
    }
}

int attr_keyval_create(kv_kind_t kind, void (*copy)(void), void (*del)(void), void *extra,
                       int old_style, int *keyval)
{
    keyval_t *k = calloc(1, sizeof(*k));
    if (!k)
        return MPI_ERR_NO_MEM;
    k->kind = kind;
    k->copy = copy;
    k->del = del;
    k->extra = extra;
    k->old_style = old_style;
    k->refcount = 1;
    int i;
    for (i = 0; i < nkvs && kvs[i]; i++)
        ;
    if (i == nkvs) {
        keyval_t **n = realloc(kvs, (size_t)(nkvs + 16) * sizeof(*n));
        if (!n) {
            free(k);
            return MPI_ERR_NO_MEM;
        }
        memset(n + nkvs, 0, 16 * sizeof(*n));
        kvs = n;
        nkvs += 16;
    }
    kvs[i] = k;
    *keyval = ATTR_KEYVAL_FIRST_USER + i;
    return MPI_SUCCESS;
}

/* A key freed already but still alive (attributes still use it: MPI-4.0
 * 7.7.2, the actual free waits for them) may be freed again through another
 * copy of its handle, e.g. from its own delete callback: that second free is
 * a no-op, as in MPICH, not a second release. A key that is gone is invalid. */
int attr_keyval_free(kv_kind_t kind, int *keyval)
{
    keyval_t *k = kv_get(kind, *keyval);
    if (!k)
        return MPI_ERR_KEYVAL;
    if (!k->freed) {
        k->freed = 1;
        kv_unref(*keyval);
    }
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

typedef int copy_fn(int, int, void *, void *, void *, int *);
typedef int del_fn(int, int, void *, void *);

static int call_delete(keyval_t *k, int obj, int keyval, void *val)
{
    if (!k->del)
        return MPI_SUCCESS;
    unsigned locked = ftg.multiple;
    if (locked)
        pthread_mutex_unlock(&ftg.lock);
    int rc = ((del_fn *)k->del)(obj, keyval, val, k->extra);
    if (locked)
        pthread_mutex_lock(&ftg.lock);
    return rc;
}

static attr_t **attr_find(void **list, int keyval)
{
    attr_t **pp = (attr_t **)list;
    while (*pp && (*pp)->keyval != keyval)
        pp = &(*pp)->next;
    return pp;
}

int attr_set(kv_kind_t kind, void **list, int obj, int keyval, void *val)
{
    keyval_t *k = kv_get(kind, keyval);
    if (!k || k->freed)
        return attr_keyval_predefined(keyval) ? MPI_ERR_ARG : MPI_ERR_KEYVAL;
    attr_t **pp = attr_find(list, keyval);
    if (*pp) {
        int rc = call_delete(k, obj, keyval, (*pp)->val);
        if (rc != MPI_SUCCESS)
            return rc;
        /* The callback may have changed the list (deleted this very
         * attribute or others): look again. */
        pp = attr_find(list, keyval);
        if (*pp) {
            (*pp)->val = val; /* keeps its place in the order */
            return MPI_SUCCESS;
        }
    }
    attr_t *a = malloc(sizeof(*a));
    if (!a)
        return MPI_ERR_NO_MEM;
    a->next = NULL;
    a->keyval = keyval;
    a->val = val;
    *pp = a;
    k->refcount++;
    return MPI_SUCCESS;
}

int attr_get(kv_kind_t kind, void **list, int keyval, void *val_out, int *flag)
{
    *flag = 0;
    if (!kv_get(kind, keyval))
        return MPI_ERR_KEYVAL;
    for (attr_t *a = *list; a; a = a->next)
        if (a->keyval == keyval) {
            *(void **)val_out = a->val;
            *flag = 1;
            break;
        }
    return MPI_SUCCESS;
}

int attr_delete(kv_kind_t kind, void **list, int obj, int keyval)
{
    keyval_t *k = kv_get(kind, keyval);
    if (!k)
        return attr_keyval_predefined(keyval) ? MPI_ERR_ARG : MPI_ERR_KEYVAL;
    attr_t **pp = attr_find(list, keyval);
    attr_t *a = *pp;
    if (!a)
        return MPI_ERR_KEYVAL; /* not attached */
    /* Unlinked before the callback runs: a callback that deletes other
     * attributes (or this one again) sees a consistent list. */
    int prev = pp == (attr_t **)list ? 0 : ((attr_t *)((char *)pp - offsetof(attr_t, next)))->keyval;
    *pp = a->next;
    int rc = call_delete(k, obj, keyval, a->val);
    if (rc != MPI_SUCCESS) {
        /* The deletion failed: the attribute stays, where it was if its
         * predecessor is still there, else first. */
        attr_t **at = prev ? attr_find(list, prev) : NULL;
        at = at && *at ? &(*at)->next : (attr_t **)list;
        a->next = *at;
        *at = a;
        return rc;
    }
    free(a);
    kv_unref(keyval);
    return MPI_SUCCESS;
}

int attr_copy(kv_kind_t kind, void *from, int from_obj, void **to)
{
    for (attr_t *a = from; a; a = a->next) {
        keyval_t *k = kv_get(kind, a->keyval);
        if (!k || !k->copy)
            continue;
        void *out = NULL;
        int flag = 0;
        unsigned locked = ftg.multiple;
        if (locked)
            pthread_mutex_unlock(&ftg.lock);
        int rc = ((copy_fn *)k->copy)(from_obj, a->keyval, k->extra, a->val, &out, &flag);
        if (locked)
            pthread_mutex_lock(&ftg.lock);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag) {
            attr_t **pp = (attr_t **)to;
            while (*pp)
                pp = &(*pp)->next;
            attr_t *n = malloc(sizeof(*n));
            if (!n)
                return MPI_ERR_NO_MEM;
            n->next = NULL;
            n->keyval = a->keyval;
            n->val = out;
            *pp = n;
            k->refcount++;
        }
    }
    return MPI_SUCCESS;
}

int attr_clear(kv_kind_t kind, void **list, int obj)
{
    /* Last attached first (MPI-2.2 asks this order for MPI_COMM_SELF at
     * MPI_Finalize; for a free any order is allowed). Each attribute is
     * unlinked before its callback runs, so a callback may delete or set
     * other attributes of the object: the loop ends when none is left. */
    int rc = MPI_SUCCESS;
    while (*list) {
        attr_t **pp = (attr_t **)list;
        while ((*pp)->next)
            pp = &(*pp)->next;
        attr_t *a = *pp;
        *pp = NULL;
        keyval_t *k = kv_get(kind, a->keyval);
        if (k) {
            int r = call_delete(k, obj, a->keyval, a->val);
            if (r != MPI_SUCCESS && rc == MPI_SUCCESS)
                rc = r;
            kv_unref(a->keyval);
        }
        free(a);
    }
    return rc;
}

void attr_drop(kv_kind_t kind, void **list)
{
    while (*list) {
        attr_t *a = *list;
        *list = a->next;
        if (kv_get(kind, a->keyval))
            kv_unref(a->keyval);
        free(a);
    }
}

int attr_call_deletes(kv_kind_t kind, void **list, int obj)
{
    /* The callbacks run unlocked and may set or delete attributes of the
     * same object: walk a copy of the list as it was at the start, and
     * call each entry only while it is still attached with its value (one
     * a callback deleted has had its own delete callback then). */
    int n = 0, rc = MPI_SUCCESS;
    for (attr_t *a = *list; a; a = a->next)
        n++;
    if (n == 0)
        return MPI_SUCCESS;
    attr_t *snap = malloc((size_t)n * sizeof(*snap));
    if (!snap)
        return MPI_ERR_NO_MEM;
    n = 0;
    for (attr_t *a = *list; a; a = a->next)
        snap[n++] = *a;
    for (int i = 0; i < n; i++) {
        attr_t *cur = *attr_find(list, snap[i].keyval);
        keyval_t *k = kv_get(kind, snap[i].keyval);
        if (!cur || cur->val != snap[i].val || !k)
            continue;
        int r = call_delete(k, obj, snap[i].keyval, snap[i].val);
        if (r != MPI_SUCCESS && rc == MPI_SUCCESS)
            rc = r;
    }
    free(snap);
    return rc;
}

_Static_assert(MPI_TAG_UB > 0 && MPI_LASTUSEDCODE < ATTR_KEYVAL_FIRST_USER &&
                   FTMPI_COMM_MODE > MPI_LASTUSEDCODE &&
                   FTMPI_ERROR_FAILURE < ATTR_KEYVAL_FIRST_USER,
               "predefined keys lie below the first user keyval");

int attr_predefined(int keyval, void *val_out)
{
    int *p;
    switch (keyval) {
    case MPI_TAG_UB: v_tag_ub = FTMPI_TAG_UB; p = &v_tag_ub; break;
    case MPI_HOST: v_host = MPI_PROC_NULL; p = &v_host; break;
    case MPI_IO: v_io = MPI_ANY_SOURCE; p = &v_io; break; /* every process can do I/O */
    case MPI_WTIME_IS_GLOBAL: v_wtime_global = 0; p = &v_wtime_global; break;
    case MPI_UNIVERSE_SIZE: v_universe = ftg.world_size; p = &v_universe; break;
    case MPI_APPNUM: v_appnum = ftg.rt.appnum; p = &v_appnum; break;
    case MPI_LASTUSEDCODE: v_lastcode = err_last_used(); p = &v_lastcode; break;
    case FTMPI_COMM_MODE: v_comm_mode = ftg.comm_mode; p = &v_comm_mode; break;
    case FTMPI_MSG_MODE: v_msg_mode = ftg.msg_mode; p = &v_msg_mode; break;
    case FTMPI_COLL_MODE: v_coll_mode = ftg.coll_mode; p = &v_coll_mode; break;
    case FTMPI_RECOVERY_MODE: v_rec_mode = ftg.recovery_mode; p = &v_rec_mode; break;
    case FTMPI_NUM_FAILED_PROCS: v_nfailed = ftg.num_failed; p = &v_nfailed; break;
    case FTMPI_ERROR_FAILURE: v_error_failure = ftg.error_failure; p = &v_error_failure; break;
    case MPIX_FT: v_ulfm = ftg.comm_mode == FTMPI_COMM_MODE_ULFM; p = &v_ulfm; break;
    default: return 0;
    }
    *(int **)val_out = p;
    return 1;
}
