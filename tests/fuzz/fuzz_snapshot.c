/* libFuzzer target: snapshot files (src/sources/snapshot.c: the streaming List scanner over zlib + item ingest).
 *   clang -fsanitize=fuzzer,address -Iinclude tests/fuzz/fuzz_snapshot.c build/asan/libkgpu.a ...
 * Seeds: the JSON files of tests/fixtures/api (plain; the file may also be gzip).  Any input: no crash, no leak, no hang; an error or a
 * cluster, never both. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/cluster.h"
#include "util/error.h"
#include "sources/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/kgpu-fuzz-snapshot-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) { close(fd); unlink(path); return 0; }
    close(fd);
    LoadRequest rq = { true, true, true, true, true, true, true, size % 3 ? NULL : "pool=a", size % 2 ? NULL : "ml", true,
                       false, NULL, true };
    Cluster c;
    cluster_init(&c);
    Error err = { 0 };
    int rc = snapshot_read(&c, path, &rq, &err);
    if (rc != 0 && !err.set) abort();
    if (rc == 0) cluster_finalize(&c);
    cluster_release(&c);
    unlink(path);
    return 0;
}
