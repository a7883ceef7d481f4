/* Event loop: epoll + timers + signalfd + posted calls. */
#include "evloop.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    evloop_fd_cb cb;
    void *arg;
    uint32_t gen;
} fd_slot_t;

typedef struct {
    long id;
    double when;
    evloop_timer_cb cb;
    void *arg;
} timer_t_;

typedef struct {
    pid_t pid;
    evloop_child_cb cb;
    void *arg;
} child_t;

typedef struct post {
    struct post *next;
    evloop_post_cb cb;
    void *arg;
    uint32_t type;
    size_t len;
    unsigned char data[];
} post_t;

struct evloop {
    int epfd, sigfd;
    fd_slot_t *fds;
    int nfds;
    timer_t_ *timers;
    int ntimers, captimers;
    long next_timer_id;
    child_t *children;
    int nchildren, capchildren;
    evloop_child_cb stop_cb;  /* children stopped / continued */
    void *stop_arg;
    evloop_signal_cb sig_cb;
    void *sig_arg;
    post_t *post_head, *post_tail;
};

double evloop_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void loop_sigset(sigset_t *s)
{
    sigemptyset(s);
    sigaddset(s, SIGCHLD);
    sigaddset(s, SIGINT);
    sigaddset(s, SIGTERM);
    sigaddset(s, SIGHUP);
}

static void loop_on_sigfd(evloop_t *loop, int fd, uint32_t ev, void *arg);

evloop_t *evloop_create(void)
{
    evloop_t *loop = calloc(1, sizeof *loop);
    if (!loop)
        return NULL;
    sigset_t s;
    loop_sigset(&s);
    sigprocmask(SIG_BLOCK, &s, NULL);
    signal(SIGPIPE, SIG_IGN);
    loop->epfd = epoll_create1(EPOLL_CLOEXEC);
    loop->sigfd = signalfd(-1, &s, SFD_CLOEXEC | SFD_NONBLOCK);
    if (loop->epfd < 0 || loop->sigfd < 0) {
        evloop_destroy(loop);
        return NULL;
    }
    if (evloop_add_fd(loop, loop->sigfd, EPOLLIN, loop_on_sigfd, NULL)) {
        evloop_destroy(loop);
        return NULL;
    }
    return loop;
}

void evloop_destroy(evloop_t *loop)
{
    if (!loop)
        return;
    if (loop->epfd >= 0)
        close(loop->epfd);
    if (loop->sigfd >= 0)
        close(loop->sigfd);
    while (loop->post_head) {
        post_t *p = loop->post_head;
        loop->post_head = p->next;
        free(p);
    }
    free(loop->fds);
    free(loop->timers);
    free(loop->children);
    free(loop);
}

void evloop_child_reset_signals(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigprocmask(SIG_SETMASK, &s, NULL);
    for (int i = 1; i < NSIG; i++)
        if (i != SIGKILL && i != SIGSTOP)
            signal(i, SIG_DFL);
}

/* ------------------------------------------------------------------ fds */

int evloop_add_fd(evloop_t *loop, int fd, uint32_t events, evloop_fd_cb cb,
                  void *arg)
{
    if (fd < 0)
        return -EBADF;
    if (fd >= loop->nfds) {
        int n = loop->nfds ? loop->nfds : 64;
        while (n <= fd)
            n *= 2;
        fd_slot_t *f = realloc(loop->fds, (size_t)n * sizeof *f);
        if (!f)
            return -ENOMEM;
        memset(f + loop->nfds, 0, (size_t)(n - loop->nfds) * sizeof *f);
        loop->fds = f;
        loop->nfds = n;
    }
    fd_slot_t *s = &loop->fds[fd];
    s->gen++;
    s->cb = cb;
    s->arg = arg;
    struct epoll_event e = {.events = events};
    e.data.u64 = (uint64_t)(uint32_t)fd | (uint64_t)s->gen << 32;
    if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &e) < 0) {
        s->cb = NULL;
        return -errno;
    }
    return 0;
}

int evloop_mod_fd(evloop_t *loop, int fd, uint32_t events)
{
    if (fd < 0 || fd >= loop->nfds || !loop->fds[fd].cb)
        return -EBADF;
    struct epoll_event e = {.events = events};
    e.data.u64 = (uint64_t)(uint32_t)fd | (uint64_t)loop->fds[fd].gen << 32;
    return epoll_ctl(loop->epfd, EPOLL_CTL_MOD, fd, &e) < 0 ? -errno : 0;
}

void evloop_del_fd(evloop_t *loop, int fd)
{
    if (fd < 0 || fd >= loop->nfds || !loop->fds[fd].cb)
        return;
    epoll_ctl(loop->epfd, EPOLL_CTL_DEL, fd, NULL);
    loop->fds[fd].cb = NULL;
    loop->fds[fd].gen++;
}

/* --------------------------------------------------------------- timers */

long evloop_timer_add(evloop_t *loop, double delay_s, evloop_timer_cb cb,
                      void *arg)
{
    if (loop->ntimers == loop->captimers) {
        int n = loop->captimers ? loop->captimers * 2 : 16;
        timer_t_ *t = realloc(loop->timers, (size_t)n * sizeof *t);
        if (!t)
            return -ENOMEM;
        loop->timers = t;
        loop->captimers = n;
    }
    timer_t_ *t = &loop->timers[loop->ntimers++];
    t->id = ++loop->next_timer_id;
    t->when = evloop_now() + (delay_s > 0 ? delay_s : 0);
    t->cb = cb;
    t->arg = arg;
    return t->id;
}

void evloop_timer_cancel(evloop_t *loop, long id)
{
    for (int i = 0; i < loop->ntimers; i++)
        if (loop->timers[i].id == id) {
            loop->timers[i] = loop->timers[--loop->ntimers];
            return;
        }
}

static double loop_next_deadline(evloop_t *loop)
{
    double d = -1;
    for (int i = 0; i < loop->ntimers; i++)
        if (d < 0 || loop->timers[i].when < d)
            d = loop->timers[i].when;
    return d;
}

static void loop_run_timers(evloop_t *loop)
{
    double now = evloop_now();
    for (;;) {
        int best = -1;
        for (int i = 0; i < loop->ntimers; i++)
            if (loop->timers[i].when <= now &&
                (best < 0 || loop->timers[i].when < loop->timers[best].when))
                best = i;
        if (best < 0)
            return;
        timer_t_ t = loop->timers[best];
        loop->timers[best] = loop->timers[--loop->ntimers];
        t.cb(loop, t.arg);
    }
}

/* ------------------------------------------------------------- children */

int evloop_child_watch(evloop_t *loop, pid_t pid, evloop_child_cb cb,
                       void *arg)
{
    if (loop->nchildren == loop->capchildren) {
        int n = loop->capchildren ? loop->capchildren * 2 : 16;
        child_t *c = realloc(loop->children, (size_t)n * sizeof *c);
        if (!c)
            return -ENOMEM;
        loop->children = c;
        loop->capchildren = n;
    }
    loop->children[loop->nchildren++] = (child_t){pid, cb, arg};
    return 0;
}

void evloop_on_child_stop(evloop_t *loop, evloop_child_cb cb, void *arg)
{
    loop->stop_cb = cb;
    loop->stop_arg = arg;
}

void evloop_child_poll(evloop_t *loop)
{
    int flags = WNOHANG | (loop->stop_cb ? WUNTRACED | WCONTINUED : 0);
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, flags);
        if (pid <= 0) {
            if (pid < 0 && errno == EINTR)
                continue;
            return;
        }
        if (WIFSTOPPED(status) || WIFCONTINUED(status)) {
            loop->stop_cb(loop, pid, status, loop->stop_arg);
            continue;
        }
        for (int i = 0; i < loop->nchildren; i++)
            if (loop->children[i].pid == pid) {
                child_t c = loop->children[i];
                loop->children[i] = loop->children[--loop->nchildren];
                c.cb(loop, pid, status, c.arg);
                break;
            }
    }
}

void evloop_on_signal(evloop_t *loop, evloop_signal_cb cb, void *arg)
{
    loop->sig_cb = cb;
    loop->sig_arg = arg;
}

static void loop_on_sigfd(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    struct signalfd_siginfo si[16];
    int got_chld = 0;
    for (;;) {
        ssize_t n = read(fd, si, sizeof si);
        if (n <= 0)
            break;
        for (size_t i = 0; i < (size_t)n / sizeof si[0]; i++) {
            if (si[i].ssi_signo == SIGCHLD)
                got_chld = 1;
            else if (loop->sig_cb)
                loop->sig_cb(loop, (int)si[i].ssi_signo, loop->sig_arg);
        }
    }
    if (got_chld)
        evloop_child_poll(loop);
}

/* ---------------------------------------------------------------- posts */

int evloop_post(evloop_t *loop, evloop_post_cb cb, void *arg, uint32_t type,
                const void *data, size_t len)
{
    post_t *p = malloc(sizeof *p + len);
    if (!p)
        return -ENOMEM;
    p->next = NULL;
    p->cb = cb;
    p->arg = arg;
    p->type = type;
    p->len = len;
    if (len)
        memcpy(p->data, data, len);
    if (loop->post_tail)
        loop->post_tail->next = p;
    else
        loop->post_head = p;
    loop->post_tail = p;
    return 0;
}

static void loop_run_posts(evloop_t *loop)
{
    while (loop->post_head) {
        post_t *p = loop->post_head;
        loop->post_head = p->next;
        if (!loop->post_head)
            loop->post_tail = NULL;
        p->cb(p->arg, p->type, p->data, p->len);
        free(p);
    }
}

/* ----------------------------------------------------------------- main */

void evloop_run_once(evloop_t *loop, double max_wait_s)
{
    loop_run_posts(loop);
    double deadline = loop_next_deadline(loop);
    int timeout_ms = -1;
    if (deadline >= 0) {
        double d = deadline - evloop_now();
        timeout_ms = d <= 0 ? 0 : (int)(d * 1000.0) + 1;
    }
    if (max_wait_s >= 0) {
        int m = (int)(max_wait_s * 1000.0);
        if (timeout_ms < 0 || m < timeout_ms)
            timeout_ms = m;
    }
    if (loop->post_head)
        timeout_ms = 0;
    struct epoll_event evs[64];
    int n = epoll_wait(loop->epfd, evs, 64, timeout_ms);
    for (int i = 0; i < n; i++) {
        int fd = (int)(uint32_t)evs[i].data.u64;
        uint32_t gen = (uint32_t)(evs[i].data.u64 >> 32);
        if (fd >= loop->nfds)
            continue;
        fd_slot_t *s = &loop->fds[fd];
        if (!s->cb || s->gen != gen)
            continue;
        s->cb(loop, fd, evs[i].events, s->arg);
        loop_run_posts(loop);
    }
    loop_run_timers(loop);
    loop_run_posts(loop);
}
