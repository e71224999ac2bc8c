/* complete.h — the hidden `__complete` command (src/cmd/cmd_complete.c): shell completion
 * computed from the command and option tables (one source of truth: the tables that drive
 * parsing and --help also drive completion).
 *
 * Protocol (cobra's, which kubectl also speaks for kubectl_complete-<plugin>):
 *   kubectl-gpu __complete -- WORD... CUR
 * WORDs are the words typed after "kubectl-gpu" (or after "kubectl gpu"), CUR the word being
 * completed ("" after a space).  The leading "--" keeps the words away from the global flag
 * parser; cmd_complete_words() ignores one leading "--".  Output on stdout: one candidate per
 * line, optionally followed by a TAB and a description, then a last line ":<directive>" with
 * cobra's ShellCompDirective bits (1 error, 2 no space, 4 no file completion).  Directive 0
 * with no candidates means "complete file names" (flags whose completion hint is "file").
 *
 * Values come from, in order: the option's choices; its completion hint ("context",
 * "cluster", "user" from the kubeconfig files; "node", "pod", "namespace" from --snapshot or
 * the API server, one page of a list, 3 s at most); for positional arguments, the command's
 * usage line ("explain POD" → pods, "status [NODE...]" → nodes, "completion bash|zsh|fish" →
 * those words).  Every failure is silent: no candidates, never a message.
 */
#ifndef KGPU_COMPLETE_H
#define KGPU_COMPLETE_H
#include <stdio.h>
#include "cli/options.h"

/* Shell completion directives (cobra's ShellCompDirective bits). */
enum {
    COMP_DIRECTIVE_DEFAULT = 0, COMP_DIRECTIVE_ERROR = 1, COMP_DIRECTIVE_NOSPACE = 2,
    COMP_DIRECTIVE_NOFILE = 4
};

/* Computes the candidates for words[nwords-1] (the word under the cursor; "" when nwords is
 * 0) from prog's flags and commands and prints them with the directive line to out.  Always
 * returns 0. */
int cmd_complete_words(const CliProgram *prog, int nwords, char **words, FILE *out);
#endif
