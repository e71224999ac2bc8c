#!/usr/bin/env bash
# `kubectl gpu top -n NS -l SEL` / `-A -l SEL`: the pods scoped as kubectl's flags scope them.
#  - the lists and the watches of pods (and events, quotas with -n) use the namespace's path and
#    a labelSelector: the server is never asked for the other pods (its request log);
#  - the header says what was read ("pods: NS, SEL");
#  - what top counts is what a cluster holding only those pods gives: the header's GPU
#    allocation and pending count equal `status -o json` of the fixture with the other pods
#    removed (computed here in Python from the fixture);
#  - a pending GPU pod created in scope shows, one out of scope does not;
#  - --snapshot applies the same scope.
. "$(dirname "$0")/../lib/common.sh"
. "$KGPU_ROOT/tests/lib/fakeapi.sh"

FIX="$KGPU_ROOT/examples/clusters/mixed-fleet.json"
if ! command -v tmux >/dev/null; then fail "tmux is not installed (scripts/install-deps.sh test)"; exit 1; fi
SOCK="$T/tmux.sock"
TM() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server"
TM new-session -d -s keep -x 80 -y 24 "sleep 600"
SCREEN=""
start_shell() {
  local name=$1; shift
  TM new-session -d -s "$name" -x 160 -y 40 \
    env -i PATH="$PATH" HOME="$T" TERM=tmux-256color LANG=C.UTF-8 PS1='$ ' "$@" bash --norc --noprofile
  TM set -t "$name" status off >/dev/null
}
keys() { local name=$1; shift; TM send-keys -t "$name" "$@"; }
# wait_re NAME REGEX [SECONDS]: until the pane matches (condition-based, bounded)
wait_re() {
  local name=$1 re=$2 secs=${3:-10} i
  for i in $(seq 1 $((secs * 10))); do
    SCREEN=$(TM capture-pane -p -t "$name")
    grep -qE -- "$re" <<<"$SCREEN" && return 0
    sleep 0.1
  done
  return 1
}
check_ok() { if "$@"; then ok "$MSG"; else fail "$MSG: screen was:"$'\n'"$SCREEN"; fi; }

# scoped FILE NS SEL_KEY SEL_VALUE : the fixture with only the pods (and events, quotas with a
# namespace) a scoped top reads; events of pods out of scope go too
scoped() {
  python3 - "$FIX" "$@" <<'PY'
import json, sys
fix, out, ns, key, value = sys.argv[1:6]
d = json.load(open(fix))
def keep(i):
    md = i.get('metadata') or {}
    if i['kind'] == 'Pod':
        return (not ns or md.get('namespace') == ns) and (md.get('labels') or {}).get(key) == value
    if i['kind'] in ('Event', 'ResourceQuota') and ns:
        return md.get('namespace') == ns
    return True
d['items'] = [i for i in d['items'] if keep(i)]
json.dump(d, open(out, 'w'))
PY
}
# the header's numbers expected from status -o json of a file: "gpu A/B" and the pending count
expect_of() {
  kgpu status --snapshot "$1" --no-metrics -o json
  EXP_GPU=$(json_get "$OUT" "d['summary']['resources']['nvidia.com/gpu']['allocated']")
  EXP_PENDING=$(json_get "$OUT" "d['summary']['pendingGPUPods']")
}

NEW_IN='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "whisper-asr-9952d387b-newpd", "namespace": "ml-inference",
  "labels": {"app": "whisper-asr", "pod-template-hash": "9952d387b"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000101",
  "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"schedulerName": "default-scheduler", "containers": [{"name": "asr", "image": "nvcr.io/nvidia/riva/riva-speech:2.15.0",
  "resources": {"limits": {"nvidia.com/gpu": "1"}, "requests": {"cpu": "2", "memory": "6Gi", "nvidia.com/gpu": "1"}}}]},
  "status": {"phase": "Pending"}}'
NEW_OUT='{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "rl-sim-2", "namespace": "research",
  "labels": {"app": "rl-sim"}, "uid": "7d0c1a2b-0000-4c5d-8e9f-000000000102", "creationTimestamp": "2026-11-24T03:00:00Z"},
  "spec": {"schedulerName": "default-scheduler", "containers": [{"name": "sim", "image": "nvcr.io/nvidia/pytorch:24.05-py3",
  "resources": {"limits": {"nvidia.com/gpu": "2"}}}]}, "status": {"phase": "Pending"}}'
cat >"$T/scenario.json" <<EOF
{"steps": [{"after": 2, "op": "add", "object": $NEW_OUT}, {"after": 0.5, "op": "add", "object": $NEW_IN}]}
EOF

# ---- -n ml-inference -l app=whisper-asr ---------------------------------------------------------
scoped "$T/scoped.json" ml-inference app whisper-asr
expect_of "$T/scoped.json"
GPU0=$EXP_GPU PEND0=$EXP_PENDING
check_match "$GPU0" '^[0-9]+$' "the scoped fixture's allocation is computed ($GPU0 GPUs)"
fakeapi_start "$FIX" --scenario "$T/scenario.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
start_shell live KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live "$KGPU_BIN top --no-metrics -n ml-inference -l app=whisper-asr; echo TOP-EXIT=\$?" Enter
MSG="-n -l: starts"; check_ok wait_re live "live \(watch\)" 20
check_contains "$SCREEN" "pods: ml-inference, app=whisper-asr" "the header says which pods were read"
MSG="GPU allocation as for a cluster of those pods only ($GPU0)"; check_ok wait_re live " gpu $GPU0/" 10
check_match "$SCREEN" "Pending $PEND0 " "pending count as for a cluster of those pods only ($PEND0)"
MSG="-n -l: the pending pod created in scope shows"; check_ok wait_re live "Pending $((PEND0 + 1)) " 15
check_contains "$SCREEN" "whisper-asr-9952d387b-newpd" "its row is in the pending list"
check_not_contains "$SCREEN" "rl-sim-2" "the pod created out of scope is not"
keys live q
MSG="-n -l: q quits"; check_ok wait_re live "TOP-EXIT=0" 10
check_eq "$(fakeapi_count '^/api/v1/pods$' '')" 0 "the server was never asked for every namespace's pods"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/pods$' '^(?!.*watch=1).*labelSelector=app%3Dwhisper-asr')" '^1$' \
  "pods listed once, in the namespace, with the label selector"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/pods$' 'labelSelector=app%3Dwhisper-asr.*watch=1|watch=1.*labelSelector=app%3Dwhisper-asr')" '^[1-9]' \
  "pods watched in the namespace, with the label selector"
check_match "$(fakeapi_count '^/api/v1/namespaces/ml-inference/events$' 'watch=1')" '^[1-9]' "events watched in the namespace"
check_eq "$(fakeapi_count '^/api/v1/(events|resourcequotas)$' '')" 0 "events and quotas never asked for every namespace"
TM kill-session -t live

# ---- -A -l app=rl-sim -----------------------------------------------------------------------------
scoped "$T/scoped2.json" "" app rl-sim
expect_of "$T/scoped2.json"
GPU2=$EXP_GPU PEND2=$EXP_PENDING
fakeapi_start "$FIX" --scenario "$T/scenario.json" --bookmark-interval 1 || { fail "fake API server did not start"; exit 1; }
start_shell live2 KUBECONFIG="$KUBECONFIG" KUBECACHEDIR="$KUBECACHEDIR"
keys live2 "$KGPU_BIN top --no-metrics -A -l app=rl-sim; echo TOP-EXIT=\$?" Enter
MSG="-A -l: starts"; check_ok wait_re live2 "live \(watch\)" 20
check_contains "$SCREEN" "pods: all namespaces, app=rl-sim" "-A -l: the header says which pods"
MSG="-A -l: allocation of those pods only ($GPU2)"; check_ok wait_re live2 " gpu $GPU2/" 10
MSG="-A -l: the new rl-sim pod (another namespace than -n would be) shows"; check_ok wait_re live2 "Pending $((PEND2 + 1)) " 15
check_contains "$SCREEN" "rl-sim-2" "-A -l: its row"
check_not_contains "$SCREEN" "whisper-asr-9952d387b-newpd" "-A -l: the whisper pod does not match"
keys live2 q
MSG="-A -l: q quits"; check_ok wait_re live2 "TOP-EXIT=0" 10
check_match "$(fakeapi_count '^/api/v1/pods$' 'watch=1.*labelSelector=app%3Drl-sim|labelSelector=app%3Drl-sim.*watch=1')" '^[1-9]' \
  "-A -l: every namespace's pods watched with the label selector"
check_eq "$(fakeapi_count '^/api/v1/pods$' '^(?!.*labelSelector=app%3Drl-sim)')" 0 "-A -l: never without it"

# ---- --snapshot: the same scope -------------------------------------------------------------------
start_shell snap
keys snap "$KGPU_BIN top --snapshot $FIX -n ml-inference -l app=whisper-asr; echo TOP-EXIT=\$?" Enter
MSG="--snapshot -n -l: starts"; check_ok wait_re snap "pods: ml-inference, app=whisper-asr" 15
MSG="--snapshot -n -l: the same allocation as live ($GPU0)"; check_ok wait_re snap " gpu $GPU0/" 10
keys snap q
MSG="--snapshot: q quits"; check_ok wait_re snap "TOP-EXIT=0" 10
