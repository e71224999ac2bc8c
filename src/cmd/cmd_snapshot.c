/* cmd_snapshot.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option snapshot_opts[] = { OPT_END_MARK };

static int run_snapshot(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu snapshot is not available yet\n");
    return EXIT_FAIL;
}

const Command command_snapshot = {
    .name = "snapshot",
    .summary = "snapshot",
    .usage = "kubectl gpu snapshot [flags]",
    .options = snapshot_opts,
    .min_args = 0, .max_args = -1,
    .run = run_snapshot,
};
