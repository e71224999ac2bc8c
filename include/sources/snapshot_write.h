/* snapshot_write.h — `kubectl gpu snapshot`'s dump: every list the commands read and the usage
 * they read from the metrics, as one JSON List that --snapshot reads back (snapshot_format.h).
 *
 * Ownership: a SnapshotWritten is filled by snapshot_write (also when it fails: the warnings
 * met) and released by snapshot_written_release; the struct itself is the caller's.
 */
#ifndef KGPU_SOURCES_SNAPSHOT_WRITE_H
#define KGPU_SOURCES_SNAPSHOT_WRITE_H
#include <stddef.h>
#include "sources/loader.h"
#include "sources/source_config.h"
#include "util/util.h"

struct Error;

typedef struct {
    size_t objects;                      /* items written, less one per GPU device of the usage */
    size_t usage_devices, usage_workloads;   /* usage records: GPU devices, workloads */
    char *no_usage;                      /* why no usage was stored, NULL when some was */
    Strvec warnings;                     /* what the lists warned of (also in the List's annotations) */
} SnapshotWritten;

/* Reads what rq asks for from sc's API server (and the metrics it finds) and writes the List
 * to path (gzip unless it ends in ".json"), or to stdout when path is NULL; nothing is
 * written unless every list was read.  0, or -1 with err set. */
int snapshot_write(const SourceConfig *sc, const LoadRequest *rq, const char *path, SnapshotWritten *out,
                   struct Error *err);
void snapshot_written_release(SnapshotWritten *sw);
#endif
