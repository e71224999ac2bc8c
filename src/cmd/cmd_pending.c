/* cmd_pending.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option pending_opts[] = { OPT_END_MARK };

static int run_pending(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu pending is not available yet\n");
    return EXIT_FAIL;
}

const Command command_pending = {
    .name = "pending",
    .summary = "pending",
    .usage = "kubectl gpu pending [flags]",
    .options = pending_opts,
    .min_args = 0, .max_args = -1,
    .run = run_pending,
};
