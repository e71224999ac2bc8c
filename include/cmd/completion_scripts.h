/* completion_scripts.h — the completion script of each shell, as completions/ holds it. */
#ifndef KGPU_CMD_COMPLETION_SCRIPTS_H
#define KGPU_CMD_COMPLETION_SCRIPTS_H
/* the script for "bash", "zsh" or "fish"; NULL for another shell */
const char *completion_script(const char *shell);
#endif
