#!/usr/bin/env bash
# Installation and everyday use: `make install` (PREFIX, and DESTDIR staging) gives a
# `kubectl gpu` that kubectl's plugin lookup finds, a man page that man renders, and
# completion that works in bash (the function with COMP_WORDS, and readline in a pty), zsh
# (ZLE in a pty), fish (its own engine via `complete -C`) and kubectl (`kubectl __complete gpu
# ...` through kubectl_complete-gpu); `make uninstall` removes it all.  (The release archives
# and the krew manifest are tested by tests/dist/test_dist.sh, run by `make test-dist`.)
#
# The installed binary is the tree's ./kubectl-gpu (what `make install` installs; it is built
# first when missing, never rebuilt here).  Shell tests run the shell in a pty
# (tests/tools/ptyshell.py).
. "$(dirname "$0")/../lib/common.sh"

MAKE=(make --no-print-directory -s -C "$KGPU_ROOT")
if [ ! -x "$KGPU_ROOT/kubectl-gpu" ]; then
  if ! "${MAKE[@]}" kubectl-gpu >"$T/build.log" 2>&1; then fail "make kubectl-gpu: $(tail -5 "$T/build.log")"; exit 1; fi
fi
MAKE+=(-o kubectl-gpu)      # install what is built; do not rebuild from a tree others are editing
KUBECTL=$(command -v kubectl || echo /usr/bin/kubectl)
SYSPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PTY=(python3 "$KGPU_ROOT/tests/tools/ptyshell.py")

# --- make install PREFIX=... -------------------------------------------------------------------
P="$T/prefix"
if "${MAKE[@]}" install PREFIX="$P" >"$T/install.log" 2>&1; then ok "make install PREFIX=\$T/prefix"
else fail "make install PREFIX: $(tail -5 "$T/install.log")"; exit 1; fi
for f in bin/kubectl-gpu:755 bin/kubectl_complete-gpu:755 share/man/man1/kubectl-gpu.1:644 \
         share/bash-completion/completions/kubectl-gpu:644 share/zsh/site-functions/_kubectl-gpu:644 \
         share/fish/vendor_completions.d/kubectl-gpu.fish:644; do
  path=${f%%:*} mode=${f#*:}
  if [ -f "$P/$path" ] && [ "$(stat -c %a "$P/$path")" = "$mode" ]; then ok "installed $path ($mode)"
  else fail "$path: missing or mode $(stat -c %a "$P/$path" 2>/dev/null) (want $mode)"; fi
done
BIN="$P/bin"
VERSION=$(sed -n 's/^VERSION *:= *//p' "$KGPU_ROOT/Makefile")

# --- kubectl's plugin lookup ---------------------------------------------------------------------
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" gpu version 2>&1); RC=$?
check_rc 0 "kubectl gpu version through kubectl's plugin lookup"
check_eq "$(head -1 <<<"$OUT")" "kubectl-gpu version $VERSION" "kubectl gpu version prints the Makefile's version"
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" gpu version -o json 2>&1); RC=$?
check_eq "$(json_get "$OUT" 'd["version"]')" "$VERSION" "kubectl gpu version -o json (flags reach the plugin)"
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" gpu bogus 2>&1); RC=$?
check_rc 2 "kubectl gpu bogus: the plugin's usage exit status passes through"
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" plugin list 2>&1); RC=$?
check_not_contains "$OUT" "warning: $BIN/" "kubectl plugin list: no warning about the installed files"
check_contains "$OUT" "$BIN/kubectl-gpu" "kubectl plugin list shows the installed plugin"
check_not_contains "$OUT" "kubectl_complete-gpu" "the completion helper is not taken for a plugin"

# --- man -----------------------------------------------------------------------------------------
MANF="$P/share/man/man1/kubectl-gpu.1"
LINT=$(mandoc -T lint "$MANF" 2>&1)
check_eq "$LINT" "" "mandoc -T lint on the installed page"
if command -v man >/dev/null; then
  OUT=$(MANPAGER=cat MANWIDTH=80 man -l "$MANF" 2>&1 | col -b); 
  check_match "$OUT" '^KUBECTL-GPU\(1\)' "man -l renders the installed page"
  check_contains "$OUT" "kubectl gpu status" "man -l: synopsis"
  OUT=$(MANPATH="$P/share/man" MANPAGER=cat man kubectl-gpu 2>&1 | col -b)
  check_contains "$OUT" "GLOBAL FLAGS" "man kubectl-gpu finds the page under PREFIX/share/man"
else
  OUT=$(mandoc -T utf8 "$MANF" | col -b)
  check_match "$OUT" '^KUBECTL-GPU\(1\)' "mandoc renders the installed page"
fi

# what the installed binary says, for the expectations below
STATUS_O=$(COLUMNS=1000 PATH="$BIN:$SYSPATH" kubectl-gpu status --help | sed -n 's/^ *-o, --output FORMAT .*(\(.*\))$/\1/p' | tr '|' ' ')
if [ -n "$STATUS_O" ]; then ok "status -o formats: $STATUS_O"; else fail "no -o formats in 'kubectl-gpu status --help'"; fi
SORTED_O=$(tr ' ' '\n' <<<"$STATUS_O" | grep . | LC_ALL=C sort | tr '\n' ' ')

# --- bash ----------------------------------------------------------------------------------------
BASHC="$P/share/bash-completion/completions/kubectl-gpu"
# bashcomp LINE WORDS... : COMP_WORDS as bash would split LINE (LINE "-": no COMP_LINE, as
# when a script calls the function); COMPREPLY sorted, on one line
bashcomp() {
  local line=$1; shift
  PATH="$BIN:$SYSPATH" bash --norc --noprofile -c '
    source "$1"; shift
    if [ "$1" != - ]; then COMP_LINE=$1; COMP_POINT=${#1}; fi; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
    _kubectl_gpu kubectl-gpu "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort | tr "\n" " "' _ "$BASHC" "$line" "$@"
}
OUT=$(PATH="$BIN:$SYSPATH" bash --norc --noprofile -c 'source "$1"; complete -p kubectl-gpu' _ "$BASHC")
check_eq "$OUT" "complete -F _kubectl_gpu kubectl-gpu" "bash: sourcing registers the function"
check_eq "$(bashcomp 'kubectl-gpu st' kubectl-gpu st)" "status " "bash: kubectl-gpu st<TAB> -> status"
check_eq "$(bashcomp 'kubectl-gpu status -o ' kubectl-gpu status -o '')" "$SORTED_O" "bash: kubectl-gpu status -o <TAB>"
check_eq "$(bashcomp 'kubectl-gpu status --output=y' kubectl-gpu status --output = y)" "yaml " \
  "bash: --output=y<TAB> (split at '=') -> yaml (j: json, jsonpath=, ...)"
check_eq "$(bashcomp 'kubectl-gpu completion ' kubectl-gpu completion '')" "bash fish zsh " "bash: completion <TAB>"
check_eq "$(bashcomp - kubectl-gpu st)" "status " "bash without COMP_LINE: st<TAB> -> status"
check_eq "$(bashcomp - kubectl-gpu status --output = y)" "yaml " "bash without COMP_LINE: --output = y -> yaml"
check_eq "$(bashcomp - kubectl-gpu status --output =)" "$SORTED_O" "bash without COMP_LINE: --output = -> the formats"
cat >"$T/kc.yaml" <<'EOF'
apiVersion: v1
kind: Config
contexts:
- name: "arn:aws:eks:eu-west-1:123456789012:cluster/prod"
  context: {cluster: c, user: u}
- name: staging
  context: {cluster: c, user: u}
EOF
check_eq "$(KUBECONFIG="$T/kc.yaml" bashcomp 'kubectl-gpu --context arn:aws:eks:eu' kubectl-gpu --context arn : aws : eks : eu)" \
  "eu-west-1:123456789012:cluster/prod " "bash: a context name with ':' completes after the last ':' (readline's word)"
OUT=$(printf 'kubectl-gpu --context arn\\t' | KUBECONFIG="$T/kc.yaml" PATH="$BIN:$SYSPATH" "${PTY[@]}" --setup 'PS1="$ "' \
      --setup "source '$BASHC'" -- bash --norc --noprofile -i 2>&1)
check_contains "$OUT" "kubectl-gpu --context arn:aws:eks:eu-west-1:123456789012:cluster/prod " \
  "bash (readline in a pty): the whole context name with ':' is completed"
OUT=$(printf 'kubectl-gpu st\\t-o \\t\\t' | PATH="$BIN:$SYSPATH" "${PTY[@]}" --setup 'PS1="$ "' \
      --setup "source '$BASHC'" -- bash --norc --noprofile -i 2>&1)
check_contains "$OUT" "kubectl-gpu status " "bash (readline in a pty): st<TAB> -> status"
for f in $STATUS_O; do check_contains "$OUT" "$f" "bash (readline): -o <TAB><TAB> lists $f"; done

# kubectl's own bash completion (it needs the bash-completion package), which calls
# kubectl_complete-gpu for `kubectl gpu ...`
if [ -f /usr/share/bash-completion/bash_completion ]; then
OUT=$(printf 'kubectl gpu st\\t-o \\t\\t' | PATH="$BIN:$SYSPATH" "${PTY[@]}" --wait 1.5 --setup 'PS1="$ "' \
      --setup 'source /usr/share/bash-completion/bash_completion; source <(kubectl completion bash)' -- bash --norc --noprofile -i 2>&1)
check_contains "$OUT" "kubectl gpu status " "bash + kubectl completion (pty): kubectl gpu st<TAB> -> status"
for f in $STATUS_O; do check_contains "$OUT" "$f" "bash + kubectl completion: kubectl gpu status -o <TAB><TAB> lists $f"; done
else
  echo "# SKIP kubectl's bash completion: the bash-completion package is not installed"
fi

# --- kubectl __complete --------------------------------------------------------------------------
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" __complete gpu st 2>/dev/null)
check_eq "$(cut -f1 <<<"$OUT")" "$(printf 'status\n:4')" "kubectl __complete gpu st -> status, :4"
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" __complete gpu status -o "" 2>/dev/null)
check_eq "$(sed '$d' <<<"$OUT" | LC_ALL=C sort | tr '\n' ' ')" "$SORTED_O" "kubectl __complete gpu status -o '' -> the formats"
OUT=$(PATH="$BIN:$SYSPATH" timeout 60 "$KUBECTL" __complete g 2>/dev/null)
check_contains "$OUT" "gpu" "kubectl __complete g offers the plugin"

# --- zsh -----------------------------------------------------------------------------------------
if command -v zsh >/dev/null; then
  ZSETUP="PS1='$ '; fpath=('$P/share/zsh/site-functions' \$fpath); autoload -U compinit; compinit -u -D"
  OUT=$(printf 'kubectl-gpu st\\t-o \\t' | PATH="$BIN:$SYSPATH" "${PTY[@]}" --setup "$ZSETUP" -- zsh -f -i 2>&1)
  check_contains "$OUT" "kubectl-gpu status " "zsh (ZLE in a pty, from site-functions): st<TAB> -> status"
  for f in $STATUS_O; do check_contains "$OUT" "$f" "zsh: -o <TAB> lists $f"; done
  OUT=$(printf 'kubectl-gpu \\t' | PATH="$BIN:$SYSPATH" "${PTY[@]}" --setup "$ZSETUP" -- zsh -f -i 2>&1)
  check_match "$OUT" 'pending +-- List Pending' "zsh: commands listed with their descriptions"
  OUT=$(printf 'kubectl-gpu completion z\\t' | PATH="$BIN:$SYSPATH" "${PTY[@]}" --setup "PS1='$ '; autoload -U compinit; compinit -u -D; source <(kubectl-gpu completion zsh)" -- zsh -f -i 2>&1)
  check_contains "$OUT" "kubectl-gpu completion zsh" "zsh: source <(kubectl-gpu completion zsh) works too"
else
  echo "# SKIP zsh not installed (scripts/install-deps.sh test installs it)"
fi

# --- fish ----------------------------------------------------------------------------------------
if command -v fish >/dev/null; then
  fishcomp() {   # fishcomp CMDLINE : fish's own completion engine, installed vendor file autoloaded
    PATH="$BIN:$SYSPATH" HOME="$T/fishhome" XDG_CONFIG_HOME="$T/fishhome/.config" XDG_DATA_HOME="$T/fishhome/.local/share" \
      fish -N -c 'set -p fish_complete_path $argv[1]; complete -C $argv[2]' "$P/share/fish/vendor_completions.d" "$1" 2>&1
  }
  mkdir -p "$T/fishhome"
  check_eq "$(fishcomp 'kubectl-gpu st' | cut -f1)" "status" "fish (vendor_completions.d): kubectl-gpu st -> status"
  check_eq "$(fishcomp 'kubectl-gpu status -o ' | LC_ALL=C sort | tr '\n' ' ')" "$SORTED_O" "fish: kubectl-gpu status -o <TAB>"
  check_eq "$(fishcomp 'kubectl-gpu status --output=y')" "--output=yaml" "fish: --output=y -> --output=yaml"
  check_match "$(fishcomp 'kubectl-gpu pend')" $'^pending\tList' "fish: descriptions shown"
  touch "$T/snap-one.json"
  check_eq "$(fishcomp "kubectl-gpu --snapshot $T/snap-o")" "$T/snap-one.json" "fish: --snapshot <TAB> falls back to file names"
else
  echo "# SKIP fish not installed (scripts/install-deps.sh test installs it)"
fi

# --- uninstall -----------------------------------------------------------------------------------
if "${MAKE[@]}" uninstall PREFIX="$P" >"$T/uninstall.log" 2>&1; then ok "make uninstall"; else fail "make uninstall: $(cat "$T/uninstall.log")"; fi
left=$(find "$P" -type f | sed "s|^$P/||")
check_eq "$left" "" "make uninstall removes every installed file"

# --- DESTDIR staging -----------------------------------------------------------------------------
S="$T/stage"
if "${MAKE[@]}" install DESTDIR="$S" PREFIX=/usr >"$T/destdir.log" 2>&1; then ok "make install DESTDIR=\$T/stage PREFIX=/usr"
else fail "make install DESTDIR: $(tail -5 "$T/destdir.log")"; fi
check_eq "$(cd "$S" && find . -type f | LC_ALL=C sort | tr '\n' ' ')" \
  "./usr/bin/kubectl-gpu ./usr/bin/kubectl_complete-gpu ./usr/share/bash-completion/completions/kubectl-gpu ./usr/share/fish/vendor_completions.d/kubectl-gpu.fish ./usr/share/man/man1/kubectl-gpu.1 ./usr/share/zsh/site-functions/_kubectl-gpu " \
  "DESTDIR: the files land under the staging directory"
OUT=$(PATH="$S/usr/bin:$SYSPATH" timeout 60 "$KUBECTL" gpu version 2>&1); RC=$?
check_rc 0 "the staged plugin runs as kubectl gpu"
OUT=$(PATH="$S/usr/bin:$SYSPATH" "$S/usr/bin/kubectl_complete-gpu" completion "" 2>&1)
check_eq "$OUT" "$(printf 'bash\nzsh\nfish\n:4')" "the staged kubectl_complete-gpu answers"
"${MAKE[@]}" uninstall DESTDIR="$S" PREFIX=/usr >/dev/null 2>&1
check_eq "$(find "$S" -type f | wc -l)" "0" "make uninstall DESTDIR"
