/* http_inflate.c — gzip answers decoded as they arrive: ISA-L's igzip, else zlib
 * (http_inflate.h). */
#include "http_inflate.h"
#include "util/util.h"
#include <stdlib.h>
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

int http_inflate_feed(HttpInflate *z, const char *data, size_t len, HttpInflateOutFn out, void *ctx)
{
    if (z->failed) return -1;
    if (z->finished) return 0;
#ifdef KGPU_HAVE_ISAL
    z->st.next_in = (uint8_t *)data;
    z->st.avail_in = (uint32_t)len;
    for (;;) {
        z->st.next_out = z->out;
        z->st.avail_out = (uint32_t)OUT_SIZE;
        uint32_t in_before = z->st.avail_in;
        int rc = isal_inflate(&z->st);
        if (rc != ISAL_DECOMP_OK)
            return fail(z, rc == ISAL_INCORRECT_CHECKSUM ? "the gzip checksum does not match"
                           : rc == ISAL_INVALID_WRAPPER || rc == ISAL_UNSUPPORTED_METHOD ? "not gzip data"
                           : "damaged gzip data");
        size_t produced = OUT_SIZE - z->st.avail_out;
        if (produced && out(ctx, (const char *)z->out, produced)) return 1;
        if (z->st.block_state == ISAL_BLOCK_FINISH) { z->finished = true; return 0; }
        if (!z->st.avail_in && produced < OUT_SIZE) return 0;
        if (!produced && z->st.avail_in == in_before) return fail(z, "damaged gzip data");
    }
#else
    if (!z->zinit) return fail(z, "zlib cannot start");
    z->zs.next_in = (Bytef *)data;
    z->zs.avail_in = (uInt)len;
    for (;;) {
        z->zs.next_out = z->out;
        z->zs.avail_out = (uInt)OUT_SIZE;
        int rc = inflate(&z->zs, Z_NO_FLUSH);
        size_t produced = OUT_SIZE - z->zs.avail_out;
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return fail(z, rc == Z_DATA_ERROR ? "damaged gzip data" : "the gzip data cannot be decoded");
        if (produced && out(ctx, (const char *)z->out, produced)) return 1;
        if (rc == Z_STREAM_END) { z->finished = true; return 0; }
        if (!z->zs.avail_in && produced < OUT_SIZE) return 0;
        if (rc == Z_BUF_ERROR && !produced) return 0;
    }
#endif
}
