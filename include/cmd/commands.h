/* commands.h — one Command per subcommand, each defined in src/cmd/cmd_<name>.c, and the
 * program's table of them (app_program, src/cmd/app.c), which the option library
 * (cli/options.h) is handed for parsing, --help and "did you mean". */
#ifndef KGPU_COMMANDS_H
#define KGPU_COMMANDS_H
#include "cmd/global_options.h"
extern const Command cmd_status, cmd_pending, cmd_explain, cmd_fit, cmd_plan,
                     cmd_top, cmd_snapshot, cmd_version, cmd_completion,
                     cmd_complete;
extern const CliProgram app_program;   /* global_options and every command above */
int app_main(int argc, char **argv);
#endif
