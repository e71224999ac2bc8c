/* cmd_explain.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option explain_opts[] = { OPT_END_MARK };

static int run_explain(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu explain is not available yet\n");
    return EXIT_FAIL;
}

const Command command_explain = {
    .name = "explain",
    .summary = "explain",
    .usage = "kubectl gpu explain [flags]",
    .options = explain_opts,
    .min_args = 0, .max_args = -1,
    .run = run_explain,
};
