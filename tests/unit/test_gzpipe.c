/* test_gzpipe.c — the snapshot's threaded gzip output (sources/gzpipe.h): what goes in comes out,
 * byte for byte, compressed or plain, across buffer boundaries and with more buffers than
 * may wait at once; reopening the same fd starts the file over. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "sources/gzpipe.h"

/* the file's content read back (gzread reads plain files as they are) */
static char *read_back(const char *path, size_t *n)
{
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int k;
    while ((k = gzread(gz, buf + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)k;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    assert_int_equal(k, 0);
    gzclose(gz);
    *n = len;
    return buf;
}

static void roundtrip(bool compress)
{
    char path[] = "/tmp/test_gzpipe.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* a first attempt that is abandoned: the second starts from an empty file */
    GzPipe *p = gzpipe_open(fd, compress);
    assert_non_null(p);
    gzpipe_write(p, "stale", 5);
    assert_int_equal(gzpipe_close(p), 0);
    p = gzpipe_open(fd, compress);
    assert_non_null(p);
    /* 9 MiB in writes of varied sizes: more than GZPIPE_INFLIGHT buffers of 1 MiB */
    size_t total = 9u << 20, off = 0, step = 1;
    char *want = malloc(total);
    for (size_t i = 0; i < total; i++) want[i] = (char)('a' + (i * 7 + i / 4096) % 26);
    while (off < total) {
        size_t k = step < total - off ? step : total - off;
        gzpipe_write(p, want + off, k);
        off += k;
        step = step * 3 % 300007 + 1;
    }
    assert_int_equal(gzpipe_close(p), 0);
    size_t n;
    char *got = read_back(path, &n);
    assert_int_equal(n, total);
    assert_memory_equal(got, want, total);
    FILE *f = fopen(path, "rb");
    unsigned char magic[2] = { 0, 0 };
    assert_int_equal(fread(magic, 1, 2, f), 2);
    fclose(f);
    assert_int_equal(magic[0] == 0x1f && magic[1] == 0x8b, compress);
    free(got);
    free(want);
    close(fd);
    unlink(path);
}

static void test_gzip(void **state) { (void)state; roundtrip(true); }
static void test_plain(void **state) { (void)state; roundtrip(false); }

static void test_bad_fd(void **state)
{
    (void)state;
    assert_null(gzpipe_open(-1, true));
    assert_int_equal(gzpipe_close(NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gzip), cmocka_unit_test(test_plain), cmocka_unit_test(test_bad_fd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
