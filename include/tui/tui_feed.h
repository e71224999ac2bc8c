/* tui_feed.h — refreshing in the background, so the screen never waits for the API server.
 *
 * A Feed owns one worker thread that calls fetch() — blocking loads through the loader,
 * the API client and the metrics sources — and hands each result to the event loop, which
 * polls feed_take() between keys and swaps the new data in.  The loop never blocks on the
 * worker: a slow server shows as "busy for N s", a failure as the error of the last attempt,
 * and the last good data stays where it is.
 *
 * Schedule: the first fetch starts at once and is full; then one fetch every `interval`
 * seconds, counted from the end of the previous one (a slow server is not queued up on), of
 * which every `full_every`-th is full (cluster lists reloaded) and the others light (metrics
 * only).  feed_refresh_now() asks for a full fetch as soon as the worker is free.  With
 * interval <= 0 there is only the first fetch (a snapshot: nothing changes).
 *
 * fetch() runs on the worker thread with every asynchronous signal blocked (they go to the
 * event loop's thread).  It returns new data, which the feed owns until feed_take() hands it
 * over (free_data releases what was never taken), or NULL: with err set it failed, without
 * err set there was nothing new (still a success).
 *
 * Ownership: feed_take() returns data the caller frees with the free_data it gave.
 */
#ifndef KGPU_TUI_FEED_H
#define KGPU_TUI_FEED_H
#include <stdbool.h>
#include <stdint.h>

struct Error;
typedef void *(*FeedFetchFn)(void *ctx, bool full, struct Error *err);
typedef void (*FeedFreeFn)(void *data);

typedef struct {
    double interval;         /* seconds; <= 0: fetch once */
    int full_every;          /* >= 1 */
    FeedFetchFn fetch;
    FeedFreeFn free_data;
    void *ctx;
} FeedConfig;

typedef struct {
    bool busy;               /* a fetch is running */
    bool busy_full;          /* ... and it is a full one */
    double busy_for;         /* seconds it has been running */
    bool failed;             /* the last finished fetch failed */
    char error[2048];         /* its error */
    int64_t last_ok;         /* wall clock of the last successful fetch, 0 = none yet */
    int64_t last_attempt;    /* wall clock the last fetch ended, 0 = none yet */
    unsigned fetches;        /* finished fetches, successful or not */
    bool live;               /* refreshes happen (interval > 0) */
} FeedStatus;

typedef struct Feed Feed;

/* starts the worker; NULL (err set) when the thread cannot be created */
Feed *feed_start(const FeedConfig *cfg, struct Error *err);
void feed_refresh_now(Feed *f);
/* the newest result not yet taken, or NULL */
void *feed_take(Feed *f);
void feed_status(Feed *f, FeedStatus *out);
/* The data lock.  Data handed out is normally read-only, but a fetch may change data the
 * loop already holds (top's cluster kept current by watch events, changed in place): it calls
 * feed_hold_data() before the first change, and the lock is released once that fetch's result
 * is published.  The event loop holds the lock (feed_data_lock/unlock) while it takes, draws
 * and handles a key, so it never sees a change without the data rebuilt from it. */
void feed_data_lock(Feed *f);
void feed_data_unlock(Feed *f);
void feed_hold_data(void);            /* from inside fetch() only */
Feed *feed_self(void);                /* from inside fetch(): its feed */

/* Asks the worker to stop and waits up to `grace` seconds for it.  true: it ended, everything
 * is freed (f too).  false: it is still inside a blocking fetch; f is left alone (the process
 * should exit without freeing what the worker may still touch). */
bool feed_stop(Feed *f, double grace);
#endif
