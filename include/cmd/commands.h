/* commands.h — one Command per subcommand, each defined in src/cmd/cmd_<name>.c, and the
 * program's table of them (kgpu_program, src/cmd/app.c), which the option library
 * (cli/options.h) is handed for parsing, --help and "did you mean". */
#ifndef KGPU_COMMANDS_H
#define KGPU_COMMANDS_H
#include "cmd/global_options.h"
extern const Command command_status, command_pending, command_explain, command_plan,
                     command_top, command_snapshot, command_version, command_completion,
                     command___complete;
extern const CliProgram kgpu_program;   /* global_options and every command above */
int kgpu_main(int argc, char **argv);
#endif
