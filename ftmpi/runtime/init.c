/*
 * Library start-up and shutdown: connect to the runtime, bring up the
 * object modules and point-to-point, which opens the transports.
 */
#include "runtime/init.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errhandler.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/op.h"
#include "core/request.h"
#include "p2p/p2p.h"
#include "p2p/progress.h"
#include "runtime/monrank/monrank.h"

static int parse_mode(const char *env, const char *given, const char *const names[],
                      const int values[], int n, int dflt, const char *what)
{
    const char *s = given ? given : getenv(env);
    if (!s || !*s)
        return dflt;
    for (int i = 0; i < n; i++)
        if (strcasecmp(s, names[i]) == 0)
            return values[i];
    fprintf(stderr, "ftmpi: unknown %s '%s' (in %s); using the default\n", what, s, env);
    return dflt;
}

static void modes_init(void)
{
    static const char *const cm[] = {"abort", "blank", "shrink", "rebuild", "ulfm"};
    static const int cmv[] = {FTMPI_COMM_MODE_ABORT, FTMPI_COMM_MODE_BLANK,
                              FTMPI_COMM_MODE_SHRINK, FTMPI_COMM_MODE_REBUILD,
                              FTMPI_COMM_MODE_ULFM};
    static const char *const mm[] = {"reset", "cont", "nop"};
    static const int mmv[] = {FTMPI_MSG_MODE_RESET, FTMPI_MSG_MODE_CONT, FTMPI_MSG_MODE_RESET};
    static const char *const km[] = {"atomic", "nonatomic"};
    static const int kmv[] = {FTMPI_COLL_MODE_ATOMIC, FTMPI_COLL_MODE_NONATOMIC};
    static const char *const rm[] = {"auto", "manual", "none"};
    static const int rmv[] = {FTMPI_RECOVERY_MODE_AUTO, FTMPI_RECOVERY_MODE_MANUAL,
                              FTMPI_RECOVERY_MODE_NONE};
    ftg.comm_mode = parse_mode("FTMPI_COMM_MODE", ftg.rt.comm_mode, cm, cmv, 5,
                               FTMPI_COMM_MODE_ABORT, "comm mode");
    ftg.msg_mode = parse_mode("FTMPI_MSG_MODE", ftg.rt.msg_mode, mm, mmv, 3,
                              FTMPI_MSG_MODE_RESET, "message mode");
    ftg.coll_mode = parse_mode("FTMPI_COLL_MODE", ftg.rt.coll_mode, km, kmv, 2,
                               FTMPI_COLL_MODE_NONATOMIC, "collective mode");
    ftg.recovery_mode = parse_mode("FTMPI_RECOVERY_MODE", ftg.rt.recovery_mode, rm, rmv, 3,
                                   FTMPI_RECOVERY_MODE_MANUAL, "recovery mode");
}

static long env_long(const char *name, long dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 0) {
        fprintf(stderr, "ftmpi: %s='%s' is not a non-negative integer; using %ld\n", name, s, dflt);
        return dflt;
    }
    return v;
}

static int world_maps_init(void)
{
    int n = ftg.world_size;
    ftg.slot_of_world = malloc((size_t)n * sizeof(int));
    ftg.pid_of_world = malloc((size_t)n * sizeof(int));
    ftg.peer_dead = calloc((size_t)n, sizeof(int));
    ftg.inc_of_world = calloc((size_t)n, sizeof(uint32_t));
    if (!ftg.slot_of_world || !ftg.pid_of_world || !ftg.peer_dead || !ftg.inc_of_world)
        return -ENOMEM;
    for (int i = 0; i < n; i++) {
        ftg.slot_of_world[i] = ftg.singleton ? -1 : ftg.rt.slot_of_rank[i];
        ftg.pid_of_world[i] = ftg.singleton ? ftg.pid : ftg.rt.pid_of_rank[i];
        /* An id outside MPI_COMM_WORLD with no process (not started by
         * MPI_Comm_spawn yet, or gone): no peer until learned
         * (api/dyn_proc.c). */
        int in_world = i >= ftg.world_base && i < ftg.world_base + ftg.world_n;
        if (!ftg.singleton && !in_world && !ftg.pid_of_world[i])
            ftg.peer_dead[i] = 1;
    }
    if (!ftg.singleton)
        ftg.inc_of_world[ftg.world_rank] = ftg.rt.incarnation;
    int nslots = ftg.singleton ? 0 : ftg.rt.nslots;
    ftg.world_of_slot = malloc((size_t)(nslots ? nslots : 1) * sizeof(int));
    if (!ftg.world_of_slot)
        return -ENOMEM;
    for (int s = 0; s < nslots; s++)
        ftg.world_of_slot[s] = -1;
    for (int i = 0; i < n; i++)
        if (ftg.slot_of_world[i] >= 0)
            ftg.world_of_slot[ftg.slot_of_world[i]] = i;
    return 0;
}

static int runtime_connect(void)
{
    int rc = rtc_init(&ftg.rt);
    if (rc == -ENOENT) {
        /* Started without ftmpirun: a job of one process. */
        ftg.singleton = 1;
        ftg.world_rank = 0;
        ftg.world_size = 1;
        ftg.world_n = 1;
        return 0;
    }
    if (rc < 0) {
        fprintf(stderr, "ftmpi: cannot reach the runtime daemon: %s\n", strerror(-rc));
        return rc;
    }
    ftg.world_rank = ftg.rt.rank;
    ftg.world_size = ftg.rt.size;
    ftg.world_base = ftg.rt.world_base;
    ftg.world_n = ftg.rt.world_n;
    ftg.generation = ftg.rt.generation;
    return 0;
}

static void comm_attrs_free(comm_t *c)
{
    attr_clear(KV_COMM, &c->attrs, c->handle);
}

static void comm_attrs_drop(comm_t *c)
{
    attr_drop(KV_COMM, &c->attrs);
}

int ft_lib_init(int required, int *provided)
{
    ftg.pid = (int)getpid();
    ftg.main_thread = pthread_self();
    if (gethostname(ftg.processor_name, sizeof(ftg.processor_name) - 1) != 0)
        strcpy(ftg.processor_name, "localhost");
    if (runtime_connect() < 0 || world_maps_init() < 0)
        return MPI_ERR_OTHER;
    modes_init();
    ftg.eager_limit = (size_t)env_long("FTMPI_EAGER_LIMIT", PROC_EAGER_LIMIT_DEFAULT);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int nlocal = ftg.singleton ? 1 : ftg.rt.nslots;
    /* Spin long only when every rank can have a core of its own. */
    long spin_us = env_long("FTMPI_SPIN_US", nlocal <= ncpu ? 100 : 2);
    ftg.spin_ns = spin_us * 1000;
    ftg.thread_level = required > MPI_THREAD_MULTIPLE ? MPI_THREAD_MULTIPLE : required;
    if (ftg.thread_level < MPI_THREAD_SINGLE)
        ftg.thread_level = MPI_THREAD_SINGLE;
    ftg.multiple = ftg.thread_level == MPI_THREAD_MULTIPLE;
    *provided = ftg.thread_level;
    if (err_module_init() || errh_module_init() || dt_module_init() || op_module_init() ||
        group_module_init() || req_module_init() || attr_module_init() ||
        comm_module_init() != MPI_SUCCESS)
        return MPI_ERR_NO_MEM;
    if (p2p_init() != 0)
        return MPI_ERR_OTHER; /* a transport cannot start: the reason is on stderr */
    comm_free_hook_attrs = comm_attrs_free;
    if (ftg.comm_mode != FTMPI_COMM_MODE_ABORT) {
        /* docs/ft.md, contract section 2: FT programs check return codes. */
        errh_t *ret = errh_get(MPI_ERRORS_RETURN);
        comm_world()->errh = ret;
        comm_self()->errh = ret;
    }
    ftg.initialized = 1;
    monrank_init(); /* FTMPI_MONITOR: the live monitor's report */
    return MPI_SUCCESS;
}

static int nothing_pending(void *arg)
{
    (void)arg;
    return !p2p_outbound_busy();
}

static int all_finalized(void *arg)
{
    int t = rtc_finalize_test();
    if (t < 0)
        *(int *)arg = MPI_ERR_OTHER;
    return t != 0;
}

int ft_lib_finalize(void)
{
    /* MPI_COMM_SELF's attributes are deleted first (the standard's hook
     * for libraries to run at finalize); MPI_COMM_WORLD's delete functions
     * are FT-MPI recovery callbacks and are not called here. */
    attr_clear(KV_COMM, &comm_self()->attrs, MPI_COMM_SELF);
    comm_free_hook_attrs = comm_attrs_drop;
    /* Let queued sends reach their rings before we leave. */
    progress_wait(nothing_pending, NULL);
    int rc = MPI_SUCCESS;
    monrank_fini();
    /* Wait for the others with the progress engine turning: a peer's
     * send may still need this process (the reliability layer's
     * acknowledgements, a retransmission answered; docs/network.md). */
    if (!ftg.singleton && (rtc_finalize_start() < 0 || progress_wait(all_finalized, &rc) != MPI_SUCCESS))
        rc = MPI_ERR_OTHER;
    p2p_fini();
    rtc_info_free(&ftg.rt);
    comm_module_fini();
    attr_module_fini();
    req_module_fini();
    group_module_fini();
    op_module_fini();
    dt_module_fini();
    err_module_fini(); /* the error handlers stay (core/errhandler.h) */
    ftg.finalized = 1;
    return rc;
}
