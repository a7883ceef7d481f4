/*
 * The control variables: the library's knobs that its environment
 * variables set (docs/ftmpi.md "Tuning", docs/ft.md, docs/collectives.md),
 * each read from the variable the layer uses, and written where the layer
 * can honour a change at run time (docs/mpit.md has the table).
 *
 * Names are ftmpi_<category>_<knob>: a variable belongs to the category
 * whose name is its prefix (api/mpit_cat.c).
 */
#include "api/api.h"
#include "api/mpit.h"
#include "coll/coll_select.h"
#include "p2p/p2p_int.h"
#include "transport/rel/rel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static int lib_running(void)
{
    return ftg.initialized && !ftg.finalized;
}

/* ---- point-to-point ------------------------------------------------------ */

/* The knobs that MPI_Init sets from the environment are in effect only
 * while MPI runs: before, reading them is MPI_T_ERR_NOT_ACCESSIBLE. */
static int eager_read(int arg, void *buf)
{
    (void)arg;
    if (!lib_running())
        return MPI_T_ERR_NOT_ACCESSIBLE;
    *(unsigned long *)buf = (unsigned long)ftg.eager_limit;
    return MPI_SUCCESS;
}

/* The shared-memory eager limit (FTMPI_EAGER_LIMIT): the sender picks the
 * protocol per message, so a new limit applies to the next send. Before
 * MPI_Init the environment decides it (MPI_Init reads it again). */
static int eager_write(int arg, const void *buf)
{
    (void)arg;
    if (!lib_running())
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    size_t v = *(const unsigned long *)buf;
    api_lock();
    if (route_shm && v > route_shm->max_inline)
        v = route_shm->max_inline; /* what the ring holds, as at MPI_Init */
    ftg.eager_limit = v;
    api_unlock();
    return MPI_SUCCESS;
}

static const char *const onoff_items[] = {"off", "on"};
static const mpit_enum_t onoff_enum = {"ftmpi_onoff", 2, onoff_items, NULL, 0};

static int cma_read(int arg, void *buf)
{
    (void)arg;
    if (!lib_running())
        return MPI_T_ERR_NOT_ACCESSIBLE;
    api_lock();
    *(int *)buf = route_shm && (route_shm->caps & TP_CAP_CMA) ? 1 : 0;
    api_unlock();
    return MPI_SUCCESS;
}

/* Single copy (FTMPI_NO_CMA turns it off): can be turned off at run time
 * (later rendezvous messages stream through the ring), not back on. */
static int cma_write(int arg, const void *buf)
{
    (void)arg;
    int v = *(const int *)buf, now;
    if (v != 0 && v != 1)
        return MPI_T_ERR_INVALID;
    if (!lib_running())
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    cma_read(0, &now);
    if (v == now)
        return MPI_SUCCESS;
    if (v == 1)
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    api_lock();
    route_no_cma();
    api_unlock();
    return MPI_SUCCESS;
}

static const char *const transport_items[] = {"auto", "tcp"};
static const mpit_enum_t transport_enum = {"ftmpi_transport", 2, transport_items, NULL, 0};

static int transport_read(int arg, void *buf)
{
    (void)arg;
    if (!lib_running())
        return MPI_T_ERR_NOT_ACCESSIBLE;
    *(int *)buf = route_force_tcp ? 1 : 0;
    return MPI_SUCCESS;
}

static int oversub_read(int arg, void *buf)
{
    (void)arg;
    if (!lib_running())
        return MPI_T_ERR_NOT_ACCESSIBLE;
    *(int *)buf = progress_oversubscribed();
    return MPI_SUCCESS;
}

static int reliability_read(int arg, void *buf)
{
    (void)arg;
    *(int *)buf = rel_wanted() > 0;
    return MPI_SUCCESS;
}

/* ---- fault tolerance: the modes ftmpirun gives every process ------------- */

static const char *const comm_mode_items[] = {"abort", "blank", "shrink", "rebuild", "ulfm"};
static const int comm_mode_vals[] = {FTMPI_COMM_MODE_ABORT, FTMPI_COMM_MODE_BLANK,
                                     FTMPI_COMM_MODE_SHRINK, FTMPI_COMM_MODE_REBUILD,
                                     FTMPI_COMM_MODE_ULFM};
static const mpit_enum_t comm_mode_enum = {"ftmpi_comm_mode", 5, comm_mode_items,
                                           comm_mode_vals, 0};
static const char *const msg_mode_items[] = {"reset", "cont"};
static const int msg_mode_vals[] = {FTMPI_MSG_MODE_RESET, FTMPI_MSG_MODE_CONT};
static const mpit_enum_t msg_mode_enum = {"ftmpi_msg_mode", 2, msg_mode_items, msg_mode_vals, 0};
static const char *const coll_mode_items[] = {"atomic", "nonatomic"};
static const int coll_mode_vals[] = {FTMPI_COLL_MODE_ATOMIC, FTMPI_COLL_MODE_NONATOMIC};
static const mpit_enum_t coll_mode_enum = {"ftmpi_coll_mode", 2, coll_mode_items,
                                           coll_mode_vals, 0};
static const char *const rec_mode_items[] = {"auto", "manual", "none"};
static const int rec_mode_vals[] = {FTMPI_RECOVERY_MODE_AUTO, FTMPI_RECOVERY_MODE_MANUAL,
                                    FTMPI_RECOVERY_MODE_NONE};
static const mpit_enum_t rec_mode_enum = {"ftmpi_recovery_mode", 3, rec_mode_items,
                                          rec_mode_vals, 0};

static int mode_read(int arg, void *buf)
{
    const int *m[] = {&ftg.comm_mode, &ftg.msg_mode, &ftg.coll_mode, &ftg.recovery_mode};
    if (!lib_running())
        return MPI_T_ERR_NOT_ACCESSIBLE; /* given by ftmpirun at MPI_Init */
    *(int *)buf = *m[arg];
    return MPI_SUCCESS;
}

/* ---- collectives: the algorithm forced per kind ---------------------------- */

/* Enumeration of each kind: "auto" (-1: rules or built-in choice), then
 * the algorithms, valued by their index (coll_select.h). */
#define COLL_MAX_ALGS 8
static const char *coll_items[COLL_NKINDS][COLL_MAX_ALGS + 1];
static char coll_enum_names[COLL_NKINDS][40];
static mpit_enum_t coll_enums[COLL_NKINDS];
static char coll_names[COLL_NKINDS][48];
static char coll_descs[COLL_NKINDS][160];

static int coll_read(int arg, void *buf)
{
    const char *name;
    const char *const *algs;
    int n;
    api_lock();
    *(int *)buf = coll_select_info((coll_kind_t)arg, &name, &algs, &n);
    api_unlock();
    return MPI_SUCCESS;
}

/* Every process of a communicator must choose alike (scope ALL_EQ): set it
 * on all of them, between collectives. */
static int coll_write(int arg, const void *buf)
{
    const char *name;
    const char *const *algs;
    int n, v = *(const int *)buf, rc = MPI_SUCCESS;
    api_lock();
    coll_select_info((coll_kind_t)arg, &name, &algs, &n);
    char spec[96];
    if (v < -1 || v >= n)
        rc = MPI_T_ERR_INVALID;
    else if (snprintf(spec, sizeof spec, "%s=%s", name, v < 0 ? "" : algs[v]),
             coll_select_set(spec) != 0)
        rc = MPI_T_ERR_INVALID;
    api_unlock();
    return rc;
}

/* ---- the table ----------------------------------------------------------- */

#define TB MPI_T_VERBOSITY_TUNER_BASIC
#define UB MPI_T_VERBOSITY_USER_BASIC
#define NOOBJ MPI_T_BIND_NO_OBJECT

static const mpit_cvar_t fixed[] = {
    {"ftmpi_p2p_eager_limit",
     "Messages up to this many bytes go eagerly over shared memory, larger ones by rendezvous "
     "(FTMPI_EAGER_LIMIT; capped to the ring's inline size). Writable after MPI_Init.",
     TB, NOOBJ, MPI_T_SCOPE_LOCAL, MPI_UNSIGNED_LONG, NULL, 0, eager_read, eager_write},
    {"ftmpi_p2p_single_copy",
     "Rendezvous messages on one host are read directly from the sender's memory "
     "(process_vm_readv; FTMPI_NO_CMA turns it off). Can be turned off at run time.",
     TB, NOOBJ, MPI_T_SCOPE_LOCAL, MPI_INT, &onoff_enum, 0, cma_read, cma_write},
    {"ftmpi_p2p_transport",
     "auto: shared memory on the host, TCP between hosts; tcp: TCP for every peer "
     "(FTMPI_TRANSPORT, read at MPI_Init).",
     TB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &transport_enum, 0, transport_read, NULL},
    {"ftmpi_p2p_oversubscribed",
     "More ranks than cores on this host: waiting ranks yield early (FTMPI_OVERSUBSCRIBE, else "
     "counted at MPI_Init).",
     TB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &onoff_enum, 0, oversub_read, NULL},
    {"ftmpi_transport_reliability",
     "The reliability layer (sequence numbers, acknowledgements, resends) over TCP "
     "(FTMPI_RELIABILITY, read at MPI_Init).",
     TB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &onoff_enum, 0, reliability_read, NULL},
    {"ftmpi_ft_comm_mode", "FT-MPI communicator mode (ftmpirun --comm-mode / FTMPI_COMM_MODE).",
     UB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &comm_mode_enum, 0, mode_read, NULL},
    {"ftmpi_ft_msg_mode", "FT-MPI message mode (FTMPI_MSG_MODE).",
     UB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &msg_mode_enum, 1, mode_read, NULL},
    {"ftmpi_ft_coll_mode", "FT-MPI collective mode (FTMPI_COLL_MODE).",
     UB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &coll_mode_enum, 2, mode_read, NULL},
    {"ftmpi_ft_recovery_mode", "FT-MPI recovery mode (FTMPI_RECOVERY_MODE).",
     UB, NOOBJ, MPI_T_SCOPE_READONLY, MPI_INT, &rec_mode_enum, 3, mode_read, NULL},
};
#define NFIXED ((int)(sizeof(fixed) / sizeof(fixed[0])))

static mpit_cvar_t coll_vars[COLL_NKINDS];
static int coll_ready;

/* The per-kind collective variables, from coll_select's own names. */
static void coll_vars_init(void)
{
    for (int k = 0; k < COLL_NKINDS; k++) {
        const char *name;
        const char *const *algs;
        int n;
        coll_select_info((coll_kind_t)k, &name, &algs, &n);
        if (n > COLL_MAX_ALGS)
            n = COLL_MAX_ALGS;
        coll_items[k][0] = "auto";
        for (int a = 0; a < n; a++)
            coll_items[k][a + 1] = algs[a];
        snprintf(coll_enum_names[k], sizeof coll_enum_names[k], "ftmpi_coll_%s", name);
        coll_enums[k] = (mpit_enum_t){coll_enum_names[k], n + 1, coll_items[k], NULL, -1};
        snprintf(coll_names[k], sizeof coll_names[k], "ftmpi_coll_%s_algorithm", name);
        char env[32];
        int i = 0;
        for (; name[i] && i < (int)sizeof env - 1; i++)
            env[i] = (char)toupper((unsigned char)name[i]);
        env[i] = '\0';
        snprintf(coll_descs[k], sizeof coll_descs[k],
                 "The %s algorithm forced for every call (FTMPI_COLL_%s); auto: the rules file "
                 "or the built-in choice. Set it alike on every process.", name, env);
        coll_vars[k] = (mpit_cvar_t){coll_names[k], coll_descs[k], TB, NOOBJ, MPI_T_SCOPE_ALL_EQ,
                                     MPI_INT, &coll_enums[k], k, coll_read, coll_write};
    }
    coll_ready = 1;
}

int mpit_cvar_count(void)
{
    return NFIXED + COLL_NKINDS;
}

const mpit_cvar_t *mpit_cvar(int i)
{
    if (i < 0 || i >= mpit_cvar_count())
        return NULL;
    if (i < NFIXED)
        return &fixed[i];
    if (!coll_ready)
        coll_vars_init();
    return &coll_vars[i - NFIXED];
}

extern const mpit_enum_t mpit_comm_state_enum; /* api/mpit_pvars.c */

int mpit_enum_valid(MPI_T_enum e)
{
    const mpit_enum_t *p = (const mpit_enum_t *)e;
    if (!p)
        return 0;
    if (p == &mpit_comm_state_enum)
        return 1;
    for (int i = 0; i < mpit_cvar_count(); i++)
        if (mpit_cvar(i)->en == p)
            return 1;
    return 0;
}
