/*
 * Unit tests of the progress engine's hook table (ftmpi/p2p/progress.c):
 * every registered hook runs on each progress_poll, however many there are
 * (the table used to hold eight and silently dropped the ninth and later
 * ones: a non-blocking operation whose hook was dropped never completed),
 * registering a hook twice runs it once, and a removed hook no longer runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/proc.h"
#include "p2p/progress.h"

#define NHOOKS 20

static int calls[NHOOKS];

#define HOOK(i) static int hook##i(void) { calls[i]++; return 0; }
HOOK(0) HOOK(1) HOOK(2) HOOK(3) HOOK(4) HOOK(5) HOOK(6) HOOK(7) HOOK(8) HOOK(9)
HOOK(10) HOOK(11) HOOK(12) HOOK(13) HOOK(14) HOOK(15) HOOK(16) HOOK(17) HOOK(18) HOOK(19)

static progress_hook_fn *const table[NHOOKS] = {
    hook0, hook1, hook2, hook3, hook4, hook5, hook6, hook7, hook8, hook9,
    hook10, hook11, hook12, hook13, hook14, hook15, hook16, hook17, hook18, hook19,
};

static int setup(void **state)
{
    (void)state;
    ftg.singleton = 1; /* no runtime, no transport: only the hooks run */
    ftg.world_size = 1;
    memset(calls, 0, sizeof(calls));
    return 0;
}

static void every_hook_runs(void **state)
{
    (void)state;
    for (int i = 0; i < NHOOKS; i++)
        progress_add_hook(table[i]);
    progress_poll();
    for (int i = 0; i < NHOOKS; i++)
        assert_int_equal(calls[i], 1);
    progress_poll();
    for (int i = 0; i < NHOOKS; i++)
        assert_int_equal(calls[i], 2);
    for (int i = 0; i < NHOOKS; i++)
        progress_remove_hook(table[i]);
    progress_poll();
    for (int i = 0; i < NHOOKS; i++)
        assert_int_equal(calls[i], 2);
}

static void duplicate_runs_once(void **state)
{
    (void)state;
    progress_add_hook(hook3);
    progress_add_hook(hook3);
    progress_add_hook(hook12);
    progress_poll();
    assert_int_equal(calls[3], 1);
    assert_int_equal(calls[12], 1);
    progress_remove_hook(hook3);
    progress_poll();
    assert_int_equal(calls[3], 1);
    assert_int_equal(calls[12], 2);
    progress_remove_hook(hook12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(every_hook_runs, setup),
        cmocka_unit_test_setup(duplicate_runs_once, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
