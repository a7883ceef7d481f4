/*
 * MPI_T_event_* and MPI_T_source_* (MPI-4.0 15.3.9): the FT events.
 *
 * Two event types, from one source (this process's monotonic clock, in
 * nanoseconds): ftmpi_ft_process_failed (a process failure is learned:
 * its world rank and incarnation) and ftmpi_ft_recovered (a recovery
 * finished: the new generation, the processes that failed, its duration).
 * The ft layer reports them through core/mpit_stats.h's hook, in the
 * thread that noticed them, with the library lock held: a callback is
 * called there at once, so it runs in an MPI_T_CB_REQUIRE_MPI_RESTRICTED
 * context (it may call MPI_T_event_read, _copy, _get_timestamp and
 * _get_source on its instance, and nothing else of MPI). Of the callbacks
 * a registration has, the one registered for the least restrictive level
 * that such a context allows runs; a registration with only an
 * MPI_T_CB_REQUIRE_NONE callback cannot be served there: its events are
 * dropped and counted, and its dropped handler (if any) is told.
 */
#include "api/api.h"
#include "api/mpit.h"
#include "core/mpit_stats.h"
#include "util/timer.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int rank, incarnation;
} failed_data_t;

typedef struct {
    int generation, nfailed;
    unsigned long long duration_ns;
} recovered_data_t;

typedef struct {
    const char *name, *desc;
    int n;
    MPI_Datatype types[3];
    MPI_Aint disps[3];
    size_t size;
} ev_type_t;

static const ev_type_t ev_types[] = {
    [MPIT_EV_FAILURE] = {"ftmpi_ft_process_failed",
                         "A process failure is learned: its world rank (MPI_INT) and "
                         "incarnation (MPI_INT).",
                         2, {MPI_INT, MPI_INT},
                         {offsetof(failed_data_t, rank), offsetof(failed_data_t, incarnation)},
                         sizeof(failed_data_t)},
    [MPIT_EV_RECOVERED] = {"ftmpi_ft_recovered",
                           "A recovery finished: the new generation (MPI_INT), the processes "
                           "that failed (MPI_INT), its duration in ns (MPI_UNSIGNED_LONG_LONG).",
                           3, {MPI_INT, MPI_INT, MPI_UNSIGNED_LONG_LONG},
                           {offsetof(recovered_data_t, generation),
                            offsetof(recovered_data_t, nfailed),
                            offsetof(recovered_data_t, duration_ns)},
                           sizeof(recovered_data_t)},
};
#define NEVENTS ((int)(sizeof(ev_types) / sizeof(ev_types[0])))

struct ftmpi_t_event_instance {
    int ev;
    uint64_t ts;
    union {
        failed_data_t failed;
        recovered_data_t recovered;
    } data;
};

#define NLEVELS 4 /* MPI_T_CB_REQUIRE_NONE .. _ASYNC_SIGNAL_SAFE */

struct ftmpi_t_event_registration {
    list_node_t link; /* first: the registration is its link's address */
    int ev;
    struct {
        MPI_T_event_cb_function *fn;
        void *user_data;
    } cb[NLEVELS];
    MPI_T_event_dropped_cb_function *dropped;
    MPI_Count ndropped;
};

/* Registrations: changed under mpit_mutex and the library lock, walked by
 * the hook under the library lock. */
static list_node_t regs = LIST_INIT(regs);
#define REG(n) list_entry(n, struct ftmpi_t_event_registration, link)
/* The instance whose callbacks run now in this thread (the only one that
 * MPI_T_event_read and the others accept). */
static __thread struct ftmpi_t_event_instance *current;

int mpit_event_count(void)
{
    return NEVENTS;
}

const char *mpit_event_name(int i)
{
    return ev_types[i].name;
}

static const char *event_name(int i, int arg)
{
    (void)arg;
    return ev_types[i].name;
}

static void deliver(struct ftmpi_t_event_registration *r, struct ftmpi_t_event_instance *inst)
{
    for (int l = MPI_T_CB_REQUIRE_MPI_RESTRICTED; l < NLEVELS; l++) {
        if (r->cb[l].fn) {
            current = inst;
            r->cb[l].fn(inst, r, (MPI_T_cb_safety)l, r->cb[l].user_data);
            current = NULL;
            return;
        }
    }
    if (!r->cb[MPI_T_CB_REQUIRE_NONE].fn)
        return; /* no callback: nobody listens */
    r->ndropped++;
    if (r->dropped) {
        MPI_Count n = r->ndropped;
        r->ndropped = 0;
        r->dropped(n, r, 0, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                   r->cb[MPI_T_CB_REQUIRE_NONE].user_data);
    }
}

/* core/mpit_stats.h's hook: the library lock is held. */
static void on_event(int kind, const int64_t v[4])
{
    struct ftmpi_t_event_instance inst = {.ev = kind, .ts = timer_ns()};
    if (kind == MPIT_EV_FAILURE)
        inst.data.failed = (failed_data_t){(int)v[0], (int)v[1]};
    else
        inst.data.recovered = (recovered_data_t){(int)v[0], (int)v[1], (unsigned long long)v[2]};
    list_node_t *n;
    list_for_each(n, &regs)
        if (REG(n)->ev == kind)
            deliver(REG(n), &inst);
}

static int reg_valid(MPI_T_event_registration r)
{
    return mpit_on_list(&regs, r);
}

void mpit_event_fini(void)
{
    api_lock();
    mpit_event_hook = NULL;
    while (!list_empty(&regs)) {
        list_node_t *n = regs.next;
        list_del(n);
        free(REG(n));
    }
    api_unlock();
}

/* A new info object with no hints (none is used), when MPI is running;
 * MPI_INFO_NULL otherwise. */
static MPI_Info no_hints(void)
{
    MPI_Info info = MPI_INFO_NULL;
    if (ftg.initialized && !ftg.finalized && PMPI_Info_create(&info) != MPI_SUCCESS)
        info = MPI_INFO_NULL;
    return info;
}

/* ---- sources ---------------------------------------------------------- */

API_WEAK(T_source_get_num)
int PMPI_T_source_get_num(int *num_sources)
{
    T_BEGIN();
    if (!num_sources)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_sources = 1;
    T_END();
}

API_WEAK(T_source_get_info)
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                           int *desc_len, MPI_T_source_order *ordering,
                           MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    T_BEGIN();
    if (source_index != 0)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    mpit_str("ftmpi_clock", name, name_len);
    mpit_str("This process's monotonic clock (CLOCK_MONOTONIC), in nanoseconds; the FT events "
             "come from it in the order they happen.", desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    if (info)
        *info = MPI_INFO_NULL;
    T_END();
}

API_WEAK(T_source_get_timestamp)
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    T_BEGIN();
    if (source_index != 0)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    if (!timestamp)
        T_FAIL(MPI_T_ERR_INVALID);
    *timestamp = (MPI_Count)timer_ns();
    T_END();
}

/* ---- event types ---------------------------------------------------------- */

API_WEAK(T_event_get_num)
int PMPI_T_event_get_num(int *num_events)
{
    T_BEGIN();
    if (!num_events)
        T_FAIL(MPI_T_ERR_INVALID);
    *num_events = NEVENTS;
    T_END();
}

API_WEAK(T_event_get_info)
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    T_BEGIN();
    if (event_index < 0 || event_index >= NEVENTS)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    const ev_type_t *e = &ev_types[event_index];
    mpit_str(e->name, name, name_len);
    mpit_str(e->desc, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (num_elements) {
        /* in: the arrays' length; out: the elements of the type */
        for (int i = 0; i < e->n && i < *num_elements; i++) {
            if (array_of_datatypes)
                array_of_datatypes[i] = e->types[i];
            if (array_of_displacements)
                array_of_displacements[i] = e->disps[i];
        }
        *num_elements = e->n;
    }
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (info)
        *info = MPI_INFO_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    T_END();
}

API_WEAK(T_event_get_index)
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    T_BEGIN();
    rc = mpit_find(name, NEVENTS, event_name, 0, event_index);
    T_END();
}

/* ---- registrations --------------------------------------------------------- */

API_WEAK(T_event_handle_alloc)
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)obj_handle; /* the events are bound to no object */
    (void)info;       /* no hints */
    T_BEGIN();
    if (event_index < 0 || event_index >= NEVENTS)
        T_FAIL(MPI_T_ERR_INVALID_INDEX);
    if (!event_registration)
        T_FAIL(MPI_T_ERR_INVALID);
    struct ftmpi_t_event_registration *r = calloc(1, sizeof(*r));
    if (!r)
        T_FAIL(MPI_T_ERR_MEMORY);
    r->ev = event_index;
    api_lock();
    list_add_tail(&regs, &r->link);
    mpit_event_hook = on_event;
    api_unlock();
    *event_registration = r;
    T_END();
}

API_WEAK(T_event_handle_set_info)
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)info; /* no hints are used */
    T_BEGIN();
    if (!reg_valid(event_registration))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    T_END();
}

API_WEAK(T_event_handle_get_info)
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info *info_used)
{
    T_BEGIN();
    if (!reg_valid(event_registration))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    if (!info_used)
        T_FAIL(MPI_T_ERR_INVALID);
    *info_used = no_hints();
    T_END();
}

static int check_level(MPI_T_event_registration r, MPI_T_cb_safety cb_safety)
{
    if (!reg_valid(r))
        return MPI_T_ERR_INVALID_HANDLE;
    if ((int)cb_safety < 0 || (int)cb_safety >= NLEVELS)
        return MPI_T_ERR_INVALID;
    return MPI_SUCCESS;
}

API_WEAK(T_event_register_callback)
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function *event_cb_function)
{
    (void)info;
    T_BEGIN();
    if ((rc = check_level(event_registration, cb_safety)) != MPI_SUCCESS)
        T_FAIL(rc);
    /* NULL removes the callback of that level */
    api_lock();
    event_registration->cb[cb_safety].fn = event_cb_function;
    event_registration->cb[cb_safety].user_data = user_data;
    api_unlock();
    T_END();
}

API_WEAK(T_event_callback_set_info)
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)info;
    T_BEGIN();
    rc = check_level(event_registration, cb_safety);
    T_END();
}

API_WEAK(T_event_callback_get_info)
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    T_BEGIN();
    if ((rc = check_level(event_registration, cb_safety)) != MPI_SUCCESS)
        T_FAIL(rc);
    if (!info_used)
        T_FAIL(MPI_T_ERR_INVALID);
    *info_used = no_hints();
    T_END();
}

API_WEAK(T_event_handle_free)
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function *free_cb_function)
{
    T_BEGIN();
    if (!reg_valid(event_registration))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    api_lock();
    list_del(&event_registration->link);
    if (list_empty(&regs))
        mpit_event_hook = NULL;
    api_unlock();
    /* no callback of it can run any more: the free callback now, without
     * the interface's mutex (it may call MPI_T) */
    if (free_cb_function) {
        pthread_mutex_unlock(&mpit_mutex);
        free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
        pthread_mutex_lock(&mpit_mutex);
    }
    free(event_registration);
    T_END();
}

API_WEAK(T_event_set_dropped_handler)
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    T_BEGIN();
    if (!reg_valid(event_registration))
        T_FAIL(MPI_T_ERR_INVALID_HANDLE);
    api_lock();
    event_registration->dropped = dropped_cb_function;
    api_unlock();
    T_END();
}

/* ---- instances (inside a callback: no lock is taken) ------------------------ */

static const ev_type_t *instance_type(MPI_T_event_instance inst)
{
    return inst && inst == current ? &ev_types[inst->ev] : NULL;
}

API_WEAK(T_event_read)
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    const ev_type_t *e = instance_type(event_instance);
    if (!e)
        return MPI_T_ERR_INVALID_HANDLE;
    if (element_index < 0 || element_index >= e->n)
        return MPI_T_ERR_INVALID_INDEX;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    size_t len = e->types[element_index] == MPI_INT ? sizeof(int) : sizeof(unsigned long long);
    memcpy(buffer, (const char *)&event_instance->data + e->disps[element_index], len);
    return MPI_SUCCESS;
}

API_WEAK(T_event_copy)
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    const ev_type_t *e = instance_type(event_instance);
    if (!e)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, &event_instance->data, e->size);
    return MPI_SUCCESS;
}

API_WEAK(T_event_get_timestamp)
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    if (!instance_type(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!event_timestamp)
        return MPI_T_ERR_INVALID;
    *event_timestamp = (MPI_Count)event_instance->ts;
    return MPI_SUCCESS;
}

API_WEAK(T_event_get_source)
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    if (!instance_type(event_instance))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!source_index)
        return MPI_T_ERR_INVALID;
    *source_index = 0;
    return MPI_SUCCESS;
}
