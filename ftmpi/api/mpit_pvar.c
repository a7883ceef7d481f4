/* MPI_T_pvar_*: performance variables, their sessions and handles
 * (MPI-4.0 15.3.7; the table is api/mpit_pvars.c, docs/mpit.md).
 *
 * A handle of a COUNTER or TIMER keeps its own value: what accumulated
 * while it was started (accum) plus, while started, the source's growth
 * since the start (now - base). Writing sets accum, resetting zeroes it.
 * A HIGHWATERMARK handle owns a slot of core/mpit_stats.h that p2p raises.
 * LEVEL and STATE handles read the source as it is. */
#include "api/api.h"
#include "api/mpit.h"
#include "core/mpit_stats.h"

#include <stdlib.h>

struct ftmpi_t_pvar_handle {
    list_node_t link; /* first: the handle is its link's address */
    const mpit_pvar_t *v;
    const void *obj;
    int n;          /* elements */
    int started;
    int slot;       /* HIGHWATERMARK: its slot */
    int64_t *base, *accum, *now; /* [n] each */
};

struct ftmpi_t_pvar_session {
    list_node_t link; /* first, as above */
    list_node_t handles;
};

static list_node_t sessions = LIST_INIT(sessions);

static int session_valid(MPI_T_pvar_session s)
{
    return mpit_on_list(&sessions, s);
}

static int handle_valid(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    return mpit_on_list(&s->handles, h);
}

#define HANDLE(n) list_entry(n, struct ftmpi_t_pvar_handle, link)

static int accumulates(const mpit_pvar_t *v)
{
    return v->var_class == MPI_T_PVAR_CLASS_COUNTER || v->var_class == MPI_T_PVAR_CLASS_TIMER;
}

/* The source's elements now, into h->now (under the library lock: some
 * walk the library's lists). */
static int sample(struct ftmpi_t_pvar_handle *h)
{
    api_lock();
    int rc = h->v->sample(h->obj, h->now, h->n);
    api_unlock();
    return rc;
}

/* The handle's value, element by element, into h->now. */
static int value(struct ftmpi_t_pvar_handle *h)
{
    if (h->v->var_class == MPI_T_PVAR_CLASS_HIGHWATERMARK) {
        h->now[0] = __atomic_load_n(&mpit_stats.unexp_hwm[h->slot], __ATOMIC_RELAXED);
        return MPI_SUCCESS;
    }
    int rc = sample(h);
    if (rc != MPI_SUCCESS || !accumulates(h->v))
        return rc;
    for (int i = 0; i < h->n; i++)
        h->now[i] = h->accum[i] + (h->started ? h->now[i] - h->base[i] : 0);
    return MPI_SUCCESS;
}

static void store(const struct ftmpi_t_pvar_handle *h, void *buf)
{
    for (int i = 0; i < h->n; i++) {
        if (h->v->type == MPI_DOUBLE)
            ((double *)buf)[i] = (double)h->now[i] * 1e-9; /* TIMER: ns -> s */
        else if (h->v->type == MPI_INT)
            ((int *)buf)[i] = (int)h->now[i];
        else
            ((unsigned long long *)buf)[i] = (unsigned long long)h->now[i];
    }
}

static int64_t load_elem(const struct ftmpi_t_pvar_handle *h, const void *buf, int i)
{
    if (h->v->type == MPI_DOUBLE)
        return (int64_t)(((const double *)buf)[i] * 1e9);
    if (h->v->type == MPI_INT)
        return ((const int *)buf)[i];
    return (int64_t)((const unsigned long long *)buf)[i];
}

/* Make the handle's value vals (NULL: its starting value). */
static int set_value(struct ftmpi_t_pvar_handle *h, const void *buf)
{
    if (h->v->var_class == MPI_T_PVAR_CLASS_HIGHWATERMARK) {
        int64_t v = buf ? load_elem(h, buf, 0)
                        : (int64_t)__atomic_load_n(&mpit_stats.unexp_now, __ATOMIC_RELAXED);
        __atomic_store_n(&mpit_stats.unexp_hwm[h->slot], v, __ATOMIC_RELAXED);
        return MPI_SUCCESS;
    }
    int rc = sample(h);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < h->n; i++) {
        h->base[i] = h->now[i];
        h->accum[i] = buf ? load_elem(h, buf, i) : 0;
    }
    return MPI_SUCCESS;
}

static void handle_free(struct ftmpi_t_pvar_handle *h)
{
    if (h->v->var_class == MPI_T_PVAR_CLASS_HIGHWATERMARK)
        mpit_hwm_free(h->slot);
    free(h->base);
    free(h);
}

static void session_free(struct ftmpi_t_pvar_session *s)
{
    list_del(&s->link);
    while (!list_empty(&s->handles)) {
        list_node_t *n = s->handles.next;
        list_del(n);
        handle_free(HANDLE(n));
    }
    free(s);
}

void mpit_pvar_fini(void)
{
    while (!list_empty(&sessions))
        session_free(list_entry(sessions.next, struct ftmpi_t_pvar_session, link));
}

static const char *pvar_name(int i, int var_class)
{
    return mpit_pvar(i)->var_class == var_class ? mpit_pvar(i)->name : NULL;
}

API_WEAK(T_pvar_get_num)
int PMPI_T_pvar_get_num(int *num_pvar)
{
    T_BEGIN();
    if (!num_pvar)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_pvar = mpit_pvar_count();
    T_END();
}

API_WEAK(T_pvar_get_info)
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                         int *desc_len, int *bind, int *readonly, int *continuous, int *atomic)
{
    T_BEGIN();
    const mpit_pvar_t *v = mpit_pvar(pvar_index);
    if (!v)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    mpit_str(v->name, name, name_len);
    mpit_str(v->desc, desc, desc_len);
    int *outs[] = {verbosity, var_class, bind, readonly, continuous, atomic};
    int vals[] = {v->verbosity, v->var_class, v->bind, v->readonly, v->continuous, v->atomic};
    for (int i = 0; i < 6; i++)
        if (outs[i])
            *outs[i] = vals[i];
    if (datatype)
        *datatype = v->type;
    if (enumtype)
        *enumtype = v->en ? (MPI_T_enum)v->en : MPI_T_ENUM_NULL;
    T_END();
}

API_WEAK(T_pvar_get_index)
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    T_BEGIN();
    rc = mpit_find(name, mpit_pvar_count(), pvar_name, var_class, pvar_index);
    T_END();
}

API_WEAK(T_pvar_session_create)
int PMPI_T_pvar_session_create(MPI_T_pvar_session *session)
{
    T_BEGIN();
    if (!session)
        T_FAIL(MPI_T_ERR_INVALID);
    struct ftmpi_t_pvar_session *s = calloc(1, sizeof(*s));
    if (!s)
        T_FAIL(MPI_T_ERR_MEMORY);
    list_init(&s->handles);
    list_add_tail(&sessions, &s->link);
    *session = s;
    T_END();
}

API_WEAK(T_pvar_session_free)
int PMPI_T_pvar_session_free(MPI_T_pvar_session *session)
{
    T_BEGIN();
    if (!session || !session_valid(*session))
        T_FAIL(MPI_T_ERR_INVALID_SESSION);
    session_free(*session);
    *session = MPI_T_PVAR_SESSION_NULL;
    T_END();
}

API_WEAK(T_pvar_handle_alloc)
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    T_BEGIN();
    if (!session_valid(session))
        T_FAIL(MPI_T_ERR_INVALID_SESSION);
    const mpit_pvar_t *v = mpit_pvar(pvar_index);
    if (!v)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    if (!handle || !count)
        T_FAIL(MPI_T_ERR_INVALID);
    const void *obj = mpit_pvar_bind(v, obj_handle, &rc);
    if (rc != MPI_SUCCESS)
        T_FAIL(rc);
    int n = v->count(obj);
    struct ftmpi_t_pvar_handle *h = calloc(1, sizeof(*h));
    int64_t *arr = calloc((size_t)3 * (size_t)n, sizeof(int64_t));
    if (!h || !arr) {
        free(h);
        free(arr);
        T_FAIL(MPI_T_ERR_MEMORY);
    }
    *h = (struct ftmpi_t_pvar_handle){.v = v, .obj = obj, .n = n, .slot = -1, .base = arr,
                                      .accum = arr + n, .now = arr + 2 * n};
    if (v->var_class == MPI_T_PVAR_CLASS_HIGHWATERMARK && (h->slot = mpit_hwm_alloc()) < 0) {
        free(arr);
        free(h);
        T_FAIL(MPI_T_ERR_OUT_OF_HANDLES);
    }
    /* continuous variables run from their allocation; the others wait for
     * MPI_T_pvar_start, at 0 */
    h->started = v->continuous;
    rc = accumulates(v) ? set_value(h, NULL) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) {
        handle_free(h);
        T_FAIL(rc);
    }
    list_add_tail(&session->handles, &h->link);
    *handle = h;
    *count = n;
    T_END();
}

API_WEAK(T_pvar_handle_free)
int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    T_BEGIN();
    if (!session_valid(session))
        T_FAIL(MPI_T_ERR_INVALID_SESSION);
    if (!handle || !handle_valid(session, *handle))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    list_del(&(*handle)->link);
    handle_free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    T_END();
}

/* Start (on = 1) or stop (on = 0) one handle. */
static int startstop(struct ftmpi_t_pvar_handle *h, int on)
{
    if (h->v->continuous)
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    if (h->started == on)
        return MPI_SUCCESS;
    int rc = sample(h);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < h->n; i++) {
        if (on)
            h->base[i] = h->now[i];
        else
            h->accum[i] += h->now[i] - h->base[i];
    }
    h->started = on;
    return MPI_SUCCESS;
}

/* Apply op to handle, or to every handle of the session that it fits
 * (MPI_T_PVAR_ALL_HANDLES: the others are left alone, MPI-4.0 15.3.7). */
static int for_handles(MPI_T_pvar_session session, MPI_T_pvar_handle handle,
                       int (*op)(struct ftmpi_t_pvar_handle *h, int arg), int arg,
                       int (*fits)(const struct ftmpi_t_pvar_handle *h))
{
    if (!session_valid(session))
        return MPI_T_ERR_INVALID_SESSION;
    if (handle != MPI_T_PVAR_ALL_HANDLES) {
        if (!handle_valid(session, handle))
            return MPI_T_ERR_INVALID_HANDLE;
        return op(handle, arg);
    }
    int rc = MPI_SUCCESS;
    list_node_t *n;
    list_for_each(n, &session->handles)
        if (fits(HANDLE(n)) && rc == MPI_SUCCESS)
            rc = op(HANDLE(n), arg);
    return rc;
}

static int startable(const struct ftmpi_t_pvar_handle *h)
{
    return !h->v->continuous;
}

static int writable(const struct ftmpi_t_pvar_handle *h)
{
    return !h->v->readonly;
}

static int reset_one(struct ftmpi_t_pvar_handle *h, int arg)
{
    (void)arg;
    if (h->v->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    return set_value(h, NULL);
}

API_WEAK(T_pvar_start)
int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_BEGIN();
    rc = for_handles(session, handle, startstop, 1, startable);
    T_END();
}

API_WEAK(T_pvar_stop)
int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_BEGIN();
    rc = for_handles(session, handle, startstop, 0, startable);
    T_END();
}

API_WEAK(T_pvar_reset)
int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    T_BEGIN();
    rc = for_handles(session, handle, reset_one, 0, writable);
    T_END();
}

/* The one handle that read, write and readreset take. */
static int one_handle(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    if (!session_valid(session))
        return MPI_T_ERR_INVALID_SESSION;
    if (handle == MPI_T_PVAR_ALL_HANDLES || !handle_valid(session, handle))
        return MPI_T_ERR_INVALID_HANDLE;
    return buf ? MPI_SUCCESS : MPI_T_ERR_INVALID;
}

API_WEAK(T_pvar_read)
int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    T_BEGIN();
    if ((rc = one_handle(session, handle, buf)) != MPI_SUCCESS)
        T_FAIL(rc);
    if ((rc = value(handle)) == MPI_SUCCESS)
        store(handle, buf);
    T_END();
}

API_WEAK(T_pvar_write)
int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    T_BEGIN();
    if ((rc = one_handle(session, handle, buf)) != MPI_SUCCESS)
        T_FAIL(rc);
    if (handle->v->readonly)
        T_FAIL(MPI_T_ERR_PVAR_NO_WRITE);
    rc = set_value(handle, buf);
    T_END();
}

API_WEAK(T_pvar_readreset)
int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    T_BEGIN();
    if ((rc = one_handle(session, handle, buf)) != MPI_SUCCESS)
        T_FAIL(rc);
    if (handle->v->readonly)
        T_FAIL(MPI_T_ERR_PVAR_NO_WRITE);
    if (!handle->v->atomic)
        T_FAIL(MPI_T_ERR_PVAR_NO_ATOMIC);
    /* one sample serves both: nothing counted between the read and the reset is lost */
    if ((rc = sample(handle)) != MPI_SUCCESS)
        T_FAIL(rc);
    for (int i = 0; i < handle->n; i++) {
        int64_t s = handle->now[i];
        handle->now[i] = handle->accum[i] + (handle->started ? s - handle->base[i] : 0);
        handle->base[i] = s;
        handle->accum[i] = 0;
    }
    store(handle, buf);
    T_END();
}
