/* cmd_plan.c — placeholder until the subcommand lands. */
#include "commands.h"
#include "error.h"
#include <stdio.h>

static const Option plan_opts[] = { OPT_END_MARK };

static int run_plan(int argc, char **argv, GlobalOptions *g)
{
    (void)argc; (void)argv; (void)g;
    fprintf(stderr, "error: kubectl gpu plan is not available yet\n");
    return EXIT_FAIL;
}

const Command command_plan = {
    .name = "plan",
    .summary = "plan",
    .usage = "kubectl gpu plan [flags]",
    .options = plan_opts,
    .min_args = 0, .max_args = -1,
    .run = run_plan,
};
