/* libFuzzer target: whole commands on a snapshot file (app_main: snapshot_read, analyses,
 * table/JSON/YAML renderers): status (table, wide, json, yaml), pending -A (table, json),
 * explain of one pod, plan.  Run with -close_fd_mask=3 (tests/fuzz/run.sh does): the
 * commands' output is discarded, sanitizer reports still reach the log.
 * Any file: exit 0 or 1 (never 2: the arguments are fixed and valid), no crash, no leak. */
#include <stdio.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/kgpu-fuzz-commands-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) { close(fd); unlink(path); return 0; }
    close(fd);
    static const char *const cmds[][8] = {
        { "status", "-o", "json", NULL },
        { "status", "-o", "wide", NULL },
        { "status", "-o", "yaml", "-l", "nvidia.com/gpu.present=true", NULL },
        { "pending", "-A", "-o", "table", NULL },
        { "pending", "-A", "-o", "json", NULL },
        { "explain", "-n", "ml", "train-0", "-o", "json", NULL },
        { "explain", "-n", "default", "trainer", "-o", "text", NULL },
        { "plan", "-o", "json", NULL },
    };
    static int skip_plan = -1;    /* KGPU_FUZZ_SKIP_PLAN=1: leave plan out (while it is being reworked) */
    if (skip_plan < 0) skip_plan = getenv("KGPU_FUZZ_SKIP_PLAN") != NULL;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (skip_plan && strcmp(cmds[i][0], "plan") == 0) continue;
        char *argv[16];
        int argc = 0;
        argv[argc++] = "kubectl-gpu";
        for (size_t k = 0; cmds[i][k]; k++) argv[argc++] = (char *)cmds[i][k];
        argv[argc++] = "--snapshot";
        argv[argc++] = path;
        argv[argc++] = "--no-color";
        argv[argc] = NULL;
        int rc = app_main(argc, argv);
        if (rc != 0 && rc != 1) {
            fprintf(stderr, "FUZZ: %s: exit %d\n", cmds[i][0], rc);
            abort();
        }
    }
    unlink(path);
    return 0;
}
