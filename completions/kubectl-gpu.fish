# fish completion for kubectl-gpu
#
# Written by `kubectl gpu completion fish`.  Load it into the current shell with
#     kubectl gpu completion fish | source
# or install it as ~/.config/fish/completions/kubectl-gpu.fish.  It completes the command
# `kubectl-gpu`; `kubectl gpu <TAB>` goes through kubectl's own completion, which runs
# kubectl_complete-gpu (kubectl 1.26 and later).  Both ask `kubectl-gpu __complete -- WORDS`,
# which prints one candidate per line (a TAB may start a description), then ":<directive>".

function __kubectl_gpu_prepare
    set -g __kubectl_gpu_results
    set -l args (commandline -opc)
    set -l prog $args[1]
    set -e args[1]
    command -q -- $prog; or set prog kubectl-gpu
    set -l out ($prog __complete -- $args (commandline -ct) 2>/dev/null); or return 1
    set -l directive 0
    if test (count $out) -gt 0; and string match -qr '^:[0-9]+$' -- $out[-1]
        set directive (string sub -s 2 -- $out[-1])
        set -e out[-1]
    end
    test (math "$directive % 2") -eq 1; and return 0
    set -g __kubectl_gpu_results (string match -v -- '' $out)
    # nothing to offer and files allowed: let fish complete file names
    if test (count $__kubectl_gpu_results) -eq 0; and test (math "floor($directive / 4) % 2") -eq 0
        return 1
    end
    return 0
end

complete -c kubectl-gpu -e
complete -c kubectl-gpu -n __kubectl_gpu_prepare -f -a '$__kubectl_gpu_results'
