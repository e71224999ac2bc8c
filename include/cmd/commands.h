/* commands.h — one Command per subcommand, each defined in src/cmd/cmd_<name>.c. */
#ifndef KGPU_COMMANDS_H
#define KGPU_COMMANDS_H
#include "cli/options.h"
extern const Command command_status, command_pending, command_explain, command_plan,
                     command_top, command_snapshot, command_version, command_completion,
                     command___complete;
int kgpu_main(int argc, char **argv);
#endif
