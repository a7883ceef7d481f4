/*
 * errors: the MPI_T return codes (MPI-4.0 15.3.10) on misuse, without a
 * crash, and the codes as MPI error classes.
 *
 *  - every MPI_T call before MPI_T_init_thread and after the matching
 *    MPI_T_finalize: MPI_T_ERR_NOT_INITIALIZED; nesting counts;
 *  - bad indices (INVALID_INDEX), names (INVALID_NAME), enumeration items
 *    (INVALID_ITEM), handles (INVALID_HANDLE: NULL, freed, made up, of
 *    another session), sessions (INVALID_SESSION);
 *  - a read-only control variable (CVAR_SET_NEVER), one that cannot be set
 *    before MPI_Init (CVAR_SET_NOT_NOW); a read-only performance variable
 *    (PVAR_NO_WRITE on write, reset and readreset), a continuous one
 *    (PVAR_NO_STARTSTOP), a non-atomic one (PVAR_NO_ATOMIC), the high
 *    watermark slots used up (OUT_OF_HANDLES); an event instance outside
 *    its callback (INVALID_HANDLE);
 *  - MPI_Error_class/MPI_Error_string of every MPI_T_ERR_ code, all of them
 *    at most MPI_ERR_LASTCODE, and MPI_Add_error_class above it.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errors;
#define EXPECT(call, want)                                                            \
    do {                                                                              \
        int rc_ = (call);                                                             \
        if (rc_ != (want)) {                                                          \
            fprintf(stderr, "FAIL %s:%d: %s returned %d, want %s (%d)\n", __FILE__,   \
                    __LINE__, #call, rc_, #want, (int)(want));                        \
            errors++;                                                                 \
        }                                                                             \
    } while (0)

static int index_of(const char *name)
{
    int i = -1;
    EXPECT(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    return i;
}

static int pindex(const char *name, int cls)
{
    int i = -1;
    EXPECT(MPI_T_pvar_get_index(name, cls, &i), MPI_SUCCESS);
    return i;
}

static void not_initialized(void)
{
    int n, i;
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
    MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
    MPI_Count t;
    EXPECT(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_source_get_timestamp(0, &t), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_cvar_get_index("ftmpi_p2p_eager_limit", &i), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL), MPI_T_ERR_NOT_INITIALIZED);
}

static void bad_arguments(void)
{
    int n, i, cnt;
    char buf[64];
    int len = sizeof buf;
    MPI_Datatype dt;
    MPI_T_enum en;
    EXPECT(MPI_T_init_thread(17, &n), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    MPI_T_cvar_get_num(&n);
    EXPECT(MPI_T_cvar_get_info(n, buf, &len, NULL, &dt, &en, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_info(-1, buf, &len, NULL, &dt, &en, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    MPI_T_pvar_get_num(&n);
    EXPECT(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                               NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    MPI_T_category_get_num(&n);
    EXPECT(MPI_T_category_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_cvars(-5, 0, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_category_get_pvars(0, -1, NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_category_get_num_events(n, &i), MPI_T_ERR_INVALID_INDEX);
    MPI_T_event_get_num(&n);
    EXPECT(MPI_T_event_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_source_get_info(1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           MPI_T_ERR_INVALID_INDEX);
    MPI_T_event_registration reg;
    EXPECT(MPI_T_event_handle_alloc(n, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    EXPECT(MPI_T_cvar_get_index("no_such_variable", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_pvar_get_index("no_such_variable", MPI_T_PVAR_CLASS_COUNTER, &i),
           MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_category_get_index("no_such_category", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_event_get_index("no_such_event", &i), MPI_T_ERR_INVALID_NAME);
    EXPECT(MPI_T_cvar_get_index(NULL, &i), MPI_T_ERR_INVALID);
    MPI_T_cvar_handle ch;
    EXPECT(MPI_T_cvar_handle_alloc(-1, NULL, &ch, &cnt), MPI_T_ERR_INVALID_INDEX);

    /* enumerations: a bad handle, a bad item */
    EXPECT(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_enum_get_info((MPI_T_enum)buf, &n, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    int mode = index_of("ftmpi_p2p_transport");
    EXPECT(MPI_T_cvar_get_info(mode, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL, NULL),
           MPI_SUCCESS);
    EXPECT(MPI_T_enum_get_info(en, &n, NULL, NULL), MPI_SUCCESS);
    EXPECT(MPI_T_enum_get_item(en, n, &i, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
    EXPECT(MPI_T_enum_get_item(en, -1, &i, NULL, NULL), MPI_T_ERR_INVALID_ITEM);

    /* control variable handles */
    EXPECT(MPI_T_cvar_handle_alloc(mode, NULL, &ch, &cnt), MPI_SUCCESS);
    int v = 1;
    EXPECT(MPI_T_cvar_write(ch, &v), MPI_T_ERR_CVAR_SET_NEVER);
    EXPECT(MPI_T_cvar_read(ch, NULL), MPI_T_ERR_INVALID);
    MPI_T_cvar_handle freed = ch;
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_read(freed, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_read((MPI_T_cvar_handle)buf, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_T_ERR_INVALID_HANDLE);
    /* the eager limit is set once MPI runs, not before; nor read */
    EXPECT(MPI_T_cvar_handle_alloc(index_of("ftmpi_p2p_eager_limit"), NULL, &ch, &cnt),
           MPI_SUCCESS);
    unsigned long lim = 100;
    EXPECT(MPI_T_cvar_write(ch, &lim), MPI_T_ERR_CVAR_SET_NOT_NOW);
    EXPECT(MPI_T_cvar_read(ch, &lim), MPI_T_ERR_NOT_ACCESSIBLE);
    EXPECT(MPI_T_cvar_handle_free(&ch), MPI_SUCCESS);
}

static void bad_pvars(void)
{
    MPI_T_pvar_session s, s2;
    MPI_T_pvar_handle h, lvl, hwm[17];
    int cnt;
    unsigned long long v = 0;
    EXPECT(MPI_T_pvar_session_create(&s), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_session_create(&s2), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, 0, NULL, &h, &cnt),
           MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_handle_alloc(s, 1000, NULL, &h, &cnt), MPI_T_ERR_INVALID_INDEX);
    /* a communicator-bound variable needs a communicator (none before MPI_Init) */
    MPI_Comm world = MPI_COMM_WORLD;
    int qlen = pindex("ftmpi_p2p_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    EXPECT(MPI_T_pvar_handle_alloc(s, qlen, NULL, &h, &cnt), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_handle_alloc(s, qlen, &world, &h, &cnt), MPI_T_ERR_INVALID_HANDLE);

    int sent = pindex("ftmpi_p2p_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
    EXPECT(MPI_T_pvar_handle_alloc(s, sent, NULL, &h, &cnt), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_read(s2, h, &v), MPI_T_ERR_INVALID_HANDLE); /* another session's */
    EXPECT(MPI_T_pvar_read(s, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_read(s, MPI_T_PVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_pvar_read(s, h, NULL), MPI_T_ERR_INVALID);
    EXPECT(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, h, &v), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_start(s, h), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_start(s, h), MPI_SUCCESS); /* already started: nothing happens */
    EXPECT(MPI_T_pvar_readreset(s, h, &v), MPI_SUCCESS);
    v = 42;
    EXPECT(MPI_T_pvar_write(s, h, &v), MPI_SUCCESS);
    v = 0;
    EXPECT(MPI_T_pvar_read(s, h, &v), MPI_SUCCESS);
    if (v != 42) {
        fprintf(stderr, "FAIL: a written counter reads %llu, want 42 (no traffic)\n", v);
        errors++;
    }
    /* a level: read-only and continuous */
    int unexp = pindex("ftmpi_p2p_unexpected_messages", MPI_T_PVAR_CLASS_LEVEL);
    EXPECT(MPI_T_pvar_handle_alloc(s, unexp, NULL, &lvl, &cnt), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_start(s, lvl), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_stop(s, lvl), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT(MPI_T_pvar_write(s, lvl, &v), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_reset(s, lvl), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT(MPI_T_pvar_readreset(s, lvl, &v), MPI_T_ERR_PVAR_NO_WRITE);
    /* ALL_HANDLES skips what does not fit: the level is left alone */
    EXPECT(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    /* high watermarks: writable, not atomic; 16 slots */
    int hw = pindex("ftmpi_p2p_unexpected_high_watermark", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    for (int k = 0; k < 16; k++)
        EXPECT(MPI_T_pvar_handle_alloc(s2, hw, NULL, &hwm[k], &cnt), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(s2, hw, NULL, &hwm[16], &cnt), MPI_T_ERR_OUT_OF_HANDLES);
    EXPECT(MPI_T_pvar_readreset(s2, hwm[0], &v), MPI_T_ERR_PVAR_NO_ATOMIC);
    EXPECT(MPI_T_pvar_handle_free(s2, &hwm[0]), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_handle_alloc(s2, hw, NULL, &hwm[0], &cnt), MPI_SUCCESS); /* slot back */
    EXPECT(MPI_T_pvar_handle_free(s, &hwm[1]), MPI_T_ERR_INVALID_HANDLE);
    MPI_T_pvar_session gone = s2;
    EXPECT(MPI_T_pvar_session_free(&s2), MPI_SUCCESS); /* frees its 16 handles */
    EXPECT(MPI_T_pvar_session_free(&gone), MPI_T_ERR_INVALID_SESSION);
    EXPECT(MPI_T_pvar_handle_alloc(s, hw, NULL, &hwm[0], &cnt), MPI_SUCCESS);
    EXPECT(MPI_T_pvar_session_free(&s), MPI_SUCCESS);

    /* an event instance is valid only inside its callback */
    int src;
    MPI_Count ts;
    EXPECT(MPI_T_event_read((MPI_T_event_instance)&v, 0, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_copy(NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_get_timestamp(NULL, &ts), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_get_source(NULL, &src), MPI_T_ERR_INVALID_HANDLE);
    MPI_T_event_registration reg;
    EXPECT(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_SUCCESS);
    EXPECT(MPI_T_event_register_callback(reg, (MPI_T_cb_safety)9, MPI_INFO_NULL, NULL, NULL),
           MPI_T_ERR_INVALID);
    MPI_T_event_registration freed = reg;
    EXPECT(MPI_T_event_handle_free(reg, NULL, NULL), MPI_SUCCESS);
    EXPECT(MPI_T_event_handle_free(freed, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT(MPI_T_event_set_dropped_handler(freed, NULL), MPI_T_ERR_INVALID_HANDLE);
}

static void error_classes(void)
{
    const int codes[] = {MPI_T_ERR_MEMORY, MPI_T_ERR_NOT_INITIALIZED, MPI_T_ERR_CANNOT_INIT,
                         MPI_T_ERR_INVALID, MPI_T_ERR_INVALID_INDEX, MPI_T_ERR_INVALID_ITEM,
                         MPI_T_ERR_INVALID_SESSION, MPI_T_ERR_INVALID_HANDLE,
                         MPI_T_ERR_INVALID_NAME, MPI_T_ERR_OUT_OF_HANDLES,
                         MPI_T_ERR_OUT_OF_SESSIONS, MPI_T_ERR_CVAR_SET_NOT_NOW,
                         MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_PVAR_NO_WRITE,
                         MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_ATOMIC,
                         MPI_T_ERR_NOT_ACCESSIBLE, MPI_T_ERR_NOT_SUPPORTED};
    const int n = (int)(sizeof(codes) / sizeof(codes[0]));
    for (int i = 0; i < n; i++) {
        int cls = -1, len = 0;
        char s[MPI_MAX_ERROR_STRING];
        EXPECT(MPI_Error_class(codes[i], &cls), MPI_SUCCESS);
        EXPECT(MPI_Error_string(codes[i], s, &len), MPI_SUCCESS);
        if (cls != codes[i] || codes[i] > MPI_ERR_LASTCODE || codes[i] <= MPI_SUCCESS ||
            strncmp(s, "MPI_T_ERR_", 10) != 0 || len != (int)strlen(s)) {
            fprintf(stderr, "FAIL: code %d: class %d, string '%s'\n", codes[i], cls, s);
            errors++;
        }
        for (int j = 0; j < i; j++)
            if (codes[j] == codes[i]) {
                fprintf(stderr, "FAIL: two MPI_T_ERR codes are %d\n", codes[i]);
                errors++;
            }
    }
    int mine = 0;
    EXPECT(MPI_Add_error_class(&mine), MPI_SUCCESS);
    if (mine <= MPI_ERR_LASTCODE) {
        fprintf(stderr, "FAIL: a new error class %d is not above MPI_ERR_LASTCODE %d\n", mine,
                MPI_ERR_LASTCODE);
        errors++;
    }
}

int main(int argc, char **argv)
{
    int provided;
    not_initialized();
    /* nesting: two inits need two finalizes */
    EXPECT(MPI_T_init_thread(MPI_THREAD_FUNNELED, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    int n;
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    bad_arguments();
    bad_pvars();
    MPI_Init(&argc, &argv);
    error_classes();
    MPI_Finalize();
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    not_initialized();
    /* and it starts again */
    EXPECT(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
    EXPECT(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    EXPECT(MPI_T_finalize(), MPI_SUCCESS);
    printf("errors: %s\n", errors ? "FAILED" : "ok");
    return errors ? 1 : 0;
}
