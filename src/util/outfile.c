/* outfile.c — output files that appear whole and never replace a device (outfile.h). */
#include "util/outfile.h"
#include "util/error.h"
#include "util/util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool outfile_is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

static int anon_tmp(Outfile *o, Error *err)
{
    FILE *f = tmpfile();
    int fd = f ? dup(fileno(f)) : -1;
    if (f) fclose(f);
    if (fd < 0) {
        error_set(err, "cannot create a temporary file for %s: %s", o->shown, strerror(errno));
        return -1;
    }
    o->fd = fd;
    return 0;
}

static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file, FIFO or character device";
}

int outfile_open(Outfile *o, const char *path, Error *err)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->shown = xstrdup(path ? path : "-");
    if (outfile_is_stdout(path)) {
        o->kind = OUTFILE_STDOUT;
        return anon_tmp(o, err);
    }
    struct stat lst, st;
    if (lstat(path, &lst) != 0) {
        if (errno != ENOENT) { error_set(err, "cannot write %s: %s", path, strerror(errno)); return -1; }
        o->kind = OUTFILE_REPLACE;                 /* a new file */
        o->target = xstrdup(path);
    } else if (stat(path, &st) != 0) {
        error_set(err, "cannot write %s: it is a symbolic link to %s", path,
                  errno == ENOENT ? "a file that does not exist" : strerror(errno));
        return -1;
    } else if (S_ISREG(st.st_mode)) {
        o->kind = OUTFILE_REPLACE;
        if (S_ISLNK(lst.st_mode)) {
            /* the file the link names is replaced (next to it), the link is kept */
            char *real = realpath(path, NULL);
            if (!real) { error_set(err, "cannot write %s: %s", path, strerror(errno)); return -1; }
            o->target = real;
        } else {
            o->target = xstrdup(path);
        }
    } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        o->kind = OUTFILE_INTO;
        o->target = xstrdup(path);
        return anon_tmp(o, err);
    } else {
        error_set(err, "cannot write %s: it is %s", path, kind_name(st.st_mode));
        return -1;
    }
    o->tmp_path = xasprintf("%s.tmp.XXXXXX", o->target);
    o->fd = mkstemp(o->tmp_path);                  /* mode 0600 */
    if (o->fd < 0) {
        error_set(err, "cannot write %s: %s", path, strerror(errno));
        free(o->tmp_path);
        o->tmp_path = NULL;
        return -1;
    }
    return 0;
}

int outfile_fd(const Outfile *o)
{
    return o->fd;
}

/* copies the staging file to dst from its start */
static int copy_into(int src, int dst)
{
    if (lseek(src, 0, SEEK_SET) != 0) return -1;
    char buf[65536];
    for (;;) {
        ssize_t n = read(src, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        if (n == 0) return 0;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(dst, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) return -1;
            off += w;
        }
    }
}

int outfile_commit(Outfile *o, Error *err)
{
    if (o->fd < 0) { error_set(err, "cannot write %s: not open", o->shown); return -1; }
    switch (o->kind) {
    case OUTFILE_REPLACE: {
        int fd = o->fd;
        o->fd = -1;
        if (fsync(fd) != 0) {
            int e = errno;
            close(fd);
            error_set(err, "writing %s failed: %s", o->shown, strerror(e));
            return -1;
        }
        if (close(fd) != 0) { error_set(err, "writing %s failed: %s", o->shown, strerror(errno)); return -1; }
        if (rename(o->tmp_path, o->target) != 0) {
            error_set(err, "cannot write %s: %s", o->shown, strerror(errno));
            return -1;
        }
        free(o->tmp_path);
        o->tmp_path = NULL;
        return 0;
    }
    case OUTFILE_INTO: {
        /* as a shell's ">": a FIFO's open waits for its reader */
        int dst = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (dst < 0) { error_set(err, "cannot write %s: %s", o->shown, strerror(errno)); return -1; }
        int rc = copy_into(o->fd, dst);
        int e = errno;
        if (close(dst) != 0 && rc == 0) { rc = -1; e = errno; }
        if (rc) { error_set(err, "writing %s failed: %s", o->shown, strerror(e)); return -1; }
        return 0;
    }
    case OUTFILE_STDOUT:
        fflush(stdout);
        if (copy_into(o->fd, STDOUT_FILENO) != 0) {
            error_set(err, "writing to stdout failed: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    return -1;
}

void outfile_release(Outfile *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    if (o->tmp_path) unlink(o->tmp_path);
    free(o->tmp_path);
    free(o->target);
    free(o->shown);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}
