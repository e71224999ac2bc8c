/* outfile.h — an output file that appears whole or not at all, and never replaces what is not
 * a regular file.
 *
 * The bytes are first written to a staging file (outfile_fd, seekable); outfile_commit then
 * makes them the output:
 *   - a new path, or an existing regular file: the staging file is a temporary next to it
 *     (mode 0600) renamed over it, so a reader sees the old file or the new one, never half;
 *   - a symlink to a regular file: the same, next to the file the link points to (the link
 *     stays a link: replacing it would silently cut it from the file it named);
 *   - a FIFO or a character device (/dev/null, a terminal), or a symlink to one: written into,
 *     never replaced; the staging file is an anonymous temporary copied in at commit, so a
 *     FIFO's reader gets everything or, when the writer fails before commit, nothing;
 *   - "-" or NULL: stdout, the same way;
 *   - a directory, a block device, a socket, a dangling symlink: refused with one error line
 *     naming the path.
 * Ownership: outfile_open fills an Outfile the caller holds; outfile_release frees what it
 * holds and removes a temporary not committed.
 */
#ifndef KGPU_UTIL_OUTFILE_H
#define KGPU_UTIL_OUTFILE_H
#include <stdbool.h>

struct Error;

typedef enum { OUTFILE_STDOUT, OUTFILE_REPLACE, OUTFILE_INTO } OutfileKind;

typedef struct {
    OutfileKind kind;
    char *shown;                 /* the path as given, for messages */
    char *target;                /* OUTFILE_REPLACE: the file renamed over; OUTFILE_INTO: the path opened */
    char *tmp_path;              /* OUTFILE_REPLACE: the temporary, until committed */
    int fd;                      /* the staging file */
} Outfile;

/* true when path names stdout ("-" or NULL) */
bool outfile_is_stdout(const char *path);
/* 0, or -1 with err naming the path */
int outfile_open(Outfile *o, const char *path, struct Error *err);
/* the staging file to write (seekable; may be truncated and rewritten before commit) */
int outfile_fd(const Outfile *o);
/* makes what was written the output: 0, or -1 with err naming the path */
int outfile_commit(Outfile *o, struct Error *err);
void outfile_release(Outfile *o);
#endif
