/*
 * The performance variables: what p2p and ft count for the tool interface
 * (core/mpit_stats.h), the collective calls per kind (coll_last), the
 * recovery generation, and per communicator its unexpected queue and its
 * FT state (docs/mpit.md has the table). Names are ftmpi_<category>_<what>.
 */
#include "api/api.h"
#include "api/mpit.h"
#include "coll/coll_select.h"
#include "core/mpit_stats.h"
#include "p2p/p2p.h"

#define LOAD(x) ((int64_t)__atomic_load_n(&(x), __ATOMIC_RELAXED))

static int one(const void *obj)
{
    (void)obj;
    return 1;
}

#define STAT_SAMPLER(fn, field)                                  \
    static int fn(const void *obj, int64_t *vals, int n)         \
    {                                                            \
        (void)obj;                                               \
        (void)n;                                                 \
        vals[0] = LOAD(mpit_stats.field);                        \
        return MPI_SUCCESS;                                      \
    }
STAT_SAMPLER(s_sent_msgs, sent_msgs)
STAT_SAMPLER(s_sent_bytes, sent_bytes)
STAT_SAMPLER(s_recv_msgs, recv_msgs)
STAT_SAMPLER(s_recv_bytes, recv_bytes)
STAT_SAMPLER(s_rndv, rndv_sends)
STAT_SAMPLER(s_unexp, unexp_now)
STAT_SAMPLER(s_failures, failures)
STAT_SAMPLER(s_recoveries, recoveries)
STAT_SAMPLER(s_recovery_ns, recovery_ns)
STAT_SAMPLER(s_atomic_head, atomic_head)
STAT_SAMPLER(s_atomic_local, atomic_local)

/* The handle keeps the high watermark in a slot of its own
 * (api/mpit_pvar.c); this is the level it starts from. */
#define s_unexp_hwm s_unexp

static int s_generation(const void *obj, int64_t *vals, int n)
{
    (void)obj;
    (void)n;
    vals[0] = ftg.generation;
    return MPI_SUCCESS;
}

static int s_num_failed(const void *obj, int64_t *vals, int n)
{
    (void)obj;
    (void)n;
    vals[0] = ftg.num_failed;
    return MPI_SUCCESS;
}

static int coll_count(const void *obj)
{
    (void)obj;
    return COLL_NKINDS;
}

static int s_coll_calls(const void *obj, int64_t *vals, int n)
{
    (void)obj;
    for (int k = 0; k < n && k < COLL_NKINDS; k++) {
        unsigned long c;
        coll_last((coll_kind_t)k, &c);
        vals[k] = (int64_t)c;
    }
    return MPI_SUCCESS;
}

/* ---- bound to a communicator ------------------------------------------- */

/* obj is the MPI_Comm handle's value (looked up at every read: a freed
 * communicator makes the read fail, not crash). */
static comm_t *bound_comm(const void *obj)
{
    return ftg.initialized && !ftg.finalized ? comm_get((MPI_Comm)(intptr_t)obj) : NULL;
}

static int s_unexp_comm(const void *obj, int64_t *vals, int n)
{
    (void)n;
    comm_t *c = bound_comm(obj);
    if (!c)
        return MPI_T_ERR_INVALID_HANDLE;
    int64_t len = 0;
    for (int k = 0; k < 2; k++) {
        list_node_t *p;
        list_for_each(p, &c->unexpected[k])
            len++;
    }
    vals[0] = len;
    return MPI_SUCCESS;
}

static const char *const comm_state_items[] = {"ok", "detected", "recover", "recovered",
                                               "failed"};
const mpit_enum_t mpit_comm_state_enum = {"ftmpi_comm_state", 5, comm_state_items, NULL, 0};
_Static_assert(COMM_OK == 0 && COMM_DETECTED == 1 && COMM_RECOVER == 2 && COMM_RECOVERED == 3 &&
                   COMM_FAILED == 4, "comm_state_items follows comm_state_t");

static int s_comm_state(const void *obj, int64_t *vals, int n)
{
    (void)n;
    comm_t *c = bound_comm(obj);
    if (!c)
        return MPI_T_ERR_INVALID_HANDLE;
    vals[0] = c->state;
    return MPI_SUCCESS;
}

const void *mpit_pvar_bind(const mpit_pvar_t *v, const void *obj_handle, int *rc)
{
    *rc = MPI_SUCCESS;
    if (v->bind == MPI_T_BIND_NO_OBJECT)
        return NULL;
    /* MPI_T_BIND_MPI_COMM: obj_handle points to an MPI_Comm */
    if (!obj_handle) {
        *rc = MPI_T_ERR_INVALID_HANDLE;
        return NULL;
    }
    MPI_Comm h = *(const MPI_Comm *)obj_handle;
    const void *obj = (const void *)(intptr_t)h;
    if (!bound_comm(obj))
        *rc = MPI_T_ERR_INVALID_HANDLE;
    return obj;
}

/* ---- the table ----------------------------------------------------------- */

#define ULL MPI_UNSIGNED_LONG_LONG
#define NOOBJ MPI_T_BIND_NO_OBJECT
#define COUNTER MPI_T_PVAR_CLASS_COUNTER
#define LEVEL MPI_T_PVAR_CLASS_LEVEL
#define UD MPI_T_VERBOSITY_USER_DETAIL
#define TB MPI_T_VERBOSITY_TUNER_BASIC
/* counters: startable, resettable, read-and-reset atomic; levels and
 * states: continuous, read-only */
#define CTR 0, 0, 1
#define LVL 1, 1, 0

static const mpit_pvar_t table[] = {
    {"ftmpi_p2p_messages_sent",
     "Messages this process handed to point-to-point (user traffic and the library's own: "
     "collectives, one-sided, ULFM), eager or rendezvous.", UD, COUNTER, NOOBJ, ULL, CTR, one, s_sent_msgs},
    {"ftmpi_p2p_bytes_sent", "Bytes of the messages sent.", UD, COUNTER, NOOBJ, ULL, CTR, one,
     s_sent_bytes},
    {"ftmpi_p2p_messages_received",
     "Messages matched by a receive of this process (user traffic and the library's own).", UD, COUNTER,
     NOOBJ, ULL, CTR, one, s_recv_msgs},
    {"ftmpi_p2p_bytes_received", "Bytes of the messages received.", UD, COUNTER, NOOBJ, ULL, CTR,
     one, s_recv_bytes},
    {"ftmpi_p2p_rendezvous_sends",
     "Messages sent by the rendezvous protocol (larger than the eager limit).", TB, COUNTER,
     NOOBJ, ULL, CTR, one, s_rndv},
    {"ftmpi_p2p_unexpected_messages",
     "Messages that arrived before their receive and wait for it, on every communicator "
     "(mprobed ones included).", TB, LEVEL, NOOBJ, ULL, LVL, one, s_unexp},
    {"ftmpi_p2p_unexpected_high_watermark",
     "The most unexpected messages held at once since the handle was allocated or reset.", TB,
     MPI_T_PVAR_CLASS_HIGHWATERMARK, NOOBJ, ULL, 0, 1, 0, one, s_unexp_hwm},
    {"ftmpi_p2p_unexpected_queue_length",
     "Messages waiting for a receive on this communicator (point-to-point and collective "
     "contexts).", TB, LEVEL, MPI_T_BIND_MPI_COMM, ULL, LVL, one, s_unexp_comm},
    {"ftmpi_coll_calls",
     "Collective calls that chose an algorithm, per kind (barrier, bcast, reduce, allreduce, "
     "gather, scatter, allgather, allgatherv, alltoall, alltoallv, reduce_scatter, scan).",
     UD, COUNTER, NOOBJ, ULL, CTR, coll_count, s_coll_calls},
    {"ftmpi_ft_failures", "Process failures this process learned of.", MPI_T_VERBOSITY_USER_BASIC,
     COUNTER, NOOBJ, ULL, CTR, one, s_failures},
    {"ftmpi_ft_recoveries", "Recoveries (FT-MPI rounds) this process finished successfully.",
     MPI_T_VERBOSITY_USER_BASIC, COUNTER, NOOBJ, ULL, CTR, one, s_recoveries},
    {"ftmpi_ft_recovery_time", "Seconds spent in the recoveries counted by ftmpi_ft_recoveries.",
     MPI_T_VERBOSITY_USER_BASIC, MPI_T_PVAR_CLASS_TIMER, NOOBJ, MPI_DOUBLE, CTR, one,
     s_recovery_ns},
    {"ftmpi_ft_atomic_head_votes", "ATOMIC collective decisions (and setup steps of their "
     "shared slots) this process voted on through the launcher's head.",
     UD, COUNTER, NOOBJ, ULL, CTR, one, s_atomic_head},
    {"ftmpi_ft_atomic_local", "ATOMIC collectives this process decided in shared slots, "
     "without the head.", UD, COUNTER, NOOBJ, ULL, CTR, one, s_atomic_local},
    {"ftmpi_ft_generation", "The recovery generation of this process (0 before any recovery).",
     UD, LEVEL, NOOBJ, ULL, LVL, one, s_generation},
    {"ftmpi_ft_num_failed", "Processes that failed in the latest recovery "
     "(the FTMPI_NUM_FAILED_PROCS attribute).", UD, LEVEL, NOOBJ, ULL, LVL, one, s_num_failed},
    {"ftmpi_ft_comm_state", "The FT state of this communicator (enumeration ftmpi_comm_state).",
     UD, MPI_T_PVAR_CLASS_STATE, MPI_T_BIND_MPI_COMM, MPI_INT, LVL, one, s_comm_state,
     &mpit_comm_state_enum},
};
#define NTABLE ((int)(sizeof(table) / sizeof(table[0])))

int mpit_pvar_count(void)
{
    return NTABLE;
}

const mpit_pvar_t *mpit_pvar(int i)
{
    return i >= 0 && i < NTABLE ? &table[i] : NULL;
}
