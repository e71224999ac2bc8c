/* cmd_status.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option status_opts[] = { OPT_END_MARK };

static int run_status(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu status is not available yet\n");
    return EXIT_FAIL;
}

const Command command_status = {
    .name = "status",
    .summary = "status",
    .usage = "kubectl gpu status [flags]",
    .options = status_opts,
    .min_args = 0, .max_args = -1,
    .run = run_status,
};
