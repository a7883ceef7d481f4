/*
 * A small single-threaded event loop for the launcher and the daemon:
 * epoll for descriptors, a timer list, child-process watches (SIGCHLD via
 * signalfd), termination signals, and posted calls (the in-process message
 * path between the head and the local daemon). Never busy-waits.
 */
#ifndef FTMPI_RUNTIME_EVLOOP_H
#define FTMPI_RUNTIME_EVLOOP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct evloop evloop_t;
typedef void (*evloop_fd_cb)(evloop_t *loop, int fd, uint32_t events,
                             void *arg);
typedef void (*evloop_timer_cb)(evloop_t *loop, void *arg);
typedef void (*evloop_child_cb)(evloop_t *loop, pid_t pid, int status,
                                void *arg);
typedef void (*evloop_signal_cb)(evloop_t *loop, int signo, void *arg);
typedef void (*evloop_post_cb)(void *arg, uint32_t type, const void *data,
                               size_t len);

/* Blocks SIGCHLD, SIGINT, SIGTERM, SIGHUP (read through a signalfd) and
 * ignores SIGPIPE. Children must call evloop_child_reset_signals(). */
evloop_t *evloop_create(void);
void evloop_destroy(evloop_t *loop);

/* Seconds on CLOCK_MONOTONIC. */
double evloop_now(void);

int evloop_add_fd(evloop_t *loop, int fd, uint32_t events, evloop_fd_cb cb,
                  void *arg);
int evloop_mod_fd(evloop_t *loop, int fd, uint32_t events);
void evloop_del_fd(evloop_t *loop, int fd);

/* One-shot timer after delay_s seconds; returns an id > 0. */
long evloop_timer_add(evloop_t *loop, double delay_s, evloop_timer_cb cb,
                      void *arg);
void evloop_timer_cancel(evloop_t *loop, long id);

/* Call cb when child pid has been reaped (status from waitpid). */
int evloop_child_watch(evloop_t *loop, pid_t pid, evloop_child_cb cb,
                       void *arg);
/* Also report children that stop (SIGSTOP, SIGTSTP, ...) or continue:
 * cb gets the waitpid status (WIFSTOPPED / WIFCONTINUED); the child stays
 * watched. */
void evloop_on_child_stop(evloop_t *loop, evloop_child_cb cb, void *arg);
/* Reap every exited child now (also done on SIGCHLD). */
void evloop_child_poll(evloop_t *loop);

/* SIGINT/SIGTERM/SIGHUP handler. */
void evloop_on_signal(evloop_t *loop, evloop_signal_cb cb, void *arg);

/* Deliver (type, copy of data) to cb from the loop, in posting order,
 * before the loop sleeps again. */
int evloop_post(evloop_t *loop, evloop_post_cb cb, void *arg, uint32_t type,
                const void *data, size_t len);

/* Run one iteration: deliver posts, wait at most max_wait_s (< 0: until
 * something happens), dispatch. */
void evloop_run_once(evloop_t *loop, double max_wait_s);

/* In a forked child before exec: unblock signals, default dispositions. */
void evloop_child_reset_signals(void);

#endif
