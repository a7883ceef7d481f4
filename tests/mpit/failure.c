/*
 * failure: the FT performance variables and events with a SIGKILLed rank
 * (FT-MPI, 4 ranks; tests/ft/run_ft.sh checks the outcome).
 * usage: failure shrink|blank|rebuild (the --comm-mode the job runs with).
 * MPI_COMM_WORLD's size after the recovery is 3 (SHRINK) or 4 (BLANK: a
 * gap; REBUILD: a replacement). A REBUILD replacement (MPI_Init returned
 * MPI_INIT_RESTARTED_NODE) joins the recovery and checks that its
 * generation variable is the survivors' and its events were well formed.
 *
 * Before the failure every rank registers for the two FT events
 * (ftmpi_ft_process_failed, ftmpi_ft_recovered) with an
 * MPI_T_CB_REQUIRE_MPI_RESTRICTED callback, and a second registration with
 * only an MPI_T_CB_REQUIRE_NONE callback (which the library cannot call
 * where events happen: its events are dropped and its dropped handler is
 * told), and starts the failure, recovery and recovery-time counters.
 * Rank 3 kills itself between two allreduces; the survivors' allreduce
 * fails, they recover (MPI_Comm_dup with FT_MPI_CHECK_RECOVER) and check:
 * one failure counted and one event naming world rank 3; one recovery,
 * its time > 0 and the recovered event's generation equal to the
 * generation variable; the state of the rebuilt MPI_COMM_WORLD ("ok")
 * through the communicator-bound state variable; the dropped counts.
 */
#include <signal.h>

#include "../mpi/mpitest.h"

static int failed_events, failed_rank = -1, recovered_events, recovered_gen = -1, bad_events;
static unsigned long long recovered_ns;
static MPI_Count last_ts;
static long long dropped;

static void on_failed(MPI_T_event_instance ev, MPI_T_event_registration reg,
                      MPI_T_cb_safety safety, void *user)
{
    (void)reg;
    int data[2] = {-1, -1}, rank = -1, src = -1;
    MPI_Count ts = 0;
    if (safety != MPI_T_CB_REQUIRE_MPI_RESTRICTED || user != &failed_events ||
        MPI_T_event_read(ev, 0, &rank) != MPI_SUCCESS || MPI_T_event_copy(ev, data) ||
        MPI_T_event_get_timestamp(ev, &ts) || MPI_T_event_get_source(ev, &src) || src != 0 ||
        ts <= 0 || data[0] != rank || MPI_T_event_read(ev, 2, &rank) != MPI_T_ERR_INVALID_INDEX)
        bad_events++;
    failed_rank = rank;
    last_ts = ts;
    failed_events++;
}

static void on_recovered(MPI_T_event_instance ev, MPI_T_event_registration reg,
                         MPI_T_cb_safety safety, void *user)
{
    (void)reg;
    (void)safety;
    (void)user;
    MPI_Count ts = 0;
    if (MPI_T_event_read(ev, 0, &recovered_gen) || MPI_T_event_read(ev, 2, &recovered_ns) ||
        MPI_T_event_get_timestamp(ev, &ts) || ts < last_ts)
        bad_events++;
    recovered_events++;
}

static void never_called(MPI_T_event_instance ev, MPI_T_event_registration reg,
                         MPI_T_cb_safety safety, void *user)
{
    (void)ev, (void)reg, (void)safety, (void)user;
    bad_events++; /* a REQUIRE_NONE callback where MPI cannot be called */
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source,
                       MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)safety, (void)user;
    if (source != 0)
        bad_events++;
    dropped += count;
}

static int freed;
static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg, (void)safety;
    freed += user == &freed;
}

static MPI_T_event_registration reg(const char *name, MPI_T_cb_safety level,
                                    MPI_T_event_cb_function *fn, void *user)
{
    int i = -1;
    MPI_T_event_registration r = NULL;
    T_CHECK(MPI_T_event_get_index(name, &i) == MPI_SUCCESS, "no event %s", name);
    T_CHECK(MPI_T_event_handle_alloc(i, NULL, MPI_INFO_NULL, &r) == MPI_SUCCESS, "alloc %s", name);
    T_CHECK(MPI_T_event_register_callback(r, level, MPI_INFO_NULL, user, fn) == MPI_SUCCESS,
            "register %s", name);
    return r;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    const char *mode = argc > 1 ? argv[1] : "shrink";
    int want_size = strcmp(mode, "shrink") == 0 ? 3 : 4;
    t_set_name(argv[0]);
    int irc = MPI_Init(&argc, &argv), restarted = irc == MPI_INIT_RESTARTED_NODE;
    MPI_Comm_rank(MPI_COMM_WORLD, &t_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t_size);
    T_CHECK(irc == MPI_SUCCESS || restarted, "MPI_Init returned %d", irc);
    T_CHECK(!restarted || strcmp(mode, "rebuild") == 0, "a replacement outside REBUILD");
    t_need(4);
    MPI_T_event_registration rf =
        reg("ftmpi_ft_process_failed", MPI_T_CB_REQUIRE_MPI_RESTRICTED, on_failed, &failed_events);
    MPI_T_event_registration rr =
        reg("ftmpi_ft_recovered", MPI_T_CB_REQUIRE_THREAD_SAFE, on_recovered, NULL);
    MPI_T_event_registration rn =
        reg("ftmpi_ft_process_failed", MPI_T_CB_REQUIRE_NONE, never_called, NULL);
    T_CHECK(MPI_T_event_set_dropped_handler(rn, on_dropped) == MPI_SUCCESS, "dropped handler");

    MPI_T_pvar_session s;
    MPI_T_pvar_session_create(&s);
    const char *names[] = {"ftmpi_ft_failures", "ftmpi_ft_recoveries", "ftmpi_ft_recovery_time"};
    const int classes[] = {MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_COUNTER,
                           MPI_T_PVAR_CLASS_TIMER};
    MPI_T_pvar_handle h[3], gen;
    int idx, cnt;
    for (int i = 0; i < 3; i++) {
        MPI_T_pvar_get_index(names[i], classes[i], &idx);
        T_CHECK(MPI_T_pvar_handle_alloc(s, idx, NULL, &h[i], &cnt) == MPI_SUCCESS, "%s", names[i]);
        MPI_T_pvar_start(s, h[i]);
    }
    MPI_T_pvar_get_index("ftmpi_ft_generation", MPI_T_PVAR_CLASS_LEVEL, &idx);
    MPI_T_pvar_handle_alloc(s, idx, NULL, &gen, &cnt);
    unsigned long long gen0 = 0, gen1 = 0, nfail = 0, nrec = 0;
    MPI_T_pvar_read(s, gen, &gen0);

    int in = 1, out = 0, rc = MPI_SUCCESS;
    for (int round = 0; round < 10 && !restarted; round++) {
        if (round == 2 && t_rank == 3)
            raise(SIGKILL);
        if ((rc = MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) != MPI_SUCCESS)
            break;
    }
    T_CHECK(restarted || rc != MPI_SUCCESS, "the failure was never reported");
    MPI_Comm nc = FT_MPI_CHECK_RECOVER;
    rc = MPI_Comm_dup(MPI_COMM_WORLD, &nc);
    T_CHECK(rc == MPI_SUCCESS, "recovering dup returned %d", rc);
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    T_CHECK(size == want_size, "world size after the %s recovery is %d, want %d", mode, size,
            want_size);

    double secs = 0;
    MPI_T_pvar_read(s, h[0], &nfail);
    MPI_T_pvar_read(s, h[1], &nrec);
    MPI_T_pvar_read(s, h[2], &secs);
    MPI_T_pvar_read(s, gen, &gen1);
    unsigned long long gmin = 0, gmax = 0;
    MPI_Allreduce(&gen1, &gmin, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, nc);
    MPI_Allreduce(&gen1, &gmax, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, nc);
    T_CHECK(gmin == gmax, "generation variables differ: %llu..%llu", gmin, gmax);
    if (restarted) {
        /* born after the failure: only what it saw itself must be right */
        T_CHECK(bad_events == 0, "%d events were wrong", bad_events);
        T_CHECK(nfail == 0 && failed_events == 0, "a replacement counted %llu failures, %d events",
                nfail, failed_events);
        MPI_Comm_free(&nc);
        printf("mpit failure rank %d (replacement): %s\n", t_rank, t_errors ? "FAILED" : "ok");
        MPI_T_pvar_session_free(&s);
        MPI_T_finalize();
        MPI_Finalize();
        return t_errors ? 1 : 0;
    }
    T_CHECK(nfail == 1, "failures counted %llu, want 1", nfail);
    T_CHECK(nrec == 1, "recoveries counted %llu, want 1", nrec);
    T_CHECK(secs > 0 && secs < 60, "recovery time %g s", secs);
    T_CHECK(gen1 > gen0, "generation %llu -> %llu", gen0, gen1);
    T_CHECK(failed_events == 1 && failed_rank == 3, "failure events %d, rank %d", failed_events,
            failed_rank);
    T_CHECK(recovered_events == 1 && (unsigned long long)recovered_gen == gen1,
            "recovered events %d, generation %d (variable: %llu)", recovered_events,
            recovered_gen, gen1);
    T_CHECK(recovered_ns > 0 && (double)recovered_ns * 1e-9 <= secs + 1e-6,
            "recovered event: %llu ns, timer %g s", recovered_ns, secs);
    T_CHECK(bad_events == 0, "%d events were wrong", bad_events);
    T_CHECK(dropped == 1, "dropped events %lld, want 1", dropped);

    /* the FT state of the recovered MPI_COMM_WORLD, an enumerated STATE */
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_T_pvar_handle st;
    MPI_T_enum en;
    int state = -1, len = 32;
    char sname[32] = "";
    MPI_T_pvar_get_index("ftmpi_ft_comm_state", MPI_T_PVAR_CLASS_STATE, &idx);
    MPI_T_pvar_get_info(idx, NULL, NULL, NULL, NULL, NULL, &en, NULL, NULL, NULL, NULL, NULL,
                        NULL);
    T_CHECK(MPI_T_pvar_handle_alloc(s, idx, &world, &st, &cnt) == MPI_SUCCESS, "state handle");
    MPI_T_pvar_read(s, st, &state);
    MPI_T_enum_get_item(en, state, &state, sname, &len);
    T_CHECK(strcmp(sname, "ok") == 0, "MPI_COMM_WORLD's state is '%s'", sname);

    MPI_T_event_handle_free(rf, &freed, on_free);
    MPI_T_event_handle_free(rr, &freed, on_free);
    MPI_T_event_handle_free(rn, NULL, NULL);
    T_CHECK(freed == 2, "free callbacks %d", freed);
    MPI_T_pvar_session_free(&s);
    MPI_Comm_free(&nc);
    printf("mpit failure rank %d: %s\n", t_rank, t_errors ? "FAILED" : "ok");
    MPI_T_finalize();
    MPI_Finalize();
    return t_errors ? 1 : 0;
}
