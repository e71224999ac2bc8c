/* cmd_completion.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option completion_opts[] = { OPT_END_MARK };

static int run_completion(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu completion is not available yet\n");
    return EXIT_FAIL;
}

const Command command_completion = {
    .name = "completion",
    .summary = "completion",
    .usage = "kubectl gpu completion [flags]",
    .options = completion_opts,
    .min_args = 0, .max_args = -1,
    .run = run_completion,
};
