/* http_inflate.c — gzip answers decoded as they arrive: ISA-L's igzip, else zlib
 * (http_inflate.h). */
#include "http_inflate.h"
#include "util/util.h"
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#ifdef KGPU_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

#define OUT_SIZE ((size_t)256 << 10)

struct HttpInflate {
#ifdef KGPU_HAVE_ISAL
    struct inflate_state st;
#else
    z_stream zs;
    bool zinit;
#endif
    bool finished, failed;
    const char *error;
    unsigned char out[OUT_SIZE];
};

const char *http_inflate_backend(void)
{
#ifdef KGPU_HAVE_ISAL
    return "isa-l";
#else
    return "zlib";
#endif
}

HttpInflate *http_inflate_new(void)
{
    HttpInflate *z = xcalloc(1, sizeof *z);
    http_inflate_reset(z);
    return z;
}

void http_inflate_reset(HttpInflate *z)
{
    z->finished = z->failed = false;
    z->error = NULL;
#ifdef KGPU_HAVE_ISAL
    isal_inflate_init(&z->st);
    z->st.crc_flag = ISAL_GZIP;              /* the gzip header parsed, the CRC-32 checked */
#else
    if (z->zinit) inflateEnd(&z->zs);
    memset(&z->zs, 0, sizeof z->zs);
    z->zinit = inflateInit2(&z->zs, 15 + 16) == Z_OK;     /* 15 + 16: gzip only */
#endif
}

void http_inflate_free(HttpInflate *z)
{
    if (!z) return;
#ifndef KGPU_HAVE_ISAL
    if (z->zinit) inflateEnd(&z->zs);
#endif
    free(z);
}

bool http_inflate_finished(const HttpInflate *z) { return z->finished; }
const char *http_inflate_error(const HttpInflate *z) { return z->error; }

static int fail(HttpInflate *z, const char *why)
{
    z->failed = true;
    z->error = why;
    return -1;
}

/* where the decoder writes: its own buffer, handed to fn piece by piece, or dst's tail */
typedef struct {
    HttpInflateOutFn fn;
    void *ctx;
    Strbuf *dst;
    size_t room, added;
} Out;

static unsigned char *out_space(HttpInflate *z, const Out *o, size_t *avail)
{
    if (!o->dst) { *avail = OUT_SIZE; return z->out; }
    strbuf_grow(o->dst, OUT_SIZE);
    *avail = o->dst->cap - o->dst->len - 1;
    if (*avail > UINT32_MAX) *avail = UINT32_MAX;
    return (unsigned char *)o->dst->buf + o->dst->len;
}

/* n bytes were written at the space: non-zero stops */
static int out_took(Out *o, const unsigned char *at, size_t n)
{
    if (!o->dst) return n && o->fn(o->ctx, (const char *)at, n);
    o->dst->len += n;
    o->dst->buf[o->dst->len] = '\0';
    o->added += n;
    return o->added > o->room;
}

static int feed(HttpInflate *z, const char *data, size_t len, Out *o)
{
    if (z->failed) return -1;
    if (z->finished) return 0;
    size_t avail;
#ifdef KGPU_HAVE_ISAL
    z->st.next_in = (uint8_t *)data;
    z->st.avail_in = (uint32_t)len;
    for (;;) {
        unsigned char *at = out_space(z, o, &avail);
        z->st.next_out = at;
        z->st.avail_out = (uint32_t)avail;
        uint32_t in_before = z->st.avail_in;
        int rc = isal_inflate(&z->st);
        if (rc != ISAL_DECOMP_OK)
            return fail(z, rc == ISAL_INCORRECT_CHECKSUM ? "the gzip checksum does not match"
                           : rc == ISAL_INVALID_WRAPPER || rc == ISAL_UNSUPPORTED_METHOD ? "not gzip data"
                           : "damaged gzip data");
        size_t produced = avail - z->st.avail_out;
        if (out_took(o, at, produced)) return 1;
        if (z->st.block_state == ISAL_BLOCK_FINISH) { z->finished = true; return 0; }
        if (!z->st.avail_in && produced < avail) return 0;
        if (!produced && z->st.avail_in == in_before) return fail(z, "damaged gzip data");
    }
#else
    if (!z->zinit) return fail(z, "zlib cannot start");
    z->zs.next_in = (Bytef *)data;
    z->zs.avail_in = (uInt)len;
    for (;;) {
        unsigned char *at = out_space(z, o, &avail);
        z->zs.next_out = at;
        z->zs.avail_out = (uInt)avail;
        int rc = inflate(&z->zs, Z_NO_FLUSH);
        size_t produced = avail - z->zs.avail_out;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return fail(z, rc == Z_DATA_ERROR ? "damaged gzip data" : "the gzip data cannot be decoded");
        if (out_took(o, at, produced)) return 1;
        if (rc == Z_STREAM_END) { z->finished = true; return 0; }
        if (!z->zs.avail_in && produced < avail) return 0;
        if (rc == Z_BUF_ERROR && !produced) return 0;
    }
#endif
}

int http_inflate_feed(HttpInflate *z, const char *data, size_t len, HttpInflateOutFn out, void *ctx)
{
    Out o = { out, ctx, NULL, 0, 0 };
    return feed(z, data, len, &o);
}

int http_inflate_feed_into(HttpInflate *z, const char *data, size_t len, Strbuf *dst, size_t room)
{
    Out o = { NULL, NULL, dst, room, 0 };
    return feed(z, data, len, &o);
}
