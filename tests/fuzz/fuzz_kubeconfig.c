/* libFuzzer target: kubeconfig files (src/sources/kubeconfig.c: YAML -> tree, merge, select).
 *   clang -fsanitize=fuzzer,address -Iinclude tests/fuzz/fuzz_kubeconfig.c build/asan/libkgpu.a ...
 * Seeds: the YAML files of tests/fixtures/kubeconfig.  Any input: no crash, no leak; an error is one line. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/error.h"
#include "sources/kubeconfig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/kgpu-fuzz-kubeconfig-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) { close(fd); unlink(path); return 0; }
    close(fd);
    KubeconfigOverrides ov = { path, size % 2 ? "ctx" : NULL, NULL, NULL, NULL };
    RestConfig rc;
    Error err = { 0 };
    if (kubeconfig_load(&rc, &ov, &err) == 0) restconfig_clear(&rc);
    else if (!err.set || strchr(err.msg, '\n')) abort();
    unlink(path);
    return 0;
}
