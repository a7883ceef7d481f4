/*
 * Progress on the master's stderr: tasks done/total, rate, ETA.
 *   TTY    one line rewritten in place (carriage return), at most 5 times
 *          a second;
 *   LINES  a plain line every `interval` seconds once the run has lasted
 *          that long (short runs stay quiet);
 *   OFF    nothing.
 * AUTO picks TTY when stderr is a terminal, else LINES. Under mpirun a
 * rank's stderr is a pipe to the launcher: MW_PROGRESS=tty asks for the
 * live line anyway (the launcher passes the bytes through).
 * Failures and recoveries are reported with mw_progress_note, which first
 * ends a live line.
 */
#include "mw_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void mw_progress_init(mw_progress_t *p, const mw_config_t *cfg)
{
    memset(p, 0, sizeof(*p));
    p->mode = cfg->progress;
    const char *e = getenv("MW_PROGRESS");
    if (e) {
        if (!strcmp(e, "off") || !strcmp(e, "0"))
            p->mode = MW_PROGRESS_OFF;
        else if (!strcmp(e, "tty"))
            p->mode = MW_PROGRESS_TTY;
        else if (!strcmp(e, "lines") || !strcmp(e, "1"))
            p->mode = MW_PROGRESS_LINES;
        else if (!strcmp(e, "auto"))
            p->mode = MW_PROGRESS_AUTO;
    }
    if (p->mode == MW_PROGRESS_AUTO)
        p->mode = isatty(STDERR_FILENO) ? MW_PROGRESS_TTY : MW_PROGRESS_LINES;
    p->interval = cfg->progress_interval > 0 ? cfg->progress_interval : 5.0;
    p->t0 = mw_now();
    p->last = p->t0;
}

static void fmt_time(char *s, size_t n, double sec)
{
    if (sec < 0 || sec > 1e8)
        snprintf(s, n, "?");
    else if (sec < 100)
        snprintf(s, n, "%.1f s", sec);
    else if (sec < 6000)
        snprintf(s, n, "%d min %02d s", (int)sec / 60, (int)sec % 60);
    else
        snprintf(s, n, "%d h %02d min", (int)sec / 3600, ((int)sec / 60) % 60);
}

/* Rate over the last ~8 s (so that it follows a change in the number of
 * workers), the whole run's while it is younger. */
static double recent_rate(mw_progress_t *p, int64_t done, double now)
{
    int last = (p->head + MW_RATE_SAMPLES - 1) % MW_RATE_SAMPLES;
    if (p->ns == 0 || now - p->st[last] >= 0.5) {
        p->st[p->head] = now;
        p->sd[p->head] = done;
        p->head = (p->head + 1) % MW_RATE_SAMPLES;
        if (p->ns < MW_RATE_SAMPLES)
            p->ns++;
    }
    int old = (p->head + MW_RATE_SAMPLES - p->ns) % MW_RATE_SAMPLES;
    if (p->ns < MW_RATE_SAMPLES || now - p->st[old] < 1.0)
        return now > p->t0 ? (double)done / (now - p->t0) : 0;
    return (double)(done - p->sd[old]) / (now - p->st[old]);
}

static void line(char *s, size_t n, int64_t done, int64_t total, int workers, double rate)
{
    char eta[32];
    if (total >= 0 && rate > 0)
        fmt_time(eta, sizeof eta, (double)(total - done) / rate);
    else
        snprintf(eta, sizeof eta, "?");
    if (total >= 0)
        snprintf(s, n, "mw: %lld/%lld tasks (%.0f%%), %.1f tasks/s, ETA %s, %d worker%s",
                 (long long)done, (long long)total, total ? 100.0 * (double)done / (double)total : 100.0,
                 rate, eta, workers, workers == 1 ? "" : "s");
    else
        snprintf(s, n, "mw: %lld tasks, %.1f tasks/s, %d worker%s", (long long)done, rate, workers,
                 workers == 1 ? "" : "s");
}

void mw_progress_update(mw_progress_t *p, int64_t done, int64_t total, int workers, int force)
{
    if (p->mode == MW_PROGRESS_OFF)
        return;
    double now = mw_now();
    char s[256];
    if (p->mode == MW_PROGRESS_LINES && now - p->last < p->interval && !(force && p->shown)) {
        recent_rate(p, done, now); /* keep sampling */
        return;
    }
    if (p->mode == MW_PROGRESS_TTY) {
        if (!force && now - p->last < 0.2)
            return;
        line(s, sizeof s, done, total, workers, recent_rate(p, done, now));
        fprintf(stderr, "\r%s\033[K", s);
        fflush(stderr);
        p->tty_dirty = 1;
        p->shown = 1;
        p->last = now;
        return;
    }
    if (now - p->last < p->interval && !(force && p->shown))
        return;
    line(s, sizeof s, done, total, workers, recent_rate(p, done, now));
    fprintf(stderr, "%s\n", s);
    p->shown = 1;
    p->last = now;
}

void mw_progress_note(mw_progress_t *p, const char *fmt, ...)
{
    if (p->tty_dirty) {
        fputc('\n', stderr);
        p->tty_dirty = 0;
    }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

void mw_progress_end(mw_progress_t *p)
{
    if (p->tty_dirty) {
        fputc('\n', stderr);
        p->tty_dirty = 0;
    }
}
