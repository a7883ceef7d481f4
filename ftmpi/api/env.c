/* Environment: Init/Finalize, queries, time, processor name, Abort. */
#include "api/api.h"
#include "api/dyn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/init.h"
#include "api/session.h"
#include "ft/ft.h"
#include "rma/rma.h"

/* The World Model: 1 after MPI_Init, 2 while MPI_Finalize runs, 3 once it
 * has returned. The library itself may run without it, for sessions
 * (api/session.h). MPI_Finalized is true only at 3 (MPI-4.0 11.2.2: "true if
 * MPI_FINALIZE has completed"): the delete callbacks of MPI_COMM_SELF's
 * attributes, run at the start of MPI_Finalize, still see false. */
static int world_state;

int api_world_active(void)
{
    return world_state == 1;
}

int api_lib_up(int required, int *provided)
{
    if (ftg.initialized) {
        *provided = ftg.thread_level;
        return MPI_SUCCESS;
    }
    int rc = ft_lib_init(required, provided);
    return rc == MPI_SUCCESS ? ft_after_init() : rc;
}

/*
 * A second MPI_Init (or one after MPI_Finalize) is erroneous (MPI-4 11.2.1).
 * It returns an error code of class MPI_ERR_OTHER whose own string says what
 * happened (the class's string is generic); the code is made once, on the
 * first such call, and lives until the process ends (after MPI_Finalize the
 * error module has been reset, so it is made again there).
 */
static int init_twice_error(const char *fname)
{
    static int code_twice = -1, code_after = -1;
    int after = ftg.finalized || world_state >= 2;
    int *code = after ? &code_after : &code_twice;
    char s[MPI_MAX_ERROR_STRING];
    snprintf(s, sizeof s,
             after ? "MPI_ERR_OTHER: MPI_Init or MPI_Init_thread called after MPI_Finalize "
                     "(MPI cannot be initialized again)"
                   : "MPI_ERR_OTHER: MPI_Init or MPI_Init_thread called twice "
                     "(MPI can be initialized only once)");
    fprintf(stderr, "ftmpi: %s called %s\n", fname,
            after ? "after MPI_Finalize (MPI cannot be initialized again)"
                  : "twice (MPI can be initialized only once)");
    if (*code < 0 || err_class_of(*code) != MPI_ERR_OTHER) {
        int c = err_make_code(MPI_ERR_OTHER, s);
        *code = c != MPI_ERR_OTHER ? c : -1; /* out of memory: the bare class */
    }
    return *code >= 0 ? *code : MPI_ERR_OTHER;
}

static int init_common(const char *fname, int required, int *provided)
{
    if (world_state || ftg.finalized)
        return init_twice_error(fname);
    int prov;
    int rc = api_lib_up(required, &prov);
    if (rc != MPI_SUCCESS && rc != MPI_INIT_RESTARTED_NODE)
        return rc;
    world_state = 1;
    if (provided)
        *provided = prov;
    /* the bridge; a spawned process connects to its parents here (not a
     * REBUILD replacement: the recovery destroyed that intercommunicator) */
    int rc2 = dyn_init();
    return rc2 != MPI_SUCCESS ? rc2 : rc;
}

API_WEAK(Init)
int PMPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return init_common("MPI_Init", MPI_THREAD_SINGLE, NULL);
}

API_WEAK(Init_thread)
int PMPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    if (!provided) {
        fprintf(stderr, "ftmpi: MPI_Init_thread: provided is NULL\n");
        return MPI_ERR_ARG;
    }
    return init_common("MPI_Init_thread", required, provided);
}

static int no_orphans(void *arg)
{
    (void)arg;
    return req_orphans() == 0;
}

int api_lib_down(void)
{
    /* Requests the user freed while active must still complete (MPI-4.0
     * 3.7.3): a freed receive may be the one a peer's send, itself waited
     * for in the peer's MPI_Finalize, needs. Wait for them before the
     * runtime's finalize, which no longer moves messages. A failed peer
     * completes them with an error. */
    progress_wait(no_orphans, NULL);
    /* ULFM: answer for our agreements until every member has them. */
    ulfm_finalize();
    api_type_f90_fini();
    rma_reap(); /* RMA operations a failure cut off */
    return ft_lib_finalize();
}

API_WEAK(Finalize)
int PMPI_Finalize(void)
{
    API_BEGIN("MPI_Finalize");
    world_state = 2;
    /* Sessions still open keep the library running (api/session.h). After
     * finalize no error handler exists: the code is returned. */
    int down = api_session_count() == 0 ? api_lib_down() : MPI_SUCCESS;
    world_state = 3;
    if (down != MPI_SUCCESS)
        API_LEAVE_RAISED(down);
    API_END();
}

API_WEAK(Initialized)
int PMPI_Initialized(int *flag)
{
    if (!flag)
        return MPI_ERR_ARG;
    *flag = world_state >= 1; /* MPI_Init was called (sessions do not count) */
    return MPI_SUCCESS;
}

API_WEAK(Finalized)
int PMPI_Finalized(int *flag)
{
    if (!flag)
        return MPI_ERR_ARG;
    *flag = world_state == 3;
    return MPI_SUCCESS;
}

API_WEAK(Abort)
int PMPI_Abort(MPI_Comm comm, int errorcode)
{
    char msg[160];
    snprintf(msg, sizeof(msg), "MPI_Abort called by rank %d with error code %d",
             ftg.world_rank, errorcode);
    fprintf(stderr, "ftmpi: %s\n", msg);
    fflush(stderr);
    (void)comm;
    if (!ftg.initialized || ftg.singleton)
        exit(errorcode ? errorcode : 1);
    rtc_abort(errorcode, msg);
}

API_WEAK(Wtime)
double PMPI_Wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

API_WEAK(Wtick)
double PMPI_Wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

API_WEAK(Get_processor_name)
int PMPI_Get_processor_name(char *name, int *resultlen)
{
    API_BEGIN("MPI_Get_processor_name");
    CHECK_PTR(name);
    CHECK_PTR(resultlen);
    size_t n = strnlen(ftg.processor_name, MPI_MAX_PROCESSOR_NAME - 1);
    memcpy(name, ftg.processor_name, n);
    name[n] = 0;
    *resultlen = (int)n;
    API_END();
}

API_WEAK(Get_version)
int PMPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return MPI_ERR_ARG;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

API_WEAK(Get_library_version)
int PMPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return MPI_ERR_ARG;
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "FT-MPI %s (fault-tolerant MPI; MPI %d.%d complete)", FTMPI_VERSION_STRING,
                     MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

API_WEAK(Query_thread)
int PMPI_Query_thread(int *provided)
{
    API_BEGIN("MPI_Query_thread");
    CHECK_PTR(provided);
    *provided = ftg.thread_level;
    API_END();
}

API_WEAK(Is_thread_main)
int PMPI_Is_thread_main(int *flag)
{
    API_BEGIN("MPI_Is_thread_main");
    CHECK_PTR(flag);
    *flag = pthread_equal(pthread_self(), ftg.main_thread) != 0;
    API_END();
}

API_WEAK(Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    (void)level; /* no profiling library is attached: the call has no effect */
    return MPI_SUCCESS;
}

API_WEAK(Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    API_BEGIN("MPI_Alloc_mem");
    (void)info;
    CHECK_PTR(baseptr);
    if (size < 0)
        API_FAIL(MPI_ERR_SIZE);
    void *p = malloc(size ? (size_t)size : 1);
    if (!p)
        API_FAIL(MPI_ERR_NO_MEM);
    *(void **)baseptr = p;
    API_END();
}

API_WEAK(Free_mem)
int PMPI_Free_mem(void *base)
{
    API_BEGIN("MPI_Free_mem");
    free(base);
    API_END();
}

int PFTMPI_Fault_point(const char *name, long value)
{
    if (!name)
        return MPI_ERR_ARG;
    if (ftg.singleton || !ftg.initialized)
        return MPI_SUCCESS;
    return rtc_fault_point(name, value) < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
}
API_ALIAS(FTMPI_Fault_point, PFTMPI_Fault_point)

int PFTMPI_Host_of(MPI_Comm comm, int rank, int which, int *host)
{
    API_BEGIN("FTMPI_Host_of");
    comm_t *c;
    CHECK_COMM(comm, c);
    if (!host || (which != FTMPI_HOST_NOW && which != FTMPI_HOST_AT_LAUNCH))
        API_FAIL(MPI_ERR_ARG);
    if (rank < 0 || rank >= comm_peer_size(c))
        API_FAIL(MPI_ERR_RANK);
    int w = comm_peer_world(c, rank);
    const int *tab = which == FTMPI_HOST_NOW ? ftg.rt.host_of_rank
                                             : ftg.rt.launch_host_of_rank;
    *host = ftg.singleton || !tab ? 0 : tab[w];
    API_END();
}
API_ALIAS(FTMPI_Host_of, PFTMPI_Host_of)
