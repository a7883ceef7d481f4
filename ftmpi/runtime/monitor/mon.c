/* The live monitor's HTTP server (mon.h). */
#include "mon.h"
#include "http.h"
#include "reg.h"
#include "state.h"
#include "../launcher/head_int.h"
#include "../../util/sha256.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MON_MAX_CONNS 64
#define MON_MAX_EVENTS 20000      /* events kept for late subscribers */
#define MON_MAX_OUT (8u << 20)    /* a subscriber further behind is dropped */
#define MON_IDLE_S 10.0           /* a request must arrive within this */
#define MON_TICK_S 1.0            /* state pushed to subscribers */

typedef struct mon_conn {
    struct mon_conn *next;
    mon_t *m;
    int fd, sse, closing, dead;
    char in[MON_HTTP_MAX_HEAD];
    size_t inlen;
    char *out;
    size_t outlen, outcap;
    double t_idle;        /* when it last completed a request (or opened) */
} mon_conn_t;

struct mon {
    evloop_t *loop;
    head_t *h;
    int lfd;
    char token[33];
    char url[160];
    char reg_path[640];
    mon_conn_t *conns;
    int nconns;
    long timer;
    char **events;        /* ring of event lines */
    size_t nev, ev_first;
};

static void conn_close(mon_conn_t *c)
{
    c->dead = 1;
    evloop_del_fd(c->m->loop, c->fd);
    close(c->fd);
    c->fd = -1;
}

static void conn_free_dead(mon_t *m)
{
    for (mon_conn_t **pp = &m->conns; *pp;) {
        mon_conn_t *c = *pp;
        if (c->dead) {
            *pp = c->next;
            free(c->out);
            free(c);
            m->nconns--;
        } else {
            pp = &c->next;
        }
    }
}

/* Send what is queued; EPOLLOUT while something stays. */
static void conn_flush(mon_conn_t *c)
{
    size_t off = 0;
    while (off < c->outlen) {
        ssize_t w = send(c->fd, c->out + off, c->outlen - off, MSG_NOSIGNAL);
        if (w > 0) {
            off += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        conn_close(c);
        return;
    }
    memmove(c->out, c->out + off, c->outlen - off);
    c->outlen -= off;
    if (c->outlen == 0 && c->closing) {
        conn_close(c);
        return;
    }
    evloop_mod_fd(c->m->loop, c->fd, EPOLLIN | (c->outlen ? EPOLLOUT : 0));
}

static void conn_put(mon_conn_t *c, const char *p, size_t n)
{
    if (c->dead)
        return;
    if (c->outlen + n > MON_MAX_OUT) {
        conn_close(c); /* a subscriber that does not read */
        return;
    }
    if (c->outlen + n > c->outcap) {
        size_t cap = c->outcap ? c->outcap : 4096;
        while (cap < c->outlen + n)
            cap *= 2;
        char *o = realloc(c->out, cap);
        if (!o) {
            conn_close(c);
            return;
        }
        c->out = o;
        c->outcap = cap;
    }
    memcpy(c->out + c->outlen, p, n);
    c->outlen += n;
}

static void respond(mon_conn_t *c, int code, const char *type,
                    const char *body, size_t n, int keep)
{
    static const struct { int code; const char *text; } reasons[] = {
        {200, "OK"}, {400, "Bad Request"}, {403, "Forbidden"},
        {404, "Not Found"}, {405, "Method Not Allowed"},
        {409, "Conflict"}, {503, "Service Unavailable"},
    };
    const char *reason = "Error";
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].code == code)
            reason = reasons[i].text;
    char head[512];
    int k = snprintf(head, sizeof head,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
                     "Content-Length: %zu\r\nCache-Control: no-store\r\n"
                     "X-Content-Type-Options: nosniff\r\n"
                     "Connection: %s\r\n\r\n", code, reason, type, n,
                     keep ? "keep-alive" : "close");
    conn_put(c, head, (size_t)k);
    conn_put(c, body, n);
    if (!keep)
        c->closing = 1;
}

static void respond_text(mon_conn_t *c, int code, const char *msg, int keep)
{
    char body[300];
    int n = snprintf(body, sizeof body, "%s\n", msg);
    respond(c, code, "text/plain; charset=utf-8", body, (size_t)n, keep);
}

/* A 200 whose body fill() writes. */
static void respond_built(mon_conn_t *c, const char *type,
                          void (*fill)(FILE *f, mon_t *m), int keep)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) {
        respond_text(c, 503, "out of memory", 0);
        return;
    }
    fill(f, c->m);
    if (fclose(f) == 0)
        respond(c, 200, type, buf, len, keep);
    else
        respond_text(c, 503, "out of memory", 0);
    free(buf);
}

/* ---- events ---- */

static void sse_send(mon_conn_t *c, const char *event, const char *data,
                     size_t n)
{
    char head[64];
    int k = snprintf(head, sizeof head, "event: %s\ndata: ", event);
    conn_put(c, head, (size_t)k);
    conn_put(c, data, n);
    conn_put(c, "\n\n", 2);
}

static void broadcast(mon_t *m, const char *event, const char *data, size_t n)
{
    for (mon_conn_t *c = m->conns; c; c = c->next)
        if (c->sse && !c->dead) {
            sse_send(c, event, data, n);
            if (!c->dead)
                conn_flush(c);
        }
}

static void on_event(void *arg, const char *line, size_t len)
{
    mon_t *m = arg;
    char *copy = strndup(line, len);
    if (copy) {
        if (m->nev == MON_MAX_EVENTS) {
            free(m->events[m->ev_first]);
            m->events[m->ev_first] = copy;
            m->ev_first = (m->ev_first + 1) % MON_MAX_EVENTS;
        } else {
            m->events[(m->ev_first + m->nev++) % MON_MAX_EVENTS] = copy;
        }
    }
    broadcast(m, "ev", line, len);
}

static void send_state(mon_t *m, mon_conn_t *only)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    mon_state_json(f, m->h);
    if (fclose(f) == 0) {
        if (only) {
            sse_send(only, "state", buf, len);
        } else {
            broadcast(m, "state", buf, len);
        }
    }
    free(buf);
}

/* ---- requests ---- */

static int token_ok(const mon_t *m, const char *query)
{
    char tok[80];
    if (mon_http_query(query, "token", tok, sizeof tok) || strlen(tok) != 32)
        return 0;
    unsigned diff = 0; /* every byte compared: no early exit */
    for (int i = 0; i < 32; i++)
        diff |= (unsigned char)(tok[i] ^ m->token[i]);
    return diff == 0;
}

static void do_kill(mon_conn_t *c, const mon_http_req_t *rq, int keep)
{
    mon_t *m = c->m;
    char v[32], *end;
    if (mon_http_query(rq->query, "rank", v, sizeof v) || !v[0]) {
        respond_text(c, 400, "kill: give rank=N", keep);
        return;
    }
    long r = strtol(v, &end, 10);
    if (*end || r < 0 || r >= m->h->size) {
        char msg[128];
        snprintf(msg, sizeof msg, "kill: rank '%s' does not exist (0..%d)", v,
                 m->h->size - 1);
        respond_text(c, 400, msg, keep);
        return;
    }
    pid_t pid = m->h->procs[r].pid;
    uint32_t inc = m->h->procs[r].inc;
    if (head_user_kill(m->h, (int)r, "monitor") < 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "kill: rank %ld is not running (%s)", r,
                 mon_state_name(m->h->procs[r].state,
                                m->h->procs[r].finalized));
        respond_text(c, 409, msg, keep);
        return;
    }
    char body[128];
    int n = snprintf(body, sizeof body, "{\"killed\":%ld,\"pid\":%d,"
                     "\"incarnation\":%u}\n", r, (int)pid, inc);
    respond(c, 200, "application/json", body, (size_t)n, keep);
}

static void do_stop(mon_conn_t *c, int keep)
{
    mon_t *m = c->m;
    if (m->h->phase != PH_RUN) {
        respond_text(c, 409, "stop: the job is already ending", keep);
        return;
    }
    respond(c, 200, "application/json", "{\"stopping\":true}\n", 18, keep);
    conn_flush(c);
    head_kill_job(m->h, 143, "ftmpirun: stopped from the monitor "
                  "(ftmpi-ctl stop or the page); killing the job");
}

static void do_events(mon_conn_t *c)
{
    mon_t *m = c->m;
    static const char head[] =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
        "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        "retry: 1000\n\n";
    conn_put(c, head, sizeof head - 1);
    c->sse = 1;
    send_state(m, c);
    for (size_t i = 0; i < m->nev; i++) {
        const char *e = m->events[(m->ev_first + i) % MON_MAX_EVENTS];
        sse_send(c, "ev", e, strlen(e));
    }
}

static void fill_log(FILE *f, mon_t *m)
{
    for (size_t i = 0; i < m->nev; i++)
        fprintf(f, "%s\n", m->events[(m->ev_first + i) % MON_MAX_EVENTS]);
}

static void fill_state(FILE *f, mon_t *m)
{
    mon_state_json(f, m->h);
}

static void dispatch(mon_conn_t *c, const mon_http_req_t *rq)
{
    mon_t *m = c->m;
    int keep = rq->keep_alive;
    int get = strcmp(rq->method, "GET") == 0;
    int post = strcmp(rq->method, "POST") == 0;
    if (!token_ok(m, rq->query)) {
        respond_text(c, 403, "forbidden: this URL needs the job's token "
                     "(?token=..., printed by ftmpirun --monitor)", keep);
        return;
    }
    const char *p = rq->path;
    int page = strcmp(p, "/") == 0 || strcmp(p, "/index.html") == 0;
    int is_get = page || strcmp(p, "/api/state") == 0 ||
                 strcmp(p, "/api/events") == 0 || strcmp(p, "/api/log") == 0;
    int is_post = strcmp(p, "/api/kill") == 0 || strcmp(p, "/api/stop") == 0;
    if (!is_get && !is_post) {
        respond_text(c, 404, "not found", keep);
        return;
    }
    if ((is_get && !get) || (is_post && !post)) {
        respond_text(c, 405, is_get ? "method not allowed (GET)" :
                     "method not allowed (POST)", keep);
        return;
    }
    if (page) {
        respond(c, 200, "text/html; charset=utf-8", mon_page_html,
                mon_page_html_len, keep);
    } else if (strcmp(p, "/api/state") == 0) {
        respond_built(c, "application/json", fill_state, keep);
    } else if (strcmp(p, "/api/events") == 0) {
        do_events(c);
    } else if (strcmp(p, "/api/log") == 0) {
        respond_built(c, "application/x-ndjson", fill_log, keep);
    } else if (strcmp(p, "/api/kill") == 0) {
        do_kill(c, rq, keep);
    } else {
        do_stop(c, keep);
    }
}

static void conn_on_fd(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    mon_conn_t *c = arg;
    (void)loop;
    (void)fd;
    if (ev & EPOLLOUT)
        conn_flush(c);
    if (c->dead || !(ev & (EPOLLIN | EPOLLHUP | EPOLLERR)))
        goto out;
    for (;;) {
        char sink[4096];
        char *dst = c->sse || c->closing ? sink : c->in + c->inlen;
        size_t room = c->sse || c->closing ? sizeof sink :
                      sizeof c->in - c->inlen;
        if (room == 0)
            break;
        ssize_t n = recv(c->fd, dst, room, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (n <= 0) {
            conn_close(c);
            goto out;
        }
        if (!c->sse && !c->closing)
            c->inlen += (size_t)n;
    }
    /* every complete request in the buffer (pipelining) */
    while (!c->dead && !c->sse && !c->closing && c->inlen) {
        mon_http_req_t rq;
        const char *why = NULL;
        long hl = mon_http_parse(c->in, c->inlen, &rq, &why);
        if (hl == 0)
            break;
        if (hl < 0) {
            char msg[200];
            snprintf(msg, sizeof msg, "bad request: %s", why);
            respond_text(c, 400, msg, 0);
            break;
        }
        memmove(c->in, c->in + hl, c->inlen - (size_t)hl);
        c->inlen -= (size_t)hl;
        c->t_idle = evloop_now();
        dispatch(c, &rq);
    }
    if (!c->dead)
        conn_flush(c);
out:
    conn_free_dead(c->m);
}

static void on_accept(evloop_t *loop, int fd, uint32_t ev, void *arg)
{
    mon_t *m = arg;
    (void)ev;
    for (;;) {
        int cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0)
            return;
        mon_conn_t *c = m->nconns < MON_MAX_CONNS ? calloc(1, sizeof *c)
                                                  : NULL;
        if (!c) {
            static const char busy[] =
                "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                "Connection: close\r\n\r\n";
            (void)!send(cfd, busy, sizeof busy - 1, MSG_NOSIGNAL);
            close(cfd);
            continue;
        }
        c->m = m;
        c->fd = cfd;
        c->t_idle = evloop_now();
        if (evloop_add_fd(loop, cfd, EPOLLIN, conn_on_fd, c) < 0) {
            close(cfd);
            free(c);
            continue;
        }
        c->next = m->conns;
        m->conns = c;
        m->nconns++;
    }
}

static void on_tick(evloop_t *loop, void *arg)
{
    mon_t *m = arg;
    double now = evloop_now();
    int subscribers = 0;
    for (mon_conn_t *c = m->conns; c; c = c->next) {
        subscribers |= c->sse;
        /* a connection that sends no complete request in time */
        if (!c->sse && !c->dead && now - c->t_idle > MON_IDLE_S)
            conn_close(c);
    }
    conn_free_dead(m);
    if (subscribers)
        send_state(m, NULL);
    m->timer = evloop_timer_add(loop, MON_TICK_S, on_tick, m);
}

static void make_token(const char *secret, char out[33])
{
    static const char label[] = "ftmpi-monitor-token-1";
    uint8_t mac[FT_SHA256_BYTES];
    ft_hmac_sha256(secret, strlen(secret), label, sizeof label - 1, mac);
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", mac[i]);
}

mon_t *mon_start(evloop_t *loop, struct head *h, const char *addr, int port,
                 const char *secret)
{
    mon_t *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->loop = loop;
    m->h = h;
    m->events = calloc(MON_MAX_EVENTS, sizeof *m->events);
    struct sockaddr_in sa = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, addr, &sa.sin_addr);
    socklen_t sl = sizeof sa;
    int one = 1;
    m->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (!m->events || m->lfd < 0 ||
        setsockopt(m->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(m->lfd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        listen(m->lfd, 64) < 0 ||
        getsockname(m->lfd, (struct sockaddr *)&sa, &sl) < 0 ||
        evloop_add_fd(loop, m->lfd, EPOLLIN, on_accept, m) < 0) {
        fprintf(stderr, "ftmpirun: --monitor: cannot listen on %s:%d: %s\n",
                addr, port, strerror(errno));
        if (m->lfd >= 0)
            close(m->lfd);
        free(m->events);
        free(m);
        return NULL;
    }
    make_token(secret, m->token);
    snprintf(m->url, sizeof m->url, "http://%s:%d/?token=%s", addr,
             (int)ntohs(sa.sin_port), m->token);
    fprintf(stderr, "ftmpirun: monitor at %s\n", m->url);
    h->log.t0 = h->t0; /* also without --event-log */
    h->log.hook = on_event;
    h->log.hook_arg = m;
    char reg[1024], why[600];
    snprintf(reg, sizeof reg, "{\"jobid\":\"%s\",\"pid\":%d,\"np\":%d,"
             "\"program\":\"%s\",\"url\":\"%s\"}\n", h->jobid, (int)getpid(),
             h->size, evlog_esc(h->o->argv[0]), m->url);
    if (mon_reg_add(h->jobid, reg, m->reg_path, sizeof m->reg_path, why,
                    sizeof why))
        fprintf(stderr, "ftmpirun: --monitor: not registered for ftmpi-ctl "
                "(%s)\n", why);
    m->timer = evloop_timer_add(loop, MON_TICK_S, on_tick, m);
    return m;
}

void mon_stop(mon_t *m)
{
    if (!m)
        return;
    m->h->log.hook = NULL;
    evloop_timer_cancel(m->loop, m->timer);
    /* what is queued (the last events) goes out if the peer reads now */
    for (mon_conn_t *c = m->conns; c; c = c->next)
        if (!c->dead) {
            if (c->outlen)
                conn_flush(c);
            if (!c->dead)
                conn_close(c);
        }
    conn_free_dead(m);
    evloop_del_fd(m->loop, m->lfd);
    close(m->lfd);
    mon_reg_remove(m->reg_path);
    for (size_t i = 0; i < m->nev; i++)
        free(m->events[(m->ev_first + i) % MON_MAX_EVENTS]);
    free(m->events);
    free(m);
}
