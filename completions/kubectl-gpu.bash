# bash completion for kubectl-gpu                                    -*- shell-script -*-
#
# Written by `kubectl gpu completion bash`.  Load it into the current shell with
#     source <(kubectl gpu completion bash)
# or install it as /usr/share/bash-completion/completions/kubectl-gpu.  It completes the
# command `kubectl-gpu`; `kubectl gpu <TAB>` goes through kubectl's own completion, which runs
# kubectl_complete-gpu (kubectl 1.26 and later).  Both ask `kubectl-gpu __complete -- WORDS`,
# which prints one candidate per line (a TAB may start a description), then ":<directive>".

_kubectl_gpu() {
    local prog=${COMP_WORDS[0]} out line tok cur rlword pre directive=0 glue=0 i
    local -a words=() cands=()
    # bash splits "--output=json" at COMP_WORDBREAKS into three words: glue them back
    for ((i = 1; i <= COMP_CWORD; i++)); do
        tok=${COMP_WORDS[i]}
        if ((${#words[@]} > 0)) && { ((glue)) || [[ $tok =~ ^[=:]+$ ]]; }; then
            words[${#words[@]}-1]+=$tok
            if [[ $tok =~ ^[=:]+$ ]]; then glue=1; else glue=0; fi
        else
            words+=("$tok")
            glue=0
        fi
    done
    ((${#words[@]} > 0)) || words=("")
    cur=${words[${#words[@]}-1]}

    [[ $prog == "~/"* ]] && prog=$HOME/${prog#"~/"}
    type -P -- "$prog" >/dev/null 2>&1 || prog=kubectl-gpu
    out=$("$prog" __complete -- "${words[@]}" 2>/dev/null) || return 0
    while IFS= read -r line; do
        [[ -n $line ]] && cands+=("$line")
    done <<<"$out"
    if ((${#cands[@]} > 0)) && [[ ${cands[${#cands[@]}-1]} =~ ^:([0-9]+)$ ]]; then
        directive=${BASH_REMATCH[1]}
        unset 'cands[${#cands[@]}-1]'
    fi
    ((directive & 1)) && return 0

    # readline replaces only the text after the last COMP_WORDBREAKS character
    if [[ -n ${COMP_LINE-} ]]; then
        rlword=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
        rlword=${rlword##*[[:space:]${COMP_WORDBREAKS-}]}
    else
        rlword=${COMP_WORDS[COMP_CWORD]}
        [[ $rlword =~ ^[=:]+$ ]] && rlword=
    fi
    pre=
    [[ $cur == *"$rlword" ]] && pre=${cur%"$rlword"}

    COMPREPLY=()
    for line in "${cands[@]}"; do
        line=${line%%$'\t'*}
        [[ -n $line && $line == "$cur"* ]] && COMPREPLY+=("${line#"$pre"}")
    done
    if ((${#COMPREPLY[@]} == 0)); then
        ((directive & 4)) || compopt -o default 2>/dev/null
        return 0
    fi
    ((directive & 2)) && compopt -o nospace 2>/dev/null
    return 0
}

complete -F _kubectl_gpu kubectl-gpu
