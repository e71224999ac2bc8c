/* Unit tests: util/outfile.c — an output file appears whole or not at all and never replaces
 * what is not a regular file (issue 28, item 2), and the header-value rule of
 * sources/http.c (item 3).  The command-level checks are in
 * tests/integration/test_harden_output.sh and test_harden_headers.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/error.h"
#include "util/outfile.h"
#include "../../src/sources/internal.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/kgpu-outfile-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
    static char p[2][512];
    static int k;
    k ^= 1;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void write_all(Outfile *o, const char *s)
{
    assert_int_equal(write(outfile_fd(o), s, strlen(s)), (ssize_t)strlen(s));
}

static char *slurp(const char *path)
{
    static char buf[4096];
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    assert_true(n >= 0);
    buf[n] = '\0';
    return buf;
}

/* a regular file: replaced by a new inode of mode 0600 at commit, untouched before it */
static void test_regular_file(void **state)
{
    (void)state;
    const char *p = path_of("snap.json");
    FILE *f = fopen(p, "w"); fputs("old", f); fclose(f);
    chmod(p, 0644);
    struct stat before, after;
    stat(p, &before);
    Outfile o;
    Error err = { 0 };
    assert_int_equal(outfile_open(&o, p, &err), 0);
    assert_int_equal(o.kind, OUTFILE_REPLACE);
    write_all(&o, "new");
    assert_string_equal(slurp(p), "old");            /* nothing shows before the commit */
    assert_int_equal(outfile_commit(&o, &err), 0);
    outfile_release(&o);
    assert_string_equal(slurp(p), "new");
    stat(p, &after);
    assert_int_equal(after.st_mode & 0777, 0600);
    assert_true(after.st_ino != before.st_ino);      /* renamed over, not rewritten */
}

/* not committed: the old file stays, no temporary is left */
static void test_released_without_commit(void **state)
{
    (void)state;
    const char *p = path_of("keep.json");
    FILE *f = fopen(p, "w"); fputs("old", f); fclose(f);
    Outfile o;
    Error err = { 0 };
    assert_int_equal(outfile_open(&o, p, &err), 0);
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", o.tmp_path);
    write_all(&o, "half");
    outfile_release(&o);
    assert_string_equal(slurp(p), "old");
    assert_int_not_equal(access(tmp, F_OK), 0);
}

static void *fifo_reader(void *arg)
{
    static char got[4096];
    int fd = open((const char *)arg, O_RDONLY);
    ssize_t n = 0, r;
    while (fd >= 0 && (r = read(fd, got + n, sizeof got - 1 - (size_t)n)) > 0) n += r;
    if (fd >= 0) close(fd);
    got[n > 0 ? n : 0] = '\0';
    return got;
}

/* a FIFO and a symlink to one: written into at commit, still a FIFO and a link after */
static void test_fifo_and_link(void **state)
{
    (void)state;
    const char *fifo = path_of("fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    char link[512];
    snprintf(link, sizeof link, "%s", path_of("link"));
    assert_int_equal(symlink(fifo, link), 0);
    const char *targets[] = { fifo, link };
    for (int i = 0; i < 2; i++) {
        pthread_t t;
        pthread_create(&t, NULL, fifo_reader, (void *)fifo);
        Outfile o;
        Error err = { 0 };
        assert_int_equal(outfile_open(&o, targets[i], &err), 0);
        assert_int_equal(o.kind, OUTFILE_INTO);
        write_all(&o, "through the fifo");
        assert_int_equal(outfile_commit(&o, &err), 0);
        outfile_release(&o);
        void *got;
        pthread_join(t, &got);
        assert_string_equal((char *)got, "through the fifo");
        struct stat st;
        assert_int_equal(lstat(fifo, &st), 0);
        assert_true(S_ISFIFO(st.st_mode));
        assert_int_equal(lstat(link, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
    }
}

/* a symlink to a regular file: the link stays, the file it names gets the bytes */
static void test_link_to_file(void **state)
{
    (void)state;
    char file[512], link[512];
    snprintf(file, sizeof file, "%s", path_of("real.json"));
    snprintf(link, sizeof link, "%s", path_of("alias.json"));
    FILE *f = fopen(file, "w"); fputs("old", f); fclose(f);
    assert_int_equal(symlink("real.json", link), 0);
    Outfile o;
    Error err = { 0 };
    assert_int_equal(outfile_open(&o, link, &err), 0);
    write_all(&o, "new");
    assert_int_equal(outfile_commit(&o, &err), 0);
    outfile_release(&o);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_string_equal(slurp(file), "new");
}

/* "-" is stdout; a directory and a dangling link are one error naming the path */
static void test_stdout_and_refusals(void **state)
{
    (void)state;
    assert_true(outfile_is_stdout("-") && outfile_is_stdout(NULL) && !outfile_is_stdout("-x"));
    Outfile o;
    Error err = { 0 };
    assert_int_equal(outfile_open(&o, "-", &err), 0);
    assert_int_equal(o.kind, OUTFILE_STDOUT);
    outfile_release(&o);
    assert_int_equal(outfile_open(&o, dir, &err), -1);
    assert_non_null(strstr(err.msg, dir));
    assert_non_null(strstr(err.msg, "it is a directory"));
    outfile_release(&o);
    char link[512];
    snprintf(link, sizeof link, "%s", path_of("dangling"));
    assert_int_equal(symlink("nowhere/x", link), 0);
    error_clear(&err);
    assert_int_equal(outfile_open(&o, link, &err), -1);
    assert_non_null(strstr(err.msg, link));
    outfile_release(&o);
}

/* RFC 9110 §5.5 field-value: visible characters, SP, HTAB, obs-text; not CR, LF, NUL, CTLs */
static void test_header_values(void **state)
{
    (void)state;
    assert_null(http_header_value_problem("Bearer abc.DEF-123_~+/=", 23));
    assert_null(http_header_value_problem("tab\there and \xc3\xa9", 15));
    assert_string_equal(http_header_value_problem("a\r\nX: y", 7), "contains a line break (CR/LF)");
    assert_string_equal(http_header_value_problem("a\n", 2), "contains a line break (CR/LF)");
    assert_string_equal(http_header_value_problem("a\rb", 3), "contains a line break (CR/LF)");
    assert_string_equal(http_header_value_problem("a\0b", 3), "contains a NUL byte");
    assert_string_equal(http_header_value_problem("a\x01", 2), "contains a control character");
    assert_string_equal(http_header_value_problem("a\x7f", 2), "contains a control character");
    /* a line break wins over another control character met first: the clearer message */
    assert_string_equal(http_header_value_problem("\x01\n", 2), "contains a line break (CR/LF)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_file), cmocka_unit_test(test_released_without_commit),
        cmocka_unit_test(test_fifo_and_link), cmocka_unit_test(test_link_to_file),
        cmocka_unit_test(test_stdout_and_refusals), cmocka_unit_test(test_header_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
