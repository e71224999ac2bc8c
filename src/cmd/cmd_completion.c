/* cmd_completion.c — `kubectl gpu completion bash|zsh|fish` prints a shell completion script;
 * the hidden `kubectl-gpu __complete -- WORDS...` (cmd_complete.c) answers the scripts (and
 * kubectl, through completions/kubectl_complete-gpu) with candidates computed from the option
 * tables.  The scripts are the files of completions/, embedded in completion_scripts.c.
 */
#include "cmd/commands.h"
#include "cmd/completion_scripts.h"
#include "util/error.h"
#include <stdio.h>
#include <string.h>

static const Option completion_opts[] = { OPT_END_MARK };

static int run_completion(int argc, char **argv, GlobalOptions *g, Error *out_err)
{
    (void)argc; (void)g;
    const char *script = completion_script(argv[0]);
    if (script) {
        fputs(script, stdout);
        return EXIT_OK;
    }
    error_set(out_err, "unknown shell \"%s\" (use bash, zsh or fish)", argv[0]);
    return EXIT_USAGE;
}

const Command cmd_completion = {
    .name = "completion",
    .summary = "Print a shell completion script (bash, zsh, fish)",
    .usage = "kubectl gpu completion bash|zsh|fish",
    .description =
        "Prints a script that completes kubectl-gpu's commands, flags, output formats and\n"
        "names (contexts from the kubeconfig; nodes, pods and namespaces from the cluster or\n"
        "--snapshot).  `kubectl gpu <TAB>` is completed by kubectl itself (1.26 and later)\n"
        "through the kubectl_complete-gpu executable installed next to kubectl-gpu.",
    .examples =
        "  source <(kubectl gpu completion bash)\n"
        "  kubectl gpu completion zsh > \"${fpath[1]}/_kubectl-gpu\"\n"
        "  kubectl gpu completion fish > ~/.config/fish/completions/kubectl-gpu.fish\n",
    .options = completion_opts,
    .min_args = 1, .max_args = 1,
    .run = run_completion,
};
