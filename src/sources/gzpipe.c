/* gzpipe.c — gzip output on its own thread (gzpipe.h). */
#include "sources/gzpipe.h"
#include "util/util.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define GZPIPE_BUF ((size_t)1 << 20)

typedef struct { char *data; size_t n; } Chunk;

struct GzPipe {
    gzFile gz;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Chunk q[GZPIPE_INFLIGHT];
    size_t head, count;          /* the queue: count chunks from head */
    bool done, failed;
    char *cur; size_t ncur;      /* the buffer being filled (writer side) */
};

static void *compressor(void *arg)
{
    GzPipe *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->count && !p->done) pthread_cond_wait(&p->cv, &p->mu);
        if (!p->count && p->done) { pthread_mutex_unlock(&p->mu); break; }
        Chunk c = p->q[p->head];
        pthread_mutex_unlock(&p->mu);
        bool ok = c.n == 0 || gzwrite(p->gz, c.data, (unsigned)c.n) == (int)c.n;
        free(c.data);
        pthread_mutex_lock(&p->mu);
        p->head = (p->head + 1) % GZPIPE_INFLIGHT;
        p->count--;
        if (!ok) p->failed = true;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
    return NULL;
}

GzPipe *gzpipe_open(int fd, bool compress)
{
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0) return NULL;
    int dfd = dup(fd);
    if (dfd < 0) return NULL;
    gzFile gz = gzdopen(dfd, compress ? "wb1" : "wT");      /* level 1: fast, ~10x on these lists */
    if (!gz) { close(dfd); return NULL; }
    gzbuffer(gz, 256 << 10);
    GzPipe *p = xcalloc(1, sizeof *p);
    p->gz = gz;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, compressor, p) != 0) {
        gzclose(gz);
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

/* the filled buffer to the thread (waits while GZPIPE_INFLIGHT are queued) */
static void hand_over(GzPipe *p)
{
    if (!p->ncur) return;
    pthread_mutex_lock(&p->mu);
    while (p->count == GZPIPE_INFLIGHT) pthread_cond_wait(&p->cv, &p->mu);
    p->q[(p->head + p->count) % GZPIPE_INFLIGHT] = (Chunk){ p->cur, p->ncur };
    p->count++;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    p->cur = NULL;
    p->ncur = 0;
}

void gzpipe_write(GzPipe *p, const char *data, size_t n)
{
    while (n) {
        if (!p->cur) p->cur = xmalloc(GZPIPE_BUF);
        size_t k = GZPIPE_BUF - p->ncur < n ? GZPIPE_BUF - p->ncur : n;
        memcpy(p->cur + p->ncur, data, k);
        p->ncur += k;
        data += k;
        n -= k;
        if (p->ncur == GZPIPE_BUF) hand_over(p);
    }
}

int gzpipe_close(GzPipe *p)
{
    if (!p) return -1;
    hand_over(p);
    free(p->cur);
    pthread_mutex_lock(&p->mu);
    p->done = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    int zrc = gzclose(p->gz);
    bool failed = p->failed || zrc != Z_OK;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
    return failed ? -1 : 0;
}
