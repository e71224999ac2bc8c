/* gzpipe.h — a gzip (or plain) output stream compressed on its own thread, for `snapshot`:
 * the writer fills 1 MiB buffers and hands them over, so compressing one page of objects runs
 * beside reading and reducing the next instead of after it (on two cores the snapshot then
 * takes about the time of the reading).  At most GZPIPE_INFLIGHT buffers wait; the writer
 * blocks past that, so memory stays a few MiB whatever the cluster's size.
 */
#ifndef KGPU_SOURCES_GZPIPE_H
#define KGPU_SOURCES_GZPIPE_H
#include <stdbool.h>
#include <stddef.h>

#define GZPIPE_INFLIGHT 4

typedef struct GzPipe GzPipe;
/* writes to a duplicate of fd (truncated, from its start): gzip level 1 when compress, else
 * plain; NULL when it cannot start */
GzPipe *gzpipe_open(int fd, bool compress);
void gzpipe_write(GzPipe *p, const char *data, size_t n);
/* flushes, waits for the thread, closes; 0, or -1 when anything failed to be written */
int gzpipe_close(GzPipe *p);
#endif
