/* tui_feed.c — the refresh worker thread (see tui_feed.h).
 *
 * One mutex guards the shared state; the worker sleeps on a condition variable (monotonic
 * clock) until the next refresh is due, a refresh is requested, or it is asked to stop.  The
 * event loop only ever takes the mutex for a few assignments, so it cannot be held up by a
 * fetch: the fetch itself runs with the mutex released.
 */
#include "tui/tui_feed.h"
#include "util/error.h"
#include "util/util.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Feed {
    FeedConfig cfg;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake;        /* worker: something to do */
    pthread_cond_t done;        /* feed_stop: the worker ended */
    bool stop, request, running, ended;
    bool busy, busy_full;
    struct timespec busy_since;
    void *ready;                /* result not yet taken */
    bool failed;
    char error[2048];
    int64_t last_ok, last_attempt;
    unsigned fetches;
    pthread_mutex_t data_lock;  /* see feed_data_lock */
    bool data_held;             /* the fetch running holds it until its result is published */
};

/* the feed whose worker runs on this thread (for feed_hold_data) */
static _Thread_local Feed *worker_feed;

static struct timespec mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts;
}

static double ts_diff(struct timespec a, struct timespec b)
{
    return (double)(a.tv_sec - b.tv_sec) + (double)(a.tv_nsec - b.tv_nsec) / 1e9;
}

static struct timespec ts_add(struct timespec t, double s)
{
    long long ns = (long long)t.tv_nsec + (long long)(s * 1e9);
    t.tv_sec += (time_t)(ns / 1000000000LL);
    t.tv_nsec = (long)(ns % 1000000000LL);
    return t;
}

static void *worker(void *arg)
{
    Feed *f = arg;
    worker_feed = f;
    bool first = true;
    int since_full = 0;
    struct timespec due = mono_now();
    pthread_mutex_lock(&f->mu);
    for (;;) {
        /* wait until due, requested or stopped; after the only fetch of a snapshot, forever */
        while (!f->stop && !f->request && !first) {
            if (f->cfg.interval <= 0) {
                pthread_cond_wait(&f->wake, &f->mu);
                continue;
            }
            if (ts_diff(mono_now(), due) >= 0) break;
            pthread_cond_timedwait(&f->wake, &f->mu, &due);
        }
        if (f->stop) break;
        bool full = first || f->request || since_full + 1 >= f->cfg.full_every;
        if (f->cfg.interval <= 0 && !first) { f->request = false; continue; }
        f->request = false;
        f->busy = true;
        f->busy_full = full;
        f->busy_since = mono_now();
        pthread_mutex_unlock(&f->mu);

        Error err = { .set = false };
        void *data = f->cfg.fetch(f->cfg.ctx, full, &err);

        pthread_mutex_lock(&f->mu);
        f->busy = false;
        f->fetches++;
        f->last_attempt = (int64_t)time(NULL);
        if (data || !err.set) {
            if (data) {
                if (f->ready) f->cfg.free_data(f->ready);
                f->ready = data;
            }
            f->failed = false;
            f->error[0] = '\0';
            f->last_ok = f->last_attempt;
            since_full = full ? 0 : since_full + 1;
        } else {
            f->failed = true;
            snprintf(f->error, sizeof f->error, "%s", err.msg);
            /* a failed full fetch is retried as a full one next time */
            if (full) since_full = f->cfg.full_every;
        }
        if (f->data_held) {                 /* published: the loop may look again */
            f->data_held = false;
            pthread_mutex_unlock(&f->data_lock);
        }
        first = false;
        due = ts_add(mono_now(), f->cfg.interval > 0 ? f->cfg.interval : 0);
    }
    f->ended = true;
    pthread_cond_broadcast(&f->done);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

Feed *feed_start(const FeedConfig *cfg, Error *err)
{
    Feed *f = xcalloc(1, sizeof *f);
    f->cfg = *cfg;
    if (f->cfg.full_every < 1) f->cfg.full_every = 1;
    pthread_mutex_init(&f->mu, NULL);
    pthread_mutex_init(&f->data_lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&f->wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&f->done, NULL);

    /* the worker inherits this mask: signals (^C, resize, ...) go to the event loop's thread */
    sigset_t all, old;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV); sigdelset(&all, SIGBUS); sigdelset(&all, SIGFPE); sigdelset(&all, SIGILL);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&f->thread, NULL, worker, f);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        error_set(err, "cannot start the refresh thread: %s", strerror(rc));
        pthread_cond_destroy(&f->wake);
        pthread_cond_destroy(&f->done);
        pthread_mutex_destroy(&f->mu);
        free(f);
        return NULL;
    }
    f->running = true;
    return f;
}

void feed_data_lock(Feed *f) { pthread_mutex_lock(&f->data_lock); }
void feed_data_unlock(Feed *f) { pthread_mutex_unlock(&f->data_lock); }

Feed *feed_self(void) { return worker_feed; }

void feed_hold_data(void)
{
    Feed *f = worker_feed;
    if (!f || f->data_held) return;
    pthread_mutex_lock(&f->data_lock);
    f->data_held = true;              /* only this thread reads or writes it while held */
}

void feed_refresh_now(Feed *f)
{
    pthread_mutex_lock(&f->mu);
    f->request = true;
    pthread_cond_signal(&f->wake);
    pthread_mutex_unlock(&f->mu);
}

void *feed_take(Feed *f)
{
    pthread_mutex_lock(&f->mu);
    void *d = f->ready;
    f->ready = NULL;
    pthread_mutex_unlock(&f->mu);
    return d;
}

void feed_status(Feed *f, FeedStatus *out)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&f->mu);
    out->busy = f->busy;
    out->busy_full = f->busy_full;
    out->busy_for = f->busy ? ts_diff(mono_now(), f->busy_since) : 0;
    out->failed = f->failed;
    snprintf(out->error, sizeof out->error, "%s", f->error);
    out->last_ok = f->last_ok;
    out->last_attempt = f->last_attempt;
    out->fetches = f->fetches;
    out->live = f->cfg.interval > 0;
    pthread_mutex_unlock(&f->mu);
}

bool feed_stop(Feed *f, double grace)
{
    if (!f) return true;
    pthread_mutex_lock(&f->mu);
    f->stop = true;
    pthread_cond_signal(&f->wake);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until = ts_add(until, grace);
    while (!f->ended) {
        if (pthread_cond_timedwait(&f->done, &f->mu, &until) == ETIMEDOUT) break;
    }
    bool ended = f->ended;
    pthread_mutex_unlock(&f->mu);
    if (!ended) return false;
    pthread_join(f->thread, NULL);
    if (f->ready) f->cfg.free_data(f->ready);
    pthread_cond_destroy(&f->wake);
    pthread_cond_destroy(&f->done);
    pthread_mutex_destroy(&f->mu);
    free(f);
    return true;
}
