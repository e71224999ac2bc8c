/* Unit tests: http_inflate — a gzip answer decoded as it arrives (ISA-L's igzip, or zlib where
 * the build has no libisal).  The expected bytes are the input the test compressed itself
 * with zlib's gzip writer (deflateInit2 with windowBits 15 + 16, RFC 1952), fed back in
 * pieces of every kind; damaged, cut and foreign data must fail, not decode to something. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "../../src/sources/http_inflate.h"
#include "util/util.h"

/* src[0..n) as one gzip member (level 1, as the fake server and kube-apiserver compress) */
static unsigned char *gzip_of(const unsigned char *src, size_t n, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 64;
    unsigned char *out = xmalloc(cap);
    zs.next_in = (Bytef *)src;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

typedef struct { Strbuf got; size_t stop_after; size_t calls; } Sink;

static int collect(void *ctx, const char *data, size_t len)
{
    Sink *s = ctx;
    strbuf_add(&s->got, data, len);
    s->calls++;
    return s->stop_after && s->got.len >= s->stop_after;
}

/* a JSON-like text of n bytes, compressible but not trivially (a list page's shape) */
static unsigned char *sample(size_t n)
{
    unsigned char *b = xmalloc(n);
    uint32_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (i % 97 == 0) ? '\n' : (unsigned char)("{\"metadata\":{\"name\":\"pod-0123456789\"}}"[(x >> 16) % 38]);
    }
    return b;
}

/* decodes gz in pieces of piece bytes; returns the feed result of the last piece */
static int feed_in_pieces(HttpInflate *z, const unsigned char *gz, size_t n, size_t piece, Sink *s)
{
    int rc = 0;
    for (size_t off = 0; off < n && rc == 0; off += piece) {
        size_t k = n - off < piece ? n - off : piece;
        rc = http_inflate_feed(z, (const char *)gz + off, k, collect, s);
    }
    return rc;
}

static void test_round_trip_any_piece_size(void **state)
{
    (void)state;
    /* 3 MB: more than the decoder's 256 KiB output buffer, so output is handed out in parts */
    size_t n = (size_t)3 << 20, gzn;
    unsigned char *src = sample(n), *gz = gzip_of(src, n, &gzn);
    size_t pieces[] = { 1, 7, 4096, 65536, gzn };
    HttpInflate *z = http_inflate_new();
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        if (pieces[i] == 1 && gzn > 200000) {
            /* byte by byte over the first 200,000 bytes only (time), the rest at once */
            Sink s = { STRBUF_INIT, 0, 0 };
            http_inflate_reset(z);
            assert_int_equal(feed_in_pieces(z, gz, 200000, 1, &s), 0);
            assert_int_equal(http_inflate_feed(z, (const char *)gz + 200000, gzn - 200000, collect, &s), 0);
            assert_true(http_inflate_finished(z));
            assert_int_equal(s.got.len, n);
            assert_memory_equal(s.got.buf, src, n);
            strbuf_clear(&s.got);
            continue;
        }
        Sink s = { STRBUF_INIT, 0, 0 };
        http_inflate_reset(z);
        assert_int_equal(feed_in_pieces(z, gz, gzn, pieces[i], &s), 0);
        assert_true(http_inflate_finished(z));
        assert_null(http_inflate_error(z));
        assert_int_equal(s.got.len, n);
        assert_memory_equal(s.got.buf, src, n);
        strbuf_clear(&s.got);
    }
    http_inflate_free(z);
    free(src);
    free(gz);
}

static void test_empty_body_and_trailing_bytes(void **state)
{
    (void)state;
    size_t gzn;
    unsigned char *gz = gzip_of((const unsigned char *)"", 0, &gzn);
    HttpInflate *z = http_inflate_new();
    Sink s = { STRBUF_INIT, 0, 0 };
    assert_int_equal(http_inflate_feed(z, (const char *)gz, gzn, collect, &s), 0);
    assert_true(http_inflate_finished(z));
    assert_int_equal(s.got.len, 0);
    /* bytes after the member's end are ignored (as libcurl's decoder ignores them) */
    assert_int_equal(http_inflate_feed(z, "garbage", 7, collect, &s), 0);
    assert_int_equal(s.got.len, 0);
    http_inflate_free(z);
    free(gz);
}

static void test_cut_short_is_not_finished(void **state)
{
    (void)state;
    size_t n = 100000, gzn;
    unsigned char *src = sample(n), *gz = gzip_of(src, n, &gzn);
    HttpInflate *z = http_inflate_new();
    Sink s = { STRBUF_INIT, 0, 0 };
    /* all but the 8-byte trailer (CRC-32 and size): the data is there, the check is not */
    assert_int_equal(http_inflate_feed(z, (const char *)gz, gzn - 8, collect, &s), 0);
    assert_false(http_inflate_finished(z));
    strbuf_clear(&s.got);
    http_inflate_free(z);
    free(src);
    free(gz);
}

static void test_damaged_and_foreign_data_fail(void **state)
{
    (void)state;
    size_t n = 100000, gzn;
    unsigned char *src = sample(n), *gz = gzip_of(src, n, &gzn);
    HttpInflate *z = http_inflate_new();

    /* a wrong CRC-32 in the trailer (bytes gzn-8..gzn-5): every byte decodes, the check fails */
    gz[gzn - 8] ^= 0x5a;
    Sink s = { STRBUF_INIT, 0, 0 };
    assert_int_equal(http_inflate_feed(z, (const char *)gz, gzn, collect, &s), -1);
    assert_false(http_inflate_finished(z));
    assert_non_null(http_inflate_error(z));
    /* once failed, it stays failed until reset */
    assert_int_equal(http_inflate_feed(z, "x", 1, collect, &s), -1);
    gz[gzn - 8] ^= 0x5a;
    strbuf_clear(&s.got);

    /* plain JSON where gzip was announced: no gzip magic (1f 8b) */
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed(z, "{\"kind\":\"PodList\"}", 18, collect, &s), -1);
    assert_non_null(http_inflate_error(z));
    strbuf_clear(&s.got);

    /* after a reset the same decoder reads a good member again */
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed(z, (const char *)gz, gzn, collect, &s), 0);
    assert_true(http_inflate_finished(z));
    assert_int_equal(s.got.len, n);
    assert_memory_equal(s.got.buf, src, n);
    strbuf_clear(&s.got);
    http_inflate_free(z);
    free(src);
    free(gz);
}

static void test_consumer_stops_it(void **state)
{
    (void)state;
    size_t n = (size_t)2 << 20, gzn;
    unsigned char *src = sample(n), *gz = gzip_of(src, n, &gzn);
    HttpInflate *z = http_inflate_new();
    Sink s = { STRBUF_INIT, 1, 0 };          /* stop at the first piece handed out */
    assert_int_equal(http_inflate_feed(z, (const char *)gz, gzn, collect, &s), 1);
    assert_int_equal(s.calls, 1);
    assert_true(s.got.len < n);
    assert_memory_equal(s.got.buf, src, s.got.len);
    strbuf_clear(&s.got);
    http_inflate_free(z);
    free(src);
    free(gz);
}

/* decoded straight into a buffer that already holds bytes (a page buffer reused): the same
 * bytes after them at every piece size, NUL-terminated; with room, 1 once more than room bytes
 * were added in one call (what was decoded stays), 0 while they fit; damaged data -1 */
static void test_into_buffer(void **state)
{
    (void)state;
    size_t n = (size_t)3 << 20, gzn;
    unsigned char *src = sample(n), *gz = gzip_of(src, n, &gzn);
    size_t pieces[] = { 7, 4096, 65536, gzn };
    HttpInflate *z = http_inflate_new();
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        Strbuf b = STRBUF_INIT;
        strbuf_adds(&b, "head");
        http_inflate_reset(z);
        for (size_t off = 0; off < gzn; off += pieces[i]) {
            size_t k = gzn - off < pieces[i] ? gzn - off : pieces[i];
            assert_int_equal(http_inflate_feed_into(z, (const char *)gz + off, k, &b, SIZE_MAX), 0);
        }
        assert_true(http_inflate_finished(z));
        assert_int_equal(b.len, 4 + n);
        assert_memory_equal(b.buf, "head", 4);
        assert_memory_equal(b.buf + 4, src, n);
        assert_int_equal(b.buf[b.len], '\0');
        strbuf_clear(&b);
    }
    /* room: n bytes fit in room n, not in room n - 1 */
    Strbuf b = STRBUF_INIT;
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed_into(z, (const char *)gz, gzn, &b, n), 0);
    assert_int_equal(b.len, n);
    strbuf_reset(&b);
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed_into(z, (const char *)gz, gzn, &b, n - 1), 1);
    assert_true(b.len > n - 1 && b.len <= n);
    assert_memory_equal(b.buf, src, b.len);
    strbuf_reset(&b);
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed_into(z, (const char *)gz, gzn, &b, 1000), 1);
    assert_memory_equal(b.buf, src, b.len);
    /* damaged: a byte of the deflate data flipped */
    gz[gzn / 2] ^= 0x55;
    strbuf_reset(&b);
    http_inflate_reset(z);
    assert_int_equal(http_inflate_feed_into(z, (const char *)gz, gzn, &b, SIZE_MAX), -1);
    assert_non_null(http_inflate_error(z));
    strbuf_clear(&b);
    http_inflate_free(z);
    free(src);
    free(gz);
}

static void test_backend_named(void **state)
{
    (void)state;
    const char *b = http_inflate_backend();
#ifdef KGPU_HAVE_ISAL
    assert_string_equal(b, "isa-l");
#else
    assert_string_equal(b, "zlib");
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_any_piece_size),
        cmocka_unit_test(test_empty_body_and_trailing_bytes),
        cmocka_unit_test(test_cut_short_is_not_finished),
        cmocka_unit_test(test_damaged_and_foreign_data_fail),
        cmocka_unit_test(test_consumer_stops_it),
        cmocka_unit_test(test_into_buffer),
        cmocka_unit_test(test_backend_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
