#!/usr/bin/env bash
# Shell completion: `kubectl-gpu __complete -- WORDS...` against what --help says (commands,
# flags, -o formats: one source of truth), names from kubeconfig files, the fake API server
# and a snapshot, silence and a time bound when the cluster misbehaves; `kubectl gpu completion
# SHELL` prints exactly the files in completions/; completions/kubectl_complete-gpu speaks
# kubectl's plugin completion protocol.  (The shells themselves: test_install.sh.)
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/fakeapi.sh"

FIX="$KGPU_ROOT/tests/fixtures/api/small.json"

# comp WORDS... : candidates (description stripped) in $CANDS, sorted; directive in $DIR
comp() {
  kgpu __complete -- "$@"
  DIR=$(tail -n 1 <<<"$OUT")
  CANDS=$(sed '$d' <<<"$OUT" | cut -f1 | LC_ALL=C sort)
  if [ "$RC" != 0 ] || ! [[ $DIR =~ ^:[0-9]+$ ]]; then
    fail "__complete $*: exit $RC, last line [$DIR], stderr [$ERR]"
    return 1
  fi
  if [ -n "$ERR" ]; then fail "__complete $*: wrote to stderr: $ERR"; return 1; fi
  return 0
}
# words LIST... : sorted lines
words() { printf '%s\n' "$@" | LC_ALL=C sort; }
check_comp() {   # check_comp "WANT (space separated)" DIRECTIVE MESSAGE -- WORDS...
  local want=$1 dir=$2 msg=$3; shift 4
  comp "$@" || return
  # shellcheck disable=SC2086
  check_eq "$CANDS" "$(if [ -n "$want" ]; then words $want; fi)" "$msg: candidates"
  check_eq "$DIR" ":$dir" "$msg: directive"
}

HELP="$T/help.json"
if ! python3 "$KGPU_ROOT/tests/tools/helpflags.py" "$KGPU_BIN" >"$HELP"; then
  fail "could not read --help"
  exit 1
fi
hq() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])' "$HELP" "$1"; }
COMMANDS=$(hq 'print(" ".join(sorted(d["commands"])))')
ok "commands in --help: $COMMANDS"

# --- commands ------------------------------------------------------------------------------
check_comp "$COMMANDS" 4 "all commands" -- ""
kgpu __complete -- ""
check_not_contains "$OUT" "__complete" "the hidden command is not offered"
check_match "$OUT" $'^status\t[A-Z]' "commands carry their summary as a description"
check_comp "status" 4 "st<TAB>" -- st
check_comp "$(tr ' ' '\n' <<<"$COMMANDS" | grep '^s' | tr '\n' ' ')" 4 "s<TAB>" -- s
check_comp "$COMMANDS" 4 "help <TAB>" -- help ""
check_comp "" 4 "unknown command: nothing" -- bogus ""
check_comp "status" 4 "global flags before the command" -- --context x -n team-a st

# --- flags: exactly what --help lists, for every command ------------------------------------
for c in $COMMANDS; do
  want=$(hq "c='$c'; print(' '.join('--' + f for f in list(d['cmd'][c]) + list(d['global'])))")
  check_comp "$want" 4 "$c --<TAB> offers the flags of '$c --help'" -- "$c" --
  wants=$(hq "
c='$c'; fl = dict(d['global']); fl.update(d['cmd'][c])
print(' '.join(['--' + f for f in fl] + ['-' + v['short'] for v in fl.values() if v['short']]))")
  check_comp "$wants" 4 "$c -<TAB> adds the short flags" -- "$c" -
done
comp status --no-color --no-
check_not_contains "$CANDS" "--no-color" "a flag already given is not offered again"
check_contains "$CANDS" "--no-metrics" "the other --no- flag is"
comp status -v -v --verb
check_eq "$CANDS" "--verbose" "a repeatable flag is offered again"
check_comp "--context --contexts" 4 "--conte<TAB>" -- --conte

# --- values of flags with choices: -o formats from --help -----------------------------------
n=0
for c in $COMMANDS; do
  choices=$(hq "o=d['cmd']['$c'].get('output'); print(' '.join(o['choices']) if o and o['choices'] else '')")
  [ -n "$choices" ] || continue
  n=$((n + 1))
  check_comp "$choices" 4 "$c -o <TAB>" -- "$c" -o ""
  check_comp "$choices" 4 "$c --output <TAB>" -- "$c" --output ""
  eqs=$(for x in $choices; do printf -- '--output=%s ' "$x"; done)
  check_comp "$eqs" 4 "$c --output=<TAB>" -- "$c" --output=
  first=$(cut -d' ' -f1 <<<"$choices")
  check_comp "-o$first" 4 "$c -o${first:0:1}<TAB> (attached value)" -- "$c" "-o${first:0:1}"
done
if [ "$n" -ge 2 ]; then ok "$n commands have -o formats"; else fail "only $n commands with -o choices in --help"; fi
status_o=$(hq "o=d['cmd']['status'].get('output'); print(' '.join(o['choices']) if o and o['choices'] else '')")
if [ -n "$status_o" ]; then
  check_comp "$status_o" 4 "status -o <TAB> (the issue's example)" -- status -o ""
fi

# --- positionals from the usage line ---------------------------------------------------------
check_comp "bash fish zsh" 4 "completion <TAB>" -- completion ""
check_comp "zsh" 4 "completion z<TAB>" -- completion z
check_comp "" 4 "completion takes one argument" -- completion bash ""
check_comp "" 4 "version takes no argument" -- version ""
check_comp "" 0 "--kubeconfig <TAB>: file names (directive 0, no candidates)" -- --kubeconfig ""
check_comp "" 0 "--snapshot=<TAB>: file names" -- status --snapshot=
check_comp "" 0 "fit -f <TAB>: file names" -- fit -f ""
comp fit -f a.yaml --file
check_eq "$CANDS" "--filename" "fit: a repeatable -f is offered again"
check_comp "" 4 "--prometheus <TAB>: nothing to offer, no file names" -- --prometheus ""
check_comp "status" 4 "after --, words are positionals" -- -- st

# --- contexts, clusters and users from the kubeconfig files ----------------------------------
cat >"$T/kc-a.yaml" <<'EOF'
apiVersion: v1
kind: Config
current-context: alpha
contexts:
- name: alpha
  context: {cluster: c1, user: u1}
- name: "arn:aws:eks:eu-west-1:123456789012:cluster/prod"
  context: {cluster: c2, user: u1}
clusters:
- name: c1
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: u1
  user: {token: not-printed}
EOF
cat >"$T/kc-b.yaml" <<'EOF'
apiVersion: v1
kind: Config
contexts:
- name: beta
  context: {cluster: c3, user: u2}
- name: alpha
  context: {cluster: c9, user: u9}
EOF
printf 'contexts: [unclosed\n' >"$T/kc-bad.yaml"
export KUBECONFIG="$T/kc-a.yaml:$T/missing.yaml:$T/kc-bad.yaml:$T/kc-b.yaml"
check_comp "alpha arn:aws:eks:eu-west-1:123456789012:cluster/prod beta" 4 \
  "--context <TAB>: every file of KUBECONFIG, merged, bad and missing files skipped" -- --context ""
check_comp "arn:aws:eks:eu-west-1:123456789012:cluster/prod" 4 "--context ar<TAB>" -- status --context ar
check_comp "--context=beta" 4 "--context=b<TAB>" -- --context=b
check_comp "alpha arn:aws:eks:eu-west-1:123456789012:cluster/prod" 4 "--kubeconfig FILE limits the contexts" \
  -- --kubeconfig "$T/kc-a.yaml" --context ""
check_comp "c1" 4 "--cluster <TAB>" -- --kubeconfig "$T/kc-a.yaml" --cluster ""
# --contexts a,b,c (fleets): the name after the last comma, among those not listed yet
check_comp "alpha arn:aws:eks:eu-west-1:123456789012:cluster/prod beta" 4 "--contexts <TAB>" -- status --contexts ""
check_comp "alpha,arn:aws:eks:eu-west-1:123456789012:cluster/prod alpha,beta" 4 \
  "--contexts alpha,<TAB>: the names not yet listed" -- status --contexts alpha,
check_comp "--contexts=beta,alpha" 4 "--contexts=beta,al<TAB>" -- pending --contexts=beta,al
check_comp "u1" 4 "--user <TAB>" -- --user ""
check_comp "" 4 "--context with a broken kubeconfig: nothing, silently" -- --kubeconfig "$T/kc-bad.yaml" --context ""
mkdir -p "$T/home/.kube" && cp "$T/kc-b.yaml" "$T/home/.kube/config"
( unset KUBECONFIG; HOME="$T/home" "$KGPU_BIN" __complete -- --context "" ) >"$T/home.out" 2>&1
check_eq "$(sed '$d' "$T/home.out" | sort | tr '\n' ' ')" "alpha beta " "--context without KUBECONFIG reads ~/.kube/config"
unset KUBECONFIG

# --- nodes, pods, namespaces from a snapshot -------------------------------------------------
check_comp "gpu-a100-0 gpu-h100-0 gpu-l4-0" 4 "status <TAB> with --snapshot: nodes" -- --snapshot "$FIX" status ""
check_comp "gpu-a100-0 gpu-l4-0" 4 "status NODE <TAB>: a node already named is not offered" \
  -- --snapshot "$FIX" status gpu-h100-0 ""
# explain <TAB> offers what explain explains: pending GPU pods (train-7f9c runs; default's
# debug-shell is Pending but asks no GPU, nightly-benchmark Succeeded); with -A as NS/NAME
check_comp "train-large-0" 4 "explain -n team-a <TAB> with --snapshot: pending GPU pods of the namespace" \
  -- explain --snapshot "$FIX" -n team-a ""
check_comp "team-a/train-large-0" 4 "explain -A <TAB> with --snapshot: NS/NAME, as explain takes it" \
  -- explain --snapshot "$FIX" -A ""
check_comp "" 4 "explain <TAB> with --snapshot: no pending GPU pod in default" -- explain --snapshot "$FIX" ""

# --- and from the API server -----------------------------------------------------------------
if ! fakeapi_start "$FIX"; then fail "fake API server did not start"; exit 1; fi
check_comp "gpu-a100-0 gpu-h100-0 gpu-l4-0" 4 "status <TAB>: nodes from the API" -- status ""
check_comp "gpu-h100-0" 4 "status -l SEL <TAB>: the selector applies" \
  -- status -l nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3 ""
check_comp "train-large-0" 4 "explain -n team-a <TAB>: pending GPU pods of the namespace" -- explain -n team-a ""
check_comp "train-large-0" 4 "explain --namespace=team-a t<TAB>" -- explain --namespace=team-a t
check_comp "" 4 "explain --namespace=team-b <TAB>: its GPU pods all run" -- explain --namespace=team-b ""
check_comp "" 4 "explain <TAB>: the context's namespace has no pending GPU pod (debug-shell asks no GPU)" -- explain ""
check_comp "team-a/train-large-0" 4 "explain -A <TAB>: NS/NAME from the API" -- explain -A ""
if grep '"path":"/api/v1/pods"' "$FAKEAPI_LOG" | grep -q 'fieldSelector=status.phase%3DPending'; then
  ok "pods for explain are asked for Pending only (fieldSelector)"
else
  fail "pod list without the Pending field selector: $(grep /api/v1/pods "$FAKEAPI_LOG" | head -2)"
fi
# --sort-by <TAB>: the fields each command documents (and sorts by name)
check_comp ".metadata.name .product .physicalGPUs .gpuMemoryPerGPUMiB .gpuMemoryMiB .allocated .allocatable .memoryUsedMiB .utilization .ready" 4 \
  "status --sort-by <TAB>: the documented fields" -- status --sort-by ""
check_comp ".metadata.namespace .metadata.name .metadata.creationTimestamp" 4 "pending --sort-by .meta<TAB>" \
  -- pending --sort-by .meta
check_comp "team-a team-b" 4 "-n team<TAB>: namespaces" -- pending -n team
check_comp "--namespace=team-a --namespace=team-b" 4 "--namespace=team<TAB>" -- --namespace=team
check_comp "fake" 4 "--context <TAB> with the fake server's kubeconfig" -- --context ""
if grep '"path":"/api/v1/nodes"' "$FAKEAPI_LOG" | grep -q 'limit='; then
  ok "the node list is one bounded page (limit=)"
else
  fail "node list without limit: $(grep /api/v1/nodes "$FAKEAPI_LOG" | head -2)"
fi
check_not_contains "$(cat "$FAKEAPI_LOG")" '"method":"POST"' "completion only reads"

# misbehaving cluster: silent, and bounded in time
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 500, "message": "etcd is sad"}]'
check_comp "" 4 "500 from the API: no candidates, no message" -- status ""
fakeapi_faults '[{"path": "^/api/v1/nodes$", "code": 403}]'
check_comp "" 4 "403: no candidates, no message" -- status ""
fakeapi_faults '[{"path": "^/api/v1/nodes$", "action": "stall", "seconds": 60}]'
start=$(date +%s)
check_comp "" 4 "a stalled API: no candidates, no message" -- status ""
took=$(( $(date +%s) - start ))
bound=8; [ -n "${KGPU_VALGRIND:-}" ] && bound=20
if [ "$took" -le "$bound" ]; then ok "a stalled API costs ${took}s (bound 3 s + margin)"; else fail "stalled API took ${took}s"; fi
fakeapi_faults '[]'
KUBECONFIG="$T/kubeconfig-wrongca" comp status ""
check_eq "$CANDS" "" "a server certificate that does not verify: no candidates"
KUBECONFIG="$T/kc-a.yaml" comp status ""      # server https://127.0.0.1:1: connection refused
check_eq "$CANDS" "" "an unreachable server: no candidates"
check_comp "" 4 "a missing snapshot file: nothing, silently" -- --snapshot "$T/nope.json" status ""

# --- the scripts are the files in completions/ ------------------------------------------------
for pair in bash:kubectl-gpu.bash zsh:_kubectl-gpu fish:kubectl-gpu.fish; do
  sh=${pair%%:*}; f=$KGPU_ROOT/completions/${pair#*:}
  kgpu completion "$sh"
  check_rc 0 "completion $sh"
  if [ -f "$f" ] && cmp -s <("$KGPU_BIN" completion "$sh") "$f"; then
    ok "completion $sh prints completions/${pair#*:} byte for byte"
  else
    fail "completion $sh differs from completions/${pair#*:} (edit the file, then run tests/tools/embed_completions.py)"
  fi
  check_contains "$OUT" "__complete --" "the $sh script asks kubectl-gpu __complete"
done
if bash -n "$KGPU_ROOT/completions/kubectl-gpu.bash"; then ok "bash script parses"; else fail "bash -n"; fi
if command -v zsh >/dev/null; then
  if zsh -n "$KGPU_ROOT/completions/_kubectl-gpu"; then ok "zsh script parses"; else fail "zsh -n"; fi
fi
if command -v fish >/dev/null; then
  if fish -n "$KGPU_ROOT/completions/kubectl-gpu.fish"; then ok "fish script parses"; else fail "fish -n"; fi
fi
kgpu completion tcsh
check_rc 2 "completion tcsh: usage error"
check_contains "$ERR" "tcsh" "the error names the shell"
kgpu completion
check_rc 2 "completion without a shell: usage error"

# --- kubectl_complete-gpu: kubectl's plugin completion protocol -------------------------------
KC="$KGPU_ROOT/completions/kubectl_complete-gpu"
if [ -x "$KC" ]; then ok "kubectl_complete-gpu is executable"; else fail "kubectl_complete-gpu not executable"; fi
mkdir -p "$T/bin"
ln -sf "$KGPU_BIN" "$T/bin/kubectl-gpu"
cp "$KC" "$T/bin/kubectl_complete-gpu"
OUT=$(PATH="$T/bin:/usr/bin:/bin" "$T/bin/kubectl_complete-gpu" st 2>&1)
check_eq "$(cut -f1 <<<"$OUT")" "$(printf 'status\n:4')" "kubectl_complete-gpu st -> status, :4"
OUT=$(PATH="/usr/bin:/bin" "$T/bin/kubectl_complete-gpu" version -o "" 2>&1)
check_eq "$OUT" "$(printf 'json\nyaml\n:4')" "kubectl_complete-gpu uses the kubectl-gpu next to it (not on PATH)"
