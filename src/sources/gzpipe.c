/* gzpipe.c — gzip output on its own thread (gzpipe.h).  The compression is ISA-L's igzip at
 * its level 1 when the build has libisal (several times faster than zlib's level 1, files a
 * little larger), else zlib's gzip writer at level 1. */
#include "sources/gzpipe.h"
#include "util/util.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef KGPU_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#define GZPIPE_BUF ((size_t)1 << 20)

typedef struct { char *data; size_t n; } Chunk;

#ifdef KGPU_HAVE_ISAL
/* igzip into fd: a gzip member (header, level-1 deflate, trailer) */
typedef struct {
    int fd;
    struct isal_zstream zs;
    unsigned char *level_buf;
    unsigned char out[256 << 10];
} Igz;

static bool write_all(int fd, const unsigned char *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        b += w;
        n -= (size_t)w;
    }
    return true;
}

static Igz *igz_open(int fd)
{
    Igz *g = xcalloc(1, sizeof *g);
    g->fd = fd;
    isal_deflate_init(&g->zs);
    g->level_buf = xmalloc(ISAL_DEF_LVL1_DEFAULT);
    g->zs.level = 1;
    g->zs.level_buf = g->level_buf;
    g->zs.level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    g->zs.gzip_flag = IGZIP_GZIP;
    return g;
}

/* data[0..n) in (end: the last, then the trailer); false when compressing or writing failed */
static bool igz_write(Igz *g, const char *data, size_t n, bool end)
{
    g->zs.next_in = (uint8_t *)data;
    g->zs.avail_in = (uint32_t)n;
    g->zs.end_of_stream = end;
    do {
        g->zs.next_out = g->out;
        g->zs.avail_out = (uint32_t)sizeof g->out;
        if (isal_deflate(&g->zs) != COMP_OK) return false;
        if (!write_all(g->fd, g->out, sizeof g->out - g->zs.avail_out)) return false;
    } while (g->zs.avail_in || g->zs.avail_out == 0 || (end && g->zs.internal_state.state != ZSTATE_END));
    return true;
}

static int igz_close(Igz *g, bool ok)
{
    if (ok) ok = igz_write(g, NULL, 0, true);
    if (close(g->fd) != 0) ok = false;
    free(g->level_buf);
    free(g);
    return ok ? 0 : -1;
}
#endif

struct GzPipe {
    gzFile gz;                   /* zlib (or plain, "wT"), else ... */
#ifdef KGPU_HAVE_ISAL
    Igz *igz;                    /* ... igzip */
#endif
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
        bool ok;
#ifdef KGPU_HAVE_ISAL
        if (p->igz) ok = c.n == 0 || igz_write(p->igz, c.data, c.n, false);
        else
#endif
        ok = c.n == 0 || gzwrite(p->gz, c.data, (unsigned)c.n) == (int)c.n;
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
    GzPipe *p = xcalloc(1, sizeof *p);
#ifdef KGPU_HAVE_ISAL
    if (compress) p->igz = igz_open(dfd);
    else
#endif
    {
        gzFile gz = gzdopen(dfd, compress ? "wb1" : "wT");  /* level 1: fast, ~10x on these lists */
        if (!gz) { close(dfd); free(p); return NULL; }
        gzbuffer(gz, 256 << 10);
        p->gz = gz;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, compressor, p) != 0) {
#ifdef KGPU_HAVE_ISAL
        if (p->igz) igz_close(p->igz, false);
        else
#endif
        gzclose(p->gz);
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
    bool failed = p->failed;
#ifdef KGPU_HAVE_ISAL
    if (p->igz) failed = igz_close(p->igz, !failed) != 0 || failed;
    else
#endif
    failed = gzclose(p->gz) != Z_OK || failed;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
    return failed ? -1 : 0;
}
