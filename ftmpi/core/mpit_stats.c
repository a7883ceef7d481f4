/* The counters of the MPI tool interface (core/mpit_stats.h). */
#include "core/mpit_stats.h"

#include "mpi.h"
#include "util/timer.h"

mpit_stats_t mpit_stats = {
    .unexp_hwm = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1},
};
void (*mpit_event_hook)(int kind, const int64_t vals[4]);

_Static_assert(MPIT_HWM_SLOTS == 16, "unexp_hwm's initializer has 16 entries");

void mpit_count_unexp_slow(void)
{
    int64_t now = (int64_t)__atomic_load_n(&mpit_stats.unexp_now, __ATOMIC_RELAXED);
    for (int i = 0; i < MPIT_HWM_SLOTS; i++) {
        int64_t h = __atomic_load_n(&mpit_stats.unexp_hwm[i], __ATOMIC_RELAXED);
        if (h >= 0 && now > h)
            __atomic_store_n(&mpit_stats.unexp_hwm[i], now, __ATOMIC_RELAXED);
    }
}

int mpit_hwm_alloc(void)
{
    for (int i = 0; i < MPIT_HWM_SLOTS; i++) {
        if (__atomic_load_n(&mpit_stats.unexp_hwm[i], __ATOMIC_RELAXED) < 0) {
            int64_t now = (int64_t)__atomic_load_n(&mpit_stats.unexp_now, __ATOMIC_RELAXED);
            __atomic_store_n(&mpit_stats.unexp_hwm[i], now, __ATOMIC_RELAXED);
            __atomic_add_fetch(&mpit_stats.hwm_used, 1, __ATOMIC_RELAXED);
            return i;
        }
    }
    return -1;
}

void mpit_hwm_free(int slot)
{
    if (slot < 0 || slot >= MPIT_HWM_SLOTS)
        return;
    __atomic_store_n(&mpit_stats.unexp_hwm[slot], -1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&mpit_stats.hwm_used, 1, __ATOMIC_RELAXED);
}

void mpit_note_failure(int w, uint32_t inc)
{
    MPIT_ADD(mpit_stats.failures, 1);
    if (mpit_event_hook) {
        int64_t v[4] = {w, inc, 0, 0};
        mpit_event_hook(MPIT_EV_FAILURE, v);
    }
}

void mpit_note_recovery_begin(void)
{
    __atomic_store_n(&mpit_stats.recovery_start_ns, timer_ns(), __ATOMIC_RELAXED);
}

void mpit_note_recovery_end(int rc, uint32_t generation, int nfailed)
{
    uint64_t t0 = __atomic_load_n(&mpit_stats.recovery_start_ns, __ATOMIC_RELAXED);
    uint64_t dt = t0 ? timer_ns() - t0 : 0;
    __atomic_store_n(&mpit_stats.recovery_start_ns, 0, __ATOMIC_RELAXED);
    if (rc != MPI_SUCCESS)
        return;
    MPIT_ADD(mpit_stats.recoveries, 1);
    MPIT_ADD(mpit_stats.recovery_ns, dt);
    if (mpit_event_hook) {
        int64_t v[4] = {generation, nfailed, (int64_t)dt, 0};
        mpit_event_hook(MPIT_EV_RECOVERED, v);
    }
}
