/* cmd_top.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option top_opts[] = { OPT_END_MARK };

static int run_top(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu top is not available yet\n");
    return EXIT_FAIL;
}

const Command command_top = {
    .name = "top",
    .summary = "top",
    .usage = "kubectl gpu top [flags]",
    .options = top_opts,
    .min_args = 0, .max_args = -1,
    .run = run_top,
};
