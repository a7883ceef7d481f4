/* Daemon: forwarding of the ranks' stdout/stderr (optionally tagged). */
#include "daemon_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#define IO_CHUNK 65536
#define IO_MAX_PARTIAL 65536

struct daemon_iostream {
    daemon_iostream_t *next;
    daemon_t *d;
    int fd, rank, stream;    /* stream: 1 stdout, 2 stderr */
    proto_buf_t partial;     /* tag mode: start of an unfinished line */
    daemon_iostream_t **owner;
};

static void io_write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t w = write(fd, c, n);
        if (w > 0) {
            c += w;
            n -= (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && errno == EAGAIN) {
            struct pollfd pf = {.fd = fd, .events = POLLOUT};
            poll(&pf, 1, 1000);
        } else {
            return; /* EPIPE and the like: output is lost, the job goes on */
        }
    }
}

static void io_emit(daemon_iostream_t *s, const void *p, size_t n)
{
    if (n == 0)
        return;
    daemon_t *d = s->d;
    if (d->output_local) {
        io_write_all(s->stream == 2 ? 2 : 1, p, n);
        return;
    }
    proto_buf_t b;
    proto_buf_init(&b);
    proto_put_i32(&b, s->rank);
    proto_put_i32(&b, s->stream);
    proto_put_bytes(&b, p, n);
    rt_link_send_buf(d->head, DH_OUTPUT, &b);
    proto_buf_free(&b);
}

/* Tag mode: emit every complete line of partial+data with "[rank] ". */
static void io_emit_tagged(daemon_iostream_t *s, const char *data, size_t n,
                           int final)
{
    proto_buf_t out;
    proto_buf_init(&out);
    char tag[24];
    int tl = snprintf(tag, sizeof tag, "[%d] ", s->rank);
    proto_put_raw(&s->partial, data, n);
    const char *p = (const char *)s->partial.data;
    size_t len = s->partial.len, start = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] != '\n')
            continue;
        proto_put_raw(&out, tag, (size_t)tl);
        proto_put_raw(&out, p + start, i + 1 - start);
        start = i + 1;
    }
    if (start < len && (final || len - start > IO_MAX_PARTIAL)) {
        proto_put_raw(&out, tag, (size_t)tl);
        proto_put_raw(&out, p + start, len - start);
        proto_put_raw(&out, "\n", 1);
        start = len;
    }
    memmove(s->partial.data, p + start, len - start);
    s->partial.len = len - start;
    io_emit(s, out.data, out.len);
    proto_buf_free(&out);
}

static void io_close(daemon_iostream_t *s)
{
    daemon_t *d = s->d;
    if (d->tag_output && s->partial.len)
        io_emit_tagged(s, "", 0, 1);
    evloop_del_fd(d->loop, s->fd);
    close(s->fd);
    if (s->owner)
        *s->owner = NULL;
    for (daemon_iostream_t **pp = &d->io_list; *pp; pp = &(*pp)->next)
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    proto_buf_free(&s->partial);
    free(s);
}

/* Read what is available; close at end of file. Returns 1 if closed. */
static int io_read(daemon_iostream_t *s)
{
    static char buf[IO_CHUNK];
    for (int rounds = 0; rounds < 16; rounds++) {
        ssize_t n = read(s->fd, buf, sizeof buf);
        if (n > 0) {
            if (s->d->tag_output)
                io_emit_tagged(s, buf, (size_t)n, 0);
            else
                io_emit(s, buf, (size_t)n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        io_close(s);
        return 1;
    }
    return 0;
}

static void io_on_fd(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    io_read(arg);
}

daemon_iostream_t *daemon_io_open(daemon_t *d, int fd, int rank, int stream)
{
    daemon_iostream_t *s = calloc(1, sizeof *s);
    if (!s) {
        close(fd);
        return NULL;
    }
    s->d = d;
    s->fd = fd;
    s->rank = rank;
    s->stream = stream;
    proto_buf_init(&s->partial);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (evloop_add_fd(d->loop, fd, EPOLLIN, io_on_fd, s)) {
        close(fd);
        free(s);
        return NULL;
    }
    s->next = d->io_list;
    d->io_list = s;
    return s;
}

void daemon_io_drain(daemon_iostream_t *s)
{
    if (s)
        io_read(s); /* reads until EAGAIN (or closes at end of file) */
}

void daemon_io_detach(daemon_iostream_t *s)
{
    if (s) {
        if (s->owner)
            *s->owner = NULL;
        s->owner = NULL;
    }
}

void daemon_io_set_owner(daemon_iostream_t *s, daemon_iostream_t **owner)
{
    if (s)
        s->owner = owner;
}

void daemon_io_close_all(daemon_t *d)
{
    while (d->io_list)
        io_close(d->io_list);
}

void daemon_io_flush_all(daemon_t *d)
{
    daemon_iostream_t *s = d->io_list;
    while (s) {
        daemon_iostream_t *next = s->next;
        if (!io_read(s) && d->tag_output && s->partial.len)
            io_emit_tagged(s, "", 0, 1);
        s = next;
    }
}

/* ------------------------------------------------------ stdin forwarding */
/* When the launcher's stdin is a terminal, the stdin rank (in its own
 * process group, so not in the terminal's foreground) must not read the
 * terminal itself: it would be stopped by SIGTTIN. The daemon reads the
 * terminal and feeds a pipe instead. */

static void stdin_on_tty(evloop_t *loop, int fd, uint32_t ev, void *arg);

static void stdin_watch(daemon_t *d, int on)
{
    if (on && !d->stdin_watch && !d->stdin_eof) {
        d->stdin_watch = evloop_add_fd(d->loop, 0, EPOLLIN, stdin_on_tty, d) == 0;
    } else if (!on && d->stdin_watch) {
        evloop_del_fd(d->loop, 0);
        d->stdin_watch = 0;
    }
}

void daemon_stdin_close(daemon_t *d)
{
    if (d->stdin_w >= 0) {
        evloop_del_fd(d->loop, d->stdin_w);
        close(d->stdin_w);
    }
    d->stdin_w = -1;
    proto_buf_reset(&d->stdin_buf);
    stdin_watch(d, 0);
}

/* Write what is buffered; 1 when empty. */
static int stdin_flush(daemon_t *d)
{
    while (d->stdin_buf.len > 0) {
        ssize_t n = write(d->stdin_w, d->stdin_buf.data, d->stdin_buf.len);
        if (n > 0) {
            memmove(d->stdin_buf.data, d->stdin_buf.data + n,
                    d->stdin_buf.len - (size_t)n);
            d->stdin_buf.len -= (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            return 0;
        } else {
            daemon_stdin_close(d); /* the reader is gone */
            return -1;
        }
    }
    return 1;
}

static void stdin_on_pipe(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    daemon_t *d = arg;
    int rc = stdin_flush(d);
    if (rc == 1) {
        evloop_del_fd(loop, fd);
        if (d->stdin_eof)
            daemon_stdin_close(d);
        else
            stdin_watch(d, 1);
    }
}

static void stdin_on_tty(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    daemon_t *d = arg;
    char buf[4096];
    ssize_t n = read(0, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        d->stdin_eof = 1;
        stdin_watch(d, 0);
        if (d->stdin_buf.len == 0)
            daemon_stdin_close(d);
        return;
    }
    if (d->stdin_w < 0)
        return; /* nobody to read it now: dropped */
    proto_put_raw(&d->stdin_buf, buf, (size_t)n);
    if (stdin_flush(d) == 0) {
        stdin_watch(d, 0); /* wait until the rank reads */
        evloop_add_fd(loop, d->stdin_w, EPOLLOUT, stdin_on_pipe, d);
    }
}

int daemon_stdin_pipe(daemon_t *d)
{
    if (!d->stdin_fwd || d->stdin_eof)
        return -1;
    daemon_stdin_close(d);
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    d->stdin_w = p[1];
    stdin_watch(d, 1);
    return p[0];
}
