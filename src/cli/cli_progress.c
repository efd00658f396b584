/* cli_progress.c - the progress line of cli_progress.h: a ticker thread
 * redraws it on a terminal, so that the elapsed time moves even while one
 * repetition runs for seconds. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_progress.h"
#include "pc_error.h"
#include "pc_time.h"

/* A terminal run that ends sooner prints nothing (no flicker on quick
 * runs); the line is redrawn at this period. Forced line mode prints a
 * repetition at most this often, so that --reps 1000 on a tiny input does
 * not print a thousand lines. */
#define PROGRESS_AFTER_S 1.0
#define PROGRESS_TICK_MS 250
#define PROGRESS_LINE_GAP_S 0.25

static struct {
    int on, tty, started, stop, paused, drawn;
    const char *cmd;
    double t0, last_line, after; /* after: seconds before the first draw */
    char stage[160];
    char impl[96]; /* "name (index/count)" of cli_progress_impl */
    pthread_t ticker;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} g = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

int cli_progress_take(const char *arg, int *mode)
{
    if (!strcmp(arg, "--progress"))
        *mode = CLI_PROGRESS_ON;
    else if (!strcmp(arg, "--quiet"))
        *mode = CLI_PROGRESS_OFF;
    else
        return 0;
    return 1;
}

/* Draws the line in place; g.mu held. */
static void progress_draw(double now)
{
    fprintf(stderr, "\r\033[Kparcheck %s: %s [%.1f s]", g.cmd, g.stage, now - g.t0);
    fflush(stderr);
    g.drawn = 1;
}

/* Erases the drawn line; g.mu held. */
static void progress_erase(void)
{
    if (g.drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        g.drawn = 0;
    }
}

static void *progress_tick(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&g.mu);
    while (!g.stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += PROGRESS_TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g.cv, &g.mu, &until);
        double now = pc_time_now();
        if (!g.stop && !g.paused && g.stage[0] && now - g.t0 >= g.after)
            progress_draw(now);
    }
    pthread_mutex_unlock(&g.mu);
    return NULL;
}

int cli_progress_start(const char *cmd, int mode)
{
    if (g.started)
        return PC_OK;
    g.started = 1;
    g.tty = isatty(STDERR_FILENO);
    g.on = mode == CLI_PROGRESS_ON || (mode == CLI_PROGRESS_AUTO && g.tty);
    g.after = mode == CLI_PROGRESS_ON ? 0.0 : PROGRESS_AFTER_S; /* asked for: at once */
    g.cmd = cmd;
    g.t0 = pc_time_now();
    g.last_line = -1e9;
    g.stop = g.paused = g.drawn = 0;
    g.stage[0] = '\0';
    if (g.on)
        atexit(cli_progress_stop); /* an early return still ends the line */
    if (!g.on || !g.tty)
        return PC_OK;
    if (pthread_create(&g.ticker, NULL, progress_tick, NULL) != 0) {
        g.on = 0;
        return PC_EIO;
    }
    return PC_OK;
}

/* Sets the stage to text; in line mode prints it when forced (a new stage
 * of the run, not a repetition) or when the last line is old enough. */
static void progress_stage(const char *text, int force)
{
    pthread_mutex_lock(&g.mu);
    snprintf(g.stage, sizeof g.stage, "%s", text);
    g.paused = 0;
    double now = pc_time_now();
    if (!g.tty && (force || now - g.last_line >= PROGRESS_LINE_GAP_S)) {
        fprintf(stderr, "parcheck %s: %s [%.1f s]\n", g.cmd, g.stage, now - g.t0);
        g.last_line = now;
    }
    pthread_mutex_unlock(&g.mu);
}

void cli_progress_set(const char *fmt, ...)
{
    if (!g.on)
        return;
    char text[sizeof g.stage];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    progress_stage(text, 1);
}

void cli_progress_impl(const char *name, int index, int count)
{
    if (!g.on)
        return;
    snprintf(g.impl, sizeof g.impl, "%s (%d/%d)", name, index, count);
    progress_stage(g.impl, 1);
}

void cli_progress_rep(long long rep, long long reps)
{
    if (!g.on)
        return;
    char text[sizeof g.stage];
    if (rep == 0) /* the run whose result is judged, before the timed ones */
        snprintf(text, sizeof text, "%s: checked run", g.impl);
    else
        snprintf(text, sizeof text, "%s: repetition %lld/%lld", g.impl, rep, reps);
    progress_stage(text, 0);
}

void cli_progress_clear(void)
{
    if (!g.on || !g.tty)
        return;
    pthread_mutex_lock(&g.mu);
    progress_erase();
    g.paused = 1;
    pthread_mutex_unlock(&g.mu);
}

void cli_progress_stop(void)
{
    if (!g.started || !g.on) {
        g.started = 0;
        return;
    }
    if (g.tty) {
        pthread_mutex_lock(&g.mu);
        g.stop = 1;
        pthread_cond_signal(&g.cv);
        pthread_mutex_unlock(&g.mu);
        pthread_join(g.ticker, NULL);
        progress_erase();
    } else {
        fprintf(stderr, "parcheck %s: done [%.1f s]\n", g.cmd, pc_time_now() - g.t0);
    }
    g.started = g.on = 0;
}
