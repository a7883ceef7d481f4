/*
 * Waking a sleeping rank for network traffic. The progress engine sleeps
 * on its slot's doorbell (a futex), which shared-memory peers, the daemon
 * and other threads ring; a socket cannot ring it. So while a rank sleeps,
 * one helper thread waits in poll() on the TCP transport's epoll descriptor
 * and rings the doorbell when it becomes readable. The thread polls only
 * while armed (the rank asleep), once per sleep, so it never spins.
 */
#include "p2p/p2p_int.h"

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "util/futex.h"

static pthread_t thread;
static int running, watch_fd = -1, stop_fd = -1;
static _Atomic uint32_t armed;
static _Atomic int stopping;

static void *watch(void *arg)
{
    (void)arg;
    shmseg_slot_t *me = shmseg_slot(shm_self.base, shm_self.my_slot);
    while (!atomic_load(&stopping)) {
        if (!atomic_load(&armed)) {
            ft_futex_wait(&armed, 0, -1);
            continue;
        }
        struct pollfd pf[2] = {{.fd = watch_fd, .events = POLLIN}, {.fd = stop_fd, .events = POLLIN}};
        if (poll(pf, 2, -1) <= 0)
            continue;
        if (atomic_exchange(&armed, 0))
            shmseg_wake(me);
    }
    return NULL;
}

int waker_start(int fd)
{
    if (running || fd < 0 || !shm_self.base)
        return 0;
    stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stop_fd < 0)
        return -1;
    watch_fd = fd;
    atomic_store(&stopping, 0);
    if (pthread_create(&thread, NULL, watch, NULL) != 0) {
        close(stop_fd);
        return -1;
    }
    running = 1;
    return 0;
}

void waker_arm(void)
{
    if (!running)
        return;
    atomic_store(&armed, 1);
    ft_futex_wake(&armed);
}

void waker_disarm(void)
{
    if (running)
        atomic_store(&armed, 0);
}

void waker_stop(void)
{
    if (!running)
        return;
    atomic_store(&stopping, 1);
    atomic_store(&armed, 1);
    ft_futex_wake(&armed);
    uint64_t one = 1;
    (void)!write(stop_fd, &one, sizeof(one)); /* a fresh eventfd takes it */
    pthread_join(thread, NULL);
    close(stop_fd);
    running = 0;
}
